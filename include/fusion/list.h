/* SPDX-License-Identifier: MIT */
/** @file
 * Intrusive circular doubly-linked list, as every RTOS kernel has one.
 */
#ifndef FUSION_LIST_H
#define FUSION_LIST_H

#include <fusion/journal.h>

#include <stddef.h>
#include <stdbool.h>

/** A list head, or a link embedded in an item. */
struct nk_list {
	/** @{ */
	/** Neighbours; both the list itself when alone. */
	struct nk_list *next, *prev;
	/** @} */
};

/** The @p type whose @p member is at @p ptr. */
#define nk_container_of(ptr, type, member)                                     \
	((type *)((char *)(ptr)-offsetof(type, member)))

/** Make @p head an empty list (or an unlinked item). */
static inline void nk_list_init(struct nk_list *head)
{
	nk_journal_obj(head);
	head->next = head->prev = head;
}

/** Whether the list @p head has no item. */
static inline bool nk_list_empty(const struct nk_list *head)
{
	return head->next == head;
}

/** Link @p item between the adjacent @p prev and @p next. */
static inline void nk_list_insert_between(struct nk_list *item,
					  struct nk_list *prev,
					  struct nk_list *next)
{
	nk_journal_obj(item);
	nk_journal_obj(prev);
	nk_journal_obj(next);
	item->prev = prev;
	item->next = next;
	prev->next = item;
	next->prev = item;
}

/** Insert @p item right after @p pos (at the head when @p pos is the list). */
static inline void nk_list_add_after(struct nk_list *item, struct nk_list *pos)
{
	nk_list_insert_between(item, pos, pos->next);
}

/** Insert @p item right before @p pos (at the tail when @p pos is the list). */
static inline void nk_list_add_before(struct nk_list *item, struct nk_list *pos)
{
	nk_list_insert_between(item, pos->prev, pos);
}

/** Unlink @p item, which is then alone (deleting it again is harmless). */
static inline void nk_list_del(struct nk_list *item)
{
	nk_journal_obj(item);
	nk_journal_obj(item->prev);
	nk_journal_obj(item->next);
	item->prev->next = item->next;
	item->next->prev = item->prev;
	item->next = item->prev = item;
}

/** The item of @p type whose link @p member is @p ptr. */
#define nk_list_entry(ptr, type, member) nk_container_of(ptr, type, member)
/** The first item of the non-empty list @p head. */
#define nk_list_first_entry(head, type, member)                                \
	nk_list_entry((head)->next, type, member)

/** Visit each link of @p head in order; @p pos must stay linked. */
#define nk_list_for_each(pos, head)                                            \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/** As nk_list_for_each, @p pos may be unlinked (@p tmp keeps the next). */
#define nk_list_for_each_safe(pos, tmp, head)                                  \
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head);       \
	     (pos) = (tmp), (tmp) = (pos)->next)

#endif

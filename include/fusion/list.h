/* Intrusive circular doubly-linked list, as every RTOS kernel has one. */
#ifndef FUSION_LIST_H
#define FUSION_LIST_H

#include <stddef.h>
#include <stdbool.h>

struct nk_list {
	struct nk_list *next, *prev;
};

#define nk_container_of(ptr, type, member)                                     \
	((type *)((char *)(ptr)-offsetof(type, member)))

static inline void nk_list_init(struct nk_list *head)
{
	head->next = head->prev = head;
}

static inline bool nk_list_empty(const struct nk_list *head)
{
	return head->next == head;
}

static inline void nk_list_insert_between(struct nk_list *item,
					  struct nk_list *prev,
					  struct nk_list *next)
{
	item->prev = prev;
	item->next = next;
	prev->next = item;
	next->prev = item;
}

/* Insert @item right after @pos (at the head when @pos is the list). */
static inline void nk_list_add_after(struct nk_list *item, struct nk_list *pos)
{
	nk_list_insert_between(item, pos, pos->next);
}

/* Insert @item right before @pos (at the tail when @pos is the list). */
static inline void nk_list_add_before(struct nk_list *item, struct nk_list *pos)
{
	nk_list_insert_between(item, pos->prev, pos);
}

static inline void nk_list_del(struct nk_list *item)
{
	item->prev->next = item->next;
	item->next->prev = item->prev;
	item->next = item->prev = item;
}

#define nk_list_entry(ptr, type, member) nk_container_of(ptr, type, member)
#define nk_list_first_entry(head, type, member)                                \
	nk_list_entry((head)->next, type, member)

#define nk_list_for_each(pos, head)                                            \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define nk_list_for_each_safe(pos, tmp, head)                                  \
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head);       \
	     (pos) = (tmp), (tmp) = (pos)->next)

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Registry: fixed-capacity table of slots addressed by generation-checked
 * handles, with an optional name per entry.
 *
 * Everything lives in one block allocated by nk_registry_init():
 *
 *   slots[capacity]     the entries
 *   buckets[capacity]   name hash -> first slot index of a chain
 *   free_ring[capacity] indices of free slots, oldest first
 *   ns_names[NK_REGISTRY_MAX_NS] the names of interned namespaces
 *   ns_used[NK_REGISTRY_MAX_NS + 1] entries in each namespace
 *
 * Free slots are handed out in FIFO order (a ring of indices): a slot
 * freed now is reused only after every other free slot, which keeps its
 * stale handles refused for as long as possible.  The ring needs no
 * extra state: its head is reg->free_head and its length is
 * capacity - nr_used.
 *
 * A slot is in use iff its type is non-zero (enter refuses type 0).
 * Names are unique per namespace: a chain holds every namespace, and a
 * slot matches a (namespace, name) pair only.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define NK_REGISTRY_MAGIC 0x52656769u /* "Regi" */

/* Capacity is at most 2^20, so this index can never name a slot. */
#define NK_REGISTRY_NIL UINT32_MAX

#define NK_REGISTRY_MIN_BITS 1
#define NK_REGISTRY_MAX_BITS 20

struct nk_registry_slot {
	void *object;
	unsigned int type; /* 0: free */
	uint32_t gen;	   /* 1 .. 2^(32 - index_bits) - 1, never 0 */
	uint32_t hash;	   /* of name, to skip most strcmp() on a chain */
	uint32_t next;	   /* hash chain; meaningless for anonymous slots */
	uint32_t ns;
	char name[NK_NAME_MAX]; /* "" for anonymous entries */
};

static bool registry_valid(const struct nk_registry *reg)
{
	return reg && reg->magic == NK_REGISTRY_MAGIC;
}

/* The ring sits right after the buckets in the same allocation. */
static uint32_t *free_ring(struct nk_registry *reg)
{
	return reg->buckets + reg->nr_buckets;
}

static uint32_t index_mask(const struct nk_registry *reg)
{
	return reg->capacity - 1;
}

/* index_bits >= 1, so the shift is always < 32. */
static uint32_t gen_mask(const struct nk_registry *reg)
{
	return UINT32_MAX >> reg->index_bits;
}

static nk_handle_t make_handle(const struct nk_registry *reg, uint32_t index)
{
	return (reg->slots[index].gen << reg->index_bits) | index;
}

/*
 * The live slot @handle designates, or NULL.  Masking the index keeps
 * any 32-bit value in range; a generation of 0 (hence handle 0) never
 * matches since slots start at 1 and skip 0 on wrap.
 */
static struct nk_registry_slot *handle_slot(const struct nk_registry *reg,
					    nk_handle_t handle)
{
	struct nk_registry_slot *slot = &reg->slots[handle & index_mask(reg)];

	if (slot->type == 0 || slot->gen != handle >> reg->index_bits)
		return NULL;
	return slot;
}

/*
 * FNV-1a over the namespace then the name: simple, deterministic, good
 * enough spread for short names, and a name spreads differently in each
 * namespace.
 */
static uint32_t name_hash(uint32_t ns, const char *name)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < 4; i++, ns >>= 8) {
		h ^= ns & 0xff;
		h *= 16777619u;
	}
	while (*name) {
		h ^= (unsigned char)*name++;
		h *= 16777619u;
	}
	return h;
}

/*
 * The link (bucket head or a slot's next field) that holds the index of
 * the slot named @name in @ns, or the chain's terminating NIL link if
 * there is none.  Returning the link rather than the slot lets remove
 * unlink in place on a singly linked chain.
 */
static uint32_t *name_link(struct nk_registry *reg, uint32_t ns,
			   const char *name, uint32_t hash)
{
	uint32_t *link = &reg->buckets[hash & (reg->nr_buckets - 1)];

	while (*link != NK_REGISTRY_NIL) {
		struct nk_registry_slot *slot = &reg->slots[*link];

		if (slot->hash == hash && slot->ns == ns &&
		    strcmp(slot->name, name) == 0)
			break;
		link = &slot->next;
	}
	return link;
}

int nk_registry_init(struct nk_registry *reg, uint32_t capacity)
{
	return nk_registry_init_in(reg, capacity, NULL);
}

int nk_registry_init_in(struct nk_registry *reg, uint32_t capacity,
			struct nk_instance *nk)
{
	uint32_t bits, i, *ring;
	size_t slots_size, size;
	void *mem;

	if (!reg)
		return -EINVAL;
	/* A failed init leaves a registry every other call refuses. */
	reg->magic = 0;
	if (capacity < (1u << NK_REGISTRY_MIN_BITS) ||
	    capacity > (1u << NK_REGISTRY_MAX_BITS))
		return -EINVAL;

	for (bits = NK_REGISTRY_MIN_BITS; (1u << bits) < capacity; bits++)
		;
	capacity = 1u << bits;

	/*
	 * Slots first: their size is a multiple of their (pointer)
	 * alignment, so the uint32_t arrays after them are aligned too.
	 * No overflow: at most 2^20 * (sizeof(slot) + 8) bytes.
	 */
	slots_size = (size_t)capacity * sizeof(struct nk_registry_slot);
	size = slots_size + 2 * (size_t)capacity * sizeof(uint32_t) +
	       sizeof(*reg->ns_names) * NK_REGISTRY_MAX_NS +
	       sizeof(uint32_t) * (NK_REGISTRY_MAX_NS + 1);
	mem = nk ? nk_alloc(nk, size) : malloc(size);
	if (!mem)
		return -ENOMEM;
	reg->nk = nk;

	reg->slots = mem;
	reg->buckets = (uint32_t *)((char *)mem + slots_size);
	reg->capacity = capacity;
	reg->index_bits = bits;
	reg->nr_buckets = capacity; /* load factor <= 1 */
	reg->nr_used = 0;
	reg->changes = 0;
	reg->free_head = 0;
	reg->nr_ns = 0;

	ring = free_ring(reg);
	reg->ns_names = (void *)(ring + capacity);
	reg->ns_used = (uint32_t *)(reg->ns_names + NK_REGISTRY_MAX_NS);
	memset(reg->ns_used, 0, sizeof(uint32_t) * (NK_REGISTRY_MAX_NS + 1));
	for (i = 0; i < capacity; i++) {
		struct nk_registry_slot *slot = &reg->slots[i];

		slot->object = NULL;
		slot->type = 0;
		slot->gen = 1;
		slot->hash = 0;
		slot->next = NK_REGISTRY_NIL;
		slot->ns = 0;
		slot->name[0] = '\0';
		reg->buckets[i] = NK_REGISTRY_NIL;
		ring[i] = i;
	}

	reg->magic = NK_REGISTRY_MAGIC;
	return 0;
}

int nk_registry_check(struct nk_registry *reg)
{
	uint32_t used = 0, named = 0, chained = 0;
	uint32_t in_ns[NK_REGISTRY_MAX_NS + 1] = {0};

	if (!registry_valid(reg))
		return -EINVAL;
	for (uint32_t i = 0; i < reg->capacity; i++) {
		const struct nk_registry_slot *slot = &reg->slots[i];

		if (slot->type == 0)
			continue;
		if (slot->ns > reg->nr_ns)
			return -EUCLEAN;
		used++;
		named += slot->name[0] != '\0';
		in_ns[slot->ns]++;
	}
	for (uint32_t ns = 0; ns <= reg->nr_ns; ns++)
		if (in_ns[ns] != reg->ns_used[ns])
			return -EUCLEAN;
	/* Each named slot on its bucket's chain, once: chains are bounded
	 * by the named count, so a cycle is caught too. */
	for (uint32_t b = 0; b < reg->nr_buckets; b++) {
		for (uint32_t i = reg->buckets[b]; i != NK_REGISTRY_NIL;
		     i = reg->slots[i].next) {
			const struct nk_registry_slot *slot = &reg->slots[i];

			if (i >= reg->capacity || slot->type == 0 ||
			    !slot->name[0] ||
			    (slot->hash & (reg->nr_buckets - 1)) != b ||
			    ++chained > named)
				return -EUCLEAN;
		}
	}
	return used == reg->nr_used && chained == named ? 0 : -EUCLEAN;
}

int nk_registry_destroy(struct nk_registry *reg)
{
	if (!registry_valid(reg))
		return -EINVAL;
	/* Clear the magic first so the registry is refused from now on. */
	reg->magic = 0;
	if (reg->nk)
		nk_free(reg->nk, reg->slots);
	else
		free(reg->slots);
	reg->slots = NULL;
	reg->buckets = NULL;
	reg->ns_names = NULL;
	reg->ns_used = NULL;
	reg->nr_ns = 0;
	reg->capacity = 0;
	reg->nr_buckets = 0;
	reg->nr_used = 0;
	return 0;
}

/* Length of a name that fits a slot, or NK_NAME_MAX if it does not. */
static size_t name_len(const char *name)
{
	return name ? strnlen(name, NK_NAME_MAX) : 0;
}

int nk_registry_namespace(struct nk_registry *reg, const char *name,
			  uint32_t *ns)
{
	size_t len = name_len(name);

	if (!registry_valid(reg) || !ns || len == 0 || len == NK_NAME_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < reg->nr_ns; i++)
		if (strcmp(reg->ns_names[i], name) == 0) {
			*ns = i + 1;
			return 0;
		}
	if (reg->nr_ns == NK_REGISTRY_MAX_NS)
		return -ENOSPC;
	nk_journal_obj(reg);
	nk_journal_obj(&reg->ns_names[reg->nr_ns]);
	memcpy(reg->ns_names[reg->nr_ns++], name, len + 1);
	*ns = reg->nr_ns;
	return 0;
}

int nk_registry_enter(struct nk_registry *reg, uint32_t ns, const char *name,
		      unsigned int type, void *object, nk_handle_t *handle)
{
	struct nk_registry_slot *slot;
	uint32_t *link = NULL, hash = 0, index;
	size_t len;

	if (!registry_valid(reg) || !object || !handle || type == 0 ||
	    ns > reg->nr_ns)
		return -EINVAL;

	len = name_len(name);
	if (len == NK_NAME_MAX)
		return -EINVAL;
	/* An empty name is anonymous too: nothing could find it. */
	if (len) {
		hash = name_hash(ns, name);
		link = name_link(reg, ns, name, hash);
		if (*link != NK_REGISTRY_NIL)
			return -EEXIST;
	}

	if (reg->nr_used == reg->capacity)
		return -ENOSPC;

	index = free_ring(reg)[reg->free_head];
	nk_journal_obj(reg);
	reg->free_head = (reg->free_head + 1) & index_mask(reg);
	reg->nr_used++;
	reg->changes++;
	nk_journal_obj(&reg->ns_used[ns]);
	reg->ns_used[ns]++;

	slot = &reg->slots[index];
	nk_journal_obj(slot);
	slot->object = object;
	slot->type = type;
	slot->hash = hash;
	slot->next = NK_REGISTRY_NIL;
	slot->ns = ns;
	memcpy(slot->name, len ? name : "", len + 1);
	/* Append at the chain's tail: @link is its NIL terminator. */
	if (link) {
		nk_journal_obj(link);
		*link = index;
	}

	*handle = make_handle(reg, index);
	return 0;
}

/* Take @slot's name out of its hash chain: the slot becomes anonymous. */
static void slot_unlink(struct nk_registry *reg, struct nk_registry_slot *slot)
{
	if (slot->name[0]) {
		uint32_t *link =
		    name_link(reg, slot->ns, slot->name, slot->hash);

		/* Names are unique, so the link found is this slot's. */
		nk_journal_obj(link);
		*link = slot->next;
	}
	nk_journal_obj(reg);
	reg->changes++;
	nk_journal_obj(slot);
	slot->hash = 0;
	slot->next = NK_REGISTRY_NIL;
	slot->name[0] = '\0';
}

int nk_registry_remove(struct nk_registry *reg, nk_handle_t handle)
{
	struct nk_registry_slot *slot;
	uint32_t index, nr_free;

	if (!registry_valid(reg))
		return -EINVAL;
	slot = handle_slot(reg, handle);
	if (!slot)
		return -ESRCH;
	index = handle & index_mask(reg);

	slot_unlink(reg, slot);
	nk_journal_obj(&reg->ns_used[slot->ns]);
	reg->ns_used[slot->ns]--;
	slot->object = NULL;
	slot->type = 0;
	/* Retire every handle to this slot; 0 is reserved for "invalid". */
	slot->gen = (slot->gen + 1) & gen_mask(reg);
	if (slot->gen == 0)
		slot->gen = 1;

	/* Queue at the ring's tail: it is reused after all older ones. */
	nr_free = reg->capacity - reg->nr_used;
	nk_journal_obj(reg);
	nk_journal_obj(
	    &free_ring(reg)[(reg->free_head + nr_free) & index_mask(reg)]);
	free_ring(reg)[(reg->free_head + nr_free) & index_mask(reg)] = index;
	reg->nr_used--;
	return 0;
}

int nk_registry_unlink(struct nk_registry *reg, nk_handle_t handle)
{
	struct nk_registry_slot *slot;

	if (!registry_valid(reg))
		return -EINVAL;
	slot = handle_slot(reg, handle);
	if (!slot)
		return -ESRCH;
	slot_unlink(reg, slot);
	return 0;
}

int nk_registry_lookup(struct nk_registry *reg, nk_handle_t handle,
		       unsigned int type, void **object)
{
	struct nk_registry_slot *slot;

	if (!registry_valid(reg) || !object)
		return -EINVAL;
	slot = handle_slot(reg, handle);
	/* Wrong type reads as stale: a skin must not learn more. */
	if (!slot || (type && slot->type != type))
		return -ESRCH;
	*object = slot->object;
	return 0;
}

int nk_registry_find(struct nk_registry *reg, uint32_t ns, const char *name,
		     nk_handle_t *handle)
{
	uint32_t hash, *link;
	size_t len;

	if (!registry_valid(reg) || !name || !handle || ns > reg->nr_ns)
		return -EINVAL;
	len = strnlen(name, NK_NAME_MAX);
	if (len == NK_NAME_MAX)
		return -EINVAL;
	/* Anonymous entries are not findable, even as "". */
	if (len == 0)
		return -ESRCH;

	hash = name_hash(ns, name);
	link = name_link(reg, ns, name, hash);
	if (*link == NK_REGISTRY_NIL)
		return -ESRCH;
	*handle = make_handle(reg, *link);
	return 0;
}

/*
 * Copies at most @len - 1 characters and always terminates: a buffer of
 * NK_NAME_MAX bytes never truncates.
 */
int nk_registry_name(struct nk_registry *reg, nk_handle_t handle, char *buf,
		     size_t len)
{
	struct nk_registry_slot *slot;
	size_t n;

	if (!registry_valid(reg) || !buf || len == 0)
		return -EINVAL;
	slot = handle_slot(reg, handle);
	if (!slot)
		return -ESRCH;

	n = strlen(slot->name);
	if (n >= len)
		n = len - 1;
	memcpy(buf, slot->name, n);
	buf[n] = '\0';
	return 0;
}

int nk_registry_next(struct nk_registry *reg, uint32_t ns, uint32_t *cursor,
		     struct nk_registry_entry *entry)
{
	return nk_registry_next_within(reg, ns, cursor, UINT32_MAX, entry);
}

int nk_registry_next_within(struct nk_registry *reg, uint32_t ns,
			    uint32_t *cursor, uint32_t max,
			    struct nk_registry_entry *entry)
{
	uint32_t end;

	if (!registry_valid(reg) || !cursor || !entry || ns > reg->nr_ns)
		return -EINVAL;
	if (reg->ns_used[ns] == 0) {
		*cursor = reg->capacity;
		return -ENOENT;
	}
	end = *cursor < reg->capacity && max < reg->capacity - *cursor
		  ? *cursor + max
		  : reg->capacity;
	/* By slot index: an entry entered or removed meanwhile is listed
	 * or not, and no other is skipped or listed twice. */
	for (uint32_t i = *cursor; i < end; i++) {
		struct nk_registry_slot *slot = &reg->slots[i];

		if (slot->type == 0 || slot->ns != ns)
			continue;
		entry->handle = make_handle(reg, i);
		entry->type = slot->type;
		entry->object = slot->object;
		memcpy(entry->name, slot->name, sizeof(entry->name));
		*cursor = i + 1;
		return 0;
	}
	if (end < reg->capacity) {
		*cursor = end;
		return -EAGAIN;
	}
	*cursor = reg->capacity;
	return -ENOENT;
}

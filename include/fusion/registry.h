/* SPDX-License-Identifier: MIT */
/** @file
 * Registry: names and handles for nucleus objects.
 *
 * A handle is a 32-bit value: a slot index in the low bits and that
 * slot's generation in the high bits.  Deleting an entry bumps the
 * generation, so a stale handle (or a forged one) is refused with an
 * error instead of reaching a reused slot.  Handle 0 is never valid.
 * Generations wrap after 2^(32 - index_bits) reuses of one slot.
 *
 * Names are unique within a namespace.  Namespace 0 (NK_NS_DEFAULT) is
 * always there; others are interned by name (nk_registry_namespace):
 * a skin takes one per object class ("alchemy.sem") or one for all its
 * classes ("vxworks"), so that two skins, or two classes, may use the
 * same name.  Anonymous entries belong to a namespace too (listing).
 *
 * Registries are caller storage; the nucleus instance embeds one, which
 * every skin of the instance shares.  The nk_registry_* calls are not
 * locked: the caller serialises (for the instance's, the nucleus lock).
 * Callable from any context.
 */
#ifndef FUSION_REGISTRY_H
#define FUSION_REGISTRY_H

#include <fusion/types.h>

/** A registry handle: slot index and generation, never a pointer. */
typedef uint32_t nk_handle_t;

/** No handle: never given to an entry. */
#define NK_HANDLE_INVALID 0u

/** The namespace every registry has; interned ones are 1 .. MAX_NS. */
#define NK_NS_DEFAULT 0u
#define NK_REGISTRY_MAX_NS 64 /**< interned namespaces per registry */

struct nk_registry_slot;

/** A registry, embedded by its user; set up by nk_registry_init(). */
struct nk_registry {
	unsigned int magic; /**< tells a live one from a stale one */
	struct nk_registry_slot *slots; /**< @p capacity slots */
	uint32_t capacity;		/**< power of two */
	uint32_t index_bits;		/**< log2(capacity) */
	uint32_t nr_used;		/**< slots in use */
	uint32_t free_head;		/**< free-slot list, by index */
	uint32_t *buckets;		/**< name hash -> slot index chains */
	uint32_t nr_buckets;		/**< power of two */
	uint32_t nr_ns;			/**< interned namespaces */
	char (*ns_names)[NK_NAME_MAX];	/**< interned namespace names */
	/** Entries in each namespace: a listing skips an empty one. */
	uint32_t *ns_used;
	struct nk_instance *nk; /**< whose memory the tables are, or NULL */
	/** Entries entered, removed or unnamed so far: a walk in steps
	 * (nk_registry_next() between which the lock was let go) knows
	 * from it that what it lists changed. */
	uint32_t changes;
};

/** One entry, as nk_registry_next() lists it. */
struct nk_registry_entry {
	nk_handle_t handle;	/**< its handle */
	unsigned int type;	/**< as given to nk_registry_enter() */
	void *object;		/**< as given to nk_registry_enter() */
	char name[NK_NAME_MAX]; /**< "" for anonymous entries */
};

/**
 * Prepare @p reg for @p capacity entries (rounded up to a power of two,
 * 2 .. 2^20), allocating its tables with malloc once, here.
 * Errors: -EINVAL (NULL reg, capacity out of range), -ENOMEM.
 */
nk_export int nk_registry_init(struct nk_registry *reg, uint32_t capacity);
/** Free @p reg's tables; its handles are refused from then on.  -EINVAL. */
nk_export int nk_registry_destroy(struct nk_registry *reg);

/**
 * The namespace called @p name into *@p ns, interning it on first use (the
 * same name gives the same namespace for the registry's lifetime).
 * Errors: -EINVAL (bad reg, NULL @p ns, NULL, empty or too long a name),
 * -ENOSPC (NK_REGISTRY_MAX_NS namespaces interned already).
 */
nk_export int nk_registry_namespace(struct nk_registry *reg, const char *name,
				    uint32_t *ns);

/**
 * Enter @p object under @p name (may be NULL or "": anonymous) in namespace
 * @p ns, with a caller type tag @p type (non-zero; lets a skin refuse a
 * handle of the wrong kind).
 * Errors: -EINVAL (bad reg, unknown @p ns, NULL object, type 0, name
 * longer than NK_NAME_MAX - 1), -EEXIST (name in use in @p ns), -ENOSPC
 * (full).
 */
nk_export int nk_registry_enter(struct nk_registry *reg, uint32_t ns,
				const char *name, unsigned int type,
				void *object, nk_handle_t *handle);

/** Remove the entry @p handle.  Errors: -EINVAL (bad reg), -ESRCH (stale). */
nk_export int nk_registry_remove(struct nk_registry *reg, nk_handle_t handle);

/**
 * Make the entry @p handle anonymous (Cobalt's xnregistry_unlink): its
 * name is free for another entry and nk_registry_find() no longer finds
 * it, while @p handle stays valid until the entry is removed.  A no-op on
 * an anonymous entry.  Errors: -EINVAL (bad reg), -ESRCH (stale).
 */
nk_export int nk_registry_unlink(struct nk_registry *reg, nk_handle_t handle);

/**
 * The object behind @p handle, if its type is @p type (0: any) into *@p object.
 * Errors: -EINVAL (bad reg, NULL object), -ESRCH (stale, forged or wrong
 * type: all look the same to the caller, deliberately).
 */
nk_export int nk_registry_lookup(struct nk_registry *reg, nk_handle_t handle,
				 unsigned int type, void **object);

/**
 * The handle registered under @p name in @p ns.  Errors: -EINVAL (bad reg,
 * unknown @p ns, NULL name or handle, name too long), -ESRCH (absent).
 */
nk_export int nk_registry_find(struct nk_registry *reg, uint32_t ns,
			       const char *name, nk_handle_t *handle);

/** Name of @p handle (empty string for anonymous) into @p buf.  -EINVAL/-ESRCH.
 */
nk_export int nk_registry_name(struct nk_registry *reg, nk_handle_t handle,
			       char *buf, size_t len);

/**
 * List namespace @p ns: set *@p cursor to 0, then each call stores the next
 * entry (in slot order) into *@p entry and advances *@p cursor.  Entries
 * entered or removed between calls may or may not be listed; no other
 * is skipped or repeated.  Errors: -EINVAL (bad reg, unknown @p ns, NULL
 * @p cursor or @p entry), -ENOENT (no more entries).
 */
nk_export int nk_registry_next(struct nk_registry *reg, uint32_t ns,
			       uint32_t *cursor,
			       struct nk_registry_entry *entry);
/**
 * As nk_registry_next(), looking at @p max slots at most: -EAGAIN when
 * they held no entry of @p ns (*@p cursor past them, to go on from), so
 * that a walk in steps holds its lock for a bounded time.  The slots
 * looked at are the advance of *@p cursor.
 */
nk_export int nk_registry_next_within(struct nk_registry *reg, uint32_t ns,
				      uint32_t *cursor, uint32_t max,
				      struct nk_registry_entry *entry);

#endif

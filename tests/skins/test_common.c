/* SPDX-License-Identifier: MIT */
/*
 * The common object layer (src/skins/common), through two minimal
 * skins on the process runtime (sim): "shared" has one namespace for
 * its classes, its own codes and a 1 ms tick; "perclass" has a
 * namespace per class and the nucleus's codes, like Alchemy.
 */
#include "harness.h"

#include "skins/common/skin.h"

#include <fusion/fusion.h>

#include <stdlib.h>
#include <string.h>

#define US 1000LL
#define MS 1000000LL

enum { CLS_A, CLS_B };

#define SHARED_BAD -1001
#define SHARED_BAD_B -1002
#define SHARED_TIMEOUT -1003
#define SHARED_FULL -1004

static int shared_error(int err)
{
	if (err == -ENOSPC)
		return SHARED_FULL;
	return err == -ETIMEDOUT ? SHARED_TIMEOUT : err;
}

static void obj_reclaim(struct nk_instance *nk, void *object);

static const struct skin_class shared_classes[] = {
    [CLS_A] = {"a", 0, obj_reclaim},
    [CLS_B] = {"b", SHARED_BAD_B, obj_reclaim},
};

static const struct skin_desc shared_skin = {
    .pers = {.name = "shared", .state_size = sizeof(struct skin)},
    .classes = shared_classes,
    .nr_classes = 2,
    .shared_names = true,
    .tick = 1 * MS,
    .bad_handle = SHARED_BAD,
    .error = shared_error,
};

static const struct skin_class perclass_classes[] = {
    [CLS_A] = {"a", 0, obj_reclaim},
    [CLS_B] = {"b", 0, obj_reclaim},
};

static const struct skin_desc perclass_skin = {
    .pers = {.name = "perclass", .state_size = sizeof(struct skin)},
    .classes = perclass_classes,
    .nr_classes = 2,
    .bad_handle = -EINVAL,
};

static struct skin *enter(const struct skin_desc *desc, struct nk_instance **nk)
{
	struct skin *sk = NULL;

	CHECK_EQ(skin_enter(desc, nk, &sk), 0);
	CHECK(sk != NULL);
	CHECK(skin_state(desc) == sk);
	return sk;
}

/* One object: a wait queue whose deletion wakes its waiters. */
struct obj {
	struct nk_synch waiters;
	bool refuse;
};

static struct obj *obj_new(struct nk_instance *nk)
{
	struct obj *o = calloc(1, sizeof(*o));

	CHECK(o != NULL);
	CHECK_EQ(skin_wait_init(nk, &o->waiters, "obj", false), 0);
	return o;
}

/* Deletion frees it; these skins have no fini, which would too. */
static void obj_reclaim(struct nk_instance *nk, void *object)
{
	struct obj *o = object;

	skin_wait_destroy(nk, &o->waiters);
	free(o);
}

static int obj_busy(struct nk_instance *nk, void *object)
{
	struct obj *o = object;

	(void)nk;
	return o->refuse ? -EBUSY : 0;
}

TEST(handles_refused)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&shared_skin, &nk);
	struct obj *o = obj_new(nk);
	uintptr_t h, stale, zero = 0;
	void *found;

	CHECK_EQ(skin_publish(sk, CLS_A, "h", o, &h), 0);
	CHECK(h >> 32 != 0);
	CHECK_EQ(skin_get(&shared_skin, CLS_A, &h, &nk, &found), 0);
	CHECK(found == o);
	nk_unlock(nk);
	/* Wrong class: the class's own code; zeroed, forged, NULL: the
	 * skin's. */
	CHECK_EQ(skin_get(&shared_skin, CLS_B, &h, &nk, &found), SHARED_BAD_B);
	CHECK_EQ(skin_get(&shared_skin, CLS_A, &zero, &nk, &found), SHARED_BAD);
	CHECK_EQ(skin_get(&shared_skin, CLS_A, NULL, &nk, &found), SHARED_BAD);
	stale = h ^ (1ull << 31); /* another generation */
	CHECK_EQ(skin_get(&shared_skin, CLS_A, &stale, &nk, &found),
		 SHARED_BAD);
	stale = h + (1ull << 32); /* another tag */
	CHECK_EQ(skin_get(&shared_skin, CLS_A, &stale, &nk, &found),
		 SHARED_BAD);
	/* Another skin's class refuses it too. */
	enter(&perclass_skin, &nk);
	CHECK_EQ(skin_get(&perclass_skin, CLS_A, &h, &nk, &found), -EINVAL);
	/* Deleted: stale from then on. */
	stale = h;
	CHECK_EQ(skin_delete(&shared_skin, CLS_A, &h, obj_busy), 0);
	CHECK_EQ(skin_get(&shared_skin, CLS_A, &stale, &nk, &found),
		 SHARED_BAD);
	CHECK_EQ(skin_delete(&shared_skin, CLS_A, &stale, obj_busy),
		 SHARED_BAD);
}

TEST(namespaces)
{
	struct nk_instance *nk;
	struct skin *shared = enter(&shared_skin, &nk);
	struct skin *perclass = enter(&perclass_skin, &nk);
	uintptr_t ha, hb, pa, pb;
	char name[NK_NAME_MAX + 1];
	int x;

	/* One namespace for the skin: a name is taken by one class. */
	CHECK_EQ(skin_publish(shared, CLS_A, "n", &x, &ha), 0);
	CHECK_EQ(skin_publish(shared, CLS_B, "n", &x, &hb), -EEXIST);
	/* One per class, and none shared between skins. */
	CHECK_EQ(skin_publish(perclass, CLS_A, "n", &x, &pa), 0);
	CHECK_EQ(skin_publish(perclass, CLS_B, "n", &x, &pb), 0);
	CHECK_EQ(skin_publish(perclass, CLS_B, "n", &x, &hb), -EEXIST);
	/* Too long a name; anonymous objects are many. */
	memset(name, 'x', sizeof(name));
	name[NK_NAME_MAX] = '\0';
	CHECK_EQ(skin_publish(perclass, CLS_A, name, &x, &hb), -EINVAL);
	CHECK_EQ(skin_publish(perclass, CLS_A, "", &x, &hb), 0);
	CHECK_EQ(skin_publish(perclass, CLS_A, NULL, &x, &hb), 0);
	nk_lock(nk);
	skin_name_locked(perclass, pb, name);
	CHECK_STR(name, "n");
	skin_name_locked(perclass, hb, name);
	CHECK_STR(name, "");
	skin_unregister_locked(shared, ha);
	skin_unregister_locked(perclass, pa);
	skin_unregister_locked(perclass, pb);
	skin_unregister_locked(perclass, hb);
	skin_name_locked(perclass, pb, name);
	CHECK_STR(name, "");
	nk_unlock(nk);
}

TEST(listing)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&shared_skin, &nk);
	struct skin_entry e;
	uintptr_t h1, h2, h3;
	uint32_t cursor = 0;
	int x, y, z;

	CHECK_EQ(skin_publish(sk, CLS_A, "l1", &x, &h1), 0);
	CHECK_EQ(skin_publish(sk, CLS_B, "l2", &y, &h2), 0);
	CHECK_EQ(skin_publish(sk, CLS_A, NULL, &z, &h3), 0);
	nk_lock(nk);
	/* Class A only, though B shares its namespace (in slot order). */
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(skin_list_locked(sk, CLS_A, &cursor, &e), 0);
		if (e.handle == h1) {
			CHECK(e.object == &x);
			CHECK_STR(e.name, "l1");
		} else {
			CHECK_EQ(e.handle, h3);
			CHECK(e.object == &z);
			CHECK_STR(e.name, "");
		}
	}
	CHECK_EQ(skin_list_locked(sk, CLS_A, &cursor, &e), -ENOENT);
	cursor = 0;
	CHECK_EQ(skin_list_locked(sk, CLS_B, &cursor, &e), 0);
	CHECK_EQ(e.handle, h2);
	CHECK_EQ(skin_list_locked(sk, CLS_B, &cursor, &e), -ENOENT);
	CHECK_EQ(skin_list_locked(sk, 2, &cursor, &e), -EINVAL);
	CHECK_EQ(skin_list_locked(NULL, CLS_A, &cursor, &e), -EINVAL);
	skin_unregister_locked(sk, h1);
	skin_unregister_locked(sk, h2);
	skin_unregister_locked(sk, h3);
	nk_unlock(nk);
}

struct binder {
	const struct skin_desc *desc;
	const char *name;
	struct skin_timeout to;
	uintptr_t handle;
	int ret;
	nk_time_t date;
};

static void binder_body(void *arg)
{
	struct binder *b = arg;
	struct nk_instance *nk;

	b->ret = skin_bind(b->desc, CLS_A, &b->handle, b->name, b->to);
	CHECK_EQ(skin_enter(b->desc, &nk, NULL), 0);
	b->date = nk_now(nk);
}

static struct nk_thread *spawn_binder(struct nk_instance *nk, struct binder *b)
{
	struct nk_thread_attr attr = {
	    .name = "binder", .priority = 10, .flags = NK_THREAD_JOINABLE};
	struct nk_thread *t;

	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, binder_body, b), 0);
	return t;
}

TEST(bind)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&shared_skin, &nk);
	struct binder waits = {
	    .desc = &shared_skin, .name = "later", .to = skin_rel_ns(5 * MS)};
	struct binder times_out = {
	    .desc = &shared_skin, .name = "never", .to = skin_rel_ns(2 * MS)};
	struct binder wrong = {
	    .desc = &shared_skin, .name = "other", .to = skin_rel_ns(3 * MS)};
	struct nk_thread *t1, *t2, *t3;
	nk_time_t t0 = nk_now(nk);
	uintptr_t h, other;
	int x;

	CHECK_EQ(skin_bind(&shared_skin, CLS_A, NULL, "x", skin_nonblock()),
		 -EINVAL);
	CHECK_EQ(skin_bind(&shared_skin, CLS_A, &h, "", skin_nonblock()),
		 -EINVAL);
	CHECK_EQ(skin_bind(&shared_skin, CLS_A, &h, "absent", skin_nonblock()),
		 -EWOULDBLOCK);
	CHECK_EQ(skin_bind(&shared_skin, CLS_A, &h, "absent",
			   (struct skin_timeout){.error = -EINVAL}),
		 -EINVAL);
	/* "other" is class B's: class A's binder waits it out. */
	CHECK_EQ(skin_publish(sk, CLS_B, "other", &x, &other), 0);
	t1 = spawn_binder(nk, &waits);
	t2 = spawn_binder(nk, &times_out);
	t3 = spawn_binder(nk, &wrong);
	CHECK_EQ(nk_thread_sleep(nk, 1 * MS, NK_RELATIVE), 0);
	CHECK_EQ(skin_publish(sk, CLS_A, "later", &x, &h), 0);
	CHECK_EQ(nk_thread_join(t1), 0);
	CHECK_EQ(nk_thread_join(t2), 0);
	CHECK_EQ(nk_thread_join(t3), 0);
	CHECK_EQ(waits.ret, 0);
	CHECK_EQ(waits.handle, h);
	CHECK_EQ(times_out.ret, SHARED_TIMEOUT);
	CHECK_EQ(wrong.ret, SHARED_TIMEOUT);
	CHECK_EQ(skin_unbind(&waits.handle), 0);
	CHECK_EQ(waits.handle, 0);
	CHECK_EQ(skin_unbind(NULL), -EINVAL);
	/* Exact dates: woken by the creation, or at their deadline. */
	CHECK_EQ(waits.date - t0, 1 * MS);
	CHECK_EQ(times_out.date - t0, 2 * MS);
	CHECK_EQ(wrong.date - t0, 3 * MS);
	nk_lock(nk);
	skin_unregister_locked(sk, h);
	skin_unregister_locked(sk, other);
	nk_unlock(nk);
}

struct sleeper {
	uintptr_t handle;
	int ret;
};

static void sleeper_body(void *arg)
{
	struct sleeper *s = arg;
	struct nk_instance *nk;
	struct obj *o;
	int ctx = 0;

	CHECK_EQ(skin_get(&perclass_skin, CLS_B, &s->handle, &nk, (void **)&o),
		 0);
	s->ret = skin_wait_sleep_locked(skin_state(&perclass_skin), CLS_B,
					s->handle, o, &o->waiters, &ctx,
					sizeof(ctx), skin_infinite());
	nk_unlock(nk);
}

static bool serve_all(struct nk_thread *waiter, void *ctx, void *arg)
{
	(void)waiter;
	*(int *)ctx = *(int *)arg;
	return true;
}

/* A deletion wakes the waiters with -EIDRM, a refused one nobody. */
TEST(delete_with_waiters)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&perclass_skin, &nk);
	struct nk_thread_attr attr = {
	    .name = "sleeper", .priority = 10, .flags = NK_THREAD_JOINABLE};
	struct sleeper s = {0, 1};
	struct nk_thread *t;
	struct obj *o = obj_new(nk);
	int grant = 7;

	CHECK_EQ(skin_publish(sk, CLS_B, "d", o, &s.handle), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, sleeper_body, &s), 0);
	o->refuse = true;
	CHECK_EQ(skin_delete(&perclass_skin, CLS_B, &s.handle, obj_busy),
		 -EBUSY);
	CHECK_EQ(s.ret, 1);
	o->refuse = false;
	CHECK_EQ(skin_delete(&perclass_skin, CLS_B, &s.handle, obj_busy), 0);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(s.ret, -EIDRM);

	/* Served while the object lives: 0, and the grant in the context. */
	o = obj_new(nk);
	s.ret = 1;
	CHECK_EQ(skin_publish(sk, CLS_B, NULL, o, &s.handle), 0);
	CHECK_EQ(nk_thread_create(nk, &attr, &t), 0);
	CHECK_EQ(nk_thread_start(t, sleeper_body, &s), 0);
	nk_lock(nk);
	CHECK_EQ(skin_wait_serve_locked(&o->waiters, serve_all, &grant, true),
		 1);
	nk_sched_run(nk);
	nk_unlock(nk);
	CHECK_EQ(nk_thread_join(t), 0);
	CHECK_EQ(s.ret, 0);
	CHECK_EQ(skin_delete(&perclass_skin, CLS_B, &s.handle, obj_busy), 0);
}

TEST(timeouts)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&shared_skin, &nk);
	struct skin *ns = enter(&perclass_skin, &nk);
	struct timespec ts;
	struct skin_timeout to;
	nk_time_t now;

	CHECK(skin_nonblocking(skin_nonblock()));
	CHECK(!skin_nonblocking(skin_infinite()));
	CHECK_EQ(skin_rel_ns(UINT64_MAX).value, NK_INFINITE);
	CHECK_EQ(skin_rel_ns((uint64_t)NK_INFINITE).value, NK_INFINITE);
	CHECK_EQ(skin_abs_ns(UINT64_MAX).value, NK_INFINITE);
	CHECK_EQ(skin_abs_ns(5).value, 5);
	CHECK_EQ(skin_abs_ns(5).mode, NK_ABSOLUTE);

	CHECK(skin_timespec(NULL).value == NK_INFINITE);
	CHECK(skin_nonblocking(skin_timespec(&(struct timespec){0, 0})));
	CHECK_EQ(skin_timespec(&(struct timespec){-1, 0}).error, -EINVAL);
	CHECK_EQ(skin_timespec(&(struct timespec){0, 1000000000L}).error,
		 -EINVAL);
	ts = (struct timespec){2, 5};
	CHECK_EQ(skin_timespec(&ts).value, 2000000005LL);
	CHECK_EQ(skin_timespec(&ts).mode, NK_ABSOLUTE);
	ts.tv_sec = INT64_MAX / 2;
	CHECK_EQ(skin_timespec(&ts).value, NK_INFINITE);

	/* A 1 ms tick: n ticks end on the n-th boundary from now. */
	CHECK_EQ(nk_thread_sleep(nk, 2 * MS + 300 * US - nk_now(nk) % MS,
				 NK_RELATIVE),
		 0);
	now = nk_now(nk);
	to = skin_rel_ticks(sk, 3);
	CHECK_EQ(to.mode, NK_ABSOLUTE);
	CHECK_EQ(to.value % MS, sk->tbase.origin % MS);
	CHECK(to.value > now + 2 * MS && to.value <= now + 3 * MS);
	CHECK(skin_nonblocking(skin_rel_ticks(sk, 0)));
	CHECK_EQ(skin_rel_ticks(sk, UINT64_MAX).value, NK_INFINITE);
	/* Tick dates: a future tick is its boundary, a past one expired. */
	to = skin_abs_ticks(sk, nk_tbase_ticks(&sk->tbase) + 3);
	CHECK(to.value == skin_rel_ticks(sk, 3).value);
	to = skin_abs_ticks(sk, 0);
	CHECK_EQ(to.mode, NK_ABSOLUTE);
	CHECK(to.value <= now);
	/* Without a tick, ticks are nanoseconds. */
	CHECK_EQ(skin_rel_ticks(ns, 1500).value, 1500);
	CHECK_EQ(skin_rel_ticks(ns, 1500).mode, NK_RELATIVE);
	CHECK_EQ(skin_abs_ticks(ns, 1500).mode, NK_ABSOLUTE);

	/* One deadline across several sleeps. */
	to = skin_deadline(nk, skin_rel_ns(4 * MS));
	CHECK_EQ(to.mode, NK_ABSOLUTE);
	CHECK_EQ(to.value, nk_now(nk) + 4 * MS);
	CHECK_EQ(skin_deadline(nk, skin_infinite()).value, NK_INFINITE);
	CHECK(skin_nonblocking(skin_deadline(nk, skin_nonblock())));
	CHECK_EQ(skin_deadline(nk, skin_rel_ns(UINT64_MAX - 1)).value,
		 NK_INFINITE);
}

/* The instance's registry is every skin's: full is the skin's error. */
TEST(registry_full)
{
	struct nk_instance *nk;
	struct skin *sk = enter(&shared_skin, &nk);
	uint32_t capacity = nk_instance_registry(nk)->capacity;
	uintptr_t *h = calloc(capacity, sizeof(*h));
	uint32_t n = 0;
	int x, ret;

	CHECK(h != NULL);
	while ((ret = skin_publish(sk, CLS_A, NULL, &x, &h[n])) == 0)
		n++;
	CHECK_EQ(ret, SHARED_FULL);
	CHECK(n > 0 && n <= capacity);
	nk_lock(nk);
	while (n > 0)
		skin_unregister_locked(sk, h[--n]);
	nk_unlock(nk);
	CHECK_EQ(skin_publish(sk, CLS_A, NULL, &x, &h[0]), 0);
	nk_lock(nk);
	skin_unregister_locked(sk, h[0]);
	nk_unlock(nk);
	free(h);
}

TESTS(T(handles_refused), T(namespaces), T(listing), T(bind),
      T(delete_with_waiters), T(timeouts), T(registry_full));

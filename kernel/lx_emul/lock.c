// SPDX-License-Identifier: MIT
/* lx_emul: what the locks of both header sets share, on lx_kit alone (lx_emul/shared.h):
 * the sleeping lock behind a mutex, the might-sleep check and the BH-enable hooks. No kernel
 * struct layout appears here, so the emulation compiled against the real headers
 * (kernel/lx_emul_real/) calls the same code as the one on the shadow headers. */
#include <lx_emul/shared.h>

#define LX_EMUL_MAX_BH_HOOKS 8

void lx_emul_might_sleep(const char* what)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (*lx_kit_task_atomic_depth(t) > 0)
        lx_kit_abort("%s: sleeping function called from atomic context (task '%s' holds a "
                     "spinlock, has BH disabled or runs a hard-IRQ/timer handler)",
                     what, lx_kit_task_name(t));
}

static const char* lock_name(const struct lx_emul_lock* l) { return l->name ? l->name : "?"; }

/* The kernel's mutex (kernel/locking/mutex.c), as far as a waiter's turn goes. Releasing wakes
 * the first waiter; whether it gets the lock depends on when it runs:
 * - Mostly at once: a real-time waiter preempts a normal releaser, a normal one preempts a
 *   normal releaser through CFS's sleeper credit, and with more cores it runs on another one.
 *   The lock is handed to it (FIFO hand-off).
 * - On one core, a real-time releaser runs on (a normal waiter cannot preempt it) and may lock
 *   again before the waiter runs: the lock is free until then, and the releaser takes it (the
 *   slow path's trylock on a lock with waiters). The woken waiter that finds it taken sets
 *   MUTEX_FLAG_HANDOFF and sleeps again, first in the queue; the next release hands it the lock.
 * A threaded interrupt handler whose line is still active runs again as soon as it returns,
 * so it takes the lock twice before a normal task waiting for it gets it once. */
static int releaser_runs_on(const struct lx_kit_task* releaser, const struct lx_kit_task* waiter)
{
    return lx_kit_cpu_cores() == 1 && lx_kit_task_is_rt(releaser) && !lx_kit_task_is_rt(waiter);
}

void lx_emul_lock_acquire(struct lx_emul_lock* l, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    lx_emul_might_sleep(func);
    if (l->owner == t)
        lx_kit_abort("%s: recursive locking of mutex '%s' by task '%s' (deadlock)", func,
                     lock_name(l), lx_kit_task_name(t));
    if (!l->owner) {
        l->owner = t;
        return;
    }
    if (!l->waitq)
        l->waitq = lx_kit_wait_alloc("mutex");
    int again = 0;
    for (;;) {
        if (again)
            lx_kit_wait_block_first(l->waitq, -1, func);
        else
            lx_kit_wait_block(l->waitq, -1, func);
        if (l->owner == t)
            return; /* handed off */
        if (l->woken != t)
            lx_kit_abort("%s: task '%s' woke up on mutex '%s' without a release", func,
                         lx_kit_task_name(t), lock_name(l));
        l->woken = NULL;
        if (!l->owner) {
            l->owner = t;
            return;
        }
        l->handoff = 1; /* taken meanwhile: the next release hands it over */
        again = 1;
    }
}

int lx_emul_lock_try(struct lx_emul_lock* l)
{
    if (l->owner)
        return 0;
    l->owner = lx_kit_task_current();
    return 1;
}

void lx_emul_lock_release(struct lx_emul_lock* l, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (l->owner != t)
        lx_kit_abort("%s: task '%s' unlocks mutex '%s' it does not own (owner: %s)", func,
                     lx_kit_task_name(t), lock_name(l),
                     l->owner ? lx_kit_task_name(l->owner) : "nobody");
    struct lx_kit_task* first = l->waitq ? lx_kit_wait_first(l->waitq) : NULL;
    if (!first || l->woken) {
        /* Nobody waits, or the one woken before has not run yet (it takes the lock then). */
        l->owner = NULL;
        return;
    }
    if (l->handoff || !releaser_runs_on(t, first)) {
        l->handoff = 0;
        l->owner = lx_kit_wait_notify_one(l->waitq);
        return;
    }
    l->owner = NULL;
    l->woken = lx_kit_wait_notify_one(l->waitq);
}

void lx_emul_lock_destroy(struct lx_emul_lock* l, const char* func)
{
    if (l->owner)
        lx_kit_abort("%s: mutex '%s' is still held by task '%s'", func, lock_name(l),
                     lx_kit_task_name(l->owner));
    if (l->woken)
        lx_kit_abort("%s: mutex '%s' is still wanted by task '%s'", func, lock_name(l),
                     lx_kit_task_name(l->woken));
    if (l->waitq) {
        lx_kit_wait_free(l->waitq);
        l->waitq = NULL;
    }
}

/* ---- BH-enable hooks ---- */

static void (*bh_hooks[LX_EMUL_MAX_BH_HOOKS])(void);
static int bh_hook_count;

void lx_emul_register_bh_enable_hook(void (*fn)(void))
{
    for (int i = 0; i < bh_hook_count; i++)
        if (bh_hooks[i] == fn)
            return;
    if (bh_hook_count == LX_EMUL_MAX_BH_HOOKS)
        lx_kit_abort("too many BH-enable hooks (max %d)", LX_EMUL_MAX_BH_HOOKS);
    bh_hooks[bh_hook_count++] = fn;
}

void lx_emul_run_bh_hooks(void)
{
    for (int i = 0; i < bh_hook_count; i++)
        bh_hooks[i]();
}

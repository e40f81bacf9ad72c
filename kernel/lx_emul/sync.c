// SPDX-License-Identifier: MIT
/* lx_emul: spinlocks, mutexes, BH control, RCU/SRCU on top of lx_kit (see lx_emul/sync.h). */
#include "internal.h"

void lx_emul_might_sleep(const char* what)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (*lx_kit_task_atomic_depth(t) > 0)
        lx_kit_abort("%s: sleeping function called from atomic context (task '%s' holds a "
                     "spinlock, has BH disabled or runs a hard-IRQ/timer handler)",
                     what, lx_kit_task_name(t));
}

/* ---- spinlocks ---- */

void lx_emul_spin_lock_init(spinlock_t* lock, const char* name)
{
    lock->owner = NULL;
    lock->waitq = NULL;
    lock->name = name;
}

static void bh_disable(struct lx_kit_task* t)
{
    (void)t;
    current->bh_depth++;
}

static void bh_enable(void)
{
    struct task_struct* cur = current;
    if (cur->bh_depth <= 0)
        lx_kit_abort("local_bh_enable without matching local_bh_disable (task '%s')", cur->comm);
    if (--cur->bh_depth == 0)
        lx_emul_run_bh_hooks();
}

void lx_emul_spin_lock(spinlock_t* lock, int bh, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (lock->owner == t)
        lx_kit_abort("%s: recursive spin_lock of '%s' by task '%s' (deadlock)", func,
                     lock->name ? lock->name : "?", lx_kit_task_name(t));
    /* Contended only if the holder blocked or busy-waited inside its critical section: spin
     * (busy CPU time) until it unlocks; unlock hands the lock to the longest spinner (FIFO, like
     * the kernel's ticket/queued spinlocks). */
    if (lock->owner) {
        lx_kit_wait_spin(lx_emul_waitq(&lock->waitq, "spinlock"), "spin_lock");
        if (lock->owner != t)
            lx_kit_abort("%s: spinlock '%s' was not handed over to task '%s'", func,
                         lock->name ? lock->name : "?", lx_kit_task_name(t));
    }
    lock->owner = t;
    ++*lx_kit_task_atomic_depth(t);
    if (bh)
        bh_disable(t);
}

int lx_emul_spin_trylock(spinlock_t* lock, int bh, const char* func)
{
    (void)func;
    struct lx_kit_task* t = lx_kit_task_current();
    if (lock->owner)
        return 0;
    lock->owner = t;
    ++*lx_kit_task_atomic_depth(t);
    if (bh)
        bh_disable(t);
    return 1;
}

void lx_emul_spin_unlock(spinlock_t* lock, int bh, const char* func)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (lock->owner != t)
        lx_kit_abort("%s: spin_unlock of '%s' by task '%s' which does not hold it (holder: %s)",
                     func, lock->name ? lock->name : "?", lx_kit_task_name(t),
                     lock->owner ? lx_kit_task_name(lock->owner) : "nobody");
    lock->owner = lock->waitq ? lx_kit_wait_notify_one(lock->waitq) : NULL;
    --*lx_kit_task_atomic_depth(t);
    if (bh)
        bh_enable();
}

int lx_emul_spin_is_locked(const spinlock_t* lock) { return lock->owner != NULL; }

/* ---- BH ---- */

#define LX_EMUL_MAX_BH_HOOKS 8
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

void local_bh_disable(void)
{
    struct lx_kit_task* t = lx_kit_task_current();
    ++*lx_kit_task_atomic_depth(t);
    bh_disable(t);
}

void local_bh_enable(void)
{
    --*lx_kit_task_atomic_depth(lx_kit_task_current());
    bh_enable();
}

/* ---- mutexes ---- */

void lx_emul_mutex_init(struct mutex* lock, const char* name)
{
    lock->owner = NULL;
    lock->waitq = NULL;
    lock->name = name;
}

void mutex_lock(struct mutex* lock)
{
    struct lx_kit_task* t = lx_kit_task_current();
    lx_emul_might_sleep("mutex_lock");
    if (lock->owner == t)
        lx_kit_abort("mutex_lock: recursive locking of mutex '%s' by task '%s' (deadlock)",
                     lock->name ? lock->name : "?", lx_kit_task_name(t));
    if (!lock->owner) {
        lock->owner = t;
        return;
    }
    /* FIFO hand-off: mutex_unlock makes the longest waiter the owner before waking it. */
    lx_kit_wait_block(lx_emul_waitq(&lock->waitq, "mutex"), -1, "mutex_lock");
    if (lock->owner != t)
        lx_kit_abort("mutex_lock: task '%s' woke up on mutex '%s' without ownership",
                     lx_kit_task_name(t), lock->name ? lock->name : "?");
}

int mutex_trylock(struct mutex* lock)
{
    if (lock->owner)
        return 0;
    lock->owner = lx_kit_task_current();
    return 1;
}

void mutex_unlock(struct mutex* lock)
{
    struct lx_kit_task* t = lx_kit_task_current();
    if (lock->owner != t)
        lx_kit_abort("mutex_unlock: task '%s' unlocks mutex '%s' it does not own (owner: %s)",
                     lx_kit_task_name(t), lock->name ? lock->name : "?",
                     lock->owner ? lx_kit_task_name(lock->owner) : "nobody");
    lock->owner = lock->waitq ? lx_kit_wait_notify_one(lock->waitq) : NULL;
}

bool mutex_is_locked(struct mutex* lock) { return lock->owner != NULL; }

void mutex_destroy(struct mutex* lock)
{
    if (lock->owner)
        lx_kit_abort("mutex_destroy: mutex '%s' is still held by task '%s'",
                     lock->name ? lock->name : "?", lx_kit_task_name(lock->owner));
    if (lock->waitq) {
        lx_kit_wait_free(lock->waitq);
        lock->waitq = NULL;
    }
}

/* ---- RCU / SRCU: grace periods are scheduling points (one delta cycle) ---- */

void synchronize_rcu(void)
{
    lx_emul_might_sleep("synchronize_rcu");
    lx_kit_sleep_ns(0);
}

void synchronize_srcu(struct srcu_struct* ssp)
{
    (void)ssp;
    lx_emul_might_sleep("synchronize_srcu");
    lx_kit_sleep_ns(0);
}

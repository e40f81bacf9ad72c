// SPDX-License-Identifier: MIT
/* lx_emul: spinlocks, BH control, RCU/SRCU on top of lx_kit (see lx_emul/sync.h); mutexes are
 * mutex.c, the sleeping lock and BH-enable hooks both header sets share lock.c. */
#include "internal.h"

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

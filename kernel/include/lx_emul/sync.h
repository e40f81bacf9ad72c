/* SPDX-License-Identifier: MIT */
/* lx_emul: locks and BH control (linux/spinlock.h, mutex.h, bottom_half.h, rcupdate.h, srcu.h).
 *
 * All objects are valid when zero-initialised (drivers put them in kzalloc'd memory and some never
 * call *_init); the wait handle behind a lock is allocated on first contention.
 * - mutex: sleeping lock, FIFO hand-off (unlock passes ownership to the longest waiter), owner
 *   tracked; recursive locking, unlocking a mutex one does not own, and sleeping on a mutex while
 *   holding a spinlock stop the run with a message.
 * - spinlock: there is no preemption, so a spinlock is only contended when its holder blocked or
 *   busy-waited (udelay) inside the critical section; the contender then spins (busy CPU time)
 *   until the holder unlocks. Holding one makes the context atomic: sleeping calls abort.
 * - spin_lock_bh / local_bh_disable: BH off for the calling context (atomic); when the outermost
 *   local_bh_enable runs, registered BH hooks run (none is registered outside the tests: the
 *   netdev emulation's netif_rx hands each frame to the host stack at once, which runs the RX
 *   softirq in the calling thread, host.net.netif_rx_in_caller; docs/host-stack.md).
 * - RCU/SRCU readers are no-ops; synchronize_rcu/srcu are scheduling points (one delta cycle).
 */
#ifndef LX_EMUL_SYNC_H
#define LX_EMUL_SYNC_H

#include <lx_emul/types.h>
#include <lx_emul/shared.h>

struct lx_kit_task;
struct lx_kit_wait;

/* ---- spinlocks ---- */
typedef struct spinlock {
    struct lx_kit_task* owner;  /* NULL when unlocked */
    struct lx_kit_wait* waitq;  /* contenders, allocated on first contention */
    const char* name;
} spinlock_t;
typedef spinlock_t raw_spinlock_t;
typedef spinlock_t rwlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname) {.owner = NULL, .waitq = NULL, .name = #lockname}
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x) DEFINE_SPINLOCK(x)
#define DEFINE_RWLOCK(x) DEFINE_SPINLOCK(x)
#define __RW_LOCK_UNLOCKED(x) __SPIN_LOCK_UNLOCKED(x)

void lx_emul_spin_lock_init(spinlock_t* lock, const char* name);
void lx_emul_spin_lock(spinlock_t* lock, int bh, const char* func);
void lx_emul_spin_unlock(spinlock_t* lock, int bh, const char* func);
int lx_emul_spin_trylock(spinlock_t* lock, int bh, const char* func);
int lx_emul_spin_is_locked(const spinlock_t* lock);

#define spin_lock_init(l) lx_emul_spin_lock_init((l), #l)
#define raw_spin_lock_init spin_lock_init
#define rwlock_init spin_lock_init
#define spin_lock(l) lx_emul_spin_lock((l), 0, __func__)
#define spin_unlock(l) lx_emul_spin_unlock((l), 0, __func__)
#define spin_lock_bh(l) lx_emul_spin_lock((l), 1, __func__)
#define spin_unlock_bh(l) lx_emul_spin_unlock((l), 1, __func__)
#define spin_lock_irq(l) lx_emul_spin_lock((l), 0, __func__)
#define spin_unlock_irq(l) lx_emul_spin_unlock((l), 0, __func__)
#define spin_lock_irqsave(l, flags)                                                                \
    do {                                                                                           \
        (flags) = 0;                                                                               \
        lx_emul_spin_lock((l), 0, __func__);                                                       \
    } while (0)
#define spin_unlock_irqrestore(l, flags)                                                           \
    do {                                                                                           \
        (void)(flags);                                                                             \
        lx_emul_spin_unlock((l), 0, __func__);                                                     \
    } while (0)
#define spin_trylock(l) lx_emul_spin_trylock((l), 0, __func__)
#define spin_trylock_bh(l) lx_emul_spin_trylock((l), 1, __func__)
#define spin_is_locked(l) lx_emul_spin_is_locked(l)
#define assert_spin_locked(l) WARN_ON(!spin_is_locked(l))
#define lockdep_assert_held(l) ((void)(l))
#define raw_spin_lock spin_lock
#define raw_spin_unlock spin_unlock
#define raw_spin_lock_irqsave spin_lock_irqsave
#define raw_spin_unlock_irqrestore spin_unlock_irqrestore
#define read_lock spin_lock
#define read_unlock spin_unlock
#define write_lock spin_lock
#define write_unlock spin_unlock
#define read_lock_bh spin_lock_bh
#define read_unlock_bh spin_unlock_bh
#define write_lock_bh spin_lock_bh
#define write_unlock_bh spin_unlock_bh
#define write_lock_irqsave spin_lock_irqsave
#define write_unlock_irqrestore spin_unlock_irqrestore
#define read_lock_irqsave spin_lock_irqsave
#define read_unlock_irqrestore spin_unlock_irqrestore

/* ---- interrupt flags and BH ---- */
#define local_irq_save(flags) ((flags) = 0)
#define local_irq_restore(flags) ((void)(flags))
#define local_irq_disable() ((void)0)
#define local_irq_enable() ((void)0)
#define irqs_disabled() 0
#define preempt_disable() ((void)0)
#define preempt_enable() ((void)0)
void local_bh_disable(void);
void local_bh_enable(void);
#define rcu_read_lock_bh() local_bh_disable()
#define rcu_read_unlock_bh() local_bh_enable()
/* lx_emul_register_bh_enable_hook: lx_emul/shared.h. */

/* ---- mutexes ---- */
/* The sleeping lock of lx_emul/shared.h, held in the struct. */
struct mutex {
    struct lx_emul_lock l;
};
#define __MUTEX_INITIALIZER(lockname) {.l = {.owner = NULL, .waitq = NULL, .name = #lockname}}
#define DEFINE_MUTEX(m) struct mutex m = __MUTEX_INITIALIZER(m)
void lx_emul_mutex_init(struct mutex* lock, const char* name);
#define mutex_init(m) lx_emul_mutex_init((m), #m)
void mutex_lock(struct mutex* lock);
void mutex_unlock(struct mutex* lock);
int mutex_trylock(struct mutex* lock);
bool mutex_is_locked(struct mutex* lock);
void mutex_destroy(struct mutex* lock);
/* No signals in the simulation: interruptible/killable variants always succeed. */
static inline int mutex_lock_interruptible(struct mutex* lock)
{
    mutex_lock(lock);
    return 0;
}
#define mutex_lock_killable mutex_lock_interruptible
#define mutex_lock_nested(lock, subclass) mutex_lock(lock)
#define lockdep_assert_not_held(l) ((void)(l))
#define lockdep_set_class(l, k) ((void)(l))

/* ---- RCU / SRCU ---- */
#define rcu_read_lock() ((void)0)
#define rcu_read_unlock() ((void)0)
#define rcu_read_lock_held() 1
#define srcu_read_lock_held(ssp) 1
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_dereference_bh(p) READ_ONCE(p)
#define rcu_dereference_raw(p) READ_ONCE(p)
#define rcu_dereference_protected(p, c) (p)
#define rcu_dereference_check(p, c) READ_ONCE(p)
#define rcu_access_pointer(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) WRITE_ONCE(p, v)
#define RCU_INIT_POINTER(p, v) ((p) = (v))
void synchronize_rcu(void);
/* Runs the callback right away: there are no concurrent readers that could still hold it. */
static inline void call_rcu(struct rcu_head* head, void (*func)(struct rcu_head*)) { func(head); }
#define kfree_rcu(ptr, field) kfree(ptr)
#define rcu_barrier() ((void)0)

struct srcu_struct {
    int initialized;
};
static inline int init_srcu_struct(struct srcu_struct* ssp)
{
    ssp->initialized = 1;
    return 0;
}
static inline void cleanup_srcu_struct(struct srcu_struct* ssp) { ssp->initialized = 0; }
static inline int srcu_read_lock(struct srcu_struct* ssp)
{
    (void)ssp;
    return 0;
}
static inline void srcu_read_unlock(struct srcu_struct* ssp, int idx)
{
    (void)ssp;
    (void)idx;
}
#define srcu_dereference(p, ssp) READ_ONCE(p)
#define DEFINE_SRCU(name) struct srcu_struct name = {1}
#define DEFINE_STATIC_SRCU(name) static struct srcu_struct name = {1}
void synchronize_srcu(struct srcu_struct* ssp);

#endif /* LX_EMUL_SYNC_H */

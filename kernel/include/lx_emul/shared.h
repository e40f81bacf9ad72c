/* SPDX-License-Identifier: MIT */
/* lx_emul: what the emulations on both header sets share (the shadow headers' in lx_emul/, the
 * real headers' in kernel/lx_emul_real/): functions on lx_kit alone, with no kernel struct
 * layout in their signatures, so C compiled against either header set includes this header.
 *
 * The sleeping lock behind a mutex, apart from the struct that holds it. Its state is
 * the owning task and a wait handle allocated on first contention; the shadow headers' struct
 * mutex holds both (lx_emul/sync.c), the real headers' struct mutex has no field for them and
 * kernel/lx_emul_real/mutex.c keeps them beside it. Plain C with lx_kit types only, so C
 * compiled against either header set includes it. FIFO hand-off: unlock makes the longest
 * waiter the owner before waking it; recursive locking, unlocking a lock the task does not own
 * and destroying a held lock stop the run with the lock's name. */
#ifndef LX_EMUL_SHARED_H
#define LX_EMUL_SHARED_H

#include <lx_kit/lx_kit.h>

struct lx_emul_lock {
    struct lx_kit_task* owner; /* NULL when unlocked */
    struct lx_kit_wait* waitq; /* allocated on first contention */
    const char* name;
    struct lx_kit_task* woken; /* woken by a release without the lock, not yet run */
    int handoff;               /* the first waiter asked for the lock (MUTEX_FLAG_HANDOFF) */
};

/* Aborts the run when the calling task may not sleep (it holds a spinlock, has BH disabled or
 * runs a hard-IRQ/timer handler). */
void lx_emul_might_sleep(const char* what);
void lx_emul_lock_acquire(struct lx_emul_lock* l, const char* func);
int lx_emul_lock_try(struct lx_emul_lock* l);
void lx_emul_lock_release(struct lx_emul_lock* l, const char* func);
void lx_emul_lock_destroy(struct lx_emul_lock* l, const char* func);

/* Runs fn() in the context that re-enables BH (outermost local_bh_enable/spin_unlock_bh);
 * lx_emul_run_bh_hooks runs them (netif_rx processing) in the calling context. */
void lx_emul_register_bh_enable_hook(void (*fn)(void));
void lx_emul_run_bh_hooks(void);

/* usleep_range(min, max) in microseconds: wakes at min for a real-time task, else at
 * min + min(slack, max - min) (lx_kit_usleep_slack_ns), as schedule_hrtimeout_range does. */
void lx_emul_usleep_range(unsigned long min, unsigned long max);

/* Logs one line at `level` (a KERN_* string) as "<prefix>: <fmt formatted>", formatted by
 * lx_emul's vsnprintf (with the kernel's %p extensions). */
void lx_emul_vlog_prefixed(const char* level, const char* prefix, const char* fmt,
                           __builtin_va_list ap);

/* printk: one line at the KERN_* level its format starts with (4 without one; KERN_CONT
 * continues the last line), logged with `origin`. The characters formatted. */
int lx_emul_vprintk(const char* origin, const char* fmt, __builtin_va_list args);

/* Kernel memory for C on either header set (the two give the GFP bits different values):
 * `size` bytes, zeroed when `zero`, else filled with the kernel's POISON_INUSE; attributed to
 * func and mod in leak reports; freed by kfree. */
void* lx_emul_alloc(size_t size, int zero, const char* func, const char* mod);

/* The devm form of lx_emul_alloc: freed when `owner` (the struct device, whichever header set's
 * layout it has) releases its resources, lx_emul_devres_release_all. */
void* lx_emul_devm_alloc(void* owner, size_t size, int zero, const char* func, const char* mod);

/* Releases the devm resources of `dev` (its devm memory, its devm IRQs first). */
struct device;
void lx_emul_devres_release_all(struct device* dev);

/* lx_emul's scnprintf (its vsnprintf with the kernel's %p extensions): the characters written,
 * without the terminating NUL. */
int lx_emul_scnprintf(char* buf, size_t size, const char* fmt, ...);
int lx_emul_vscnprintf(char* buf, size_t size, const char* fmt, __builtin_va_list args);

/* An skb's data buffer with guard canaries (kernel/lx_emul/skbuff.c), for skbs of either
 * layout: [head canary][size bytes][the run's tail slack, a fill pattern][tail canary]. The
 * size bytes are zeroed; the result is their start, NULL when out of memory. */
void* lx_emul_skb_buf_alloc(size_t size);
void lx_emul_skb_buf_free(void* start);
/* Checks the canaries around the `size` bytes at start; a broken one stops the run naming
 * `where` and the owner skb (describe_owner(owner) formats it). at_free: also counts writes
 * into the slack (lx_emul_skb_slack_writes) and logs the first 8. */
void lx_emul_skb_buf_check(const void* start, size_t size, const char* where,
                           void (*describe_owner)(const void* owner, char* out, size_t n),
                           const void* owner, int at_free);

/* phylib's clause-22 ID scan (__mdiobus_register -> mdiobus_scan -> get_phy_c22_id): PHYSID1
 * then PHYSID2 through read() at every address not in phy_mask; ids[addr] is the ID found or
 * 0xffffffff. A PHY found is only recorded: nicsim has no phylib driver to bind. */
void lx_emul_mdio_scan(void* bus, int (*read)(void* bus, int addr, int reg), uint32_t phy_mask,
                       uint32_t ids[32]);

/* The headroom the stack leaves in a skb it transmits (the testbench's transmit on either
 * header set): LL_RESERVED_SPACE, 64 + NET_IP_ALIGN like a socket skb. */
#define LX_EMUL_XMIT_HEADROOM 66

/* The run's random bytes: one deterministic stream (kernel/lx_emul/random.c). */
void lx_emul_random_bytes(void* buf, size_t len);

/* A work item on lx_emul's workqueues (kernel/lx_emul/workqueue.c: pending until a worker picks
 * it up, never running concurrently with itself, flush waits for the instance queued at the
 * call) for C whose struct work_struct is not lx_emul's: run(ctx) is its work function. wq NULL
 * is the system queue. The int results are the kernel functions' bools. */
struct workqueue_struct;
struct lx_emul_work_item;
struct lx_emul_work_item* lx_emul_work_item_alloc(void (*run)(void* ctx), void* ctx);
int lx_emul_work_item_queue(struct workqueue_struct* wq, struct lx_emul_work_item* item);
int lx_emul_work_item_flush(struct lx_emul_work_item* item);
int lx_emul_work_item_cancel(struct lx_emul_work_item* item);
int lx_emul_work_item_cancel_sync(struct lx_emul_work_item* item);

#endif

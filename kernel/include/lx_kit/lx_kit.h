/* SPDX-License-Identifier: MIT */
/*
 * lx_kit: the narrow C API from the kernel-API emulation (lx_emul, GNU C) into the SystemC
 * runtime (C++). Plain C types only, no Linux headers: both sides include it.
 *
 * Execution model: every kernel execution context (kthread, workqueue worker, IRQ thread, timer
 * softirq, the testbench's own SC_THREADs that call into the driver) is a SystemC thread. Blocking
 * is always a SystemC wait() on an event or a time; nothing is preemptive, so the code between two
 * lx_kit calls runs atomically with respect to every other context ("check condition, then
 * lx_kit_wait_block()" has no lost-wakeup window).
 */
#ifndef LX_KIT_LX_KIT_H
#define LX_KIT_LX_KIT_H

/* C compiled against the real kernel headers (-nostdinc) has the kernel's own fixed-width
 * types (linux/types.h) and no C library. */
#ifdef NICSIM_REAL_KERNEL_HEADERS
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#ifdef __cplusplus
extern "C" {
#define LX_KIT_NORETURN [[noreturn]]
#else
#define LX_KIT_NORETURN __attribute__((noreturn))
#endif

/* ---- tasks --------------------------------------------------------------------------------- */

struct lx_kit_task;
typedef void (*lx_kit_task_fn)(void* arg);

/* Spawns a SystemC thread named `name` (copied) running fn(arg). It starts in the current delta
 * cycle's evaluation (or at time 0 if called during elaboration). The task record stays valid
 * until the end of the run (owned by the runtime). */
struct lx_kit_task* lx_kit_task_create(const char* name, lx_kit_task_fn fn, void* arg);

/* The task of the calling context. SystemC threads not created by lx_kit (testbench threads) are
 * adopted on first use. Outside any SystemC thread (elaboration, sc_main, SC_METHODs) this is the
 * "main" pseudo task, which must never block. Never NULL. */
struct lx_kit_task* lx_kit_task_current(void);
const char* lx_kit_task_name(const struct lx_kit_task* t);
/* 1 if `t` is a real SystemC thread that may block. */
int lx_kit_task_can_block(const struct lx_kit_task* t);
/* Real-time scheduling class (irq threads run SCHED_FIFO, kernel/irq/manage.c setup_irq_thread). */
void lx_kit_task_set_rt(struct lx_kit_task* t, int rt);
int lx_kit_task_is_rt(const struct lx_kit_task* t);
/* One pointer slot per task for lx_emul (e.g. its struct task_struct). */
void* lx_kit_task_data(const struct lx_kit_task* t);
void lx_kit_task_set_data(struct lx_kit_task* t, void* data);
/* A second slot for the emulation compiled against the real kernel headers (its struct
 * task_struct has the real layout; both emulations may serve one task). */
void* lx_kit_task_real_data(const struct lx_kit_task* t);
void lx_kit_task_set_real_data(struct lx_kit_task* t, void* data);
/* Atomic-context depth (spinlocks, BH off, hard-IRQ handlers): sleeping calls abort while > 0. */
int* lx_kit_task_atomic_depth(struct lx_kit_task* t);
/* Wakes `t` if it is inside lx_kit_yield() or lx_kit_task_sleep_ns() (wake_up_process). */
void lx_kit_task_wake(struct lx_kit_task* t);

/* ---- wait handles -------------------------------------------------------------------------- */

/* A FIFO of blocked tasks, from a pool the runtime owns (freed at exit, so LeakSanitizer stays
 * clean even though kernel objects that lazily allocate one are never destroyed). */
struct lx_kit_wait;
struct lx_kit_wait* lx_kit_wait_alloc(const char* what);
/* Returns the handle to the pool. Aborts if a task still waits on it. */
void lx_kit_wait_free(struct lx_kit_wait* w);

/* Blocks the current task on `w` until notified or until timeout_ns of simulated time passed
 * (timeout_ns < 0: no timeout). Returns 1 if it timed out, 0 if notified. `why` names the kernel
 * primitive for diagnostics. Aborts when called from a context that cannot block. */
int lx_kit_wait_block(struct lx_kit_wait* w, int64_t timeout_ns, const char* why);
/* Like lx_kit_wait_block for a wait that is no scheduler wake-up: the IRQ thread waiting for its
 * line (lx_kit_irq_enter charges the interrupt) and the timer softirq. lx_kit_wait_block adds a
 * woken task's wake-up latency and context switch; this does not. */
int lx_kit_wait_block_unscheduled(struct lx_kit_wait* w, int64_t timeout_ns, const char* why);
/* Like lx_kit_wait_block, but the blocked time counts as CPU busy time (spinning). */
int lx_kit_wait_spin(struct lx_kit_wait* w, const char* why);
/* Like lx_kit_wait_block, queued first: a woken waiter that has to wait again keeps its place
 * (a mutex waiter stays on the kernel's wait list while it retries). */
int lx_kit_wait_block_first(struct lx_kit_wait* w, int64_t timeout_ns, const char* why);
/* Wakes the longest-waiting task; returns it, or NULL if nobody waits. */
struct lx_kit_task* lx_kit_wait_notify_one(struct lx_kit_wait* w);
/* The task lx_kit_wait_notify_one would wake, without waking it; NULL if nobody waits. */
struct lx_kit_task* lx_kit_wait_first(const struct lx_kit_wait* w);
/* Cores of the board's CPU (lx_kit parameters). */
unsigned lx_kit_cpu_cores(void);
/* Wakes every waiting task; returns how many. */
unsigned lx_kit_wait_notify_all(struct lx_kit_wait* w);
unsigned lx_kit_wait_count(const struct lx_kit_wait* w);

/* ---- time ---------------------------------------------------------------------------------- */

uint64_t lx_kit_now_ns(void);
/* Catches SystemC time up with the calling task's local time (bus/common/local_time.h): called
 * where kernel code returns to its non-kernel caller (ndo_start_xmit, ndo_open, module_init),
 * which may read the time or wait directly. */
void lx_kit_time_sync(void);
/* The same for a caller that follows the local-time rule itself: the kernel code's CPU time so
 * far is charged (on local time), without catching SystemC time up. */
void lx_kit_time_charge(void);
/* Longest finite timeout (about 11.6 simulated days); callers map longer ones to "forever". */
#define LX_KIT_MAX_TIMEOUT_NS 1000000000000000ull
#define LX_KIT_FOREVER UINT64_MAX
/* Sleeps (CPU idle) for ns (LX_KIT_FOREVER: no timeout; 0: one delta cycle), or until
 * lx_kit_task_wake(). Returns 1 if the full time passed, 0 if woken. */
int lx_kit_sleep_ns(uint64_t ns);
/* Sleeps until absolute simulated time abs_ns (no early wake-up). */
void lx_kit_sleep_until_ns(uint64_t abs_ns);
/* Busy-waits ns: time passes and the calling context occupies a CPU (reported to the busy hook). */
void lx_kit_busy_wait_ns(uint64_t ns);
/* schedule(): gives up the CPU for the yield quantum or until lx_kit_task_wake(), whichever comes
 * first. Time always progresses or an event is awaited; never returns at the same instant. */
void lx_kit_yield(void);

/* Platform/kernel parameters (set by the testbench before the run; C++: see runtime.h). */
unsigned lx_kit_hz(void);              /* default 250 (Debian arm64/amd64 CONFIG_HZ) */
uint64_t lx_kit_usleep_slack_ns(void); /* default UINT64_MAX: usleep_range wakes at max (non-RT) */
uint64_t lx_kit_yield_quantum_ns(void); /* default one jiffy */
uint64_t lx_kit_irq_latency_ns(void);  /* IRQ assertion -> thread handler start, default 0 */
/* The IRQ thread's way from a pending line to its handler: the hard interrupt and the switch to
 * the thread on a core (CPU time), within one draw of the IRQ-to-thread latency. */
void lx_kit_irq_enter(void);
/* Only the CPU part of that (hard IRQ and context switch), for an interrupt path whose latency a
 * bus host already applied (the SDIO card interrupt). */
void lx_kit_irq_charge(void);
/* A handler without a thread (request_irq): Linux runs it in hard-interrupt context, not in a
 * woken thread. Only the hard interrupt's CPU time is charged: no IRQ-to-thread latency, no
 * context switch. */
void lx_kit_hardirq_enter(void);
size_t lx_kit_skb_tail_slack(void);    /* writable bytes past skb->end before the canary, default 8 */

/* ---- interrupts ---------------------------------------------------------------------------- */

/* Trigger types, same values as the kernel's IRQF_TRIGGER_*. */
enum {
    LX_KIT_IRQ_EDGE_RISING = 0x1,
    LX_KIT_IRQ_EDGE_FALLING = 0x2,
    LX_KIT_IRQ_LEVEL_HIGH = 0x4,
    LX_KIT_IRQ_LEVEL_LOW = 0x8,
};
struct lx_kit_irq;
/* The trigger type the testbench configured for `irq` (register_irq), 0 if none. */
unsigned lx_kit_irq_configured_trigger(int irq);
/* Connects to the source the testbench registered under `irq` (nicsim::lx_kit::register_irq).
 * Returns NULL if none is registered. Edge triggers latch edges from now on. */
struct lx_kit_irq* lx_kit_irq_open(int irq, unsigned trigger);
void lx_kit_irq_close(struct lx_kit_irq* i);
/* Level trigger: line at the active level now. Edge trigger: an active edge is latched. */
int lx_kit_irq_pending(struct lx_kit_irq* i);
/* Edge trigger: clears the latch (the thread is about to handle it). No-op for level. */
void lx_kit_irq_ack(struct lx_kit_irq* i);
/* Notified on every relevant line change (and usable by lx_emul for its own enable/stop kicks). */
struct lx_kit_wait* lx_kit_irq_waitq(struct lx_kit_irq* i);

/* ---- logging and failure ------------------------------------------------------------------- */

/* One formatted kernel log line (no trailing newline needed), kernel level 0..7 (KERN_EMERG..
 * KERN_DEBUG). `origin` is the module or subsystem (e.g. KBUILD_MODNAME). Timestamped with the
 * simulated time by the sink; counted per level whether printed or not. */
void lx_kit_log(int level, const char* origin, const char* msg);
/* Continuation of the previous line (KERN_CONT). */
void lx_kit_log_cont(const char* msg);
unsigned long lx_kit_log_count(int level);

#define LX_KIT_ABORT_EXIT_CODE 70
/* Prints "nicsim: <message>" and ends the run: by default exits the process with
 * LX_KIT_ABORT_EXIT_CODE; in stop mode (set by the harness) stops the simulation and parks the
 * calling thread so the harness can report. Never returns. */
LX_KIT_NORETURN void lx_kit_abort(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif /* LX_KIT_LX_KIT_H */

/* SPDX-License-Identifier: MIT */
/* lx_emul: jiffies, ktime, delays and timers (linux/jiffies.h, ktime.h, delay.h, timer.h).
 * Everything runs on simulated (SystemC) time; see docs/driver-emulation.md for the table.
 * - jiffies = floor(now * HZ / 1 s), HZ set at run time (lx_kit, default 250). `jiffies` reads
 *   the tick count at the current simulated time (it is an rvalue, never stale, and needs no
 *   ticking process). Tick J begins at ceil(J * 1 s / HZ).
 * - udelay/ndelay/mdelay busy-wait: time passes and the CPU counts as busy.
 * - usleep_range(min, max): hrtimer with the range as slack: a real-time task (irq thread)
 *   wakes at min (schedule_hrtimeout_range drops an rt task's slack), another at min + slack,
 *   clipped to max (lx_kit parameter; default: at max, as an isolated hrtimer fires at its hard
 *   expiry).
 * - msleep(ms): schedule_timeout(msecs_to_jiffies(ms) + 1), i.e. wakes on a tick boundary.
 * - timers fire at the start of tick max(expires, jiffies_at_mod_timer + 1) in the timer softirq
 *   task (atomic context), in expiry order; no timer-wheel granularity beyond one tick. */
#ifndef LX_EMUL_TIME_H
#define LX_EMUL_TIME_H

#include <lx_emul/types.h>
#include <lx_emul/list.h>
#include <lx_emul/container_of.h>

#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L

/* ---- jiffies ---- */
unsigned long lx_emul_hz(void);
unsigned long lx_emul_jiffies(void);
#define HZ lx_emul_hz()
#define jiffies lx_emul_jiffies()
#define jiffies_64 ((u64)lx_emul_jiffies())
static inline u64 get_jiffies_64(void) { return lx_emul_jiffies(); }
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)

unsigned long msecs_to_jiffies(const unsigned int m);
unsigned long usecs_to_jiffies(const unsigned int u);
unsigned long nsecs_to_jiffies(u64 n);
unsigned int jiffies_to_msecs(const unsigned long j);
unsigned int jiffies_to_usecs(const unsigned long j);
u64 jiffies_to_nsecs(const unsigned long j);
#define round_jiffies(j) (j)
#define round_jiffies_relative(j) (j)
#define round_jiffies_up(j) (j)
#define round_jiffies_up_relative(j) (j)

#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))
#define time_after64(a, b) ((s64)((b) - (a)) < 0)
#define time_before64(a, b) time_after64(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)
#define time_is_before_eq_jiffies(a) time_after_eq(jiffies, a)
#define time_is_after_eq_jiffies(a) time_before_eq(jiffies, a)

/* ---- ktime (ns since simulation start) ---- */
ktime_t ktime_get(void);
#define ktime_get_ns() ((u64)ktime_get())
#define ktime_get_boottime() ktime_get()
#define ktime_get_boottime_ns() ((u64)ktime_get())
#define ktime_get_real() ktime_get()
#define ktime_get_real_ns() ((u64)ktime_get())
#define ktime_get_raw() ktime_get()
#define ktime_get_mono_fast_ns() ((u64)ktime_get())
#define ktime_get_coarse_boottime() ktime_get()
static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
    return secs * NSEC_PER_SEC + (s64)nsecs;
}
#define ktime_add(a, b) ((a) + (b))
#define ktime_sub(a, b) ((a) - (b))
#define ktime_add_ns(kt, ns) ((kt) + (s64)(ns))
#define ktime_sub_ns(kt, ns) ((kt) - (s64)(ns))
#define ktime_add_us(kt, us) ((kt) + (s64)(us)*NSEC_PER_USEC)
#define ktime_add_ms(kt, ms) ((kt) + (s64)(ms)*NSEC_PER_MSEC)
#define ktime_sub_us(kt, us) ((kt) - (s64)(us)*NSEC_PER_USEC)
static inline int ktime_compare(const ktime_t a, const ktime_t b)
{
    return a < b ? -1 : (a > b ? 1 : 0);
}
static inline bool ktime_after(const ktime_t a, const ktime_t b) { return ktime_compare(a, b) > 0; }
static inline bool ktime_before(const ktime_t a, const ktime_t b) { return ktime_compare(a, b) < 0; }
static inline s64 ktime_to_ns(const ktime_t kt) { return kt; }
static inline s64 ktime_to_us(const ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline s64 ktime_to_ms(const ktime_t kt) { return kt / NSEC_PER_MSEC; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline ktime_t us_to_ktime(u64 us) { return (ktime_t)(us * NSEC_PER_USEC); }
static inline ktime_t ms_to_ktime(u64 ms) { return (ktime_t)(ms * NSEC_PER_MSEC); }
static inline s64 ktime_us_delta(const ktime_t later, const ktime_t earlier)
{
    return ktime_to_us(later - earlier);
}
static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier)
{
    return ktime_to_ms(later - earlier);
}
static inline ktime_t ktime_mono_to_real(ktime_t mono) { return mono; }
#define KTIME_MAX ((s64)~((u64)1 << 63))

/* ---- delays ---- */
void lx_emul_ndelay(unsigned long ns);
void lx_emul_udelay(unsigned long us);
void lx_emul_mdelay(unsigned long ms);
#define ndelay(n) lx_emul_ndelay(n)
#define udelay(n) lx_emul_udelay(n)
#define mdelay(n) lx_emul_mdelay(n)
void msleep(unsigned int msecs);
unsigned long msleep_interruptible(unsigned int msecs);
void usleep_range(unsigned long min, unsigned long max);
#define usleep_range_state(min, max, state) usleep_range(min, max)
static inline void ssleep(unsigned int seconds) { msleep(seconds * 1000); }
static inline void fsleep(unsigned long usecs)
{
    if (usecs <= 10)
        udelay(usecs);
    else if (usecs <= 20000)
        usleep_range(usecs, 2 * usecs);
    else
        msleep((usecs + 999) / 1000);
}

/* ---- timers ---- */
struct timer_list {
    struct list_head entry;  /* in the pending list while pending */
    unsigned long expires;
    void (*function)(struct timer_list*);
    u32 flags;
    /* lx_emul */
    unsigned long fire_jiffy; /* tick at which it runs (>= expires) */
    unsigned long seq;        /* FIFO order among equal fire ticks */
    bool pending;
};
#define TIMER_DEFERRABLE 0x00080000
#define TIMER_PINNED 0x00200000
#define TIMER_IRQSAFE 0x00400000
#define from_timer(var, callback_timer, timer_fieldname)                                           \
    container_of(callback_timer, __typeof__(*var), timer_fieldname)
void lx_emul_timer_setup(struct timer_list* timer, void (*func)(struct timer_list*), u32 flags);
#define timer_setup(timer, callback, flags) lx_emul_timer_setup((timer), (callback), (flags))
#define timer_setup_on_stack timer_setup
#define destroy_timer_on_stack(t) ((void)(t))
#define DEFINE_TIMER(_name, _function)                                                             \
    struct timer_list _name = {.entry = {&(_name).entry, &(_name).entry}, .function = (_function)}
int mod_timer(struct timer_list* timer, unsigned long expires);
#define mod_timer_pending(t, e) (timer_pending(t) ? mod_timer(t, e) : 0)
void add_timer(struct timer_list* timer);
int del_timer(struct timer_list* timer);
int del_timer_sync(struct timer_list* timer);
#define try_to_del_timer_sync del_timer
#define timer_delete del_timer
#define timer_delete_sync del_timer_sync
static inline int timer_pending(const struct timer_list* timer) { return timer->pending; }

#endif /* LX_EMUL_TIME_H */

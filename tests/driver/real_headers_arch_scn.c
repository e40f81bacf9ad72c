/* SPDX-License-Identifier: MIT */
/* The fake arch (kernel/arch/) under the real kernel headers of one tree: the kernel's own
 * atomic, refcount, bitops, irqflags, preempt-count, MMIO, jiffies, page and byte-order APIs built
 * on the arch's definitions and the shadows, and the generated headers (bounds.h, autoconf.h).
 * Compiled once per tree, each into its own test executable (real_headers_arch_test.cc). */
#include <linux/atomic.h>
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/page-flags.h>
#include <linux/poison.h>
#include <linux/preempt.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/byteorder.h>

/* The one task of this test: what the emulation's lx_emul_current_task returns for a task. */
static struct task_struct the_task;
struct task_struct *lx_emul_current_task(void) { return &the_task; }

static int failures;
static char *why_buf;
static unsigned long why_len;

static void fail(const char *what)
{
    if (!failures && why_buf && why_len)
        snprintf(why_buf, why_len, "%s", what);
    failures++;
}
#define EXPECT(c) do { if (!(c)) fail(#c); } while (0)

/* Reached only when a refcount saturates or underflows (lib/refcount.c in the kernel). */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
    (void)r; (void)t;
    fail("refcount_warn_saturate");
}

static void check_atomics(void)
{
    atomic_t a = ATOMIC_INIT(5);
    EXPECT(atomic_inc_return(&a) == 6);
    EXPECT(!atomic_dec_and_test(&a));
    EXPECT(atomic_cmpxchg(&a, 5, 9) == 5 && atomic_read(&a) == 9);
    EXPECT(atomic_cmpxchg(&a, 5, 1) == 9 && atomic_read(&a) == 9);
    int old = 9;
    EXPECT(atomic_try_cmpxchg(&a, &old, 2) && atomic_read(&a) == 2);
    old = 7;
    EXPECT(!atomic_try_cmpxchg(&a, &old, 3) && old == 2);
    EXPECT(atomic_fetch_or(0x10, &a) == 2 && atomic_read(&a) == 0x12);
    EXPECT(atomic_xchg(&a, -1) == 0x12 && atomic_read(&a) == -1);
    atomic_set(&a, 1);
    EXPECT(atomic_dec_and_test(&a));

    atomic64_t b = ATOMIC64_INIT(1LL << 40);
    EXPECT(atomic64_add_return(1, &b) == (1LL << 40) + 1);
    EXPECT(atomic64_fetch_sub(1LL << 40, &b) == (1LL << 40) + 1 && atomic64_read(&b) == 1);
    EXPECT(atomic64_cmpxchg(&b, 1, -5) == 1 && atomic64_read(&b) == -5);

    atomic_long_t l = ATOMIC_LONG_INIT(0);
    EXPECT(atomic_long_add_return(3, &l) == 3);
    EXPECT(atomic_long_fetch_andnot(1, &l) == 3 && atomic_long_read(&l) == 2);

    refcount_t r = REFCOUNT_INIT(1);
    refcount_inc(&r);
    EXPECT(refcount_read(&r) == 2);
    EXPECT(!refcount_dec_and_test(&r));
    EXPECT(refcount_dec_and_test(&r));
}

static void check_bitops(void)
{
    unsigned long bits[2] = {0, 0};
    set_bit(70, bits);
    EXPECT(bits[1] == (1UL << 6));
    EXPECT(test_and_set_bit(3, bits) == 0 && test_bit(3, bits));
    EXPECT(test_and_clear_bit(70, bits) == 1 && bits[1] == 0);
    __set_bit(0, bits);
    EXPECT(bits[0] == 0x9);
    /* wlan.c's FIELD_PREP(BIT(31), tqe->type) with WILC_MGMT_PKT (2): the value is not a
     * constant, so no compile-time range check, and the bit is 0. */
    volatile unsigned int mgmt = 2;
    EXPECT(FIELD_PREP(BIT(31), mgmt) == 0);
    EXPECT(FIELD_GET(GENMASK(15, 8), 0xabcdUL) == 0xab);
}

static void check_context(void)
{
    unsigned long flags;
    EXPECT(current == &the_task);
    local_irq_save(flags);
    EXPECT(!irqs_disabled());
    local_irq_restore(flags);
    EXPECT(!in_interrupt() && !in_softirq() && !in_hardirq());
    the_task.thread_info.preempt_count = HARDIRQ_OFFSET;
    EXPECT(in_hardirq() && in_interrupt() && !in_task());
    the_task.thread_info.preempt_count = SOFTIRQ_OFFSET;
    EXPECT(in_serving_softirq() && in_interrupt());
    the_task.thread_info.preempt_count = 0;
    local_bh_disable();
    EXPECT(in_softirq() && !in_serving_softirq());
    the_task.thread_info.preempt_count = 0; /* local_bh_enable is the emulation's */
}

/* The bridge side of MMIO, as the emulation's io.c would be: the cookie is never dereferenced. */
static const volatile void __iomem *io_last;
static unsigned int io_calls;
u16 __raw_readw(const volatile void __iomem *addr)
{
    io_last = addr;
    io_calls++;
    return 0xbeef;
}
u16 ioread16(const volatile void __iomem *addr)
{
    io_last = addr;
    io_calls++;
    return 0x1234;
}
void iowrite16_rep(volatile void __iomem *addr, const void *buffer, unsigned int count)
{
    (void)buffer;
    io_last = addr;
    io_calls += count == 3 ? 1 : 100;
}

static void check_io(void)
{
    /* A cookie no process may read: an access through the pointer would crash the test. */
    void __iomem *cookie = (void __iomem *)0x10UL;
    u16 words[3] = {1, 2, 3};
    EXPECT(readw(cookie) == 0xbeef && io_last == cookie && io_calls == 1);
    EXPECT(ioread16(cookie + 2) == 0x1234 && io_last == cookie + 2 && io_calls == 2);
    iowrite16_rep(cookie, words, 3);
    EXPECT(io_calls == 3); /* one burst, not one call per word */
}

/* The run-time tick rate, as lx_kit serves the profile's kernel.hz, and the conversion the
 * emulation implements with it (rounding up, as the kernel's). */
static unsigned long test_hz = 100;
unsigned long lx_emul_hz(void) { return test_hz; }
unsigned long msecs_to_jiffies(const unsigned int m) { return (m * test_hz + 999) / 1000; }
/* The tick of the current simulated time, as lx_emul serves it. */
static unsigned long test_tick = 41;
unsigned long lx_emul_jiffies(void) { return test_tick; }

static void check_time(void)
{
    /* The nominal CONFIG_HZ (250) would make these 3 and 1250: the shadow (kernel/shadow/
     * linux/jiffies.h) sends constant arguments and HZ to the run-time rate too. */
    EXPECT(msecs_to_jiffies(10) == 1);
    EXPECT(5 * HZ == 500);
    test_hz = 1000;
    EXPECT(msecs_to_jiffies(10) == 10 && HZ == 1000);
    test_hz = 100;
    EXPECT(time_after(2UL, 1UL) && time_before(ULONG_MAX, 0UL + 1));
    /* jiffies is read when used (no timer interrupt advances a variable): the shadow sends
     * jiffies, jiffies_64 and get_jiffies_64() to the emulation's tick. */
    unsigned long start = jiffies;
    test_tick = 42;
    EXPECT(start == 41 && jiffies == 42 && get_jiffies_64() == 42 && jiffies_64 == 42);
    EXPECT(time_is_before_jiffies(41UL) && time_after_eq(jiffies, start));
}

static void check_layout(void)
{
    EXPECT(PAGE_SIZE == 4096);
    EXPECT(virt_to_pfn((void *)0x5000) == 5);
    /* generated/bounds.h from the tree's kernel/bounds.c */
    EXPECT(NR_PAGEFLAGS == __NR_PAGEFLAGS);
    EXPECT((unsigned long)LIST_POISON1 == 0xdead000000000100UL);
    EXPECT(IS_ENABLED(CONFIG_64BIT) && !IS_ENABLED(CONFIG_SMP) && !IS_ENABLED(CONFIG_MMU));
    __be32 be = cpu_to_be32(0x01020304);
    EXPECT(((unsigned char *)&be)[0] == 1 && ((unsigned char *)&be)[3] == 4);
    __le16 le = cpu_to_le16(0x0102);
    EXPECT(((unsigned char *)&le)[0] == 2 && le16_to_cpu(le) == 0x0102);
}

int nicsim_rh_arch_check(char *why, unsigned long len)
{
    failures = 0;
    why_buf = why;
    why_len = len;
    check_atomics();
    check_bitops();
    check_context();
    check_io();
    check_time();
    check_layout();
    return failures;
}

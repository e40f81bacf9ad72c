// SPDX-License-Identifier: MIT
// The emulation compiled against one tree's real kernel headers (nicsim_lx_real_<tree>,
// NICSIM_RH_KERNEL): mutexes on the kernel's struct mutex with lx_emul's sleeping lock beside it,
// `current` as a real task_struct per lx_kit task, the generic delay and sleep entry points,
// local_bh_enable counting in the real preempt count, and work items on lx_emul's workqueues.
// One executable per tree.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include <lx_kit/lx_emul_api.h>
#include <lx_kit/lx_kit.h>
#include <lx_kit/runtime.h>

#include "real_emul_scn.h"

// The SPI host a real-header spi_sync sends to (kernel/lx_emul_bus/bridge_c.h): records each
// frame and answers reads with 0xa0, 0xa1 …; a frame of one transfer fails with -EIO.
struct lx_bus_spi_xfer {
    const void* tx;
    void* rx;
    unsigned len;
    unsigned bits_per_word;
    uint32_t speed_hz;
    uint64_t delay_after_ns;
    int cs_change;
};
static std::vector<std::string> spi_frames;
extern "C" int lx_bus_spi_bridge_transfer(void* bridge, const char* who, unsigned cs,
                                          uint32_t speed_hz, unsigned mode,
                                          const lx_bus_spi_xfer* xfers, size_t n) {
    std::string f = std::string(who) + " bridge " + static_cast<const char*>(bridge) + " cs " +
                    std::to_string(cs) + " " + std::to_string(speed_hz) + " Hz mode " +
                    std::to_string(mode);
    for (size_t i = 0; i < n; i++) {
        const lx_bus_spi_xfer& x = xfers[i];
        f += " | " + std::to_string(x.len) + (x.tx ? " tx" : "") + (x.rx ? " rx" : "") + " " +
             std::to_string(x.bits_per_word) + " bit " + std::to_string(x.speed_hz) + " Hz " +
             std::to_string(x.delay_after_ns) + " ns" + (x.cs_change ? " cs_change" : "");
        if (x.tx)
            for (unsigned b = 0; b < x.len; b++)
                f += " " + std::to_string(static_cast<const uint8_t*>(x.tx)[b]);
        if (x.rx)
            for (unsigned b = 0; b < x.len; b++)
                static_cast<uint8_t*>(x.rx)[b] = static_cast<uint8_t>(0xa0 + b);
    }
    spi_frames.push_back(f);
    return n == 1 ? -5 : 0;
}

// The parallel bus a real-header ioread16/iowrite16 reaches (bridge_c.h): records each access;
// a read returns 0x1000 + the address's low byte.
static std::vector<std::string> mmio_accesses;
static std::string mmio_who(void* bridge, const char* who) {
    return std::string(who) + " " + static_cast<const char*>(bridge);
}
extern "C" uint16_t lx_bus_mmio16_bridge_read(void* bridge, const char* who, uint64_t addr) {
    mmio_accesses.push_back(mmio_who(bridge, who) + " read " + std::to_string(addr));
    return static_cast<uint16_t>(0x1000 + (addr & 0xff));
}
extern "C" void lx_bus_mmio16_bridge_write(void* bridge, const char* who, uint64_t addr,
                                           uint16_t value) {
    mmio_accesses.push_back(mmio_who(bridge, who) + " write " + std::to_string(addr) + " " +
                            std::to_string(value));
}
extern "C" void lx_bus_mmio16_bridge_read_rep(void* bridge, const char* who, uint64_t addr,
                                              uint16_t* buf, size_t count) {
    mmio_accesses.push_back(mmio_who(bridge, who) + " read " + std::to_string(addr) + " x" +
                            std::to_string(count));
    for (size_t i = 0; i < count; i++)
        buf[i] = static_cast<uint16_t>(0x2000 + i);
}
extern "C" void lx_bus_mmio16_bridge_write_rep(void* bridge, const char* who, uint64_t addr,
                                               const uint16_t* buf, size_t count) {
    std::string s = mmio_who(bridge, who) + " write " + std::to_string(addr) + " x" +
                    std::to_string(count);
    for (size_t i = 0; i < count; i++)
        s += " " + std::to_string(buf[i]);
    mmio_accesses.push_back(s);
}

namespace {

constexpr uint64_t us = 1000;
using ev = std::pair<uint64_t, long>;

std::vector<ev> events() {
    std::vector<ev> e;
    for (unsigned i = 0; i < rh_test_events; i++)
        e.emplace_back(rh_test_t[i], rh_test_v[i]);
    return e;
}

void run_for(uint64_t ns) { sc_core::sc_start(sc_core::sc_time(double(ns), sc_core::SC_NS)); }

TEST(RealEmulMutex, ContenderWaitsForTheHolderAndOwnerIsTheRealTask) {
    // The holder locks at 0 and sleeps 1 ms; the contender's udelay(100) is 100 us of busy CPU,
    // its trylock fails, its mutex_lock returns when the holder unlocks at 1 ms.
    lx_kit_task_create("holder", rh_scn_mutex_holder, nullptr);
    lx_kit_task_create("contender", rh_scn_mutex_contender, nullptr);
    run_for(10 * 1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {100 * us, 0}, {1000 * us, 2}, {1000 * us, 3},
                                         {1000 * us, 4}})) << NICSIM_RH_KERNEL;
}

TEST(RealEmulTask, EachTaskHasItsOwnTaskStruct) {
    static char a[] = "task-a", b[] = "task-b";
    lx_kit_task_create(a, rh_scn_current, a);
    lx_kit_task_create(b, rh_scn_current, b);
    run_for(1000 * us);
    auto e = events();
    ASSERT_EQ(e.size(), 4u);
    EXPECT_NE(e[0].second, e[2].second); // two pids
    EXPECT_EQ(e[1].second, 1);           // comm is the lx_kit task's name
    EXPECT_EQ(e[3].second, 1);
}

TEST(RealEmulBh, EnableLeavesSoftirqContextAndRunsTheHooks) {
    lx_kit_task_create("bh", rh_scn_bh, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 9}, {0, 0}}));
}

TEST(RealEmulWork, QueuedOncePendingUntilAWorkerRunsItFlushWaits) {
    // queue 1, queue again 0 (pending), pending 1; the worker runs it (pending already clear)
    // and returns at 50 us, when flush_work returns true; then not pending, flush of an idle
    // item false; queued again and cancelled before a worker ran it: true, not pending.
    lx_kit_task_create("queuer", rh_scn_work, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 0}, {0, 1}, {50 * us, 7}, {50 * us, 1},
                                         {50 * us, 0}, {50 * us, 0}, {50 * us, 1}, {50 * us, 1},
                                         {50 * us, 0}}));
}

TEST(RealEmulLog, NetdevLinesArePrefixedWithTheDeviceNameAndGpiosAreNone) {
    std::vector<std::string> lines;
    nicsim::lx_kit::set_log_sink([&](const nicsim::lx_kit::log_record& r) {
        lines.push_back(std::to_string(r.level) + " " + r.origin + " | " + r.text);
    });
    lx_kit_task_create("logger", rh_scn_log_gpio, nullptr);
    run_for(1000 * us);
    nicsim::lx_kit::set_log_sink({});
    EXPECT_EQ(lines, (std::vector<std::string>{"6 eth7 | eth7: up 3 00:01:02:03:04:05",
                                               "3 (null net_device) | (null net_device): gone"}));
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 0}}));
}

TEST(RealEmulNetdev, RandomAddressIsTheRunStreamAndReachesTheShadowCopy) {
    // lx_emul's stream (kernel/lx_emul/random.c): xorshift32 from 0x2545F491, a byte per step;
    // eth_random_addr clears the multicast and sets the local bit of the first.
    uint32_t state = 0x2545F491u;
    std::vector<ev> want;
    for (int i = 0; i < 6; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        long byte = i == 0 ? ((state & 0xfe) | 0x02) : (state & 0xff);
        want.emplace_back(0, byte | 0x100);
    }
    want.emplace_back(0, 1);
    lx_kit_task_create("addr", rh_scn_random_addr, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), want);
}

TEST(RealEmulMdio, RegisteringScansTheUnmaskedAddressesForPhyIds) {
    // Address 0: PHYSID1 fails, so no PHYSID2; address 1: PHYSID1 then PHYSID2 (the clause-22
    // scan of phylib, as on the shadow headers).
    lx_kit_task_create("mdio", rh_scn_mdio, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 0 * 16 + 2}, {0, 1 * 16 + 2},
                                         {0, 1 * 16 + 3}, {0, 0}, {0, 1}, {0, 9}}));
}

TEST(RealEmulSkb, AllocatedPutQueuedDequeuedAndFreedOnTheRealLayout) {
    // Fresh state 1; skb_put returns the old tail (1); two queued; two live; dequeued in order,
    // then none; with a second user the first free keeps it (2 live), the last frees it (0); a
    // purged queue frees its skb and is empty (0).
    lx_kit_task_create("skb", rh_scn_skb, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 1}, {0, 2}, {0, 2}, {0, 1}, {0, 1}, {0, 1},
                                         {0, 2}, {0, 0}, {0, 0}}));
}

TEST(RealEmulSkbDeathTest, MisuseStopsTheRunNamingTheSkb) {
    const std::pair<long, const char*> cases[] = {
        {0, "skb_over_panic: skb_put\\(len 65\\): skb #[0-9]+ \\(allocated by __alloc_skb"},
        {1, "skb double free: skb #[0-9]+ .* freed again by kfree_skb"},
        {2, "skb guard: head underrun in kfree_skb: skb #[0-9]+"},
        {3, "kfree_skb: skb #[0-9]+ .*skb_shared_info says clones or fragments \\(255 frags"},
    };
    for (const auto& [how, message] : cases) {
        EXPECT_EXIT(
            {
                lx_kit_task_create("skb-bad", rh_scn_skb_bad, reinterpret_cast<void*>(how));
                run_for(1000 * us);
            },
            testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE), message)
            << how;
    }
}

TEST(RealEmulNetdev, RegisteredDeviceQueueCarrierPresenceAndReceive) {
    const size_t blocks = lx_emul_mem_live_count();
    lx_kit_task_create("netdev", rh_scn_netdev, nullptr);
    run_for(1000 * us);
    // Allocated as ether_setup leaves it (1); eth0 registered (0), then ndo_init sees the
    // expanded name (11), registered (0) as eth1 (1), present with carrier, not running (1);
    // open: ndo_open sees it running (21), returns 0, running with its queue started (1);
    // stopped (1); woken: the hook (100), not stopped and the hook saw the device (10); carrier
    // off twice counts one down (10), on one up (11); detached: absent and stopped (10);
    // attached: the queue woken (100), present and started (1); frames: PACKET_HOST (0), the
    // hook gets 60 bytes from the MAC header to ours (60000 + 0x102), PACKET_BROADCAST (1),
    // 64 bytes to 0xff (64000 + 0xff); 2 netif_rx calls and no skb left (2); dev_close: ndo_stop
    // after it stopped running (30), not running nor up (0); unregistered (1).
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1},     {0, 0},        {0, 11},  {0, 0},
                                         {0, 1},     {0, 1},        {0, 21},  {0, 0},
                                         {0, 1},     {0, 1},        {0, 100}, {0, 10},
                                         {0, 10},    {0, 11},       {0, 10},  {0, 100},
                                         {0, 1},     {0, 0},        {0, 60258}, {0, 1},
                                         {0, 64255}, {0, 2},        {0, 30},  {0, 0},
                                         {0, 1}}));
    EXPECT_EQ(lx_emul_mem_live_count(), blocks); // both devices freed, the devm one by devres
}

TEST(RealEmulParam, ParametersByNameBitReversalAndNoGpio) {
    // int: set 0, value -12, get 4 characters "-12\n" (41), "12x" -EINVAL and unchanged,
    // unknown -ENOENT; bool: "" sets it (0), get "Y\n" (21), "n" clears it (0); bitrev8(1),
    // bitrev16(3) from the tree's byte_rev_table; gpiod_set_value_cansleep(NULL) returns (1).
    lx_kit_task_create("param", rh_scn_param_bitrev, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {0, -12}, {0, 41}, {0, -22}, {0, -12}, {0, -2},
                                         {0, 0}, {0, 21}, {0, 0}, {0, 0x80}, {0, 0xc000},
                                         {0, 1}}));
}

TEST(RealEmulDriver, SpiAndPlatformDriversRegisteredFoundByBusAndNameAndUnregistered) {
    lx_kit_task_create("drivers", rh_scn_drivers, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {0, 0}, {0, 1}, {0, 1}, {0, -16}, {0, 1},
                                         {0, 1}}));
}

TEST(RealEmulMii, TheTreesMiiHelpersOnARealNetDevice) {
    // Link down (0), carrier off (0); up (1), carrier on (1); 100 Mbit/s full duplex (1001),
    // autonegotiated with the advertised and partner modes (1); SIOCGMIIREG returns 0 and BMSR
    // (0x0024: link, autonegotiation complete); the nway restart writes BMCR (reg 0) of PHY 1
    // with ANENABLE | ANRESTART (0x1200) and returns 0.
    lx_kit_task_create("mii", rh_scn_mii, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {0, 0}, {0, 1}, {0, 1}, {0, 1001}, {0, 1},
                                         {0, 0}, {0, 0x24}, {0, 0x100000 + 0x1200}, {0, 0}}));
}

TEST(RealEmulSlab, KmallocOnTheTreesGfpBitsPoisonsOrZeroesAndAccounts) {
    const size_t blocks = lx_emul_mem_live_count();
    lx_kit_task_create("slab", rh_scn_slab, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}));
    EXPECT_EQ(lx_emul_mem_live_count(), blocks);
}

TEST(RealEmulSpi, SyncFlattensTheRealMessageIntoOneFrameOnTheBridge) {
    static char bridge[] = "host0";
    lx_kit_task_create("spi", rh_scn_spi_sync, bridge);
    run_for(1000 * us);
    // The frame: chip select 1, the device's 20 MHz, mode 3 without CS_HIGH; the write with
    // the default 8 bits, 5 us after; the read in 16-bit words at 1 MHz, 8 SCK = 8 us after,
    // cs_change. Then the one-transfer frame the host fails.
    EXPECT_EQ(spi_frames, (std::vector<std::string>{
                              "spi0.1 bridge host0 cs 1 20000000 Hz mode 3 | 2 tx 8 bit 0 Hz "
                              "5000 ns 18 52 | 4 rx 16 bit 1000000 Hz 8000 ns cs_change",
                              "spi0.1 bridge host0 cs 1 20000000 Hz mode 3 | 2 tx 8 bit 0 Hz "
                              "5000 ns 18 52",
                              "spi0.1 bridge host0 cs 1 20000000 Hz mode 3 | 1 tx 8 bit 0 Hz "
                              "0 ns 94 | 2 rx 8 bit 0 Hz 0 ns"}));
    // 0, complete (6 bytes) naming the device (16), read 0xa0a1a2a3; empty -EINVAL; -EIO with
    // nothing transferred; spi_write_then_read: one frame of a write and a read (0, 0xa0a1).
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {0, 16}, {0, 0xa0a1a2a3}, {0, -22}, {0, -5},
                                         {0, -500}, {0, 0}, {0, 0xa0a1}}));
}

TEST(RealEmulPlatform, ResourcesIrqAndTheMappedWindowOnTheParallelBus) {
    static char bridge[] = "par0";
    lx_kit_task_create("platform", rh_scn_platform, bridge);
    run_for(1000 * us);
    // IRQ 42, no second IRQ (-ENXIO); the read returns 0x1000 + 0x06; no third MEM (-EINVAL).
    EXPECT_EQ(events(), (std::vector<ev>{{0, 42}, {0, -6}, {0, 0x1006}, {0, -22}}));
    // Bus addresses are the second MEM resource's base + the offset; the burst reads 0x2000..2
    // and writes the first two back.
    const std::string base = "rh_par.0 par0 ";
    EXPECT_EQ(mmio_accesses, (std::vector<std::string>{
                                 base + "write " + std::to_string(0x20000004) + " 48879",
                                 base + "read " + std::to_string(0x20000006),
                                 base + "read " + std::to_string(0x20000002) + " x3",
                                 base + "write " + std::to_string(0x20000008) + " x2 8192 8193"}));
}

TEST(RealEmulLog, PrintkDevPrintkAndTheTreesHexDumpReachTheLog) {
    std::vector<std::string> lines;
    nicsim::lx_kit::set_log_sink([&](const nicsim::lx_kit::log_record& r) {
        lines.push_back(std::to_string(r.level) + " " + r.origin + " | " + r.text);
    });
    lx_kit_task_create("printk", rh_scn_printk, nullptr);
    run_for(1000 * us);
    nicsim::lx_kit::set_log_sink({});
    // Levels from the KERN_* prefixes (pr_info 6, pr_warn 4, dev_err 3, dev_info 6, the dump's
    // KERN_DEBUG 7); dev_* lines prefixed with the device's name; the tree's print_hex_dump.
    EXPECT_EQ(lines, (std::vector<std::string>{
                         "6 kernel | hello 3",
                         "4 kernel | mac 00:00:00:00:00:00",
                         "3 rh_par.0 | rh_par.0: bad state",
                         "6 (NULL device *) | (NULL device *): nobody",
                         "7 kernel | rx: 00000000: 01 02 03 04 ff                                   .....",
                         "3 rh_par.0 | rh_par.0: IRQ index 1 not found"}));
    EXPECT_EQ(events(), (std::vector<ev>{{0, -6}}));
}

TEST(RealEmulOfNet, MacAddressFromTheNodesPropertiesInTheKernelsOrder) {
    // "mac-address" is not unicast, so "local-mac-address" (…:01, before "address") is taken:
    // 0, last byte 1 with the shadow copy (11); no property -ENODEV, no node -ENODEV; through
    // the device's of_node 0 and …:01; without one -ENOENT.
    lx_kit_task_create("of", rh_scn_of_mac, nullptr);
    run_for(1000 * us);
    EXPECT_EQ(events(), (std::vector<ev>{{0, 0}, {0, 11}, {0, -19}, {0, -19}, {0, 0}, {0, 1},
                                         {0, -2}}));
}

TEST(RealEmulBhDeathTest, SleepingWithBhDisabledStops) {
    EXPECT_EXIT(
        {
            lx_kit_task_create("bh-sleeper", rh_scn_sleep_in_bh, nullptr);
            run_for(1000 * us);
        },
        testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
        "mutex_lock: sleeping function called from atomic context");
}

} // namespace

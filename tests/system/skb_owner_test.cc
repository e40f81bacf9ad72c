// SPDX-License-Identifier: MIT
// The skb destructor path a host stack's TCP Small Queues relies on (tcp_wfree): a frame handed to
// the real driver with lx_emul_netdev_xmit_owned is reported freed exactly once, when the driver
// lets go of the skb (wilc1000: tx_complete_fn after the copy into the chip's VMM; ks8851: after
// the TXQ write), never before ndo_start_xmit took it, and netif_wake_queue after a stop tells the
// stack its qdisc may run again.
#include <algorithm>
#include <vector>

#include "bus/common/local_time.h"
#include "tests/system/ks8851_system_support.h"
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

struct owner_log {
    std::vector<uint64_t> freed;    // cookies in free order
    std::vector<double> freed_at_s; // simulated time of each free
    static void on_free(void* ctx, uint64_t cookie) {
        auto* l = static_cast<owner_log*>(ctx);
        l->freed.push_back(cookie);
        l->freed_at_s.push_back(sc_time_stamp().to_seconds());
    }
};

std::vector<uint8_t> frame_to(const uint8_t* dst, const uint8_t* src, size_t len, uint8_t seed) {
    return test::ks_frame(dst, src, len, seed);
}

// Hands `n` frames to the driver (retrying while it refuses, as the qdisc would) and returns when
// each was accepted; records when each was accepted.
// Returns how often it found the queue stopped by the driver.
unsigned send_owned(::net_device* dev, owner_log& log, unsigned n, std::vector<double>& accepted_at,
                    size_t len = 600) {
    const uint8_t* mac = lx_bus_netdev_addr(dev);
    unsigned stops_seen = 0;
    for (unsigned i = 0; i < n; ++i) {
        const auto f = frame_to(test::ks_peer_mac.data(), mac, len + 50 * (i % 8), uint8_t(i + 1));
        bool stopped_before = false;
        for (;;) {
            const bool stopped = test::ks_state(dev).queue_stopped;
            if (stopped && !stopped_before)
                ++stops_seen;
            stopped_before = stopped;
            const bool taken =
                !stopped && lx_emul_netdev_xmit_owned(dev, f.data(), f.size(), &owner_log::on_free,
                                                      &log, i) == 0;
            nicsim::local_time::sync(); // xmit_owned returns on the caller's local time
            if (taken)
                break;
            sc_core::wait(sc_time(20, sc_core::SC_US));
        }
        accepted_at.push_back(sc_time_stamp().to_seconds());
    }
    return stops_seen;
}

void expect_each_freed_once_after_accept(const owner_log& log,
                                         const std::vector<double>& accepted_at, unsigned n) {
    ASSERT_EQ(log.freed.size(), n) << "every accepted skb must be freed exactly once";
    std::vector<uint64_t> sorted = log.freed;
    std::sort(sorted.begin(), sorted.end());
    for (unsigned i = 0; i < n; ++i)
        EXPECT_EQ(sorted[i], i);
    for (size_t k = 0; k < log.freed.size(); ++k)
        EXPECT_GE(log.freed_at_s[k], accepted_at.at(log.freed[k]))
            << "skb " << log.freed[k] << " reported freed before the driver accepted it";
}

TEST(SkbOwner, Ks8851SpiDriverFreesEachOwnedSkbOnceAfterTheTxqWrite) {
    const auto l = test::ks_load(test::ks_scenario_for(false));
    test::ks8851_test_system sys("system", l.scenario, l.platform);
    owner_log log;
    std::vector<double> accepted_at;
    sys.after_up = [&](test::ks8851_test_system& s) {
        send_owned(s.netdev(), log, 8, accepted_at);
        sc_core::wait(sc_time(20, SC_MS));
        return false;
    };
    sys.run();
    expect_each_freed_once_after_accept(log, accepted_at, 8);
    EXPECT_EQ(sys.chip().core.stats().tx_frames, 8u);
}

TEST(SkbOwner, Wilc1000SpiDriverFreesEachOwnedSkbOnceAfterTheCopyToTheChip) {
    const auto ls = test::load_shipped("wilc1000-spi-ttcp-tx.yaml", {"driver.power_save=false"});
    test::wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    owner_log log;
    std::vector<double> accepted_at;
    uint64_t vmm_writes_before = 0;
    sys.after_up = [&] {
        vmm_writes_before = sys.chip().core.stats().tx_frames_to_air;
        send_owned(sys.netdev(), log, 8, accepted_at);
        sc_core::wait(sc_time(50, SC_MS));
        return false;
    };
    sys.run();
    expect_each_freed_once_after_accept(log, accepted_at, 8);
    // Freed by tx_complete_fn once the frames were in the chip: they all reached the air.
    EXPECT_EQ(sys.chip().core.stats().tx_frames_to_air - vmm_writes_before, 8u);
}

TEST(SkbOwner, BusyXmitDoesNotReportAFreeAndWakeAfterStopNotifies) {
    const auto l = test::ks_load(test::ks_scenario_for(false));
    test::ks8851_test_system sys("system", l.scenario, l.platform);
    unsigned wakes = 0, stops_seen = 0;
    owner_log log;
    std::vector<double> accepted_at;
    sys.after_up = [&](test::ks8851_test_system& s) {
        ::net_device* dev = s.netdev();
        lx_emul_netdev_set_queue_wake(
            dev, [](void* ctx, ::net_device*) { ++*static_cast<unsigned*>(ctx); }, &wakes);
        // Many large frames at once: the driver stops the queue when the chip's TXQ is full and
        // wakes it from its IRQ/TX work when space frees up.
        stops_seen = send_owned(dev, log, 24, accepted_at, 1400);
        sc_core::wait(sc_time(50, SC_MS));
        return false;
    };
    sys.run();
    expect_each_freed_once_after_accept(log, accepted_at, 24);
    EXPECT_FALSE(test::ks_state(sys.netdev()).queue_stopped);
    // 24 full frames do not fit the chip's TX memory: the driver stopped the queue, and every
    // stop was ended by a netif_wake_queue that reached the stack.
    EXPECT_GE(stops_seen, 1u);
    EXPECT_GE(wakes, stops_seen);
}

} // namespace
} // namespace nicsim

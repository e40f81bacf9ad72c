// SPDX-License-Identifier: MIT
// The driver's link statistics and TCP ACK filter (docs/models/wilc1000.md "Statistics and the
// TCP ACK filter"): every 5 s while connected, hif.c's timer sends one 'Q' with WID_LINKSPEED,
// WID_RSSI, WID_SUCCESS_FRAME_COUNT, WID_RECEIVED_FRAGMENT_COUNT and WID_FAILED_COUNT; the
// firmware answers the link speed in whole Mbit/s, and the driver turns its TCP ACK filter on
// above 54 unless it reads 72 (DEFAULT_LINK_SPEED). The filter drops queued pure ACKs that a
// later ACK of the same session makes redundant, so fewer frames reach the chip than the
// board's stack sent.
#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using namespace wilc::regmap;
using test::load_shipped;
using test::wilc1000_spi_test_system;

struct stats_run {
    std::vector<double> query_times_s;    // each 'Q' of WID_LINKSPEED
    bool five_wids_in_order = true;       // every query carries the five WIDs, in hif.c's order
    std::optional<bool> tcp_ack_filter;   // the report's devices[0].tcp_ack_filter
    uint64_t stack_frames = 0;            // frames the board's stack handed the driver
    uint64_t chip_data_frames = 0;        // data frames the chip got over the bus
};

// ttcp receiving for 11 s simulated (two statistics queries) on a link of `rate`.
stats_run run_at(const std::string& rate) {
    auto ls = load_shipped("wilc1000-spi-ttcp-rx.yaml",
                           {"traffic.bytes=0", "duration=11s", "driver.power_save=false",
                            "link.phy_rate=" + rate});
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    const report::report r = sys.run();
    EXPECT_EQ(r.end_reason, "duration limit");
    stats_run out;
    const uint16_t order[] = {WID_LINKSPEED, WID_RSSI, WID_SUCCESS_FRAME_COUNT,
                              WID_RECEIVED_FRAGMENT_COUNT, WID_FAILED_COUNT};
    const auto& log = sys.chip().core.wid_log();
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].type != 'Q' || log[i].wid != WID_LINKSPEED)
            continue;
        out.query_times_s.push_back(log[i].t.to_seconds());
        for (size_t k = 0; k < 5; ++k)
            if (i + k >= log.size() || log[i + k].wid != order[k] || log[i + k].t != log[i].t)
                out.five_wids_in_order = false;
    }
    out.tcp_ack_filter = r.devices.at(0).tcp_ack_filter;
    out.stack_frames = sys.traffic().board_stack().frames_transmitted();
    out.chip_data_frames = sys.chip().core.stats().tx_frames_to_air;
    return out;
}

TEST(Wilc1000LinkStatistics, QueriedEvery5sAndAbove54MbitTheAckFilterDropsRedundantAcks) {
    const stats_run r = run_at("65Mbps"); // HT20 MCS7, long guard interval
    ASSERT_EQ(r.query_times_s.size(), 2u) << "one query per 5 s of an 11 s run";
    EXPECT_NEAR(r.query_times_s[1] - r.query_times_s[0], 5.0, 0.02) << "5000 ms, in jiffies";
    EXPECT_TRUE(r.five_wids_in_order);
    ASSERT_TRUE(r.tcp_ack_filter.has_value());
    EXPECT_TRUE(*r.tcp_ack_filter);
    // From the first query on, ACKs the stack queued behind a newer one never reach the chip:
    // hundreds of them, far more than the few frames the duration's cut leaves queued.
    EXPECT_GT(r.stack_frames, r.chip_data_frames + 100);
}

TEST(Wilc1000LinkStatistics, At72MbitTheDefaultLinkSpeedLeavesTheFilterOff) {
    const stats_run r = run_at("72.2Mbps"); // the firmware reads 72: DEFAULT_LINK_SPEED
    ASSERT_EQ(r.query_times_s.size(), 2u);
    ASSERT_TRUE(r.tcp_ack_filter.has_value());
    EXPECT_FALSE(*r.tcp_ack_filter);
    // Every frame the stack sent reached the chip, but the few the duration's cut left queued.
    EXPECT_LE(r.stack_frames - r.chip_data_frames, 8u);
}

TEST(Wilc1000LinkStatistics, At54MbitTheFilterStaysOff) {
    const stats_run r = run_at("54Mbps");
    ASSERT_TRUE(r.tcp_ack_filter.has_value());
    EXPECT_FALSE(*r.tcp_ack_filter);
    EXPECT_LE(r.stack_frames - r.chip_data_frames, 8u);
}

} // namespace
} // namespace nicsim

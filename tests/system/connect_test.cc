// SPDX-License-Identifier: MIT
// Issue 12 deliverable 1: the station connect sequence (docs/models/wilc1000.md "Connect
// sequence"). The driver glue sends exactly the WIDs 6.1/6.12 hif.c's wilc_send_connect_wid
// sends (WID_SET_MFP, WID_INFO_ELEMENT_ASSOCIATE, WID_11I_MODE, WID_AUTH_TYPE,
// WID_JOIN_REQ_EXTENDED, one 'W' frame), with the struct wilc_join_bss_param of the scenario's
// AP; the firmware joins after params::join_time and reports it with an 'I' (connected), which
// the driver answers with a 'Q' WID_ASSOC_RES_INFO. With link.associated false the AP never
// answers: no 'I' connected, the driver's 9.5 s connect timer gives up (WID_DISCONNECT) and no
// data frame crosses the air.
#include <algorithm>

#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using namespace wilc::regmap;
using test::driver_log;
using test::load_shipped;
using test::wilc1000_spi_test_system;

// Index of the first record of (type, wid) in the log at or after `from`, or -1.
long find_wid(const std::vector<wilc::wid_record>& log, char type, uint16_t wid, size_t from = 0) {
    for (size_t i = from; i < log.size(); ++i)
        if (log[i].type == type && log[i].wid == wid)
            return long(i);
    return -1;
}

// The driver's own view: the glue's connected() reads hif_state of the variant that ran.
bool connected(const wilc1000_spi_test_system& sys, const config::scenario_config& sc) {
    const lx_bus_wilc_ops* ops = lx_bus_wilc_ops_find(sc.driver.build_key().c_str());
    return ops && sys.netdev() && ops->connected(sys.netdev());
}

TEST(Wilc1000Connect, JoinWidsThenConnectStatusAfterTheJoinTimeThenAssocResInfo) {
    driver_log log;
    auto ls = load_shipped("wilc1000-spi-ttcp-tx.yaml",
                           {"traffic.bytes=64KiB", "link.ssid=lab-ap", "link.channel=11",
                            "link.dtim_period=3", "driver.power_save=true"});
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    const report::report r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    // The report says so (devices[].association).
    ASSERT_EQ(r.devices.size(), 1u);
    ASSERT_TRUE(r.devices[0].association.has_value());
    EXPECT_EQ(r.devices[0].association->state, "associated");
    EXPECT_EQ(r.devices[0].association->join_requests, 1u);
    ASSERT_TRUE(r.devices[0].association->associated_at_s.has_value());
    EXPECT_DOUBLE_EQ(*r.devices[0].association->associated_at_s,
                     sys.chip().core.join_statistics().associated_at.to_seconds());
    const wilc::core& fw = sys.chip().core;
    const auto& wids = fw.wid_log();

    // The five WIDs of wilc_send_connect_wid, in its order, in one 'W' frame (same time).
    const uint16_t order[] = {WID_SET_MFP, WID_INFO_ELEMENT_ASSOCIATE, WID_11I_MODE, WID_AUTH_TYPE,
                              WID_JOIN_REQ_EXTENDED};
    const long first = find_wid(wids, 'W', WID_SET_MFP);
    ASSERT_GE(first, 0) << "no join WIDs received";
    ASSERT_LE(size_t(first) + 5, wids.size());
    for (size_t k = 0; k < 5; ++k) {
        const auto& w = wids[size_t(first) + k];
        EXPECT_EQ(w.type, 'W');
        EXPECT_EQ(w.wid, order[k]) << "position " << k;
        EXPECT_EQ(w.t, wids[size_t(first)].t) << "not one config frame";
    }
    // Types and sizes as hif.c sends them: MFP none, no extra IEs (BIN of 0 bytes), no
    // security, WILC_FW_AUTH_ANY (cfg80211's NL80211_AUTHTYPE_AUTOMATIC for `iw connect`), and
    // the 100-byte struct wilc_join_bss_param.
    EXPECT_EQ(wids[size_t(first)].value, std::vector<uint8_t>{0});
    EXPECT_TRUE(wids[size_t(first) + 1].value.empty());
    EXPECT_EQ(wids[size_t(first) + 2].value, std::vector<uint8_t>{0});
    EXPECT_EQ(wids[size_t(first) + 3].value, std::vector<uint8_t>{3});
    EXPECT_EQ(wids[size_t(first) + 4].value.size(), wilc::join_bss_param_bytes);

    // The join request names the scenario's AP.
    const air_bss& ap = sys.dev().air().params().bss;
    const wilc::join_request& jr = fw.join_request_received();
    EXPECT_EQ(jr.bssid, ap.bssid);
    EXPECT_EQ(jr.ssid, "lab-ap");
    EXPECT_EQ(jr.channel, 11u);
    EXPECT_EQ(jr.beacon_period, 100u); // 102.4 ms in TU
    EXPECT_EQ(jr.dtim_period, 3u);
    EXPECT_EQ(jr.capability, ap.capability);
    EXPECT_EQ(jr.rates, std::vector<uint8_t>(ap.rates.begin(), ap.rates.end()));
    EXPECT_EQ(jr.drv_handler, 1u); // wilc_get_vif_idx of the first vif

    // 'I' connected exactly join_time after the request, then the driver's 'Q'.
    const auto& js = fw.join_statistics();
    EXPECT_EQ(js.requests, 1u);
    EXPECT_EQ(js.associations, 1u);
    EXPECT_EQ(js.unanswered, 0u);
    EXPECT_EQ(js.requested_at, wids[size_t(first)].t);
    EXPECT_EQ(js.associated_at - js.requested_at, sys.dev().chip_params().join_time);
    const long q = find_wid(wids, 'Q', WID_ASSOC_RES_INFO);
    ASSERT_GE(q, 0) << "the driver never queried WID_ASSOC_RES_INFO";
    EXPECT_GT(wids[size_t(q)].t, js.associated_at);
    EXPECT_EQ(fw.join(), wilc::join_state::associated);

    // The driver parsed a successful association response and became connected (hif_state
    // HOST_IF_CONNECTED, set by host_int_parse_assoc_resp_info on WLAN_STATUS_SUCCESS) after
    // the 'Q'; the bring-up waited for it before the traffic started.
    EXPECT_GT(sys.dev().connected_at(), wids[size_t(q)].t);
    EXPECT_FALSE(log.contains("Unspecified failure"));
    EXPECT_FALSE(log.contains("wilc_parse_assoc_resp_info() returned error"));
    // Data flowed, and 802.11 power save runs now that the firmware is associated.
    EXPECT_GT(fw.stats().tx_frames_to_air, 0u);
    EXPECT_EQ(fw.stats().tx_dropped_unassociated, 0u);
    EXPECT_NE(fw.power_save().state(), wilc::ps_state::off);
    // The connect timer was stopped by the result: no WID_DISCONNECT.
    EXPECT_EQ(find_wid(wids, 'W', WID_DISCONNECT), -1);
}

TEST(Wilc1000Connect, UnansweredJoinNeverConnectsAndExchangesNoData) {
    driver_log log;
    auto ls = load_shipped("wilc1000-spi-ttcp-tx.yaml",
                           {"link.associated=false", "duration=12s", "driver.power_save=true"});
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    const report::report r = sys.run();
    ASSERT_EQ(r.devices.size(), 1u);
    ASSERT_TRUE(r.devices[0].association.has_value());
    // Unanswered until the driver's connect timer gave up and sent WID_DISCONNECT: idle again.
    EXPECT_EQ(r.devices[0].association->state, "idle");
    EXPECT_EQ(r.devices[0].association->join_requests, 1u);
    EXPECT_FALSE(r.devices[0].association->associated_at_s.has_value());
    EXPECT_EQ(r.end_reason, "duration limit");
    const wilc::core& fw = sys.chip().core;
    const auto& js = fw.join_statistics();
    EXPECT_EQ(js.requests, 1u);
    EXPECT_EQ(js.associations, 0u);
    EXPECT_EQ(js.unanswered, 1u);
    // No 'Q' WID_ASSOC_RES_INFO: the driver never saw an 'I' connected.
    EXPECT_EQ(find_wid(fw.wid_log(), 'Q', WID_ASSOC_RES_INFO), -1);
    // hif.c's connect timer (9.5 s) gives up: cfg_connect_result's "Unspecified failure", then
    // WID_DISCONNECT, and the firmware leaves the BSS it never joined.
    const auto* fail = log.find("Unspecified failure");
    ASSERT_NE(fail, nullptr);
    const sc_core::sc_time timeout(9.5, sc_core::SC_SEC);
    const sc_core::sc_time jiffy(10, sc_core::SC_MS); // the platform's HZ = 100: timers fire on
                                                      // a tick
    EXPECT_GE(fail->time - js.requested_at, timeout - jiffy);
    EXPECT_LT(fail->time - js.requested_at, timeout + jiffy);
    EXPECT_GE(find_wid(fw.wid_log(), 'W', WID_DISCONNECT), 0);
    EXPECT_EQ(fw.join(), wilc::join_state::idle);
    EXPECT_EQ(sys.dev().connected_at(), sc_core::SC_ZERO_TIME);
    EXPECT_FALSE(connected(sys, ls.scenario));
    // No data frame crossed the air either way; the driver's frames died in the firmware.
    EXPECT_EQ(fw.stats().tx_frames_to_air, 0u);
    EXPECT_GT(fw.stats().tx_dropped_unassociated, 0u);
    EXPECT_EQ(sys.dev().air().stats().station_frames, 0u);
    EXPECT_EQ(sys.dev().air().stats().peer_frames, 0u);
    // Power save never dozes without an association.
    EXPECT_EQ(fw.power_save().stats().dozes, 0u);
}

} // namespace
} // namespace nicsim

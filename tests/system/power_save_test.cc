// SPDX-License-Identifier: MIT
// Issue 3 item 6: with power save on, the chip wake-ups the host requests match what the 6.1
// driver code does, counted from the code (drivers/net/wireless/microchip/wilc1000/wlan.c):
//
//  * acquire_bus(WILC_BUS_ACQUIRE_AND_WAKEUP) calls chip_wakeup() only while
//    wilc->power_save_mode is set; chip_wakeup() writes WAKEUP = 1, and chip_allow_sleep() (in
//    release_bus(WILC_BUS_RELEASE_ALLOW_SLEEP)) clears it again, so every such acquire is one
//    0 -> 1 write of the WAKEUP bit = one power_model::host_wake_requests().
//  * wilc_wlan_handle_txq(), per TX batch: AND_WAKEUP for the VMM handshake (wlan.c:793),
//    ALLOW_SLEEP after the allocation (868), AND_WAKEUP for the data DMA (930), ALLOW_SLEEP (939)
//    -> 2 per batch. A VMM-full answer (entries == 0) leaves through out_release_bus after the
//    first acquire -> 1. Every pass writes HOST_VMM_CTL = 2 once: core_stats::vmm_alloc_requests
//    counts passes, vmm_alloc_full the full ones.
//  * wilc_handle_isr(), per interrupt: AND_WAKEUP (1078) / ALLOW_SLEEP (1087) -> 1 per RX
//    interrupt = core_stats::rx_batches (one INT0 assertion per batch).
//  * Bring-up and WID exchanges: wilc->power_save_mode becomes true only in
//    wilc_set_power_mgmt() *after* its WID_POWER_MANAGEMENT exchange succeeded (hif.c), and the
//    firmware download / start / the init config exchange all run before that. So every
//    bring-up exchange costs zero wake-ups: the 'I' messages and the 'R' replies (RX
//    interrupts) and the 'W'/'Q' frames (TX batches) must be subtracted. Their number, from the
//    code path of ndo_open (wilc_mac_open, netdev.c), ndo_set_rx_mode, the connect (hif.c,
//    kernel/glue/wilc1000/connect_glue.c) and set_power_mgmt:
//      'Q' FIRMWARE_VERSION, 'W' init config (35 WIDs, wilc_init_fw_config),
//      'W' SET_OPERATION_MODE, 'Q' MAC_ADDR                 -- wilc_mac_open
//      'W' SETUP_MULTICAST_FILTER (enabled, 0 addresses)     -- wilc_set_multicast_list
//      'W' SET_MFP .. JOIN_REQ_EXTENDED, 'I' connected,
//      'Q' ASSOC_RES_INFO                                     -- connect, its 'I' handling
//      'W' POWER_MANAGEMENT = 1 (MIN_FAST_PS)                -- wilc_set_power_mgmt
//    = 8 config frames, each its own TX batch (wilc_send_config_pkt waits for the reply before
//    returning, and no data is queued yet), answered by 8 'R' + the two 'I' = 10 RX interrupts.
//    (In the kernel the multicast filter goes through hif.c's workqueue; the hif glue of this
//    build sends it synchronously from the caller, kernel/glue/wilc1000/hif_glue.c, so it is
//    ordered before the power-management WID.) No WID is sent during traffic: the periodic
//    statistics WIDs need a cfg80211 connection (hif.c get_periodic_rssi).
//
// Hence, after the run:
//   host_wake_requests == 2 * (passes - full - 6) + full + (rx_irqs - 7)
#include <functional>

#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using test::driver_log;
using test::load_shipped;
using test::wilc1000_sdio_test_system;
using test::wilc1000_spi_test_system;

// Config frames of the bring-up path (see the comment at the top) and their RX interrupts.
constexpr uint64_t bringup_cfg_frames = 8;
constexpr uint64_t bringup_rx_irqs = bringup_cfg_frames + 2; // + the two 'I' messages

struct wake_counts {
    uint64_t passes, full, rx_irqs, cfg_frames, cfg_replies, wake_requests, wakeups;
};

wake_counts run_and_count(const char* file, const char* bytes, bool power_save,
                          const wilc::params& chip = {},
                          const std::function<void(config::scenario_config&)>& adjust = {}) {
    driver_log log;
    auto ls =
        load_shipped(file, {std::string("traffic.bytes=") + bytes,
                            std::string("driver.power_save=") + (power_save ? "true" : "false")});
    if (adjust)
        adjust(ls.scenario);
    EXPECT_EQ(ls.platform.name, "sama5-class");
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform, chip);
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const report::report r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_TRUE(log.errors().empty()) << "driver error line: " << log.errors().front();
    const auto& core = sys.chip().core;
    const auto& cs = core.stats();
    auto& pm = sys.chip().power();
    // The bring-up WIDs the tally below relies on reached the firmware model.
    constexpr uint16_t wid_power_management = 0x000b, wid_setup_multicast_filter = 0x408b;
    EXPECT_FALSE(core.wid_value(wid_setup_multicast_filter).empty());
    EXPECT_EQ(core.wid_value(wid_power_management),
              power_save ? std::vector<uint8_t>{1} : std::vector<uint8_t>{0}) // init config: 0
        << "WID_POWER_MANAGEMENT last set by the driver";
    ::testing::Test::RecordProperty("tx_frames_to_air", std::to_string(cs.tx_frames_to_air));
    ::testing::Test::RecordProperty("sim_time_s", std::to_string(r.sim_time_s));
    // The report's wake-ups are the host's wake requests.
    EXPECT_EQ(r.devices.at(0).wakeups, pm.host_wake_requests());
    return {cs.vmm_alloc_requests, cs.vmm_alloc_full,       cs.rx_batches, cs.cfg_frames,
            cs.cfg_replies,        pm.host_wake_requests(), pm.wakeups()};
}

void expect_driver_wake_pattern(const wake_counts& c, bool data_rx = true) {
    ::testing::Test::RecordProperty("tx_passes", std::to_string(c.passes));
    ::testing::Test::RecordProperty("vmm_full", std::to_string(c.full));
    ::testing::Test::RecordProperty("rx_irqs", std::to_string(c.rx_irqs));
    ::testing::Test::RecordProperty("wake_requests", std::to_string(c.wake_requests));
    // The bring-up tally the formula subtracts is what actually crossed the bus.
    ASSERT_EQ(c.cfg_frames, bringup_cfg_frames) << "config frames: the bring-up path changed";
    ASSERT_EQ(c.cfg_replies, bringup_cfg_frames);
    ASSERT_GT(c.passes, bringup_cfg_frames) << "no data TX batch in the window";
    if (data_rx) {
        ASSERT_GT(c.rx_irqs, bringup_rx_irqs) << "no data RX interrupt in the window";
    }
    ASSERT_GE(c.passes - bringup_cfg_frames, c.full);

    const uint64_t tx_batches = c.passes - bringup_cfg_frames - c.full;
    const uint64_t rx_irqs = c.rx_irqs - bringup_rx_irqs;
    EXPECT_EQ(c.wake_requests, 2 * tx_batches + c.full + rx_irqs)
        << "tx batches " << tx_batches << ", vmm-full passes " << c.full << ", rx interrupts "
        << rx_irqs;
    // The chip did sleep between the driver's accesses (else the count would prove little). It
    // also wakes by itself for firmware work such as a frame arriving from the air, so its own
    // wake-up count is not bounded by the host's requests.
    EXPECT_GT(c.wakeups, 0u);
}

// A firmware that gates its clock 10 us after it falls idle (not the default 10 ms), so the
// driver's requests between the batches find it asleep and the count is of real wake-ups.
wilc::params sleeps_at_once() {
    wilc::params p;
    p.sleep_entry_delay = sc_core::sc_time(10, sc_core::SC_US);
    return p;
}

TEST(Wilc1000SpiPowerSave, TxWakeUpsAreTwoPerBatchAndOnePerInterrupt) {
    expect_driver_wake_pattern(
        run_and_count("wilc1000-spi-ttcp-tx.yaml", "256KiB", true, sleeps_at_once()));
}

TEST(Wilc1000SpiPowerSave, RxWakeUpsAreTwoPerBatchAndOnePerInterrupt) {
    expect_driver_wake_pattern(
        run_and_count("wilc1000-spi-ttcp-rx.yaml", "256KiB", true, sleeps_at_once()));
}

// The driver before 5.17 (variant chip-sleep-5.16, docs/sources.md#wilc1000-wake-up) wakes the
// chip on every bus acquire by pulsing WAKEUP and sleeping 2-2.5 ms before it reads the chip ID,
// and never pulses again while it waits: it works only because the firmware stays awake
// sleep_entry_delay after its last work. Every request finds the clock running, and the
// requests, serialised by the bus mutex, take at least 2 ms each.
TEST(Wilc1000SpiPowerSave, TheDriverBefore517SleepsAtLeast2msPerWakeUpOnAChipThatStaysAwake) {
    driver_log log;
    auto ls = load_shipped("wilc1000-spi-ttcp-tx.yaml",
                           {"traffic.bytes=256KiB", "driver.power_save=true",
                            "driver.variant=chip-sleep-5.16"});
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform);
    sys.ifdown_after_run = false;
    const report::report r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_TRUE(log.errors().empty()) << "driver error line: " << log.errors().front();
    const auto w = sys.chip().power().wakes();
    ASSERT_GT(w.requests, 100u);
    EXPECT_EQ(w.found_running, w.requests);
    EXPECT_EQ(w.polls[0], w.requests) << "the SPI wake-up reads the chip ID, not CLK_STATUS";
    EXPECT_GE(r.sim_time_s, double(w.requests) * 2e-3);
    EXPECT_EQ(log.count("Failed cmd"), 0u) << "a chip-ID read found the clock off";
}

// A chip with little TX buffer memory behind a slow air link, fed by a UDP flood, should answer
// VMM allocations with 0 entries, so that the driver takes the VMM-full exit after its first
// wake-up (one wake-up per full pass; 6.1 retries at once) -- the formula's third term.
// DISABLED: with a one-frame VMM (2 KiB) and 6 Mbit/s air the model never answered "full"
// (vmm_alloc_full = 0: the driver's passes came only when space was free, one frame per ~4 ms of
// air time) and the run showed one wake request more than the formula (27 vs 2 * 13 data passes
// = 26, no data RX interrupt). Unexplained so far; candidates: a TX pass cut off by sc_stop at the
// end of the flow after its first acquire_bus, or an interrupt without INT0. Reported to the
// lead, not fixed here.
TEST(Wilc1000SpiPowerSave, DISABLED_TxWakeUpsWithVmmFullPasses) {
    wilc::params chip;
    chip.tx_vmm_bytes = 2 * 1024; // one MTU frame (1552-byte VMM entry); default 64 KiB
    const auto c = run_and_count("wilc1000-spi-ttcp-tx.yaml", "32KiB", true, chip,
                                 [](config::scenario_config& s) {
                                     s.traffic.kind = config::traffic_kind::udp_tx;
                                     s.traffic.datagram_size.bytes = 1472;
                                     s.traffic.rate.bps = 0;    // flood
                                     s.link.phy_rate.bps = 6e6; // slow air: the VMM fills
                                 });
    EXPECT_GT(c.full, 0u) << "no VMM-full pass: the case is not exercised";
    expect_driver_wake_pattern(c, false);
}

// The same traffic with power save off: power_save_mode stays false, so the driver never writes
// the WAKEUP bit and the chip never sleeps (the firmware's power-management WID stayed 0).
TEST(Wilc1000SpiPowerSave, OffMeansNoWakeRequestAtAll) {
    const auto c = run_and_count("wilc1000-spi-ttcp-tx.yaml", "64KiB", false);
    EXPECT_EQ(c.cfg_frames, bringup_cfg_frames - 1); // no WID_POWER_MANAGEMENT = 1
    EXPECT_GT(c.passes, c.cfg_frames);
    EXPECT_EQ(c.wake_requests, 0u);
    EXPECT_EQ(c.wakeups, 0u);
}

} // namespace
} // namespace nicsim

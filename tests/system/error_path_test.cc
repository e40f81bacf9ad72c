// SPDX-License-Identifier: MIT
// Issue 3 item 6: chip faults surface through the 6.1 driver's own error path, with a clear
// message and in bounded simulated time, never as a hang. Each fault is a knob of the chip model
// (models/wilc1000/wilc1000_params.h); the expected driver lines and timeouts are the driver's
// (drivers/net/wireless/microchip/wilc1000/{netdev,wlan}.c).
#include <string>

#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using sc_core::sc_time_stamp;
using test::driver_log;
using test::load_shipped;
using test::wilc1000_sdio_test_system;
using test::wilc1000_spi_test_system;

// Simulated-time limit of the error runs: a fault that hangs the driver runs into this limit
// instead of failing fast, and the tests check they ended well before it.
constexpr double limit_s = 30.0;

struct outcome {
    bool threw = false;
    std::string message; // run_error text
    double sim_time_s = 0;
    std::string end_reason; // when the run completed
    wilc::core_stats chip;  // chip counters at the end
    uint64_t wake_requests = 0;
    uint64_t spi_messages = 0;             // SPI transactions (CS frames) on the bus
    std::vector<report::finding> findings; // of the report, when the run completed
};

outcome run_with(const wilc::params& chip, bool power_save, const char* bytes = "16KiB") {
    const auto ls =
        load_shipped("wilc1000-spi-ttcp-tx.yaml",
                     {std::string("traffic.bytes=") + bytes,
                      std::string("driver.power_save=") + (power_save ? "true" : "false"),
                      "duration=" + std::to_string(static_cast<int>(limit_s)) + "s"});
    wilc1000_spi_test_system sys("system", ls.scenario, ls.platform, chip);
    outcome o;
    std::string error; // run(error), not run(): no throw after the simulation (see its comment)
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const report::report r = sys.run(error);
    o.threw = !error.empty();
    o.message = error;
    o.end_reason = r.end_reason;
    o.findings = r.findings;
    o.sim_time_s = sc_time_stamp().to_seconds();
    o.chip = sys.chip().core.stats();
    o.wake_requests = sys.chip().power().host_wake_requests();
    o.spi_messages = sys.spi_host().stats().frames;
    return o;
}

// The firmware boots but never sends 'I': wilc_start_firmware() waits 5000 ms for sync_event and
// returns -ETIME (-62); wilc_wlan_initialize() unwinds and prints "WLAN initialization FAILED";
// ndo_open fails with that code.
TEST(Wilc1000SpiErrorPath, FirmwareWithoutReadyMessageTimesOutAfterFiveSeconds) {
    driver_log log;
    wilc::params chip;
    chip.fault_no_fw_ready = true;
    const outcome o = run_with(chip, false);
    ASSERT_TRUE(o.threw) << "the run completed although the firmware never became ready";
    EXPECT_NE(o.message.find("ndo_open"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("-62"), std::string::npos) << "not -ETIME: " << o.message;
    const auto* line = log.find("WLAN initialization FAILED");
    ASSERT_NE(line, nullptr) << "the driver did not print its own failure line";
    // The 5 s completion timeout, counted from the CPU start after the firmware download.
    EXPECT_GE(line->time.to_seconds(), 5.0);
    EXPECT_LT(o.sim_time_s, 5.5);
    EXPECT_FALSE(log.contains("Failed to configure firmware")); // it never got that far
}

// 'W'/'Q' frames are never answered: the optional 'Q' FIRMWARE_VERSION times out silently
// (3000 ms, wilc_wlan_cfg_get), then wilc_init_fw_config()'s 'W' times out (another 3000 ms) and
// the driver prints "Failed to configure firmware" and unwinds.
TEST(Wilc1000SpiErrorPath, UnansweredConfigFrameFailsAfterTheCfgTimeouts) {
    driver_log log;
    wilc::params chip;
    chip.fault_cfg_unanswered = true;
    const outcome o = run_with(chip, false);
    ASSERT_TRUE(o.threw) << "the run completed although no config frame was answered";
    EXPECT_NE(o.message.find("ndo_open"), std::string::npos) << o.message;
    const auto* cfg = log.find("Failed to configure firmware");
    ASSERT_NE(cfg, nullptr) << "the driver did not print its own failure line";
    EXPECT_TRUE(log.contains("WLAN initialization FAILED"));
    // Two 3 s cfg timeouts after the firmware came up (boot takes milliseconds).
    EXPECT_GE(cfg->time.to_seconds(), 6.0);
    EXPECT_LT(o.sim_time_s, 6.5);
    EXPECT_EQ(o.chip.cfg_replies, 0u);
    EXPECT_EQ(o.chip.cfg_frames, 2u); // FIRMWARE_VERSION and the init config, then it gave up
}

// CHIPID reads a foreign id. The 6.1 driver has no error path for this: wilc_get_chipid() maps a
// non-WILC1000 id to 0 (wlan.c:1466) "without failing", init_chip() then selects boot-from-IRAM
// (the 2B0 path) and wilc_wlan_get_firmware() prints "ChipID [0] loading firmware". The only
// trace of the fault is that line. This test pins the driver's actual behaviour: the id is
// rejected (0 is reported), and nothing hangs.
TEST(Wilc1000SpiErrorPath, WrongChipIdIsReportedAsChipIdZeroByTheDriver) {
    driver_log log;
    wilc::params chip;
    chip.fault_wrong_chip_id = true;
    chip.fault_chip_id = 0x00001234;
    const outcome o = run_with(chip, false);
    EXPECT_TRUE(log.contains("ChipID [0] loading firmware")) << "driver did not reject the id";
    EXPECT_FALSE(log.contains("ChipID [1003a0]"));
    EXPECT_LT(o.sim_time_s, limit_s) << "ran into the duration limit: " << o.end_reason;
    ::testing::Test::RecordProperty("outcome", o.threw ? o.message : o.end_reason);
}

// CLK_STATUS bit 2 never reads 1 (power save on, so the driver polls it). chip_wakeup() reads it
// 10000 times without delay, prints "Failed to wake-up the chip" and returns without telling its
// caller (wlan.c:673); the bus is then used anyway. The model keeps the clock running while the
// WAKEUP bit is set, so the transfer still completes -- slowly. Checked: one failure line per
// wake request, at least 10000 clock-status reads each, and no hang.
TEST(Wilc1000SpiErrorPath, StuckClockStatusMakesEveryWakeUpFailLoudly) {
    driver_log log;
    wilc::params chip;
    chip.fault_clk_status_stuck = true;
    const outcome o = run_with(chip, true, "4KiB");
    ::testing::Test::RecordProperty("outcome", o.threw ? o.message : o.end_reason);
    const size_t failures = log.count("Failed to wake-up the chip");
    EXPECT_GT(failures, 0u) << "the driver never tried to wake the chip";
    EXPECT_EQ(failures, o.wake_requests);
    // WAKE_UP_TRIAL_RETRY (10000) clock-status reads per failed wake-up, one SPI message each.
    EXPECT_GE(o.spi_messages, failures * 10000);
    EXPECT_EQ(o.end_reason, "traffic complete") << "the driver carries on after the failure";
    EXPECT_LT(o.sim_time_s, limit_s) << "ran into the duration limit: " << o.end_reason;
}

// The 6.1 driver only logs a failed wake-up and carries on; the report surfaces the driver's own
// error line as a finding, counted once with how often it was logged.
TEST(Wilc1000SpiErrorPath, StuckClockStatusShowsAsADriverErrorFindingInTheReport) {
    wilc::params chip;
    chip.fault_clk_status_stuck = true;
    const outcome o = run_with(chip, true, "4KiB");
    ASSERT_FALSE(o.threw) << o.message;
    const report::finding* f = nullptr;
    for (const auto& x : o.findings)
        if (x.source == "driver" &&
            x.message.find("Failed to wake-up the chip") != std::string::npos)
            f = &x;
    ASSERT_NE(f, nullptr) << "no driver finding for the failed wake-ups";
    EXPECT_EQ(f->severity, "error");
    EXPECT_NE(f->message.find("(logged " + std::to_string(o.wake_requests) + " times)"),
              std::string::npos)
        << f->message;
}

} // namespace
} // namespace nicsim

// SPDX-License-Identifier: MIT
//
// Issue 13 deliverable 1: every shipped fault config (configs/faults/, docs/faults.md) through
// the real `nicsim` binary, asserting what the 6.1 driver did about the fault: the lines it
// printed, how the run ended (recovered: exit 0; not recovered: exit 4 with a verdict finding;
// failed: exit 2 with the fault named), the model's counts. No wall-clock times are asserted;
// every config has a short simulated duration, so none can hang. Plus the loader's checks of
// the faults: list.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string exe = NICSIM_EXE;
const std::string faults_dir = std::string(NICSIM_SOURCE_DIR) + "/configs/faults/";

struct result {
    int rc = -1;
    std::string out; // stdout + stderr
    json report;     // the --json report (null when none was written)
};

std::string q(const std::string& s) {
    return "'" + s + "'";
}

result shell(const std::string& cmd) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    result r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        r.out.append(buf, n);
    const int status = pclose(p);
    r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The test's scratch directory, removed when the test process ends.
fs::path temp_dir() {
    struct made_dirs {
        std::vector<fs::path> dirs;
        ~made_dirs() {
            for (const auto& d : dirs) {
                std::error_code ec;
                fs::remove_all(d, ec);
            }
        }
    };
    static made_dirs made;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::temp_directory_path() /
                 ("nicsim-faults-" + std::string(info->name()) + "-" + std::to_string(getpid()));
    if (fs::create_directories(d))
        made.dirs.push_back(d);
    return d;
}

// `nicsim run configs/faults/<name>.yaml <args> --json ... -q`.
result run(const std::string& name, const std::string& args = "") {
    const fs::path json_file = temp_dir() / "r.json";
    fs::remove(json_file);
    result r = shell(q(exe) + " run " + q(faults_dir + name + ".yaml") + " " + args + " --json " +
                     q(json_file.string()) + " -q");
    if (fs::exists(json_file)) {
        std::ifstream in(json_file);
        r.report = json::parse(in);
    }
    return r;
}

const json& fault(const result& r) {
    static const json none;
    if (r.report.is_null() || !r.report.contains("faults") || r.report["faults"].empty())
        return none;
    return r.report["faults"][0];
}

bool has_effect(const json& f, const std::string& text) {
    for (const auto& e : f["effects"])
        if (e["effect"].get<std::string>().find(text) != std::string::npos)
            return true;
    return false;
}

// Count of the driver line containing `text` among the fault's driver lines (0: none).
std::uint64_t driver_line(const json& f, const std::string& text) {
    for (const auto& l : f["driver_lines"])
        if (l["line"].get<std::string>().find(text) != std::string::npos)
            return l["count"].get<std::uint64_t>();
    return 0;
}

bool has_finding(const json& rep, const std::string& source, const std::string& severity,
                 const std::string& text) {
    for (const auto& f : rep["findings"])
        if (f["source"] == source && f["severity"] == severity &&
            f["message"].get<std::string>().find(text) != std::string::npos)
            return true;
    return false;
}

std::uint64_t bytes(const result& r) {
    return r.report["flows"][0]["bytes"].get<std::uint64_t>();
}

// A recovered run: exit 0, everything delivered, the fault hit and says "recovered".
void expect_recovered(const result& r, std::uint64_t asked) {
    ASSERT_EQ(r.rc, 0) << r.out;
    ASSERT_FALSE(r.report.is_null()) << r.out;
    const json& f = fault(r);
    ASSERT_FALSE(f.is_null());
    EXPECT_EQ(f["outcome"], "recovered") << f.dump(1);
    EXPECT_GE(f["injected"].get<std::uint64_t>(), 1u);
    EXPECT_EQ(bytes(r), asked);
    EXPECT_EQ(r.report["end_reason"], "traffic complete");
    EXPECT_TRUE(has_finding(r.report, "fault", "info", "recovered"));
}

// A run the driver did not recover from: exit 4, a verdict finding with the shortfall, and the
// fault's own error finding.
void expect_not_recovered(const result& r, std::uint64_t asked) {
    ASSERT_EQ(r.rc, 4) << r.out;
    ASSERT_FALSE(r.report.is_null()) << r.out;
    const json& f = fault(r);
    EXPECT_EQ(f["outcome"], "not recovered") << f.dump(1);
    EXPECT_GE(f["injected"].get<std::uint64_t>(), 1u);
    EXPECT_LT(bytes(r), asked);
    EXPECT_TRUE(has_finding(r.report, "verdict", "error", "bytes asked"));
    EXPECT_TRUE(has_finding(r.report, "fault", "error", "not recovered"));
    EXPECT_NE(r.out.find("fault " + f["kind"].get<std::string>()), std::string::npos) << r.out;
}

constexpr std::uint64_t KiB = 1024;

} // namespace

// ---- WILC1000 over SPI --------------------------------------------------------------------------

TEST(Faults, WilcCfgReplyLostOptionalVersionQueryCostsThreeSeconds) {
    const result r = run("wilc1000-spi-cfg-reply-lost");
    expect_recovered(r, 64 * KiB);
    const json& f = fault(r);
    EXPECT_EQ(f["injected"], 1u);
    EXPECT_TRUE(has_effect(f, "'Q' config frame lost"));
    EXPECT_EQ(f["driver_errors"], 0u); // wilc_wlan_cfg_get's timeout is netdev_dbg only
    // WILC_CFG_PKTS_TIMEOUT: the driver waited 3 s for the reply, then went on.
    EXPECT_GE(r.report["sim_time_s"].get<double>(), 3.0);
    EXPECT_LT(r.report["sim_time_s"].get<double>(), 4.0);
}

TEST(Faults, WilcCfgReplyLostOnTheInitConfigFailsIfup) {
    const result r = run("wilc1000-spi-cfg-init-lost");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("Failed to configure firmware"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("WLAN initialization FAILED"), std::string::npos);
    EXPECT_NE(r.out.find("ndo_open"), std::string::npos);
    EXPECT_NE(r.out.find("fault cfg_reply_lost (after 1 config frames): injected 1 time"),
              std::string::npos)
        << r.out;
}

TEST(Faults, WilcFirmwareSilentDuringTrafficStallsTheRun) {
    const result r = run("wilc1000-spi-fw-silent");
    expect_not_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_TRUE(has_effect(f, "VMM allocation request not answered")) << f.dump(1);
    // Data stopped at the fault (150 ms), well before the end of the run.
    EXPECT_LT(r.report["flows"][0]["last_progress_s"].get<double>(), 0.2);
}

TEST(Faults, WilcFirmwareSilentAfterBootTimesOutIfupWithEtime) {
    const result r = run("wilc1000-spi-fw-silent-boot");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("-62"), std::string::npos) << "not -ETIME: " << r.out;
    EXPECT_NE(r.out.find("WLAN initialization FAILED"), std::string::npos);
    EXPECT_NE(r.out.find("fault fw_silent (at 0s)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("no 'I' status message after boot"), std::string::npos);
    // The failed run still wrote its report so far, with the fault and the error in it.
    ASSERT_FALSE(r.report.is_null()) << "no --json report from the failed run";
    EXPECT_EQ(r.report["end_reason"], "run failed");
    EXPECT_GE(r.report["sim_time_s"].get<double>(), 5.0); // the driver's 5 s wait for 'I'
    EXPECT_EQ(fault(r)["kind"], "fw_silent") << r.report["faults"].dump(1);
    const json& last = r.report["findings"].back();
    EXPECT_EQ(last["severity"], "error");
    EXPECT_NE(last["message"].get<std::string>().find("ndo_open (ifup) of wlan0 failed: -62"),
              std::string::npos)
        << last.dump();
}

TEST(Faults, WilcTxBufferFullIsRetriedUntilTheVmmHasRoom) {
    const result r = run("wilc1000-spi-tx-buffer-full");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    // The TX thread retried at once (WILC_VMM_ENTRY_FULL_RETRY) for the whole 20 ms window.
    EXPECT_GE(f["injected"].get<std::uint64_t>(), 2u);
    EXPECT_TRUE(has_effect(f, "answered with 0 entries"));
    EXPECT_EQ(f["driver_errors"], 0u);
}

TEST(Faults, WilcRxOverrunIsRecoveredByTcp) {
    const result r = run("wilc1000-spi-rx-overrun");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_TRUE(has_effect(f, "RX buffer overrun"));
    EXPECT_LT(f["injected"].get<std::uint64_t>(), f["opportunities"].get<std::uint64_t>());
    EXPECT_EQ(f["driver_errors"], 0u); // the driver never sees a dropped frame
}

TEST(Faults, WilcLinkDownForThreeHundredMillisecondsIsRecovered) {
    const result r = run("wilc1000-spi-link-down");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_TRUE(has_effect(f, "station frame lost on the air"));
    EXPECT_EQ(f["driver_errors"], 0u);
    // The transfer finished after the window (150 ms + 300 ms): TCP came back.
    EXPECT_GT(r.report["sim_time_s"].get<double>(), 0.45);
}

TEST(Faults, WilcMissedInterruptEdgeStopsReceptionForGood) {
    const result r = run("wilc1000-spi-irq-missed");
    expect_not_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_EQ(f["injected"], 1u);
    EXPECT_EQ(f["opportunities"], 31u); // the 31st assertion was swallowed, none came after
    EXPECT_EQ(f["driver_errors"], 0u);  // the driver never notices
}

TEST(Faults, WilcStuckInterruptLineStopsReception) {
    const result r = run("wilc1000-spi-irq-stuck");
    expect_not_recovered(r, 256 * KiB);
    EXPECT_TRUE(has_effect(fault(r), "interrupt line held asserted"));
}

TEST(Faults, WilcClockStatusFlappingCostsOnlyExtraPolls) {
    const result r = run("wilc1000-spi-clk-flapping");
    expect_recovered(r, 128 * KiB);
    const json& f = fault(r);
    EXPECT_GT(f["injected"].get<std::uint64_t>(), 10u);
    EXPECT_EQ(f["driver_errors"], 0u); // chip_wakeup() simply polls again
    EXPECT_GT(r.report["devices"][0]["wakeups"].get<std::uint64_t>(), 0u);
}

// The transfer starts inside the window, on a chip that gated its clock while idle: every
// wake-up of the TX thread fails until the window ends, then the transfer completes.
TEST(Faults, WilcWakeUpThatNeverCompletesFailsLoudlyUntilTheWindowEnds) {
    const result r = run("wilc1000-spi-wake-never-completes");
    expect_recovered(r, 128 * KiB);
    const json& f = fault(r);
    EXPECT_GE(driver_line(f, "Failed to wake-up the chip"), 1u) << f.dump(1);
    // The clocked accesses after the failed wake-up are refused (status 5, clock off).
    EXPECT_GE(driver_line(f, "Failed cmd state response state (05)"), 1u) << f.dump(1);
}

TEST(Faults, WilcSpiBitErrorWithoutCrcGoesUnnoticedByTheDriver) {
    const result r = run("wilc1000-spi-bit-error");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_EQ(f["injected"], 1u);
    EXPECT_EQ(f["driver_errors"], 0u);
    EXPECT_TRUE(has_effect(f, "DMA write flipped"));
}

TEST(Faults, WilcSpiBitErrorWithCrc16IsAnsweredWithADataResponseError) {
    const result r = run("wilc1000-spi-bit-error-crc16");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_EQ(f["injected"], 1u);
    EXPECT_EQ(driver_line(f, "Data response error (c3 04)"), 1u) << f.dump(1);
}

TEST(Faults, WilcSpiCommandBitErrorWithCrc7FailsThatAccess) {
    const result r = run("wilc1000-spi-cmd-bit-error-crc7");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    // One CRC7 status (3) and one failed access per injected error.
    EXPECT_EQ(driver_line(f, "Failed cmd state response state (03)"),
              f["injected"].get<std::uint64_t>())
        << f.dump(1);
}

TEST(Faults, WilcTruncatedSpiMessageFailsThatAccess) {
    const result r = run("wilc1000-spi-truncated");
    expect_recovered(r, 256 * KiB);
    const json& f = fault(r);
    EXPECT_EQ(f["injected"], 1u);
    EXPECT_GE(driver_line(f, "resp (00)"), 1u) << f.dump(1);
    EXPECT_TRUE(has_effect(f, "SPI message cut after"));
}

// ---- WILC1000 over SDIO -------------------------------------------------------------------------

TEST(Faults, WilcSdioCrcErrorIsEilseqToTheDriver) {
    const result r = run("wilc1000-sdio-crc-error");
    expect_recovered(r, 256 * KiB);
    EXPECT_EQ(driver_line(fault(r), "err(-84)"), 1u) << fault(r).dump(1);
}

TEST(Faults, WilcSdioTimeoutIsEtimedoutToTheDriver) {
    const result r = run("wilc1000-sdio-timeout");
    expect_recovered(r, 256 * KiB);
    EXPECT_EQ(driver_line(fault(r), "err(-110)"), 1u) << fault(r).dump(1);
}

// ---- KS8851 and ENC28J60 -----------------------------------------------------------------------

TEST(Faults, Ks8851RxOverrunIsSilentAndRecoveredByTcp) {
    const result r = run("ks8851-spi-rx-overrun");
    expect_recovered(r, 1024 * KiB);
    EXPECT_EQ(fault(r)["driver_errors"], 0u);
    EXPECT_TRUE(has_effect(fault(r), "RXQ overrun"));
}

TEST(Faults, Ks8851FifoCorruptionPassesTheDriverAndIsDroppedByTcp) {
    const result r = run("ks8851-spi-fifo-corruption");
    expect_recovered(r, 1024 * KiB);
    EXPECT_EQ(fault(r)["injected"], 1u);
    EXPECT_EQ(fault(r)["driver_errors"], 0u);
}

TEST(Faults, Ks8851LinkDownAndUpIsRecovered) {
    const result r = run("ks8851-spi-link-down");
    expect_recovered(r, 1024 * KiB);
    EXPECT_TRUE(has_effect(fault(r), "link went down"));
    EXPECT_TRUE(has_effect(fault(r), "link came back up"));
}

TEST(Faults, Ks8851TxMemoryReadAsFullStopsTheQueueForGood) {
    const result r = run("ks8851-spi-tx-buffer-full");
    expect_not_recovered(r, 1024 * KiB);
    // A TXMIR read of 0 in the 20 ms window was enough (the driver reads it per frame it
    // queues): the queue was stopped and no TXI ever came to wake it.
    EXPECT_GE(fault(r)["injected"], 1u);
    EXPECT_LT(r.report["flows"][0]["last_progress_s"].get<double>(), 0.2);
}

TEST(Faults, Ks8851StuckInterruptLineIsRecovered) {
    const result r = run("ks8851-spi-irq-stuck");
    expect_recovered(r, 1024 * KiB);
    EXPECT_TRUE(has_effect(fault(r), "interrupt line held asserted"));
}

TEST(Faults, Ks8851MissedInterruptStopsReception) {
    const result r = run("ks8851-spi-irq-missed");
    expect_not_recovered(r, 1024 * KiB);
    EXPECT_EQ(fault(r)["injected"], 1u);
    EXPECT_EQ(fault(r)["driver_errors"], 0u);
}

TEST(Faults, Enc28j60LinkDownAndUpIsRecovered) {
    const result r = run("enc28j60-spi-link-down");
    expect_recovered(r, 256 * KiB);
    EXPECT_TRUE(has_effect(fault(r), "link went down"));
}

// ---- the faults: list ---------------------------------------------------------------------------

TEST(FaultsConfig, SetFaultsOnTheCommandLine) {
    const result r =
        shell(q(exe) + " validate-config " + q(faults_dir + "ks8851-spi-rx-overrun.yaml") +
              " --set 'faults=[{kind: link_down, at: 10ms, for: 5ms}]'");
    EXPECT_EQ(r.rc, 0) << r.out;
}

TEST(FaultsConfig, UnknownKindListsTheKindsWithFileAndLine) {
    const fs::path f = temp_dir() / "x.yaml";
    std::ofstream(f) << "duration: 1s\nplatform: rpi-class\n"
                        "device: {type: ks8851, bus: spi}\n"
                        "traffic: {kind: iperf_rx, bytes: 64KiB}\n"
                        "faults:\n  - kind: spi_bit_error\n";
    const result r = shell(q(exe) + " validate-config " + q(f.string()) + " 2>&1");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("x.yaml:6:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("faults[0].kind"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("rx_overrun"), std::string::npos) << r.out;
}

TEST(FaultsConfig, KindOfAnotherBusIsRejected) {
    const result r =
        shell(q(exe) + " validate-config " + q(faults_dir + "wilc1000-spi-rx-overrun.yaml") +
              " --set 'faults=[{kind: sdio_timeout, after: 3}]'");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("--set faults="), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("applies to wilc1000 on sdio only"), std::string::npos) << r.out;
}

TEST(FaultsConfig, ClockFaultsNeedChipSleep) {
    const result r =
        shell(q(exe) + " validate-config " + q(faults_dir + "wilc1000-spi-rx-overrun.yaml") +
              " --set 'faults=[{kind: clk_status_flapping, probability: 0.5}]'");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("needs driver.power_save: true"), std::string::npos) << r.out;
}

TEST(FaultsConfig, WindowFaultsTakeNoCountsAndTriggersAreExclusive) {
    const std::string base =
        q(exe) + " validate-config " + q(faults_dir + "wilc1000-spi-rx-overrun.yaml");
    const result a = shell(base + " --set 'faults=[{kind: fw_silent, after: 3}]'");
    EXPECT_EQ(a.rc, 1) << a.out;
    EXPECT_NE(a.out.find("faults[0].after"), std::string::npos) << a.out;
    EXPECT_NE(a.out.find("window fault"), std::string::npos) << a.out;
    const result b = shell(base + " --set 'faults=[{kind: rx_overrun, after: 3, at: 1ms}]'");
    EXPECT_EQ(b.rc, 1) << b.out;
    EXPECT_NE(b.out.find("give one of them"), std::string::npos) << b.out;
    const result c = shell(base + " --set 'faults=[{kind: rx_overrun, probability: 2}]'");
    EXPECT_EQ(c.rc, 1) << c.out;
    const result d = shell(base + " --set 'faults=[{kind: rx_overrun, sometimes: true}]'");
    EXPECT_EQ(d.rc, 1) << d.out;
    EXPECT_NE(d.out.find("unknown key 'sometimes'"), std::string::npos) << d.out;
}

TEST(FaultsConfig, AFaultThatNeverHitsIsNoSuccess) {
    const result r = run("wilc1000-spi-rx-overrun",
                         "--set 'faults=[{kind: rx_overrun, at: 9s, probability: 0.5}]'");
    EXPECT_EQ(r.rc, 4) << r.out;
    EXPECT_EQ(fault(r)["outcome"], "not injected");
    EXPECT_TRUE(has_finding(r.report, "fault", "error", "never hit"));
    EXPECT_EQ(bytes(r), 256 * KiB); // the traffic itself was fine
}

TEST(FaultsConfig, SeededProbabilityIsDeterministicAndFollowsTheSeed) {
    const result a = run("wilc1000-spi-rx-overrun");
    const result b = run("wilc1000-spi-rx-overrun");
    const result c = run("wilc1000-spi-rx-overrun", "--set seed=7");
    ASSERT_FALSE(fault(a).is_null());
    EXPECT_EQ(fault(a).dump(), fault(b).dump());
    EXPECT_NE(fault(a)["first_s"], fault(c)["first_s"]);
}

TEST(FaultsConfig, TextReportHasAFaultsSection) {
    const result r = shell(q(exe) + " run " + q(faults_dir + "wilc1000-spi-tx-buffer-full.yaml"));
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("faults:\n  tx_buffer_full (at 150ms, for 20ms): recovered, injected"),
              std::string::npos)
        << r.out;
}

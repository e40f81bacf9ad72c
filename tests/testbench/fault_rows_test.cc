// SPDX-License-Identifier: MIT
//
// The rows of issue 13's table ("verdicts that cannot lie", bounded resources, interrupted
// runs), each through the real `nicsim` binary as a user would type it: every bad run gives a
// clear non-zero outcome, every documented behaviour happens. Exit codes: docs/scenarios.md.
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testbench/test_files.h"

namespace {

namespace fs = std::filesystem;
using nicsim::test::test_dir;
using nicsim::test::write_file;

const std::string exe = NICSIM_EXE;
const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";

struct result {
    int rc;
    std::string out;
};

// Runs a shell command; exit status and combined stdout + stderr.
result shell(const std::string& cmd) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string q(const std::string& s) {
    return "'" + s + "'";
}

nlohmann::json read_json(const fs::path& f) {
    std::ifstream in(f);
    return nlohmann::json::parse(in);
}

// `nicsim run <config> <args> --json <dir>/r.json -q`: exit code, output and the report.
struct run_result {
    int rc;
    std::string out;
    nlohmann::json report;
};
run_result run(const fs::path& dir, const std::string& config, const std::string& args) {
    const fs::path json = dir / "r.json";
    const auto r =
        shell(q(exe) + " run " + q(config) + " " + args + " --json " + q(json.string()) + " -q");
    run_result rr{r.rc, r.out, nullptr};
    if (fs::exists(json))
        rr.report = read_json(json);
    return rr;
}

// The verdict findings of a report, one message per line.
std::string verdicts(const nlohmann::json& rep) {
    std::string s;
    for (const auto& f : rep["findings"])
        if (f["source"] == "verdict")
            s += f["severity"].get<std::string>() + ": " + f["message"].get<std::string>() + "\n";
    return s;
}

constexpr int exit_traffic_short = 4;

} // namespace

// ---- verdicts -----------------------------------------------------------------------------------

TEST(FaultRows, BytesZeroRunsUntilDuration) {
    const auto r = run(test_dir(), configs + "ks8851-spi-iperf-rx.yaml",
                       "--set traffic.bytes=0 --set duration=300ms");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.report["end_reason"], "duration limit");
    EXPECT_DOUBLE_EQ(r.report["sim_time_s"].get<double>(), 0.3);
    const auto& f = r.report["flows"][0];
    EXPECT_GT(f["bytes"].get<std::uint64_t>(), 0u);
    EXPECT_GT(f["goodput_bps"].get<double>(), 0.0); // measured over the data that arrived
    EXPECT_EQ(verdicts(r.report), "");
}

TEST(FaultRows, IperfWithoutBytesRunsUntilDuration) {
    const fs::path dir = test_dir();
    const std::string s =
        write_file(dir / "no-bytes.yaml", "duration: 300ms\n"
                                          "platform: rpi-class\n"
                                          "device: {type: ks8851, bus: spi, bus_clock: 25MHz}\n"
                                          "traffic: {kind: iperf_tx}\n");
    const auto r = run(dir, s, "");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.report["end_reason"], "duration limit");
    EXPECT_GT(r.report["flows"][0]["bytes"].get<std::uint64_t>(), 0u);
}

TEST(FaultRows, UdpWithoutBytesFloodsUntilDuration) {
    const fs::path dir = test_dir();
    const std::string s =
        write_file(dir / "udp-0.yaml", "duration: 100ms\n"
                                       "platform: rpi-class\n"
                                       "device: {type: ks8851, bus: spi, bus_clock: 25MHz}\n"
                                       "traffic: {kind: udp_tx, bytes: 0, rate: 0}\n");
    const auto r = run(dir, s, "");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.report["end_reason"], "duration limit");
    const auto& f = r.report["flows"][0];
    EXPECT_GT(f["packets_sent"].get<std::uint64_t>(), 10u);
    EXPECT_GT(f["packets_received"].get<std::uint64_t>(), 10u);
    EXPECT_GT(f["goodput_bps"].get<double>(), 0.0);
}

struct starved_case {
    const char* name;
    const char* config;
    const char* set;
};

class StarvedRun : public ::testing::TestWithParam<starved_case> {};

// Each setting leaves the path (nearly) unusable: the run must not exit 0.
TEST_P(StarvedRun, ExitsFourWithAFindingNamingTheShortfall) {
    const auto& c = GetParam();
    const auto r =
        run(test_dir(), configs + c.config, std::string("--set ") + c.set + " --set duration=2s");
    EXPECT_EQ(r.rc, exit_traffic_short) << r.out;
    ASSERT_TRUE(r.report.is_object()) << "the report is still written\n" << r.out;
    const std::string v = verdicts(r.report);
    EXPECT_NE(v.find("error: tcp: delivered "), std::string::npos) << v;
    EXPECT_NE(v.find(" of 16777216 bytes asked"), std::string::npos) << v;
    EXPECT_NE(v.find("run ended at 2.000000 s (duration limit)"), std::string::npos) << v;
    EXPECT_NE(r.out.find("delivered less than its traffic asked for"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Rows, StarvedRun,
    ::testing::Values(
        starved_case{"bus_clock_1Hz", "ks8851-spi-iperf-rx.yaml", "device.bus_clock=1Hz"},
        starved_case{"phy_rate_tiny", "ks8851-spi-iperf-rx.yaml", "link.phy_rate=1e-300bps"},
        starved_case{"par_bus_clock_tiny", "ks8851-par-iperf-tx.yaml",
                     "platform.par_bus.bus_clock=1e-300Hz"},
        starved_case{"inter_word_gap_huge", "ks8851-spi-iperf-tx.yaml",
                     "platform.spi_host.inter_word_gap_cycles=4000000000"},
        starved_case{"wake_latency_1s", "wilc1000-spi-ttcp-tx.yaml",
                     "device.timing.wake_latency=1s"}),
    [](const auto& info) { return std::string(info.param.name); });

// A UDP sender without traffic.rate sends at iperf3's default, 1 Mbit/s of payload.
TEST(FaultRows, UdpWithoutRateSendsAtIperf3sDefault) {
    const fs::path dir = test_dir();
    const std::string s = write_file(dir / "udp-1m.yaml", "duration: 1s\n"
                                                          "platform: rpi-class\n"
                                                          "device: {type: ks8851, bus: spi}\n"
                                                          "traffic: {kind: udp_rx}\n");
    const auto r = run(dir, s, "");
    ASSERT_EQ(r.rc, 0) << r.out;
    const auto& f = r.report["flows"][0];
    // 1472-byte datagrams 11.776 ms apart from the traffic start (~20 ms after 0) to 1 s.
    EXPECT_NEAR(f["packets_sent"].get<double>(), 84, 2) << f.dump();
    EXPECT_NEAR(f["goodput_bps"].get<double>(), 1e6, 0.02e6) << f.dump();
}

// A flood at the wire's rate overruns the KS8851's RX queue (the WILC1000's access point holds
// back what the chip cannot take, and the peer's sender blocks on its send buffer: no loss).
TEST(FaultRows, UdpRxLossIsAFindingAndANonZeroExit) {
    const fs::path dir = test_dir();
    const std::string s =
        write_file(dir / "udp-rx.yaml", "duration: 10s\n"
                                        "platform: rpi-class\n"
                                        "device: {type: ks8851, bus: spi, bus_clock: 25MHz}\n"
                                        "traffic: {kind: udp_rx, bytes: 4MiB, rate: 0}\n");
    const auto r = run(dir, s, "");
    EXPECT_EQ(r.rc, exit_traffic_short) << r.out;
    ASSERT_TRUE(r.report.is_object()) << r.out;
    const auto& f = r.report["flows"][0];
    EXPECT_EQ(f["packets_sent"], 2850);
    EXPECT_LT(f["packets_received"].get<std::uint64_t>(), 2850u);
    const std::string v = verdicts(r.report);
    EXPECT_NE(v.find("error: udp: 2850 datagrams sent, "), std::string::npos) << v;
    EXPECT_NE(v.find("% datagram loss"), std::string::npos) << v;
}

TEST(FaultRows, WilcSpiReportsTheInterruptsTheDriverHandled) {
    const auto r =
        run(test_dir(), configs + "wilc1000-spi-ttcp-tx.yaml", "--set traffic.bytes=64KiB");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_GT(r.report["devices"][0]["irqs"].get<std::uint64_t>(), 10u);
    EXPECT_TRUE(r.report["devices"][0]["frames_per_irq"].is_number());
}

// ---- bounded resources, inputs and outputs ------------------------------------------------------

TEST(FaultRows, DirectoryAsScenarioNamesIt) {
    const fs::path d = test_dir() / "a-directory";
    fs::create_directories(d);
    const auto r = shell(q(exe) + " run " + q(d.string()));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find(d.string() + ": is a directory, not a scenario file"), std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("E549"), std::string::npos) << r.out;
}

TEST(FaultRows, JsonIntoAMissingDirectoryFailsBeforeTheRun) {
    const fs::path missing = test_dir() / "no-such-dir" / "r.json";
    const auto r = shell(q(exe) + " run " + q(configs + "wilc1000-spi-ttcp-tx.yaml") + " --json " +
                         q(missing.string()));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("--json " + missing.string() + ": directory '"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("' does not exist"), std::string::npos) << r.out;
    // The run never started: the driver did not load its firmware.
    EXPECT_EQ(r.out.find("loading firmware"), std::string::npos) << r.out;
    const auto v = shell(q(exe) + " run " + q(configs + "wilc1000-spi-ttcp-tx.yaml") + " --vcd " +
                         q(missing.string()));
    EXPECT_EQ(v.rc, 1) << v.out;
    EXPECT_NE(v.out.find("--vcd (trace.vcd) " + missing.string()), std::string::npos) << v.out;
}

TEST(FaultRows, JsonToAFullStdoutIsAnError) {
    // The braces: only stdout goes to /dev/full, stderr (the message) to the test.
    const auto r = shell("{ " + q(exe) + " run " + q(configs + "ks8851-spi-ping.yaml") +
                         " --set traffic.count=2 --json - > /dev/full; }");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("cannot write the JSON report to stdout"), std::string::npos) << r.out;
    const auto t = shell("{ " + q(exe) + " run " + q(configs + "ks8851-spi-ping.yaml") +
                         " --set traffic.count=2 > /dev/full; }");
    EXPECT_EQ(t.rc, 2) << t.out;
    EXPECT_NE(t.out.find("cannot write the report to stdout"), std::string::npos) << t.out;
}

// ---- interrupted runs ---------------------------------------------------------------------------

namespace {

// Starts a long WILC1000 run writing r.json, w.vcd, t.json and l.log into dir; its pid.
pid_t start_traced_run(const fs::path& dir) {
    const std::string cfg = configs + "wilc1000-spi-ttcp-tx.yaml";
    const std::string json = (dir / "r.json").string(), vcd = (dir / "w.vcd").string(),
                      tl = (dir / "t.json").string(), log = (dir / "l.log").string();
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(exe.c_str(), exe.c_str(), "run", cfg.c_str(), "--set", "traffic.bytes=1GiB", "--json",
              json.c_str(), "--vcd", vcd.c_str(), "--timeline", tl.c_str(), "--log", log.c_str(),
              "-q", static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Starts nicsim, waits until the transaction log shows the simulation running, sends `sig`,
// returns the exit status.
int interrupt_run(const fs::path& dir, int sig) {
    const std::string log = (dir / "l.log").string();
    const pid_t pid = start_traced_run(dir);
    // The log gets lines once the driver talks to the chip: the run is in the simulation.
    for (int i = 0; i < 600; ++i) {
        std::error_code ec;
        if (fs::exists(log) && fs::file_size(log, ec) > 4096)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

void expect_interrupted_outputs(const fs::path& dir, const char* signal_name) {
    const auto rep = read_json(dir / "r.json");
    EXPECT_EQ(rep["end_reason"], "interrupted");
    EXPECT_GT(rep["sim_time_s"].get<double>(), 0.0);
    bool named = false;
    for (const auto& f : rep["findings"])
        named |= f["message"].get<std::string>().find(signal_name) != std::string::npos;
    EXPECT_TRUE(named) << rep["findings"].dump(1);
    // The timeline is complete JSON, the VCD has its header and a final time stamp.
    EXPECT_NO_THROW(read_json(dir / "t.json"));
    std::ifstream v(dir / "w.vcd");
    const std::string vcd((std::istreambuf_iterator<char>(v)), std::istreambuf_iterator<char>());
    EXPECT_NE(vcd.find("$enddefinitions $end"), std::string::npos);
    EXPECT_NE(vcd.rfind("\n#"), std::string::npos);
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_NE(e.path().extension(), ".part") << "temporary file left: " << e.path();
}

} // namespace

TEST(FaultRows, SigintWritesTheReportSoFarAndExits130) {
    const fs::path dir = test_dir();
    EXPECT_EQ(interrupt_run(dir, SIGINT), 130);
    expect_interrupted_outputs(dir, "SIGINT");
}

TEST(FaultRows, SigtermWritesTheReportSoFarAndExits143) {
    const fs::path dir = test_dir();
    EXPECT_EQ(interrupt_run(dir, SIGTERM), 143);
    expect_interrupted_outputs(dir, "SIGTERM");
}

// Issue 35 item 6: a second Ctrl-C while the traces are being written out (the VCD is written
// only then, so it has bytes exactly from the flush's start) waits for them: exit 130 with the
// report, complete traces and no spill file, not death by SIGINT with `<vcd>.<bus>.part` left.
TEST(FaultRows, ASecondSigintDuringTheTraceFlushLeavesCompleteTraces) {
    const fs::path dir = test_dir();
    const std::string vcd = (dir / "w.vcd").string(), log = (dir / "l.log").string();
    const pid_t pid = start_traced_run(dir);
    // Enough simulated traffic that the flush takes a while (the spill files hold the pins).
    for (int i = 0; i < 600; ++i) {
        std::error_code ec;
        if (fs::exists(log) && fs::file_size(log, ec) > (2u << 20))
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_EQ(kill(pid, SIGINT), 0);
    bool flushing = false;
    for (int i = 0; i < 200000 && !flushing; ++i) {
        std::error_code ec;
        flushing = fs::file_size(vcd, ec) > 0;
        if (!flushing)
            std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    ASSERT_TRUE(flushing) << "the VCD was never written";
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 130);
    expect_interrupted_outputs(dir, "SIGINT");
}

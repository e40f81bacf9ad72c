// SPDX-License-Identifier: MIT
//
// The CLI in-process with a fake runner (this file defines nicsim::run_scenario, so the
// placeholder from nicsim_runner is not linked), plus the real `nicsim` binary as a process.
#include <cstdio>
#include <sstream>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/cli/cli.h"
#include "tools/report/json_writer.h"
#include "sim/runner.h"
#include "tests/testbench/report_fixture.h"
#include "tests/testbench/test_files.h"

namespace {
nicsim::config::scenario_config g_last_scenario;
nicsim::config::platform_profile g_last_platform;
int g_runs = 0;
} // namespace

namespace nicsim {
report::report run_scenario(const config::scenario_config& s, const config::platform_profile& p) {
    ++g_runs;
    g_last_scenario = s;
    g_last_platform = p;
    if (s.name == "fails")
        throw run_error("chip id mismatch");
    if (s.name == "fails-late") { // failed after the simulation started: the report so far
        report::report so_far = test::sample_report(s.driver.power_save);
        so_far.end_reason = "run failed";
        so_far.findings.push_back(
            {1.0, "nicsim", "error", "run failed: traffic failed: TCP gave up"});
        return so_far;
    }
    return test::sample_report(s.driver.power_save);
}
} // namespace nicsim

namespace {

using nicsim::test::test_dir;
using nicsim::test::write_file;

struct result {
    int rc;
    std::string out, err;
};

result cli(std::vector<std::string> args) {
    args.insert(args.begin(), "nicsim");
    std::ostringstream out, err;
    const int rc = nicsim::cli::run(args, out, err);
    return {rc, out.str(), err.str()};
}

std::string scenario_file(const std::filesystem::path& dir, const std::string& name,
                          const std::string& extra = "") {
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    return write_file(dir / "s.yaml", "name: " + name +
                                          "\n"
                                          "duration: 10s\n"
                                          "platform: test-board\n"
                                          "device: {type: wilc1000, bus: spi}\n"
                                          "traffic: {kind: ttcp_tx}\n" +
                                          extra);
}

// Runs a shell command, returns exit status and combined output.
result shell(const std::string& cmd) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, ""};
}

} // namespace

TEST(Cli, RunPassesValidatedConfigWithOverridesToTheRunner) {
    const std::string f = scenario_file(test_dir(), "ok", "driver: {power_save: false}\n");
    const int runs_before = g_runs;
    const auto r = cli(
        {"run", "--set", "driver.power_save=true", f, "--set", "platform.spi_host.cs_hold=99ns"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(g_runs, runs_before + 1);
    EXPECT_TRUE(g_last_scenario.driver.power_save);
    EXPECT_EQ(g_last_platform.spi_host.cs_hold.ps, 99'000);
    EXPECT_NE(r.out.find("409.6 KB/s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("power save on"), std::string::npos) << r.out;
}

TEST(Cli, RunWritesJsonWithRunInfoFromTheScenarioAndHostBlock) {
    const auto dir = test_dir();
    const std::string f = scenario_file(dir, "json-run");
    const std::string json = (dir / "out.json").string();
    const auto r = cli({"run", f, "--json", json, "--quiet"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, ""); // --quiet
    const auto rep = nicsim::report::read_json_file(json);
    EXPECT_EQ(rep.run.scenario, "json-run"); // filled by the CLI from the scenario
    EXPECT_EQ(rep.run.platform, "test-board");
    EXPECT_DOUBLE_EQ(rep.run.bus_clock_hz, 48e6);
    EXPECT_GT(rep.host.peak_rss_mb, 0.0);
    EXPECT_GE(rep.host.wall_time_s, 0.0);
}

TEST(Cli, ExitCodes) {
    const auto dir = test_dir();
    const int runs_before = g_runs;
    const std::string typo = scenario_file(dir, "x", "driver:\n  power_sav: true\n");
    const auto bad = cli({"run", typo});
    EXPECT_EQ(bad.rc, nicsim::cli::exit_config_error);
    EXPECT_NE(bad.err.find(typo + ":7:3: unknown key 'power_sav' in driver"), std::string::npos)
        << bad.err;
    EXPECT_EQ(g_runs, runs_before); // never reached the runner

    const auto fails = cli({"run", scenario_file(dir, "fails")});
    EXPECT_EQ(fails.rc, nicsim::cli::exit_run_error);
    EXPECT_NE(fails.err.find("run failed: chip id mismatch"), std::string::npos) << fails.err;

    EXPECT_EQ(cli({"run"}).rc, nicsim::cli::exit_config_error);        // missing argument
    EXPECT_EQ(cli({"frobnicate"}).rc, nicsim::cli::exit_config_error); // unknown subcommand
    EXPECT_EQ(cli({"--help"}).rc, nicsim::cli::exit_ok);
    EXPECT_EQ(cli({"run", "/nonexistent/x.yaml"}).rc, nicsim::cli::exit_config_error);
}

TEST(Cli, ValidateConfigAcceptsScenariosAndProfiles) {
    const auto dir = test_dir();
    const int runs_before = g_runs;
    const auto s = cli({"validate-config", scenario_file(dir, "v")});
    EXPECT_EQ(s.rc, 0) << s.err;
    EXPECT_NE(s.out.find("scenario 'v'"), std::string::npos);
    const auto p = cli({"validate-config", (dir / "platforms" / "test-board.yaml").string()});
    EXPECT_EQ(p.rc, 0) << p.err;
    EXPECT_NE(p.out.find("platform profile 'test-board'"), std::string::npos);
    const auto bad = cli({"validate-config", scenario_file(dir, "v"), "--set", "seed=-1"});
    EXPECT_EQ(bad.rc, 1);
    EXPECT_NE(bad.err.find("--set seed=-1: seed: expected a non-negative integer"),
              std::string::npos)
        << bad.err;
    EXPECT_EQ(g_runs, runs_before); // validation never runs
}

TEST(Cli, CompareShowsReportsSideBySide) {
    const auto dir = test_dir();
    const std::string off = (dir / "off.json").string(), on = (dir / "on.json").string();
    nicsim::report::write_json_file(nicsim::test::sample_report(false), off);
    nicsim::report::write_json_file(nicsim::test::sample_report(true), on);
    const auto r = cli({"compare", off, on});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_NE(r.out.find("power_save=off"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1536.0 KB/s"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("409.6 KB/s"), std::string::npos) << r.out;
    EXPECT_EQ(cli({"compare", off, (dir / "missing.json").string()}).rc, 1);
    EXPECT_EQ(cli({"compare", off, on, "--label", "only-one"}).rc, 1);
}

TEST(CliBinary, VersionNamesKernelAndHashesDriverFiles) {
    const auto r = shell(std::string("'") + NICSIM_EXE + "' --version");
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("kernel " NICSIM_KERNEL_VERSION " from "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  drivers/net/wireless/microchip/wilc1000/spi.c\n"), std::string::npos);
    // kernel × driver × variant (issue 15), a patched variant with its patch's hash.
    EXPECT_NE(r.out.find("driver builds (driver.kernel / device.type / driver.variant):\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("  6.1 (" NICSIM_KERNEL_VERSION ")  ks8851  pristine\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("  6.1 (" NICSIM_KERNEL_VERSION ")  ks8851  rx-coalescing-params\n      patch "),
        std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("SystemC"), std::string::npos) << "banner leaked: " << r.out;
}

TEST(CliBinary, RunWithTypoExitsOneWithFileLineMessage) {
    const std::string typo = scenario_file(test_dir(), "x", "driver:\n  power_sav: true\n");
    const auto r = shell(std::string("'") + NICSIM_EXE + "' run '" + typo + "'");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_EQ(r.out.rfind(typo + ":7:3: unknown key 'power_sav' in driver (expected one of: ", 0),
              0u)
        << r.out;
}

// Issue 13: output paths are checked before the run (the runner is never reached), and a
// report that cannot be written is an error, not a success.
TEST(Cli, OutputPathsAreCheckedBeforeTheRun) {
    const auto dir = test_dir();
    const std::string f = scenario_file(dir, "ok");
    const int runs_before = g_runs;
    const std::string missing = (dir / "nope" / "r.json").string();
    const auto r = cli({"run", f, "--json", missing});
    EXPECT_EQ(r.rc, nicsim::cli::exit_config_error);
    EXPECT_EQ(r.err, "nicsim run: --json " + missing + ": directory '" + (dir / "nope").string() +
                         "' does not exist\n");
    const auto d = cli({"run", f, "--timeline", dir.string()});
    EXPECT_EQ(d.rc, nicsim::cli::exit_config_error);
    EXPECT_EQ(d.err,
              "nicsim run: --timeline (trace.timeline) " + dir.string() + ": is a directory\n");
    const auto y = cli({"run", f, "--set", "trace.log=" + missing});
    EXPECT_EQ(y.rc, nicsim::cli::exit_config_error);
    EXPECT_NE(y.err.find("nicsim run: trace.log " + missing), std::string::npos) << y.err;
    EXPECT_EQ(g_runs, runs_before);
}

// Issue 36 item 6: a run killed with SIGKILL leaves an empty VCD and its per-bus spill files
// (<vcd>.<bus>.part); the next run writing that VCD removes them and says so, and nothing else.
TEST(Cli, StaleSpillFilesOfTheVcdAreRemovedBeforeTheRun) {
    const auto dir = test_dir();
    const std::string f = scenario_file(dir, "ok");
    const std::string vcd = (dir / "w.vcd").string();
    for (const char* n : {"w.vcd", "w.vcd.spi0.part", "w.vcd.sdio1.part", "w.fst.vcd.part",
                          "w.vcd.notes.txt", "w.vcd.my notes.part", "x.vcd.spi0.part"})
        write_file(dir / n, "x");
    const auto r = cli({"run", f, "--vcd", vcd, "--json", (dir / "r.json").string()});
    EXPECT_EQ(r.rc, 0) << r.err;
    for (const char* n : {"w.vcd.spi0.part", "w.vcd.sdio1.part"}) {
        EXPECT_FALSE(std::filesystem::exists(dir / n)) << n;
        EXPECT_NE(r.err.find("nicsim: removed " + (dir / n).string() +
                             ", left by a run of this VCD that was killed"),
                  std::string::npos)
            << r.err;
    }
    for (const char* n : {"w.fst.vcd.part", "w.vcd.notes.txt", "w.vcd.my notes.part",
                          "x.vcd.spi0.part"})
        EXPECT_TRUE(std::filesystem::exists(dir / n)) << n;
    const auto fst = cli({"run", f, "--vcd", (dir / "w.fst").string(), "--json",
                          (dir / "r.json").string()});
    EXPECT_EQ(fst.rc, 0) << fst.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "w.fst.vcd.part"));
}

namespace {
// A stdout whose every write fails, as on a full disk.
struct failing_buf : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};
} // namespace

TEST(Cli, WriteErrorsOnStdoutAreErrors) {
    const std::string f = scenario_file(test_dir(), "ok");
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{}, std::vector<std::string>{"--json", "-"}}) {
        failing_buf buf;
        std::ostream out(&buf);
        std::ostringstream err;
        std::vector<std::string> args = {"nicsim", "run", f};
        args.insert(args.end(), extra.begin(), extra.end());
        EXPECT_EQ(nicsim::cli::run(args, out, err), nicsim::cli::exit_run_error);
        EXPECT_NE(err.str().find(extra.empty() ? "cannot write the report to stdout"
                                               : "cannot write the JSON report to stdout"),
                  std::string::npos)
            << err.str();
    }
}

TEST(Cli, AFailedRunExitsTwoAfterWritingTheReportSoFar) {
    const auto dir = test_dir();
    const std::string json = (dir / "failed.json").string();
    const auto r = cli({"run", scenario_file(dir, "fails-late"), "--json", json});
    EXPECT_EQ(r.rc, nicsim::cli::exit_run_error);
    EXPECT_NE(r.err.find("nicsim: run failed: traffic failed: TCP gave up"), std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("run failed"), std::string::npos) << r.out; // the text report too
    const auto rep = nicsim::report::read_json_file(json);
    EXPECT_EQ(rep.end_reason, "run failed");
    EXPECT_EQ(rep.run.scenario, "fails-late"); // filled in as for a good run
    for (const auto& f : rep.findings)
        EXPECT_NE(f.source, "verdict"); // the failure is the verdict
}

TEST(Cli, ShortTrafficExitsFourAfterWritingTheReport) {
    const auto dir = test_dir();
    // The fake runner's report moved 16 MiB; ask for 32.
    const std::string f = scenario_file(dir, "ok");
    const std::string json = (dir / "r.json").string();
    const auto r = cli({"run", f, "--set", "traffic.bytes=32MiB", "--json", json, "-q"});
    EXPECT_EQ(r.rc, nicsim::cli::exit_traffic_short) << r.err;
    EXPECT_NE(r.err.find("nicsim: the run delivered less than its traffic asked for:\n  ttcp: "
                         "delivered 16777216 of 33554432 bytes asked (50.0 %)"),
              std::string::npos)
        << r.err;
    const auto rep = nicsim::report::read_json_file(json);
    ASSERT_FALSE(rep.findings.empty());
    EXPECT_EQ(rep.findings.back().source, "verdict");
    EXPECT_EQ(rep.run.overrides, std::vector<std::string>{"traffic.bytes=32MiB"});
}

// Issue 36 item 5: a FIFO among a driver.source tree's headers (every header of the driver's
// directory is read for the plug-in's cache key) is refused naming it; it used to block the run
// before it started. `timeout` turns a block into a failure instead of a hung test.
TEST(CliBinary, AFifoAmongTheDriverSourceHeadersIsRefusedNamingIt) {
    const auto d = test_dir();
    for (const char* f : {"ks8851_common.c", "ks8851_spi.c", "ks8851_par.c", "ks8851.h"})
        write_file(d / "tree" / f, "");
    const auto fifo = d / "tree" / "zz_fifo.h";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto r = shell(std::string("cd '") + d.string() + "' && timeout 20 '" + NICSIM_EXE +
                         "' run '" + NICSIM_SOURCE_DIR + "/configs/ks8851-spi-ping.yaml' -q " +
                         "--driver-src '" + (d / "tree").string() + "'");
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("driver.source: " + fifo.string() + ": is a FIFO, not a regular file"),
              std::string::npos)
        << r.out;
}

// Issue 36 item 6: `-j 0` printed the largest double (300 digits) as the upper bound of the range.
TEST(Cli, ZeroJobsNamesTheRangeAUserCanType) {
    const auto d = test_dir();
    const std::string sweep = write_file(d / "s.yaml", "base: x.yaml\npoints: [{seed: 2}]\n");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"sweep", sweep, "-j", "0"},
          {"check", sweep, "-j", "0"},
          {"validate", d.string(), "--jobs", "-3"},
          {"sweep", sweep, "-j", "2x"}}) {
        const auto r = cli(args);
        EXPECT_EQ(r.rc, 1) << args[0];
        EXPECT_NE(r.err.find("expected a whole number of processes, 1 or more, got '"),
                  std::string::npos)
            << r.err;
        EXPECT_LT(r.err.size(), 200u) << r.err;
    }
    const auto i = cli({"run", sweep, "-i", "0"});
    EXPECT_EQ(i.rc, 1);
    EXPECT_NE(i.err.find("expected a number greater than 0, got '0'"), std::string::npos) << i.err;
    EXPECT_LT(i.err.size(), 200u) << i.err;
}

namespace {
// Display columns of a line (UTF-8 lead bytes).
size_t columns_of(const std::string& line) {
    size_t n = 0;
    for (unsigned char c : line)
        n += (c & 0xC0) != 0x80;
    return n;
}
} // namespace

// Issue 35 item 6: `nicsim --help` and every subcommand's help fit 100 columns, on a wide
// terminal too, and show examples whose files exist in the source tree.
TEST(Cli, HelpFitsOneHundredColumnsAndShowsExamples) {
    for (const char* columns : {"200", "100"}) {
        setenv("COLUMNS", columns, 1);
        for (const char* cmd : {"", "run", "validate-config", "compare", "sweep", "validate",
                                "check"}) {
            const auto r = std::string(cmd).empty() ? cli({"--help"}) : cli({cmd, "--help"});
            SCOPED_TRACE(std::string("nicsim ") + cmd + " --help, COLUMNS=" + columns);
            EXPECT_EQ(r.rc, 0) << r.err;
            EXPECT_NE(r.out.find("Example"), std::string::npos) << r.out;
            std::istringstream lines(r.out);
            for (std::string l; std::getline(lines, l);) {
                EXPECT_LE(columns_of(l), 100u) << "'" << l << "'";
                // Every scenario, study or profile an example names is a shipped file.
                std::istringstream words(l);
                for (std::string w; words >> w;) {
                    if ((w.rfind("configs/", 0) == 0 || w.rfind("examples/", 0) == 0) &&
                        w.find('*') == std::string::npos) {
                        EXPECT_TRUE(
                            std::filesystem::exists(std::string(NICSIM_SOURCE_DIR) + "/" + w))
                            << w;
                    }
                }
            }
        }
    }
    // A narrower terminal: the descriptions wrap inside their column.
    setenv("COLUMNS", "72", 1);
    const auto r = cli({"run", "--help"});
    unsetenv("COLUMNS");
    std::istringstream lines(r.out);
    bool in_options = false;
    for (std::string l; std::getline(lines, l);) {
        in_options = in_options || l == "Options:";
        if (l.rfind("Examples", 0) == 0)
            break;
        if (in_options) {
            EXPECT_LE(columns_of(l), 72u) << "'" << l << "'";
        }
    }
}

// Issue 36 item 6: a KS8851 scenario on the parallel bus of a profile without one passed
// validate-config and stopped `nicsim run` at its start with exit 2; both now exit 1 naming
// device.bus, before anything runs.
TEST(CliBinary, ABusTheProfileLacksIsAConfigErrorUpFront) {
    const std::string f = std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-par-iperf-rx.yaml";
    for (const char* cmd : {"validate-config", "run"}) {
        const auto r = shell(std::string("'") + NICSIM_EXE + "' " + cmd + " '" + f +
                             "' --set platform=rpi-class");
        EXPECT_EQ(r.rc, 1) << cmd << ": " << r.out;
        EXPECT_NE(r.out.find("device.bus: par needs a platform with a parallel bus"),
                  std::string::npos)
            << r.out;
        EXPECT_EQ(r.out.find("run failed"), std::string::npos) << r.out;
    }
}

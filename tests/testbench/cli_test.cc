// SPDX-License-Identifier: MIT
//
// The CLI in-process with a fake runner (this file defines nicsim::run_scenario, so the
// placeholder from nicsim_runner is not linked), plus the real `nicsim` binary as a process.
#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "testbench/cli/cli.h"
#include "testbench/report/json_writer.h"
#include "testbench/runner.h"
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

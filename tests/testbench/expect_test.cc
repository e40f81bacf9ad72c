// SPDX-License-Identifier: MIT
//
// `expect:` paths (issue 36 item 2): every path is resolved against the report, so a key that
// names nothing is an error with the nearest valid one, never an expectation that passes because
// it counted nothing. The findings counts were the gap: `findings.errors == 0` counted the
// findings of a source called "errors" (none) and passed whatever the run did.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/config/config_loader.h"
#include "tools/config/expect.h"
#include "tools/config/yaml_reader.h"
#include "tests/testbench/test_files.h"

using namespace nicsim::config;

namespace {

// The value_error message of parsing text for a scenario on device, or "" when it parsed.
std::string parse_error(const std::string& text, const std::string& device = "wilc1000") {
    try {
        parse_expectation(text, device);
    } catch (const value_error& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

} // namespace

TEST(ExpectPaths, MisspeltFindingsKeysAreErrorsNamingTheNearestValidOne) {
    const std::pair<const char*, const char*> typos[] = {
        {"findings.errors == 0", "did you mean 'findings.error'?"},
        {"findings.drvier.error == 0", "did you mean 'findings.driver.error'?"},
        {"findings.wilc1000.warnings == 0", "did you mean 'findings.wilc1000.warning'?"},
        {"findings.driver.errors < 1", "did you mean 'findings.driver.error'?"},
        {"findings.verdict.error.extra == 0", "did you mean 'findings.verdict.error'?"}};
    for (const auto& [text, hint] : typos) {
        const std::string e = parse_error(text);
        EXPECT_TRUE(contains(e, "unknown findings key")) << text << ": " << e;
        EXPECT_TRUE(contains(e, hint)) << text << ": " << e;
        EXPECT_TRUE(contains(e, "SOURCE one of wilc1000, driver, verdict")) << e;
    }
}

TEST(ExpectPaths, FindingsOfAChipThatIsNotTheScenariosDeviceAreAnError) {
    // A KS8851 scenario never has WILC1000 findings: `== 0` would be true of every run.
    const std::string e = parse_error("findings.wilc1000.error == 0", "ks8851");
    EXPECT_TRUE(contains(e, "unknown findings key 'findings.wilc1000.error'")) << e;
    EXPECT_TRUE(contains(e, "this scenario's device is ks8851")) << e;
    EXPECT_EQ(parse_error("findings.ks8851.error == 0", "ks8851"), "");
}

TEST(ExpectPaths, EveryValidFindingsKeyParsesAndCounts) {
    for (const char* ok :
         {"findings == 0", "findings.error == 0", "findings.warning <= 2", "findings.info >= 0",
          "findings.driver == 0", "findings.driver.error == 0", "findings.wilc1000.warning == 0",
          "findings.verdict.error == 0", "findings.fault.info >= 0", "findings.nicsim.warning == 0",
          "findings.lx_emul.error == 0", "findings.trace.warning == 0"})
        EXPECT_EQ(parse_error(ok), "") << ok;

    const auto report = nlohmann::json::parse(R"({"findings": [
        {"time_s": 0, "source": "driver", "severity": "error", "message": "x"},
        {"time_s": 0, "source": "wilc1000", "severity": "warning", "message": "y"}]})");
    EXPECT_TRUE(
        evaluate(parse_expectation("findings.driver.error == 1", "wilc1000"), report, 0).pass);
    EXPECT_TRUE(evaluate(parse_expectation("findings.error == 1", "wilc1000"), report, 0).pass);
    EXPECT_TRUE(evaluate(parse_expectation("findings.wilc1000 == 1", "wilc1000"), report, 0).pass);
    EXPECT_FALSE(evaluate(parse_expectation("findings == 0", "wilc1000"), report, 0).pass);
}

// Every report key is checkable (issue 35 item 4): the faults block, by index or by kind, and
// the UDP drop counters; a fault key that is not in the report stays an error.
TEST(ExpectPaths, FaultKeysAreReportKeys) {
    for (const char* ok :
         {"faults[0].kind == link_down", "faults[link_down].outcome == recovered",
          "faults[link_down].injected == 2", "faults[0].first_s >= 10ms",
          "faults[rx_overrun].opportunities > 0", "faults[0].effects[0].count >= 1",
          "faults[0].driver_errors == 0", "faults[0].driver_lines[0].count >= 1",
          "flows[udp].udp.rcvbuf_errors == 0", "flows[0].udp.backlog_drops == 0"})
        EXPECT_EQ(parse_error(ok, "ks8851"), "") << ok;
    EXPECT_TRUE(contains(parse_error("faults[0].outcomes == recovered", "ks8851"),
                         "did you mean 'outcome'?"));
    EXPECT_NE(parse_error("faults.outcome == recovered", "ks8851"), "");

    const auto report = nlohmann::json::parse(R"({"faults": [
        {"kind": "link_down", "injected": 2, "first_s": 0.05, "outcome": "recovered",
         "effects": [{"effect": "link down", "count": 1}]}]})");
    EXPECT_TRUE(
        evaluate(parse_expectation("faults[link_down].outcome == recovered", "ks8851"), report, 0)
            .pass);
    EXPECT_TRUE(
        evaluate(parse_expectation("faults[link_down].first_s == 50ms ± 1%", "ks8851"), report, 0)
            .pass);
    EXPECT_TRUE(
        evaluate(parse_expectation("faults[0].effects[0].count == 1", "ks8851"), report, 0).pass);
    EXPECT_EQ(
        evaluate(parse_expectation("faults[rx_overrun].injected == 2", "ks8851"), report, 0).actual,
        "absent: no faults[rx_overrun] (1 element)");
}

// Known benign driver lines (system/benign_driver_lines.h) are findings of severity `benign`:
// counted by findings.benign, not by findings.error.
TEST(ExpectPaths, BenignFindingsAreCountedApartFromErrors) {
    for (const char* ok : {"findings.benign == 1", "findings.driver.benign <= 1"})
        EXPECT_EQ(parse_error(ok), "") << ok;
    const auto report = nlohmann::json::parse(R"({"findings": [
        {"time_s": 0, "source": "driver", "severity": "benign", "message": "chipid"}]})");
    EXPECT_TRUE(evaluate(parse_expectation("findings.error == 0", "wilc1000"), report, 0).pass);
    EXPECT_TRUE(evaluate(parse_expectation("findings.benign == 1", "wilc1000"), report, 0).pass);
    EXPECT_TRUE(
        evaluate(parse_expectation("findings.driver.benign == 1", "wilc1000"), report, 0).pass);
}

TEST(ExpectPaths, OtherUnknownPathsStayErrors) {
    EXPECT_TRUE(contains(parse_error("wakeup == 0"), "did you mean 'wakeups'?"));
    EXPECT_TRUE(
        contains(parse_error("totals.nothing == 0"), "unknown report key 'totals.nothing'"));
    EXPECT_TRUE(contains(parse_error("devices.wakeups == 0"), "unknown report key"));
}

TEST(ExpectPaths, TheLoaderNamesFileLineAndItemOfAMisspeltFindingsKey) {
    const auto dir = nicsim::test::test_dir();
    nicsim::test::write_file(dir / "platforms" / "test-board.yaml",
                             nicsim::test::test_platform_yaml());
    const std::string file = nicsim::test::write_file(
        dir / "s.yaml", "name: t\nduration: 10s\nplatform: test-board\n"
                        "device: {type: wilc1000, bus: spi, bus_clock: 24MHz}\n"
                        "traffic: {kind: ttcp_tx, bytes: 1MiB}\n"
                        "expect:\n"
                        "  - findings.error == 0\n"
                        "  - findings.errors == 0\n"); // line 8
    std::string msg;
    try {
        load_scenario(file);
    } catch (const config_error& e) {
        msg = e.what();
    }
    EXPECT_EQ(msg.rfind(file + ":8:5: expect[1]: unknown findings key 'findings.errors'; did you "
                               "mean 'findings.error'?",
                        0),
              0u)
        << msg;
}

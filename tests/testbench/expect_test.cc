// SPDX-License-Identifier: MIT
//
// `expect:` paths (issue 36 item 2): every path is resolved against the report, so a key that
// names nothing is an error with the nearest valid one, never an expectation that passes because
// it counted nothing. The findings counts were the gap: `findings.errors == 0` counted the
// findings of a source called "errors" (none) and passed whatever the run did.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "testbench/config/config_loader.h"
#include "testbench/config/expect.h"
#include "testbench/config/yaml_reader.h"
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

// SPDX-License-Identifier: MIT
// The public GoogleTest fixture (tools/testing/include/nicsim/scenario_test.h) against this
// build's nicsim: expectations come back with their values, an unmet one is a test failure that
// names it, report paths resolve by index and by name, `nicsim check --reports` keeps reports.
#include <gtest/gtest-spi.h>
#include <nicsim/scenario_test.h>

namespace {

using nicsim::testing::check;
using nicsim::testing::shipped_config;

TEST(ScenarioFixture, ParsesCheckResultLines) {
    nicsim::testing::expectation_result e;
    ASSERT_TRUE(nicsim::testing::detail::parse_result_line(
        "  FAIL   rtt_ms.avg < 1ms  (actual: flows[0].rtt_ms.avg = 1.57)", e));
    EXPECT_EQ(e.status, "FAIL");
    EXPECT_EQ(e.text, "rtt_ms.avg < 1ms");
    EXPECT_EQ(e.actual, "flows[0].rtt_ms.avg = 1.57");
    EXPECT_FALSE(e.pass());
    EXPECT_FALSE(nicsim::testing::detail::parse_result_line("  | [ 0.000] eth0: up", e));
}

TEST(ScenarioFixture, ReturnsEveryExpectationWithItsValueAndTheReport) {
    const auto r =
        check(shipped_config("ks8851-spi-ping.yaml"),
              {"flows[0].packets_received == 2", "rtt_ms.avg < 1ms"}, {"traffic.count=2"});
    EXPECT_EQ(r.exit_code, 3) << r.output; // one expectation not met
    ASSERT_EQ(r.expectations.size(), 3u) << r.output;
    EXPECT_EQ(r.expectations[0].text, "exit_code == 0 (implied)");
    EXPECT_TRUE(r.expectations[1].pass());
    EXPECT_EQ(r.expectations[1].actual, "2");
    EXPECT_EQ(r.expectations[2].status, "FAIL");
    EXPECT_NE(r.expectations[2].actual.find("flows[0].rtt_ms.avg = "), std::string::npos);
    // The report: by index, by element name, nested; the same value the expectation saw.
    EXPECT_EQ(r.at("flows[0].packets_received").get<int>(), 2);
    EXPECT_EQ(r.at("devices[eth0].frames_tx"), r.at("devices[0].frames_tx"));
    EXPECT_GT(r.at("flows[0].rtt_ms.avg").get<double>(), 1.0);
    EXPECT_THROW(r.at("devices[wlan0].frames_tx"), std::out_of_range);
    try {
        r.at("totals.no_such_key");
        ADD_FAILURE() << "no throw";
    } catch (const std::out_of_range& e) {
        EXPECT_NE(std::string(e.what()).find("'no_such_key'"), std::string::npos) << e.what();
    }
}

class Fixture : public nicsim::testing::ScenarioTest {
  public:
    void TestBody() override {}
    using ScenarioTest::Check;
};

TEST(ScenarioFixture, AnUnmetExpectationIsAFailureNamingItAndTheValue) {
    EXPECT_NONFATAL_FAILURE(
        {
            Fixture f;
            f.Check(shipped_config("ks8851-spi-ping.yaml"), {"rtt_ms.avg < 1ms"},
                    {"traffic.count=1"});
        },
        "FAIL rtt_ms.avg < 1ms (actual: flows[0].rtt_ms.avg = ");
}

TEST(ScenarioFixture, BadInputIsAFailureWithNicsimsMessage) {
    EXPECT_NONFATAL_FAILURE(
        {
            Fixture f;
            f.Check(shipped_config("ks8851-spi-ping.yaml"), {"wakeup == 0"});
        },
        "did you mean 'wakeups'");
}

TEST(ScenarioFixture, MetExpectationsPassSilently) {
    Fixture f;
    const auto r =
        f.Check(shipped_config("ks8851-spi-ping.yaml"),
                {"findings.error == 0", "flows[ping].packets_received == 1"}, {"traffic.count=1"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.expectations.size(), 3u);
}

} // namespace

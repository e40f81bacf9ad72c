// SPDX-License-Identifier: MIT
//
// `nicsim calibrate` without runs: the search on model functions with known answers, the marking
// and rewriting of a profile's text, and every input it refuses before running anything
// (tools/calibrate/). The runs themselves: calibrate_run_test.py.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tools/calibrate/calibrate.h"
#include "tools/config/config_loader.h"
#include "tests/testbench/test_files.h"

namespace {
namespace fs = std::filesystem;
using namespace nicsim::calibrate;
using nicsim::test::test_dir;
using nicsim::test::write_file;

const std::string k_src = NICSIM_SOURCE_DIR;

// A throughput that falls with a per-message cost, as the KS8851 point does.
double rate(double cost_us) {
    return 20000.0 / (1.0 + cost_us / 40.0);
}

TEST(CalibrateFit, RecoversOneKeyFromItsOwnPrediction) {
    const fit_key k{"cost", 14.5, 14.5 / 4, 58, false};
    int calls = 0;
    const auto eval = [&](const std::vector<double>& x) {
        ++calls;
        return std::vector<double>{rate(x[0])};
    };
    const fit_result r = fit({k}, {{rate(20.0), 0.15}}, eval);
    ASSERT_EQ(r.x.size(), 1u);
    EXPECT_NEAR(r.x[0], 20.0, 0.2); // within 1 %
    EXPECT_TRUE(r.converged);
    EXPECT_FALSE(r.at_bound[0]);
    EXPECT_EQ(r.evaluations, calls);
    EXPECT_LE(calls, 10); // a secant search, not a bisection
}

TEST(CalibrateFit, TwoCoupledKeysAreFittedJointly) {
    // Each measurement depends mostly, not only, on one key (the WILC1000 points' shape).
    const auto eval = [](const std::vector<double>& x) {
        return std::vector<double>{1e5 / (x[0] + 0.2 * x[1]), 1e5 / (0.1 * x[0] + x[1])};
    };
    const std::vector<double> truth = {40, 250};
    const std::vector<double> t = eval(truth);
    const fit_result r = fit({{"msg", 75, 0, 300, false}, {"seg", 100, 0, 600, false}},
                             {{t[0], 0.05}, {t[1], 0.1}}, eval);
    EXPECT_NEAR(r.x[0], 40, 0.4);
    EXPECT_NEAR(r.x[1], 250, 2.5);
}

TEST(CalibrateFit, MoreMeasurementsThanKeysIsALeastSquaresFitWeightedByTolerance) {
    // Two measurements of the same quantity, 10 % apart; the tighter one (±1 %) wins.
    const auto eval = [](const std::vector<double>& x) {
        return std::vector<double>{rate(x[0]), rate(x[0])};
    };
    const fit_result r = fit({{"cost", 14.5, 1, 100, false}}, {{10000, 0.01}, {11000, 0.10}}, eval);
    const double p = rate(r.x[0]);
    EXPECT_GT(p, 10000);
    EXPECT_LT(p, 10100); // the weighted mean: (1e4/1e-4 + 1.1e4/1e-2) / (1/1e-4 + 1/1e-2)
}

TEST(CalibrateFit, AKeyThatCannotReachTheMeasurementEndsOnItsBoundAndSaysSo) {
    const auto eval = [](const std::vector<double>& x) { return std::vector<double>{rate(x[0])}; };
    // rate(0) = 20000 is the most the key can give.
    const fit_result r = fit({{"cost", 14.5, 1, 58, false}}, {{25000, 0.15}}, eval);
    EXPECT_DOUBLE_EQ(r.x[0], 1);
    EXPECT_TRUE(r.at_bound[0]);
}

TEST(CalibrateFit, AKeyThatMovesNothingIsAnError) {
    const auto eval = [](const std::vector<double>& x) {
        return std::vector<double>{rate(x[0]), 5000.0};
    };
    try {
        fit({{"cost", 14.5, 1, 58, false}, {"idle", 3, 1, 10, false}}, {{15000, 0.1}, {6000, 0.1}},
            eval);
        FAIL() << "expected fit_error";
    } catch (const fit_error& e) {
        EXPECT_NE(std::string(e.what()).find("no measurement moves idle"), std::string::npos)
            << e.what();
    }
}

TEST(CalibrateFit, ElasticityAndTheSpreadTheTolerancesAllow) {
    // p = c / x: elasticity -1 (the forward step of 5 % gives 1/1.05 - 1 over 0.05).
    const auto eval = [](const std::vector<double>& x) { return std::vector<double>{100 / x[0]}; };
    const auto e = elasticities({{"k", 10, 1, 100, false}}, {10}, {10}, eval);
    EXPECT_NEAR(e[0][0], (1 / 1.05 - 1) / 0.05, 1e-9);
    // ±15 % of the prediction at an elasticity near -1: the key is known to about ±16 %.
    const auto s = key_spread(e, {{10, 0.15}});
    EXPECT_NEAR(s[0], 0.15 / std::fabs(e[0][0]), 1e-9);
}

TEST(CalibrateFit, IntegerKeysStayIntegers) {
    const auto eval = [](const std::vector<double>& x) { return std::vector<double>{rate(x[0])}; };
    const fit_result r = fit({{"blocks", 6, 2, 24, true}}, {{rate(11), 0.1}}, eval);
    EXPECT_DOUBLE_EQ(r.x[0], 11);
}

// The marking rule of profile_text.h on a profile of every case.
TEST(CalibrateProfileText, MarksAssumptionsAndCalibratedValues) {
    const fs::path d = test_dir();
    const std::string f = write_file(d / "p.yaml", R"(# SPDX-License-Identifier: MIT
name: p
cpu:
  cores: 4
  # Assumption: cycles per block.
  cycles_per_block: 6
# Assumption for every key below.
stack:
  a: 2us
  b: 3us

  c: 4us  # from the datasheet
spi:
  # Calibrated to somewhere (was an assumption).
  per_message: 14.5us
  # Assumption: small.
  cs_setup: 100ns
  cs_hold: 100ns
  gap: 1us  # calibrated to m.yaml by nicsim calibrate (was 2us)
  controller: spi-bcm2835
)");
    const profile_text p = read_profile_text(f);
    auto mark = [&](const std::string& k) {
        const profile_value* v = p.find(k);
        EXPECT_NE(v, nullptr) << k;
        return v ? v->mark : marking::none;
    };
    EXPECT_EQ(mark("cpu.cores"), marking::none);
    EXPECT_EQ(mark("cpu.cycles_per_block"), marking::assumption);
    EXPECT_EQ(mark("stack.a"), marking::assumption);       // the section's comment
    EXPECT_EQ(mark("stack.b"), marking::assumption);       // the run of keys
    EXPECT_EQ(mark("stack.c"), marking::none);             // after a blank line, its own comment
    EXPECT_EQ(mark("spi.per_message"), marking::calibrated);
    EXPECT_EQ(mark("spi.cs_setup"), marking::assumption);
    EXPECT_EQ(mark("spi.cs_hold"), marking::assumption);
    EXPECT_EQ(mark("spi.gap"), marking::calibrated);
    EXPECT_EQ(p.find("spi.per_message")->text, "14.5us");
    EXPECT_EQ(p.find("spi.per_message")->line, 14u);
}

TEST(CalibrateProfileText, RewritesOnlyTheFittedValuesAndTheName) {
    const fs::path d = test_dir();
    std::ifstream in(k_src + "/configs/platforms/rpi-class.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string f = write_file(d / "rpi.yaml", ss.str());
    const profile_text p = read_profile_text(f);
    ASSERT_NE(p.find("kernel.hardirq"), nullptr);
    const std::string text = rewrite_profile(
        p, {{"kernel.hardirq", "3.5us", "calibrated to m.yaml by nicsim calibrate (was 2us)"}},
        "mine", {"header line"});
    const std::string out = write_file(d / "out.yaml", text);
    const auto prof = nicsim::config::load_platform(out);
    EXPECT_EQ(prof.name, "mine");
    const profile_text q = read_profile_text(out);
    EXPECT_EQ(q.find("kernel.hardirq")->text, "3.5us");
    EXPECT_EQ(q.find("kernel.hardirq")->mark, marking::calibrated);
    // Every other line as it was: the two changed lines and the header line differ.
    ASSERT_EQ(q.lines.size(), p.lines.size() + 1);
    size_t differ = 0;
    for (size_t i = 0; i < p.lines.size(); ++i)
        differ += q.lines[i + (i >= 1 ? 1 : 0)] != p.lines[i];
    EXPECT_EQ(differ, 2u);
    EXPECT_EQ(q.lines[1], "# header line");
}

TEST(CalibrateProfileText, Quantities) {
    quantity q;
    ASSERT_TRUE(parse_quantity("14.5us", q));
    EXPECT_DOUBLE_EQ(q.number, 14.5);
    EXPECT_EQ(q.unit, "us");
    EXPECT_FALSE(q.integer);
    ASSERT_TRUE(parse_quantity("6", q));
    EXPECT_TRUE(q.integer);
    EXPECT_FALSE(parse_quantity("spi-bcm2835", q));
    EXPECT_FALSE(parse_quantity("true", q));
    EXPECT_EQ(format_quantity(14.55, "us", false), "14.55us");
    EXPECT_EQ(format_quantity(11, "", true), "11");
}

// A measurement file on the KS8851 scenario (rpi-class) and a request fitting to it.
struct inputs {
    fs::path dir;
    request r;
};

inputs one_measurement() {
    inputs in;
    in.dir = test_dir();
    write_file(in.dir / "m.yaml", "scenario: " + k_src + "/configs/ks8851-spi-iperf-rx.yaml\n"
                                  "set: {traffic.bytes: 256KiB}\nmetric: goodput_kbps\n"
                                  "measured: {value: 15000, unit: Kbit/s, source: test, "
                                  "tolerance_pct: 10}\n");
    in.r.measurements = {(in.dir / "m.yaml").string()};
    in.r.output = (in.dir / "out.yaml").string();
    return in;
}

std::string refusal(const request& r) {
    try {
        make_plan(r);
    } catch (const nicsim::config::config_error& e) {
        return e.what();
    }
    return "(accepted)";
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

TEST(CalibratePlan, TheProfileComesFromTheScenarioAndKeysFromItsText) {
    inputs in = one_measurement();
    in.r.keys = {"spi_host.per_message_overhead"};
    const plan p = make_plan(in.r);
    EXPECT_EQ(fs::path(p.profile.file).filename(), "rpi-class.yaml");
    ASSERT_EQ(p.keys.size(), 1u);
    EXPECT_EQ(p.keys[0].unit, "us");
    EXPECT_DOUBLE_EQ(p.keys[0].key.lo, p.keys[0].key.start / 4);
    EXPECT_DOUBLE_EQ(p.keys[0].key.hi, p.keys[0].key.start * 4);
    EXPECT_EQ(p.name, "rpi-class-calibrated");
    EXPECT_NEAR(p.targets[0].value, 15000e3 * 1e-3, 1e-9); // goodput_kbps is in kbit/s
    EXPECT_DOUBLE_EQ(p.targets[0].tolerance, 0.10);
}

TEST(CalibratePlan, RefusesMoreKeysThanMeasurements) {
    inputs in = one_measurement();
    in.r.keys = {"spi_host.per_message_overhead", "kernel.hardirq"};
    EXPECT_TRUE(has(refusal(in.r), "2 keys for 1 measurement: each measurement fixes at most one "
                                   "key"))
        << refusal(in.r);
}

TEST(CalibratePlan, RefusesAnUnknownKeyNamingItsSection) {
    inputs in = one_measurement();
    in.r.keys = {"spi_host.per_mesage_overhead"};
    const std::string e = refusal(in.r);
    EXPECT_TRUE(has(e, "--key spi_host.per_mesage_overhead: unknown key in ")) << e;
    EXPECT_TRUE(has(e, "spi_host.per_message_overhead")) << e; // the section's keys are listed
    in.r.keys = {"spi_host"};
    EXPECT_TRUE(has(refusal(in.r), "a section of")) << refusal(in.r);
    in.r.keys = {"spi_host.controller"};
    EXPECT_TRUE(has(refusal(in.r), "holds 'spi-bcm2835', not a number")) << refusal(in.r);
}

TEST(CalibratePlan, RefusesBoundsTheProfileDoesNotAccept) {
    inputs in = one_measurement();
    in.r.keys = {"spi_host.per_message_overhead=-5us:40us"};
    const std::string e = refusal(in.r);
    EXPECT_TRUE(has(e, "-5us is out of the range the profile accepts for "
                       "spi_host.per_message_overhead"))
        << e;
    in.r.keys = {"spi_host.per_message_overhead=5ms:40ms"};
    EXPECT_TRUE(has(refusal(in.r), "give the bounds in us")) << refusal(in.r);
    in.r.keys = {"spi_host.per_message_overhead=40us:5us"};
    EXPECT_TRUE(has(refusal(in.r), "lower bound must be below")) << refusal(in.r);
}

TEST(CalibratePlan, NeverWritesOverTheProfileItFitsOrAShippedOne) {
    inputs in = one_measurement();
    in.r.keys = {"spi_host.per_message_overhead"};
    in.r.output = nicsim::config::default_configs_dir() + "/platforms/sama5-class.yaml";
    EXPECT_TRUE(has(refusal(in.r), "would overwrite a shipped profile")) << refusal(in.r);
    in.r.output = nicsim::config::default_configs_dir() + "/platforms/rpi-class.yaml";
    EXPECT_TRUE(has(refusal(in.r), "that is the profile being fitted")) << refusal(in.r);
}

TEST(CalibratePlan, BadMeasurementFilesAndTies) {
    inputs in = one_measurement();
    write_file(in.dir / "bad.yaml", "scenario: nowhere.yaml\nmetric: goodput_kbps\n");
    in.r.measurements = {(in.dir / "bad.yaml").string()};
    EXPECT_TRUE(has(refusal(in.r), "bad.yaml")) << refusal(in.r);
    in = one_measurement();
    in.r.keys = {"spi_host.per_message_overhead"};
    in.r.ties = {"spi_host.per_transfer_overhead=0.5*kernel.hardirq"};
    EXPECT_TRUE(has(refusal(in.r), "kernel.hardirq is not one of the fitted keys")) << refusal(in.r);
    in.r.ties = {"spi_host.per_transfer_overhead=0.14*spi_host.per_message_overhead"};
    EXPECT_EQ(refusal(in.r), "(accepted)");
    in.r.predict = {(in.dir / "none.yaml").string()};
    EXPECT_TRUE(has(refusal(in.r), "--predict " + (in.dir / "none.yaml").string() + ": "))
        << refusal(in.r);
    in.r.predict = {k_src + "/configs/ks8851-spi-ping.yaml"};
    const plan p = make_plan(in.r);
    ASSERT_EQ(p.predictions.size(), 1u);
    EXPECT_EQ(p.predictions[0].metric, "rtt_avg_ms"); // a ping scenario's default
    in.r.predict = {k_src + "/configs/ks8851-spi-ping.yaml:sim_time_s"};
    EXPECT_EQ(make_plan(in.r).predictions[0].metric, "sim_time_s");
}

TEST(CalibratePlan, TheDefaultCandidatesAreTheProfilesAssumptions) {
    inputs in = one_measurement();
    const plan p = make_plan(in.r);
    EXPECT_TRUE(p.keys.empty()); // chosen by their effect when the runs start
    const auto cand = assumption_keys(p);
    std::vector<std::string> names;
    for (const auto& k : cand)
        names.push_back(k.key.name);
    auto in_list = [&](const std::string& k) {
        return std::find(names.begin(), names.end(), k) != names.end();
    };
    EXPECT_TRUE(in_list("kernel.hardirq"));
    EXPECT_FALSE(in_list("cpu.cores"));                     // sourced
    EXPECT_FALSE(in_list("spi_host.per_message_overhead")); // calibrated
}

} // namespace

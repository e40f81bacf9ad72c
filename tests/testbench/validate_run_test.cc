// SPDX-License-Identifier: MIT
//
// `nicsim validate` with the real binary: a check within tolerance passes (exit 0), one whose
// tolerance is deliberately violated fails (exit 3), both with the table; bad files exit 1.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/runner.h"
#include "tools/sweep/metrics.h"
#include "tools/validate/validation.h"
#include "tests/testbench/test_files.h"

namespace {
namespace fs = std::filesystem;
using nicsim::test::test_dir;
using nicsim::test::write_file;

struct result {
    int rc;
    std::string out;
};

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

std::string q(const fs::path& p) {
    return "'" + p.string() + "'";
}

const std::string k_exe = NICSIM_EXE;
const std::string k_scenario = std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-spi-iperf-rx.yaml";

// The KS8851 scenario with 256 KiB of traffic, measured value given in kbit/s.
std::string check_file(const fs::path& dir, const std::string& name, double value, double tolerance,
                       const std::string& unit = "Kbit/s") {
    return write_file(dir / (name + ".yaml"), "scenario: " + k_scenario +
                                                  "\n"
                                                  "set: {traffic.bytes: 256KiB}\n"
                                                  "metric: goodput_kbps\n"
                                                  "measured:\n"
                                                  "  value: " +
                                                  std::to_string(value) +
                                                  "\n"
                                                  "  unit: " +
                                                  unit +
                                                  "\n"
                                                  "  source: test figure\n"
                                                  "  tolerance_pct: " +
                                                  std::to_string(tolerance) + "\n");
}

// What the scenario predicts, from `nicsim run --json` directly.
double predicted_kbps(const fs::path& dir) {
    const fs::path j = dir / "direct.json";
    const auto r =
        shell(q(k_exe) + " run " + q(k_scenario) + " --set traffic.bytes=256KiB -q --json " + q(j));
    EXPECT_EQ(r.rc, 0) << r.out;
    std::ifstream in(j);
    return nlohmann::json::parse(in)["totals"]["goodput_bps"].get<double>() / 1000;
}

std::string row_of(const std::string& table, const std::string& name) {
    std::istringstream in(table);
    for (std::string l; std::getline(in, l);)
        if (l.rfind(name + " ", 0) == 0)
            return l;
    return "";
}

std::string fmt(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

// A source as long as a citation with its page and URL gets.
const std::string k_long_source =
    "Example Corp application note AN-1234 rev. C, table 7 (typical receive throughput at "
    "25 MHz SPI, 1500-byte frames), https://example.com/an1234.pdf, page 12";

void expect_within_columns(const std::string& text, size_t columns) {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        size_t n = 0;
        for (unsigned char c : l)
            n += (c & 0xC0) != 0x80;
        EXPECT_LE(n, columns) << "'" << l << "'";
    }
}

// The text with every run of white space (line breaks and indents included) as one space.
std::string unwrapped(const std::string& text) {
    std::string out;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    return out;
}

} // namespace

TEST(ValidateRun, PredictionWithinTolerancePassesAndOutsideFails) {
    const auto d = test_dir();
    const double p = predicted_kbps(d);
    ASSERT_GT(p, 1000);
    const fs::path pass_dir = d / "pass", fail_dir = d / "fail";
    check_file(pass_dir, "near", p * 1.05, 10);                  // 4.8 % off: inside ±10 %
    check_file(pass_dir, "mbit", p * 1.05 / 1000, 10, "Mbit/s"); // the same, published in Mbit/s
    check_file(fail_dir, "near", p * 1.05, 10);
    check_file(fail_dir, "far", p * 1.25, 10); // 20 % off: outside ±10 %

    const auto ok = shell(q(k_exe) + " validate " + q(pass_dir) + " -j 2");
    EXPECT_EQ(ok.rc, 0) << ok.out;
    const std::string near = row_of(ok.out, "near");
    EXPECT_NE(near.find("goodput_kbps"), std::string::npos) << ok.out;
    EXPECT_NE(near.find(fmt(p)), std::string::npos) << ok.out;        // predicted
    EXPECT_NE(near.find(fmt(p * 1.05)), std::string::npos) << ok.out; // measured
    EXPECT_NE(near.find("-4.8 %"), std::string::npos) << ok.out;
    EXPECT_NE(near.find("PASS"), std::string::npos) << ok.out;
    // Both figures in the unit the measurement was published in.
    const std::string mbit = row_of(ok.out, "mbit");
    EXPECT_NE(mbit.find(fmt(p / 1000) + "  "), std::string::npos) << ok.out;
    EXPECT_NE(mbit.find(fmt(p * 1.05 / 1000) + "  Mbit/s"), std::string::npos) << ok.out;
    EXPECT_NE(mbit.find("-4.8 %"), std::string::npos) << ok.out;
    EXPECT_NE(ok.out.find("2 of 2 within tolerance"), std::string::npos) << ok.out;

    const auto bad = shell(q(k_exe) + " validate " + q(fail_dir) + " -j 2");
    EXPECT_EQ(bad.rc, 3) << bad.out;
    EXPECT_NE(row_of(bad.out, "near").find("PASS"), std::string::npos) << bad.out;
    const std::string far = row_of(bad.out, "far");
    EXPECT_NE(far.find("-20.0 %"), std::string::npos) << bad.out;
    EXPECT_NE(far.find("±10 %"), std::string::npos) << bad.out;
    EXPECT_NE(far.find("FAIL"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("1 of 2 within tolerance"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("far: "), std::string::npos) << bad.out; // sources listed
}

TEST(ValidateRun, BadValidationFilesExitOneWithThePosition) {
    const auto d = test_dir();
    const auto f = write_file(d / "bad.yaml", "scenario: " + k_scenario +
                                                  "\nmetric: goodput_kbps\n"
                                                  "measured: {value: 100, unit: KB/h, source: x, "
                                                  "tolerance_pct: 5}\n");
    auto r = shell(q(k_exe) + " validate " + q(f));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find(f + ":3:30: measured.unit: unit 'KB/h' does not fit metric goodput_kbps"),
              std::string::npos)
        << r.out;
    const auto g = write_file(d / "g.yaml", "scenario: " + k_scenario +
                                                "\nset: {driver.power_save: true}\n"
                                                "metric: goodput_kbps\n"
                                                "measured: {value: 100, unit: kbps, source: x, "
                                                "tolerance_pct: 5}\n");
    r = shell(q(k_exe) + " validate " + q(g));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("ks8851 driver has no chip sleep control"), std::string::npos) << r.out;
    r = shell(q(k_exe) + " validate " + q(d / "nothing"));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("no such file or directory"), std::string::npos) << r.out;
    const auto s = write_file(d / "s.yaml", "scenario: " + k_scenario +
                                                "\nseeds: [1, two]\n"
                                                "metric: goodput_kbps\n"
                                                "measured: {value: 100, unit: kbps, source: x, "
                                                "tolerance_pct: 5}\n");
    r = shell(q(k_exe) + " validate " + q(s));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find(s + ":2:12: seeds: 'two' is not a seed"), std::string::npos) << r.out;
    // Published runs are judged seed by seed: without seeds they are refused.
    const auto u = write_file(d / "u.yaml", "scenario: " + k_scenario +
                                                "\nmetric: goodput_kbps\n"
                                                "measured: {value: 100, unit: kbps, source: x, "
                                                "tolerance_pct: 5, runs: [99, 101]}\n");
    r = shell(q(k_exe) + " validate " + q(u));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("measured.runs: the published runs are checked seed by seed"),
              std::string::npos)
        << r.out;
}

// measured.runs: a mean inside the tolerance still fails when a seed's run lies outside the
// published runs (widened): exit 3, and the output names the seed.
TEST(ValidateRun, ASeedOutsideThePublishedRunsFails) {
    const auto d = test_dir();
    const fs::path j = d / "seed1.json";
    auto r = shell(q(k_exe) + " run " + q(k_scenario) + " --set traffic.bytes=256KiB --set seed=1" +
                   " -q --json " + q(j));
    ASSERT_EQ(r.rc, 0) << r.out;
    std::ifstream in(j);
    const double v = nlohmann::json::parse(in)["totals"]["goodput_bps"].get<double>() / 1000;
    auto file = [&](const std::string& name, double lo, double hi) {
        return write_file(d / (name + ".yaml"),
                          "scenario: " + k_scenario +
                              "\nset: {traffic.bytes: 256KiB}\nseeds: [1]\nmetric: goodput_kbps\n"
                              "measured: {value: " + std::to_string(v) +
                              ", unit: kbps, source: x, tolerance_pct: 5, runs: [" +
                              std::to_string(lo) + ", " + std::to_string(hi) +
                              "], runs_widen_pct: 1}\n");
    };
    r = shell(q(k_exe) + " validate " + q(file("inside", v * 0.995, v * 1.005)));
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("every seed's run within them ±1 %: yes"), std::string::npos) << r.out;
    r = shell(q(k_exe) + " validate " + q(file("outside", v * 1.02, v * 1.04)));
    EXPECT_EQ(r.rc, 3) << r.out;
    EXPECT_NE(r.out.find(": no (seed 1 outside)"), std::string::npos) << r.out;
}

// seeds: one run per seed, the prediction is their mean, and each seed's value is listed.
TEST(ValidateRun, SeedsPredictTheMeanOfOneRunPerSeed) {
    const auto d = test_dir();
    std::vector<double> per_seed;
    for (int seed : {1, 2}) {
        const fs::path j = d / ("seed" + std::to_string(seed) + ".json");
        const auto r = shell(q(k_exe) + " run " + q(k_scenario) +
                             " --set traffic.bytes=256KiB --set seed=" + std::to_string(seed) +
                             " -q --json " + q(j));
        ASSERT_EQ(r.rc, 0) << r.out;
        std::ifstream in(j);
        per_seed.push_back(nlohmann::json::parse(in)["totals"]["goodput_bps"].get<double>() / 1000);
    }
    ASSERT_NE(per_seed[0], per_seed[1]) << "the seeds should differ for this test to mean much";
    const double mean = (per_seed[0] + per_seed[1]) / 2;
    const auto f = write_file(d / "two.yaml", "scenario: " + k_scenario +
                                                  "\nset: {traffic.bytes: 256KiB}\n"
                                                  "seeds: [1, 2]\n"
                                                  "metric: goodput_kbps\n"
                                                  "measured: {value: " +
                                                  std::to_string(mean) +
                                                  ", unit: kbps, source: '" + k_long_source +
                                                  "', tolerance_pct: 1}\n");
    // A wide terminal (COLUMNS) still gets at most 100 columns (issue 35 item 6).
    const auto r = shell("COLUMNS=200 " + q(k_exe) + " validate " + q(f) + " -j 2");
    EXPECT_EQ(r.rc, 0) << r.out;
    expect_within_columns(r.out, 100);
    EXPECT_NE(unwrapped(r.out).find(k_long_source), std::string::npos) << r.out;
    // A narrower one: the notes under the table wrap to it.
    const auto narrow = shell("COLUMNS=64 " + q(k_exe) + " validate " + q(f) + " -j 2");
    const std::string notes = narrow.out.substr(narrow.out.find("measured values:"));
    expect_within_columns(notes, 64);
    EXPECT_NE(unwrapped(notes).find(k_long_source), std::string::npos) << narrow.out;
    EXPECT_NE(row_of(r.out, "two").find(fmt(mean) + "  "), std::string::npos) << r.out;
    EXPECT_NE(
        r.out.find("two: seed 1 " + fmt(per_seed[0]) + ", seed 2 " + fmt(per_seed[1]) + " kbps"),
        std::string::npos)
        << r.out;
}

// minus: the check's value is metric - minus in each run; tolerance_factor: measured / f ...
// measured × f passes. A short ping run: its max - min from the report itself.
TEST(ValidateRun, ASpreadChecksTheDifferenceOfTwoMetricsWithinAFactor) {
    const auto d = test_dir();
    const std::string ping = std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-spi-ping.yaml";
    const fs::path j = d / "ping.json";
    auto r = shell(q(k_exe) + " run " + q(ping) + " --set traffic.count=200 -q --json " + q(j));
    ASSERT_EQ(r.rc, 0) << r.out;
    std::ifstream in(j);
    const auto rtt = nlohmann::json::parse(in)["flows"][0]["rtt_ms"];
    const double spread = rtt["max"].get<double>() - rtt["min"].get<double>();
    ASSERT_GT(spread, 0.001);
    auto file = [&](const std::string& name, const std::string& extra, const std::string& tol) {
        return write_file(d / (name + ".yaml"),
                          "scenario: " + ping + "\nset: {traffic.count: 200}\n" + extra +
                              "metric: rtt_max_ms\n"
                              "measured: {value: " + std::to_string(spread * 1.9) +
                              ", unit: ms, source: x, " + tol + "}\n");
    };
    r = shell(q(k_exe) + " validate " + q(file("spread", "minus: rtt_min_ms\n",
                                                "tolerance_factor: 2")));
    EXPECT_EQ(r.rc, 0) << r.out;
    const std::string row = row_of(r.out, "spread");
    EXPECT_NE(row.find("rtt_max_ms - rtt_min_ms"), std::string::npos) << r.out;
    char pred[32];
    std::snprintf(pred, sizeof pred, "%.3f", spread);
    EXPECT_NE(row.find(pred), std::string::npos) << r.out; // three decimals below 10
    EXPECT_NE(row.find("×/÷2"), std::string::npos) << r.out;
    r = shell(q(k_exe) + " validate " + q(file("narrow", "minus: rtt_min_ms\n",
                                                "tolerance_factor: 1.8")));
    EXPECT_EQ(r.rc, 3) << r.out; // measured / 1.8 is above the spread
    // Bad files: both tolerances, an unknown or a differently measured metric to subtract.
    r = shell(q(k_exe) + " validate " + q(file("both", "", "tolerance_pct: 5, tolerance_factor: 2")));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("give exactly one of tolerance_pct and tolerance_factor"),
              std::string::npos)
        << r.out;
    r = shell(q(k_exe) + " validate " + q(file("unknown", "minus: rtt_least_ms\n",
                                                "tolerance_factor: 2")));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("minus: unknown metric 'rtt_least_ms'"), std::string::npos) << r.out;
    r = shell(q(k_exe) + " validate " + q(file("units", "minus: goodput_kbps\n",
                                                "tolerance_factor: 2")));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find("a difference needs one unit"), std::string::npos) << r.out;
}

TEST(ValidateRun, ShippedValidationFilesLoadAndConvertUnits) {
    // This test binary links no driver: it knows the variant the WILC1000 points run on.
    nicsim::set_driver_variant_lister(
        [] { return std::vector<std::string>{"wilc1000/chip-sleep-5.16"}; });
    nicsim::set_driver_build_lister([] {
        nicsim::driver_builds b;
        for (const char* v : {"pristine", "chip-sleep-5.16"})
            b.built.push_back({"6.1", "6.1.192", "wilc1000", v, ""});
        b.built.push_back({"6.1", "6.1.192", "ks8851", "pristine", ""});
        return b;
    });
    const auto all =
        nicsim::validate::load_checks(std::string(NICSIM_SOURCE_DIR) + "/configs/validation");
    ASSERT_EQ(all.size(), 7u);
    const auto named = [&all](const std::string& name) -> const nicsim::validate::check& {
        for (const auto& c : all)
            if (c.name == name)
                return c;
        ADD_FAILURE() << "no validation check " << name;
        return all.front();
    };
    const auto& ks = named("ks8851-spi-iperf-rx");
    EXPECT_DOUBLE_EQ(ks.measured_in_metric_unit, 15960); // Kbit/s → goodput_kbps
    const auto& idle_off = named("wilc1000-spi-idle-unassociated-ps-off");
    EXPECT_DOUBLE_EQ(idle_off.measured_in_metric_unit, 0.28); // mW → avg_power_w
    // A mapping value is passed on as one flow-style override.
    EXPECT_EQ(idle_off.set.at(0).text(), "traffic={kind: idle}");
    const auto& idle_on = named("wilc1000-spi-idle-unassociated-ps-on");
    EXPECT_EQ(idle_on.set.at(2).text(), "link.associated=false");
    EXPECT_EQ(idle_on.set.at(3).text(), "driver.power_save=true");
    const auto& ps_off = named("wilc1000-spi-ttcp-tx-ps-off");
    EXPECT_EQ(ps_off.set.at(0).text(), "driver.variant=chip-sleep-5.16");
    EXPECT_EQ(ps_off.set.at(2).text(), "driver.power_save=false");
    EXPECT_DOUBLE_EQ(ps_off.measured_in_metric_unit, 1500);
    // The shipped points' table and notes fit 100 columns (issue 35 item 6), with a prediction
    // for every seed (the widest rows).
    std::vector<nicsim::validate::outcome> outcomes;
    for (const auto& c : all) {
        std::vector<double> samples(c.seeds.size(), c.measured_in_metric_unit * 1.01);
        outcomes.push_back(nicsim::validate::judge(c, c.measured_in_metric_unit * 1.01, samples));
    }
    expect_within_columns(nicsim::validate::render_table(all, outcomes, 100), 100);
    // judge(): relative error against the measured value, inside/outside the tolerance.
    const auto& ps_on = named("wilc1000-spi-ttcp-tx-ps-on");
    auto o = nicsim::validate::judge(ps_on, 390.0); // 400 KB/s ± 5 %
    EXPECT_NEAR(o.error_pct, -2.5, 1e-9);
    EXPECT_TRUE(o.pass);
    o = nicsim::validate::judge(ps_on, 379.0);
    EXPECT_FALSE(o.pass);
    // With the seeds' runs: each must lie in the published runs (396.3 .. 402.8) ± 3 %.
    o = nicsim::validate::judge(ps_on, 396.0, {400, 399, 401, 400, 380});
    EXPECT_FALSE(o.pass) << "seed 5's 380 is below 396.3 - 3 %";
    EXPECT_EQ(o.outside_runs, std::vector<std::uint64_t>{5});
    o = nicsim::validate::judge(ps_on, 398.0, {400, 399, 401, 400, 390});
    EXPECT_TRUE(o.pass);
    EXPECT_TRUE(o.outside_runs.empty());
    // The ping spread: a factor of two either way, the spread as max minus min.
    const auto& mdev = named("ks8851-spi-ping-mdev");
    EXPECT_DOUBLE_EQ(mdev.measured.tolerance_factor, 2);
    EXPECT_DOUBLE_EQ(mdev.measured.tolerance_pct, 0);
    EXPECT_TRUE(nicsim::validate::judge(mdev, 0.023).pass);
    EXPECT_TRUE(nicsim::validate::judge(mdev, 0.087).pass);
    EXPECT_FALSE(nicsim::validate::judge(mdev, 0.021).pass);
    EXPECT_FALSE(nicsim::validate::judge(mdev, 0.089).pass);
    const auto& spread = named("ks8851-spi-ping-spread");
    EXPECT_EQ(spread.metric, "rtt_max_ms");
    EXPECT_EQ(spread.minus, "rtt_min_ms");
    const auto* m = nicsim::sweep::find_metric("goodput_kBps");
    ASSERT_NE(m, nullptr);
    EXPECT_DOUBLE_EQ(nicsim::sweep::unit_factor(*m, "Kbit/s"), 1000.0 / 8192.0);
}

// SPDX-License-Identifier: MIT
//
// Sweep files: expansion into points (grid and list), stable point ids, and the errors a bad
// sweep file gives (in-process, no simulation runs).
#include <algorithm>
#include <set>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/config/yaml_reader.h"
#include "tools/sweep/metrics.h"
#include "tools/sweep/results.h"
#include "tools/sweep/svg_plot.h"
#include "tools/sweep/sweep.h"
#include "tools/sweep/sweep_spec.h"
#include "tests/testbench/test_files.h"

namespace {
namespace fs = std::filesystem;
using nicsim::config::config_error;
using nicsim::sweep::load_sweep_spec;
using nicsim::test::test_dir;
using nicsim::test::write_file;

const std::string k_base = std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-spi-iperf-rx.yaml";

std::string sweep_file(const fs::path& dir, const std::string& body) {
    return write_file(dir / "s.yaml", "base: " + k_base + "\n" + body);
}

std::string error_of(const std::string& file, bool check = false) {
    try {
        auto s = load_sweep_spec(file);
        if (check)
            nicsim::sweep::check_points(s);
    } catch (const config_error& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(SweepSpec, GridIsTheCartesianProductFirstAxisOutermost) {
    const auto f =
        sweep_file(test_dir(), "set: {traffic.bytes: 64KiB, host.stack: fixed_window}\n"
                               "axes:\n"
                               "  - {key: device.bus_clock, values: [10MHz, 25MHz]}\n"
                               "  - {key: traffic.window, values: [2920B, 5840B, 11680B]}\n");
    auto s = load_sweep_spec(f);
    ASSERT_EQ(s.points.size(), 6u);
    EXPECT_EQ(s.columns, (std::vector<std::string>{"device.bus_clock", "traffic.window"}));
    const char* expect[6][2] = {{"10MHz", "2920B"}, {"10MHz", "5840B"}, {"10MHz", "11680B"},
                                {"25MHz", "2920B"}, {"25MHz", "5840B"}, {"25MHz", "11680B"}};
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(s.points[i].index, i);
        ASSERT_EQ(s.points[i].settings.size(), 2u);
        EXPECT_EQ(s.points[i].settings[0].text(), std::string("device.bus_clock=") + expect[i][0]);
        EXPECT_EQ(s.points[i].settings[1].text(), std::string("traffic.window=") + expect[i][1]);
        for (size_t j = 0; j < i; ++j)
            EXPECT_NE(s.points[i].id, s.points[j].id);
    }
    ASSERT_EQ(s.fixed.size(), 2u);
    EXPECT_EQ(s.fixed[0].text(), "traffic.bytes=64KiB");
    const auto all = nicsim::sweep::overrides_of(s, s.points[4]);
    ASSERT_EQ(all.size(), 4u); // two fixed (the window axis needs the fixed-window TCP), two axes
    EXPECT_EQ(all[0].text(), "traffic.bytes=64KiB"); // fixed settings come first
    EXPECT_EQ(s.base, fs::path(k_base).lexically_normal().string());
    EXPECT_EQ(s.metrics, (std::vector<std::string>{"goodput_kBps", "avg_power_w"}));
    EXPECT_NO_THROW(nicsim::sweep::check_points(s));
}

TEST(SweepSpec, ListGivesThePointsInOrderAndTheSameIdsAsTheGrid) {
    const auto d = test_dir();
    const auto grid =
        load_sweep_spec(sweep_file(d, "axes:\n"
                                      "  - {key: device.bus_clock, values: [10MHz, 25MHz]}\n"
                                      "  - {key: traffic.window, values: [5840B]}\n"));
    const auto list = load_sweep_spec(write_file(
        d / "sub" / "l.yaml", "base: " + k_base +
                                  "\npoints:\n"
                                  "  - {device.bus_clock: 25MHz, traffic.window: 5840B}\n"
                                  "  - {device.bus_clock: 10MHz, traffic.window: 5840B}\n"
                                  "  - {traffic.segment_size: 536B}\n"));
    ASSERT_EQ(list.points.size(), 3u);
    EXPECT_EQ(list.columns, (std::vector<std::string>{"device.bus_clock", "traffic.window",
                                                      "traffic.segment_size"}));
    // Same settings, same base as written → same id, wherever the sweep file lives.
    EXPECT_EQ(list.points[0].id, grid.points[1].id);
    EXPECT_EQ(list.points[1].id, grid.points[0].id);
    EXPECT_EQ(list.points[2].settings[0].text(), "traffic.segment_size=536B");
}

TEST(SweepSpec, IdsAreStableReadableAndDependOnEverythingThatChangesTheRun) {
    using nicsim::sweep::point_id;
    const std::vector<nicsim::sweep::assignment> pt = {{"driver.power_save", "true"},
                                                       {"device.bus_clock", "12MHz"}};
    const std::string id =
        point_id("../wilc1000-spi-ttcp-tx.yaml", {{"traffic.bytes", "4MiB"}}, pt);
    EXPECT_EQ(id, point_id("../wilc1000-spi-ttcp-tx.yaml", {{"traffic.bytes", "4MiB"}}, pt));
    // Golden value: point files of earlier sweeps are found again only while this stays put.
    EXPECT_EQ(id, "power_save-true_bus_clock-12MHz-f1ec6d44d8");
    EXPECT_NE(id, point_id("../wilc1000-spi-ttcp-rx.yaml", {{"traffic.bytes", "4MiB"}}, pt));
    EXPECT_NE(id, point_id("../wilc1000-spi-ttcp-tx.yaml", {{"traffic.bytes", "8MiB"}}, pt));
    EXPECT_NE(id, point_id("../wilc1000-spi-ttcp-tx.yaml", {{"traffic.bytes", "4MiB"}},
                           {{"driver.power_save", "true"}, {"device.bus_clock", "24MHz"}}));
    // Only file-name-safe characters.
    const std::string odd = point_id("b.yaml", {}, {{"link", "{mac_efficiency: 0.8}"}});
    EXPECT_EQ(
        odd.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"),
        std::string::npos)
        << odd;
}

TEST(SweepSpec, UnknownKeyIsReportedWithItsPosition) {
    const auto f = sweep_file(test_dir(), "axes:\n  - {key: device.bus_clock, values: [10MHz]}\n"
                                          "metrcs: [goodput_kBps]\n");
    const std::string e = error_of(f);
    EXPECT_NE(e.find(f + ":4:1: unknown key 'metrcs'"), std::string::npos) << e;
    EXPECT_NE(e.find("did you mean 'metrics'"), std::string::npos) << e;
    const auto g = sweep_file(test_dir(), "axes:\n  - {key: device.bus_clock, vals: [10MHz]}\n");
    EXPECT_NE(error_of(g).find("missing required key 'values'"), std::string::npos) << error_of(g);
}

TEST(SweepSpec, EmptyAxisMissingBaseAndBadMetricAreErrors) {
    const auto d = test_dir();
    auto e = error_of(sweep_file(d, "axes:\n  - key: device.bus_clock\n    values: []\n"));
    EXPECT_NE(e.find("s.yaml:4:13: axis 'device.bus_clock': values: expected a non-empty list"),
              std::string::npos)
        << e;
    e = error_of(sweep_file(d, "axes: []\n"));
    EXPECT_NE(e.find("axes: expected a non-empty list"), std::string::npos) << e;
    e = error_of(sweep_file(d, "axes:\n  - {key: device.bus_clock, values: [1MHz, 1MHz]}\n"));
    EXPECT_NE(e.find("value '1MHz' appears twice"), std::string::npos) << e;
    e = error_of(write_file(d / "nobase.yaml", "base: nothere.yaml\npoints: [{seed: 2}]\n"));
    EXPECT_NE(e.find("nobase.yaml:1:7: base: base scenario"), std::string::npos) << e;
    EXPECT_NE(e.find("nothere.yaml' does not exist"), std::string::npos) << e;
    e = error_of(sweep_file(d, "points: [{seed: 2}]\nmetrics: [speed]\n"));
    EXPECT_NE(e.find("unknown metric 'speed' (known: goodput_bps"), std::string::npos) << e;
    e = error_of(sweep_file(d, "points: [{seed: 2}]\naxes: [{key: seed, values: [1]}]\n"));
    EXPECT_NE(e.find("exactly one of 'axes'"), std::string::npos) << e;
}

TEST(SweepSpec, KeyOrValueThatSetRejectsNamesThePoint) {
    const auto d = test_dir();
    auto e = error_of(sweep_file(d, "axes:\n  - {key: driver.power_sav, values: [true]}\n"), true);
    EXPECT_NE(e.find("point 1 (driver.power_sav=true) is rejected"), std::string::npos) << e;
    EXPECT_NE(e.find("--set driver.power_sav=true: unknown key 'power_sav' in driver"),
              std::string::npos)
        << e;
    // A value the schema rejects for one point only: the second point is named.
    e = error_of(sweep_file(d, "axes:\n  - {key: device.bus_clock, values: [25MHz, 80MHz]}\n"),
                 true);
    EXPECT_NE(e.find("point 2 (device.bus_clock=80MHz) is rejected"), std::string::npos) << e;
}

// A chip without a power model reports null energy; the sweep's metric is then absent (an
// empty cell), never 0, and a metered chip's figure is summed as before.
TEST(SweepMetrics, EnergyOfAChipWithoutAPowerModelIsAbsentNotZero) {
    using nicsim::sweep::metric_value;
    const auto r = nlohmann::json::parse(R"({"devices": [{"energy_j": null, "avg_power_w": null,
                                                          "wakeups": 0}]})");
    EXPECT_FALSE(metric_value(r, "energy_j").has_value());
    EXPECT_FALSE(metric_value(r, "avg_power_w").has_value());
    EXPECT_EQ(metric_value(r, "wakeups"), 0.0);
    const auto m = nlohmann::json::parse(R"({"devices": [{"energy_j": 1.5, "avg_power_w": 0.25},
                                                         {"energy_j": null}]})");
    EXPECT_EQ(metric_value(m, "energy_j"), 1.5);
    EXPECT_EQ(metric_value(m, "avg_power_w"), 0.25);
}

// Wake-ups per MB delivered and the share of them that found the clock running; absent (an
// empty cell) without delivered bytes or without a wake request.
TEST(SweepMetrics, WakeUpsPerMegabyteAndTheShareThatFoundTheClockRunning) {
    using nicsim::sweep::metric_value;
    const auto r = nlohmann::json::parse(R"({"flows": [{"bytes": 2000000}],
        "devices": [{"wakeups": 300, "wake": {"requests": 300, "found_clock_running": 240}}]})");
    EXPECT_DOUBLE_EQ(*metric_value(r, "wakeups_per_mb"), 150.0);
    EXPECT_DOUBLE_EQ(*metric_value(r, "wake_found_running_share"), 0.8);
    const auto none = nlohmann::json::parse(R"({"flows": [{"bytes": 0}],
        "devices": [{"wakeups": 0, "wake": null}]})");
    EXPECT_FALSE(metric_value(none, "wakeups_per_mb").has_value());
    EXPECT_FALSE(metric_value(none, "wake_found_running_share").has_value());
}

// A base axis (issue 15): each point runs its own scenario file, the column shows the file's
// name, the base is no --set override, and the ids carry the name. Existing sweeps (one `base:`)
// keep their ids: the golden id above.
TEST(SweepSpec, BaseAxisGivesEachPointItsScenarioNamedByTheFile) {
    const auto d = test_dir();
    const std::string cfg = std::string(NICSIM_SOURCE_DIR) + "/configs/";
    const auto f = write_file(d / "ab.yaml", "set: {traffic.bytes: 64KiB}\n"
                                             "axes:\n"
                                             "  - key: driver.kernel\n"
                                             "    values: [\"6.1\", \"6.12\"]\n"
                                             "  - key: base\n"
                                             "    values: [" +
                                                 cfg + "ks8851-spi-iperf-rx.yaml, " + cfg +
                                                 "wilc1000-spi-ttcp-tx.yaml]\n"
                                                 "compare: driver.kernel\n");
    auto s = load_sweep_spec(f);
    EXPECT_EQ(s.base, "");
    EXPECT_EQ(s.compare, "driver.kernel");
    EXPECT_EQ(s.columns, (std::vector<std::string>{"driver.kernel", "base"}));
    ASSERT_EQ(s.points.size(), 4u);
    EXPECT_EQ(s.points[1].settings[1].text(), "base=wilc1000-spi-ttcp-tx");
    EXPECT_EQ(s.points[1].base, cfg + "wilc1000-spi-ttcp-tx.yaml");
    EXPECT_EQ(s.points[2].base, cfg + "ks8851-spi-iperf-rx.yaml");
    EXPECT_EQ(s.points[2].id.rfind("kernel-6.12_ks8851-spi-iperf-rx-", 0), 0u) << s.points[2].id;
    const auto all = nicsim::sweep::overrides_of(s, s.points[3]);
    ASSERT_EQ(all.size(), 2u); // the fixed traffic.bytes and the kernel, not the base
    EXPECT_EQ(all[1].text(), "driver.kernel=6.12");
    // The id hashes the base as written with the other settings, as a one-base sweep does.
    EXPECT_EQ(s.points[3].id, nicsim::sweep::point_id(
                                  cfg + "wilc1000-spi-ttcp-tx.yaml", s.fixed,
                                  {{"driver.kernel", "6.12"}, {"base", "wilc1000-spi-ttcp-tx"}}));
    EXPECT_NO_THROW(nicsim::sweep::check_points(s));

    // The same in the points form, relative to the sweep file, with a default `base:`.
    const auto g = write_file(d / "sub" / "p.yaml", "base: " + k_base +
                                                        "\npoints:\n"
                                                        "  - {seed: 2}\n"
                                                        "  - {base: ../x/w.yaml, seed: 2}\n");
    write_file(d / "x" / "w.yaml", "name: w\n");
    const auto p = load_sweep_spec(g);
    EXPECT_EQ(p.points[0].base, fs::path(k_base).lexically_normal().string());
    EXPECT_EQ(p.points[1].base, (d / "x" / "w.yaml").lexically_normal().string());
    EXPECT_EQ(p.columns, (std::vector<std::string>{"seed", "base"}));
}

TEST(SweepSpec, BaseAxisAndCompareErrorsHaveTheirPosition) {
    const auto d = test_dir();
    auto e =
        error_of(write_file(d / "a.yaml", "axes:\n  - key: base\n    values: [nothere.yaml]\n"));
    EXPECT_NE(e.find("a.yaml:3:14: base: base scenario"), std::string::npos) << e;
    EXPECT_NE(e.find("nothere.yaml' does not exist"), std::string::npos) << e;
    e = error_of(sweep_file(d, "axes:\n  - {key: base, values: [" + k_base + "]}\n"));
    EXPECT_NE(e.find("s.yaml:3:5: axis 'base' gives every point its scenario"), std::string::npos)
        << e;
    e = error_of(write_file(d / "b.yaml", "points: [{seed: 2}]\n"));
    EXPECT_NE(e.find("b.yaml:1:10: point 1 has no base scenario"), std::string::npos) << e;
    write_file(d / "x" / "s.yaml", "name: s\n");
    write_file(d / "y" / "s.yaml", "name: s\n");
    e = error_of(
        write_file(d / "c.yaml", "axes:\n  - {key: base, values: [x/s.yaml, y/s.yaml]}\n"));
    EXPECT_NE(e.find("c.yaml:2:36: base: 'y/s.yaml' and 'x/s.yaml' are both named 's'"),
              std::string::npos)
        << e;
    e = error_of(sweep_file(d, "axes:\n  - {key: seed, values: [1, 2]}\ncompare: driver.kernel\n"));
    EXPECT_NE(e.find("s.yaml:4:10: compare: 'driver.kernel' is not a column of the sweep"),
              std::string::npos)
        << e;
    e = error_of(sweep_file(d, "axes:\n  - {key: seed, values: [1]}\ncompare: seed\n"));
    EXPECT_NE(e.find("'seed' is a column with one value only"), std::string::npos) << e;
}

// The A/B table: per scenario and metric, the reference value, the other, Δ and Δ %.
TEST(SweepCompare, TableHasBothValuesAndTheirDifferencePerScenarioAndMetric) {
    const auto d = test_dir();
    const std::string cfg = std::string(NICSIM_SOURCE_DIR) + "/configs/";
    const auto s = load_sweep_spec(write_file(
        d / "ab.yaml", "axes:\n  - {key: driver.kernel, values: [\"6.1\", \"6.12\"]}\n"
                       "  - {key: base, values: [" +
                           cfg + "enc28j60-spi-iperf-tx.yaml, " + cfg +
                           "ks8851-spi-iperf-rx.yaml]}\n"
                           "compare: driver.kernel\n"
                           "metrics: [goodput_mbps, irqs_per_frame, context_switches]\n"));
    using nicsim::sweep::point_outcome;
    const auto rep = [](double bps, int irqs, int frames, int cs) {
        point_outcome o;
        o.st = point_outcome::state::ok;
        o.report = nlohmann::json::parse(
            "{\"totals\": {\"goodput_bps\": " + std::to_string(bps) +
            "}, \"devices\": [{\"frames_tx\": " + std::to_string(frames) +
            ", \"frames_rx\": 0, \"irqs\": " + std::to_string(irqs) +
            "}], \"host_cpu\": {\"context_switches\": " + std::to_string(cs) + "}}");
        return o;
    };
    // Sweep order: kernel outermost. The ks8851 point of 6.12 failed.
    std::vector<point_outcome> out = {rep(4353000, 1000, 2000, 10139), rep(16081000, 10, 20, 5),
                                      rep(4385000, 1000, 2000, 8690), point_outcome{}};
    out[3].st = point_outcome::state::failed;
    const std::string md = nicsim::sweep::compare_md(s, out);
    EXPECT_NE(md.find("| base | metric | 6.1 | 6.12 | Δ | Δ % |"), std::string::npos) << md;
    EXPECT_NE(md.find("| enc28j60-spi-iperf-tx | goodput (Mbit/s) | 4.3530 | 4.3850 | +0.0320 | "
                      "+0.74 % |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| enc28j60-spi-iperf-tx | host context switches | 10139 | 8690 | -1449 | "
                      "-14.29 % |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| ks8851-spi-iperf-rx | interrupts per frame | 0.50000 | – | – | – |"),
              std::string::npos)
        << md;
    const std::string csv = nicsim::sweep::compare_csv(s, out);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "base,metric,6.1,6.12,delta,delta_pct");
    EXPECT_NE(csv.find("\nenc28j60-spi-iperf-tx,context_switches,10139,8690,-1449,"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("\nks8851-spi-iperf-rx,goodput_mbps,16.081,,,\n"), std::string::npos) << csv;
}

TEST(SweepMetrics, PerFrameFiguresAndContextSwitches) {
    using nicsim::sweep::metric_value;
    const auto r = nlohmann::json::parse(R"({"devices": [{"frames_tx": 30, "frames_rx": 10,
        "irqs": 8, "bus_stats": {"transactions": 100}}], "host_cpu": {"context_switches": 77}})");
    EXPECT_EQ(metric_value(r, "irqs_per_frame"), 0.2);
    EXPECT_EQ(metric_value(r, "bus_transactions_per_frame"), 2.5);
    EXPECT_EQ(metric_value(r, "context_switches"), 77.0);
    const auto none = nlohmann::json::parse(R"({"devices": [{"frames_tx": 0, "irqs": 3}]})");
    EXPECT_FALSE(metric_value(none, "irqs_per_frame").has_value());
    EXPECT_FALSE(metric_value(none, "context_switches").has_value());
}

// The shipped study: every shipped scenario on both kernels, compared by kernel.
TEST(SweepSpec, ShippedKernelAbStudyCoversEveryScenarioOnBothKernels) {
    const std::string dir = std::string(NICSIM_SOURCE_DIR) + "/configs/";
    const auto s = load_sweep_spec(dir + "studies/kernel-ab.yaml");
    EXPECT_EQ(s.columns, (std::vector<std::string>{"driver.kernel", "base"}));
    EXPECT_EQ(s.compare, "driver.kernel");
    size_t scenarios = 0;
    for (const auto& e : fs::directory_iterator(dir))
        scenarios += e.path().extension() == ".yaml";
    ASSERT_EQ(s.points.size(), 2 * scenarios);
    for (const auto& p : s.points) {
        EXPECT_EQ(fs::path(p.base).parent_path(), fs::path(dir).lexically_normal().parent_path());
        EXPECT_EQ(p.id.rfind("kernel-" + p.settings[0].value + "_" + p.settings[1].value + "-", 0),
                  0u);
    }
}

// The sender's TCP state at the end (flows[].tcp): from the first TCP flow; empty without one
// and for a null field (slow start never ended).
TEST(SweepMetrics, TcpStateOfTheFirstTcpFlow) {
    using nicsim::sweep::metric_value;
    const auto r = nlohmann::json::parse(R"({"flows": [{"name": "ping", "tcp": null},
        {"name": "tcp", "tcp": {"cwnd": 47, "slow_start_exit_cwnd": 45, "tsq_limit_bytes": 5619}}]})");
    EXPECT_EQ(metric_value(r, "tcp_cwnd"), 47.0);
    EXPECT_EQ(metric_value(r, "tcp_slow_start_exit_cwnd"), 45.0);
    EXPECT_EQ(metric_value(r, "tcp_tsq_limit_bytes"), 5619.0);
    const auto never = nlohmann::json::parse(
        R"({"flows": [{"tcp": {"cwnd": 10, "slow_start_exit_cwnd": null}}]})");
    EXPECT_FALSE(metric_value(never, "tcp_slow_start_exit_cwnd").has_value());
    const auto none = nlohmann::json::parse(R"({"flows": [{"name": "udp", "tcp": null}]})");
    EXPECT_FALSE(metric_value(none, "tcp_cwnd").has_value());
}

// Issue 36: a sweep value is one argument of a command line, and --emit-commands prints one
// command per line: a newline in a value would end the command there and run the rest as a
// command of its own. Control characters are refused where they are written.
TEST(SweepSpec, ControlCharactersInValuesAreRefusedWithTheirPosition) {
    const auto d = test_dir();
    auto e = error_of(sweep_file(d, "points:\n  - {name: \"a\\ntouch pwned\"}\n"));
    EXPECT_NE(e.find("s.yaml:3:12: 'name': the value contains the control character 0x0a"),
              std::string::npos)
        << e;
    e = error_of(sweep_file(d, "axes:\n  - {key: name, values: [ok, \"tab\\there\"]}\n"));
    EXPECT_NE(e.find("s.yaml:3:30: 'name': the value contains the control character 0x09"),
              std::string::npos)
        << e;
    e = error_of(sweep_file(d, "set: {name: \"x\\ry\"}\npoints: [{seed: 2}]\n"));
    EXPECT_NE(e.find("s.yaml:2:13: 'name': the value contains the control character 0x0d"),
              std::string::npos)
        << e;
    // Metacharacters are fine: quoting keeps them literal (SweepRun.EmittedCommandsRunEach...).
    EXPECT_EQ(error_of(sweep_file(d, "points:\n  - {name: \"a; $(touch x) `y` 'q'\"}\n")), "");
}

// Each point's traces get their own files (today's one pcapng for all points came out
// corrupt); the names are recorded by check_points.
TEST(SweepSpec, EachPointNamesItsOwnTraceFiles) {
    const auto d = test_dir();
    auto s = load_sweep_spec(sweep_file(d, "set: {trace.pcap: cap.pcapng, trace.log: /x/l.txt}\n"
                                           "axes: [{key: seed, values: [1, 2]}]\n"));
    nicsim::sweep::check_points(s);
    ASSERT_EQ(s.points.size(), 2u);
    for (const auto& p : s.points) {
        ASSERT_EQ(p.traces.size(), 2u);
        EXPECT_EQ(p.traces[0].text(), "trace.log=l.txt");
        EXPECT_EQ(p.traces[1].text(), "trace.pcap=cap.pcapng");
    }
    const auto argv = nicsim::sweep::run_command(s, s.points[1], "/bin/nicsim", "/o/p.json", "/o");
    const std::string pcap = "trace.pcap=/o/traces/" + s.points[1].id + ".cap.pcapng";
    EXPECT_NE(std::find(argv.begin(), argv.end(), pcap), argv.end());
    EXPECT_NE(nicsim::sweep::trace_file("/o", s.points[0], "cap.pcapng"),
              nicsim::sweep::trace_file("/o", s.points[1], "cap.pcapng"));
    auto twin = load_sweep_spec(sweep_file(d, "set: {trace.pcap: a/t, trace.log: b/t}\n"
                                              "points: [{seed: 2}]\n"));
    const std::string e = [&] {
        try {
            nicsim::sweep::check_points(twin);
        } catch (const config_error& x) {
            return std::string(x.what());
        }
        return std::string();
    }();
    EXPECT_NE(e.find("trace.log and trace.pcap are both named 't'"), std::string::npos) << e;
}

// Issue 36 item 6: `timeout:` is a positive duration; a grid's size is told before it is
// expanded; a grid too large to expand is an error naming the axis that overflows it.
TEST(SweepSpec, TimeoutIsAPositiveDurationAndTheSizeIsToldFirst) {
    const auto d = test_dir();
    const std::string axis = "axes:\n  - key: device.bus_clock\n    values: [10MHz, 25MHz]\n";
    EXPECT_EQ(load_sweep_spec(sweep_file(d, "timeout: 90s\n" + axis)).timeout_s, 90.0);
    EXPECT_EQ(load_sweep_spec(sweep_file(d, axis)).timeout_s, 0.0);
    EXPECT_NE(error_of(sweep_file(d, "timeout: 0s\n" + axis)).find("timeout"), std::string::npos);
    EXPECT_NE(error_of(sweep_file(d, "timeout: soon\n" + axis)).find("timeout"),
              std::string::npos);

    size_t told = 0;
    const auto s = load_sweep_spec(sweep_file(d, axis), [&](size_t n) { told = n; });
    EXPECT_EQ(told, 2u);
    EXPECT_EQ(s.points.size(), 2u);

    std::string values = "[";
    for (int i = 0; i < 1000; ++i)
        values += (i ? ", " : "") + std::to_string(i + 1) + "MHz";
    values += "]";
    std::string huge = "axes:\n";
    for (const char* k : {"device.bus_clock", "platform.spi_host.clock", "link.phy_rate"})
        huge += std::string("  - key: ") + k + "\n    values: " + values + "\n";
    const std::string e = error_of(sweep_file(d, huge));
    EXPECT_NE(e.find("the grid has more than 100000000 points (axis 'link.phy_rate'"),
              std::string::npos)
        << e;
}

// Issue 35 item 5: a sweep plots any number of the report, named as `expect:` names it (its
// shorthands and element names too), with `metrics:` or `plot: {y: KEY}`; a key that names no
// number is an error with its position.
TEST(SweepSpec, ReportKeysArePlottedLikeMetrics) {
    const auto d = test_dir();
    // A key with brackets is quoted in a flow list or mapping, where YAML reads [ ] as its own.
    const auto s = load_sweep_spec(sweep_file(
        d, "points: [{seed: 2}]\nmetrics: [goodput_kBps, 'devices[wlan0].wakeups']\n"
           "plot:\n  - y: power_save.beacon_wakeups\n  - y: devices[0].power_save.dozes\n"));
    EXPECT_EQ(s.metrics, (std::vector<std::string>{"goodput_kBps", "devices[wlan0].wakeups",
                                                   "power_save.beacon_wakeups",
                                                   "devices[0].power_save.dozes"}));
    // plot: alone plots only its keys.
    EXPECT_EQ(load_sweep_spec(sweep_file(d, "points: [{seed: 2}]\nplot: {y: wakeups}\n")).metrics,
              std::vector<std::string>{"wakeups"});
    auto e = error_of(sweep_file(d, "points: [{seed: 2}]\nplot: {y: 'devices[0].wakeup'}\n"));
    EXPECT_NE(e.find("s.yaml:3:11: plot.y: unknown metric 'devices[0].wakeup'"), std::string::npos)
        << e;
    EXPECT_NE(e.find("did you mean 'wakeups'"), std::string::npos) << e;
    e = error_of(sweep_file(d, "points: [{seed: 2}]\nmetrics: [run.scenario]\n"));
    EXPECT_NE(e.find("is text, not a number"), std::string::npos) << e;
    e = error_of(sweep_file(d, "points: [{seed: 2}]\nplot: {x: wakeups}\n"));
    EXPECT_NE(e.find("plot: expected {y: KEY}"), std::string::npos) << e;
}

TEST(SweepMetrics, ReportKeysReadTheirNumberWithTheUnitOfTheirName) {
    using namespace nicsim::sweep;
    const auto r = nlohmann::json::parse(R"({"devices": [{"name": "wlan0", "wakeups": 7,
        "avg_power_w": 0.0123, "power_save": {"beacon_wakeups": 42, "dozes": 40}}],
        "flows": [{"rtt_ms": {"avg": 1.5}, "bytes": 100}]})");
    EXPECT_EQ(metric_value(r, "devices[wlan0].wakeups"), 7.0);
    EXPECT_EQ(metric_value(r, "power_save.beacon_wakeups"), 42.0);
    EXPECT_EQ(metric_value(r, "flows[0].rtt_ms.avg"), 1.5);
    EXPECT_FALSE(metric_value(r, "devices[eth0].wakeups").has_value()) << "no such device";
    EXPECT_THROW(metric_value(r, "devices[0].wakeup"), std::invalid_argument);
    EXPECT_EQ(metric_unit("devices[0].avg_power_w"), "W");
    EXPECT_EQ(metric_unit("flows[0].rtt_ms.avg"), "ms");
    EXPECT_EQ(metric_unit("totals.goodput_bps"), "bit/s");
    EXPECT_EQ(metric_unit("flows[0].bytes"), "B");
    EXPECT_EQ(metric_unit("power_save.dozes"), "");
    EXPECT_EQ(metric_unit("avg_power_w"), "W"); // the metric of that name
    EXPECT_EQ(metric_label("devices[0].avg_power_w"), "devices[0].avg_power_w (W)");
    EXPECT_EQ(metric_label("power_save.dozes"), "power_save.dozes");
    EXPECT_EQ(nicsim::sweep::plot_file_name("devices[wlan0].wakeups"),
              "plot-devices_wlan0_.wakeups.svg");
}

TEST(SweepPlot, ScalesTheAxisToTheMagnitudeOfItsValues) {
    using nicsim::sweep::scale_for;
    EXPECT_EQ(scale_for("W", 0.0123).unit, "mW");
    EXPECT_DOUBLE_EQ(scale_for("W", 0.0123).factor, 1e-3);
    EXPECT_EQ(scale_for("W", 0.0003).unit, "µW");
    EXPECT_EQ(scale_for("W", 1.5).unit, "W");
    EXPECT_EQ(scale_for("s", 2e-5).unit, "µs");
    EXPECT_EQ(scale_for("s", 3600).unit, "s") << "no kiloseconds";
    EXPECT_EQ(scale_for("bit/s", 4.2e6).unit, "Mbit/s");
    EXPECT_EQ(scale_for("J", 0).unit, "J");
    EXPECT_EQ(scale_for("KB/s", 0.001).unit, "KB/s") << "no SI prefix on a binary unit";
    EXPECT_EQ(scale_for("", 0.001).unit, "");
}

// Legends as wide as their longest label (none clipped), the picture as tall as the legend, and
// every series its own colour and dash pattern; the y axis in the prefix its values read best in.
TEST(SweepPlot, LegendsFitAndEverySeriesIsDistinct) {
    using namespace nicsim::sweep;
    line_plot p;
    p.x = {0, 1};
    p.x_ticks = {"a", "b"};
    const std::string longest =
        "driver.power_save=true, device.bus_clock=48MHz, traffic.write_size=16KiB";
    for (int i = 0; i < 24; ++i)
        p.series.push_back({i == 5 ? longest : "series " + std::to_string(i), {1.0 + i, 2.0}});
    const std::string svg = render_svg(p);
    const auto attr = [](const std::string& s, size_t at, const std::string& name) {
        const size_t a = s.find(name + "=\"", at);
        return a == std::string::npos ? 0.0 : std::stod(s.substr(a + name.size() + 2));
    };
    const double width = attr(svg, 0, "width"), height = attr(svg, 0, "height");
    const size_t text = svg.find(">" + longest + "</text>");
    ASSERT_NE(text, std::string::npos);
    const double x = attr(svg, svg.rfind("<text ", text), "x");
    EXPECT_LE(x + 7.0 * static_cast<double>(longest.size()), width) << "the legend is clipped";
    const size_t last = svg.find(">series 23</text>");
    ASSERT_NE(last, std::string::npos);
    EXPECT_LE(attr(svg, svg.rfind("<text ", last), "y"), height);
    std::set<std::string> styles;
    for (size_t at = svg.find("<polyline "); at != std::string::npos;
         at = svg.find("<polyline ", at + 1)) {
        const std::string tag = svg.substr(at, svg.find("points=", at) - at);
        EXPECT_TRUE(styles.insert(tag).second) << "two series drawn alike: " << tag;
    }
    EXPECT_EQ(styles.size(), 24u);
}

TEST(SweepPlot, ResultsOfAReportKeyAndAPowerInMilliwatts) {
    using namespace nicsim::sweep;
    sweep_spec spec;
    spec.stem = "t";
    spec.columns = {"device.bus_clock"};
    spec.metrics = {"avg_power_w", "devices[wlan0].power_save.dozes"};
    std::vector<point_outcome> outcomes;
    for (int i = 0; i < 2; ++i) {
        point p;
        p.index = i;
        p.settings = {{"device.bus_clock", i ? "24MHz" : "12MHz"}};
        p.id = "p" + std::to_string(i);
        spec.points.push_back(p);
        point_outcome o;
        o.st = point_outcome::state::ok;
        o.report = nlohmann::json::parse(R"({"devices": [{"name": "wlan0", "avg_power_w": )" +
                                         std::string(i ? "0.0123" : "0.0045") +
                                         R"(, "power_save": {"dozes": )" +
                                         std::to_string(10 + i) + "}}]}");
        outcomes.push_back(o);
    }
    const std::string csv = results_csv(spec, outcomes);
    EXPECT_NE(csv.find(",devices[wlan0].power_save.dozes,status,point\n"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",11,ok,p1\n"), std::string::npos) << csv;
    const auto j = nlohmann::json::parse(results_json(spec, outcomes));
    EXPECT_EQ(j["units"]["devices[wlan0].power_save.dozes"], "");
    const std::string power = metric_plot_svg(spec, outcomes, "avg_power_w");
    EXPECT_NE(power.find(">chip average power (mW)</text>"), std::string::npos) << power;
    EXPECT_NE(power.find(">15</text>"), std::string::npos) << "12.3 mW on a 0-15 mW axis";
    EXPECT_EQ(power.find(">0.015</text>"), std::string::npos) << "not in W";
    const std::string dozes = metric_plot_svg(spec, outcomes, "devices[wlan0].power_save.dozes");
    EXPECT_NE(dozes.find(">devices[wlan0].power_save.dozes vs device.bus_clock (t)</text>"),
              std::string::npos)
        << dozes;
}

// results.csv takes a setting the loader reads as a quantity as a number in the unit of its kind,
// named with the unit's suffix; everything else as written. check_points() learns which settings
// are quantities from the loader itself (a value it never reads as one stays text).
TEST(SweepCsv, QuantitySettingsAreNumbersWithTheirUnitInTheHeader) {
    const auto d = test_dir();
    auto s = load_sweep_spec(sweep_file(
        d, "set: {traffic.bytes: 64KiB, host.stack: fixed_window}\n"
           "points:\n"
           "  - {device.bus_clock: 12.5MHz, traffic.window: 5840B, traffic.start: 500us,"
           " host.net.tcp_sack: 0}\n"
           "  - {device.bus_clock: 25000kHz, traffic.window: 16KiB, traffic.start: 0,"
           " host.net.tcp_sack: 1}\n"
           "  - {device.bus_clock: \"4e7\", traffic.window: 1MB, traffic.start: 1.5s}\n"
           "metrics: [goodput_kBps]\n"));
    // Without check_points nothing is known about the keys: all as written.
    std::vector<nicsim::sweep::point_outcome> out(3);
    const std::string unchecked = nicsim::sweep::results_csv(s, out);
    EXPECT_EQ(unchecked.substr(0, unchecked.find(',', unchecked.find(',') + 1)),
              "device.bus_clock,traffic.window");

    nicsim::sweep::check_points(s);
    ASSERT_TRUE(s.points[0].settings[0].quantity);
    EXPECT_STREQ(s.points[0].settings[0].quantity->unit, "Hz");
    EXPECT_FALSE(s.points[0].settings[3].quantity); // an integer, no quantity
    const std::string csv = nicsim::sweep::results_csv(s, out);
    const std::string head = csv.substr(0, csv.find('\n'));
    EXPECT_EQ(head.substr(0, head.find(",goodput_bps")),
              "device.bus_clock_hz,traffic.window_bytes,traffic.start_s,host.net.tcp_sack");
    EXPECT_NE(csv.find("\n12500000,5840,0.0005,0,"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n25000000,16384,0,1,"), std::string::npos) << csv;
    // The third point leaves tcp_sack unset: an empty cell, as before.
    EXPECT_NE(csv.find("\n40000000,1000000,1.5,,"), std::string::npos) << csv;
    // results.json keeps the settings as written.
    const auto js = nlohmann::json::parse(nicsim::sweep::results_json(s, out));
    EXPECT_EQ(js["points"][1]["settings"]["device.bus_clock"], "25000kHz");
}

// A column whose values are mappings stays as written, though the loader reads quantities inside.
TEST(SweepCsv, AMappingSettingStaysAsWritten) {
    const auto d = test_dir();
    auto s = load_sweep_spec(sweep_file(d, "axes:\n"
                                           "  - {key: traffic, values: [\"{kind: ping, interval: "
                                           "10ms}\", \"{kind: ping, interval: 1s}\"]}\n"
                                           "metrics: [rtt_avg_ms]\n"));
    nicsim::sweep::check_points(s);
    EXPECT_FALSE(s.points[0].settings[0].quantity);
    const std::string csv = nicsim::sweep::results_csv(s, std::vector<nicsim::sweep::point_outcome>(2));
    EXPECT_EQ(csv.substr(0, csv.find(',')), "traffic");
    EXPECT_NE(csv.find("\n\"{kind: ping, interval: 10ms}\","), std::string::npos) << csv;
}

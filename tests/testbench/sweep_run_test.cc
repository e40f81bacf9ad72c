// SPDX-License-Identifier: MIT
//
// `nicsim sweep` end to end with the real binary and tiny traffic: results, resume after a
// deleted point file and after a kill, emit-commands + merge, and well-formed SVG plots.
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testbench/test_files.h"

namespace {
namespace fs = std::filesystem;
using nicsim::test::test_dir;
using nicsim::test::write_file;

struct result {
    int rc;
    std::string out;
};

// Runs a shell command, returns its exit status and combined output.
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

// Any text as one single-quoted shell word.
std::string sh_word(const std::string& s) {
    std::string o = "'";
    for (char c : s)
        o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::string k_exe = NICSIM_EXE;

// A sweep file dir/name over the KS8851 calibration scenario; body follows its `base:` line.
std::string ks8851_sweep(const fs::path& dir, const std::string& name, const std::string& body) {
    return write_file(dir / name, "base: " + std::string(NICSIM_SOURCE_DIR) +
                                      "/configs/ks8851-spi-iperf-rx.yaml\n" + body);
}

// 2 × 2 points of the KS8851 calibration scenario with 64 KiB of traffic each (~0.1 s a point),
// on the fixed-window TCP, whose window is an axis.
std::string small_sweep(const fs::path& dir, const std::string& bytes = "64KiB",
                        const std::string& duration = "") {
    return write_file(dir / "small.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                              "/configs/ks8851-spi-iperf-rx.yaml\n"
                                              "set: {host.stack: fixed_window, "
                                              "traffic.bytes: " +
                                              bytes + (duration.empty() ? "" : ", duration: " + duration) +
                                              "}\n"
                                              "axes:\n"
                                              "  - key: device.bus_clock\n"
                                              "    values: [10MHz, 25MHz]\n"
                                              "  - key: traffic.window\n"
                                              "    values: [5840B, 11680B]\n"
                                              "metrics: [goodput_kBps, bus_utilisation]\n");
}

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::istringstream l(line);
        for (std::string c; std::getline(l, c, ',');)
            cells.push_back(c);
        if (!line.empty() && line.back() == ',')
            cells.push_back("");
        rows.push_back(cells);
    }
    return rows;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
        ++n;
    return n;
}

// A minimal XML well-formedness check: every start tag is closed in order, one root element.
// Returns "" when fine, else the problem.
std::string xml_problem(const std::string& x, std::string& root) {
    std::vector<std::string> stack;
    size_t i = 0, roots = 0;
    while ((i = x.find('<', i)) != std::string::npos) {
        const size_t e = x.find('>', i);
        if (e == std::string::npos)
            return "unterminated tag";
        const std::string tag = x.substr(i + 1, e - i - 1);
        i = e + 1;
        if (tag.empty())
            return "empty tag";
        if (tag[0] == '?' || tag[0] == '!')
            continue;
        if (tag[0] == '/') {
            if (stack.empty() || stack.back() != tag.substr(1))
                return "mismatched </" + tag.substr(1) + ">";
            stack.pop_back();
            continue;
        }
        const std::string name = tag.substr(0, tag.find_first_of(" \t\n/"));
        if (stack.empty()) {
            ++roots;
            root = name;
        }
        if (count(tag, "\"") % 2)
            return "unbalanced quotes in <" + name + ">";
        if (tag.back() != '/')
            stack.push_back(name);
    }
    if (!stack.empty())
        return "unclosed <" + stack.back() + ">";
    return roots == 1 ? "" : "not exactly one root element";
}

} // namespace

TEST(SweepRun, SmallGridWritesRowsWithAxisValuesAndPositiveGoodput) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    const auto r = shell("cd " + q(d) + " && " + q(k_exe) + " sweep " + q(f) + " -j 2");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("small: 4 points; running 4 with up to 2 in parallel"), std::string::npos)
        << r.out;
    EXPECT_EQ(count(r.out, "] ok "), 4u) << r.out; // one plain line per point (not a TTY)
    const fs::path out = d / "sweep-small";        // default: sweep-<stem> in the working directory
    const auto rows = csv_rows(slurp(out / "results.csv"));
    ASSERT_EQ(rows.size(), 5u);
    // The settings as numbers in the unit their header names (docs/sweep.md).
    const std::vector<std::string> head = {
        "device.bus_clock_hz", "traffic.window_bytes", "goodput_bps",     "goodput_kBps",
        "rtt_avg_ms",          "energy_j",             "avg_power_w",     "wakeups",
        "bus_utilisation",     "host_cpu_share",       "sim_time_s",      "status",
        "point"};
    EXPECT_EQ(rows[0], head);
    const char* axes[4][2] = {{"10000000", "5840"},
                              {"10000000", "11680"},
                              {"25000000", "5840"},
                              {"25000000", "11680"}};
    std::vector<double> goodput;
    for (size_t i = 1; i < 5; ++i) {
        ASSERT_EQ(rows[i].size(), head.size());
        EXPECT_EQ(rows[i][0], axes[i - 1][0]);
        EXPECT_EQ(rows[i][1], axes[i - 1][1]);
        EXPECT_EQ(rows[i][11], "ok");
        goodput.push_back(std::stod(rows[i][2]));
        EXPECT_GT(goodput.back(), 0);
        EXPECT_NEAR(std::stod(rows[i][3]), goodput.back() / 8 / 1024, goodput.back() * 1e-9);
        EXPECT_EQ(rows[i][4], ""); // no ping flow, no RTT
        // The row is the point file's report.
        const auto rep = nlohmann::json::parse(slurp(out / "points" / (rows[i][12] + ".json")));
        EXPECT_DOUBLE_EQ(rep["totals"]["goodput_bps"].get<double>(), std::stod(rows[i][2]));
        EXPECT_EQ(rep["run"]["bus_clock_hz"].get<double>(), std::stod(rows[i][0]));
        EXPECT_EQ(rep["flows"][0]["bytes"].get<int>(), 65536);
    }
    // A 2.5x faster SPI clock moves the same bytes faster.
    EXPECT_GT(goodput[2], goodput[0] * 1.3);
    const auto js = nlohmann::json::parse(slurp(out / "results.json"));
    ASSERT_EQ(js["points"].size(), 4u);
    EXPECT_EQ(js["points"][3]["settings"]["traffic.window"], "11680B");
    EXPECT_EQ(js["points"][3]["metrics"]["goodput_bps"].get<double>(), goodput[3]);
}

TEST(SweepRun, PlotsAreWellFormedSvgWithOneLinePerSeries) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    ASSERT_EQ(shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o")).rc, 0);
    for (const char* m : {"goodput_kBps", "bus_utilisation"}) {
        const std::string svg = slurp(d / "o" / (std::string("plot-") + m + ".svg"));
        std::string root;
        EXPECT_EQ(xml_problem(svg, root), "") << m;
        EXPECT_EQ(root, "svg");
        EXPECT_EQ(count(svg, "<polyline "), 2u); // one per value of the second axis
        EXPECT_EQ(count(svg, "<circle "), 4u);   // one marker per point
        EXPECT_NE(svg.find(">window=5840B</text>"), std::string::npos); // legend
        EXPECT_NE(svg.find(">window=11680B</text>"), std::string::npos);
        EXPECT_NE(svg.find(">device.bus_clock (MHz)</text>"), std::string::npos); // x label
        EXPECT_NE(svg.find(">10</text>"), std::string::npos);                     // x ticks
        EXPECT_NE(svg.find(">25</text>"), std::string::npos);
        // Every polyline has two points with numeric coordinates.
        size_t polylines = 0;
        for (size_t p = svg.find("<polyline "); p != std::string::npos;
             p = svg.find("<polyline ", p + 1)) {
            const size_t a = svg.find("points=\"", p) + 8;
            const std::string pts = svg.substr(a, svg.find('"', a) - a);
            EXPECT_EQ(pts.find_first_not_of("0123456789., "), std::string::npos) << pts;
            EXPECT_EQ(count(pts, ","), 2u) << pts;
            EXPECT_EQ(count(pts, " "), 1u) << pts;
            ++polylines;
        }
        EXPECT_EQ(polylines, 2u);
    }
}

TEST(SweepRun, RerunAfterDeletingAPointRunsOnlyThatPointAndGivesIdenticalResults) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    const std::string cmd = q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2";
    ASSERT_EQ(shell(cmd).rc, 0);
    const std::string csv = slurp(d / "o" / "results.csv");
    const std::string svg = slurp(d / "o" / "plot-goodput_kBps.svg");
    const auto rows = csv_rows(csv);
    const fs::path gone = d / "o" / "points" / (rows[3][12] + ".json");
    const fs::path kept = d / "o" / "points" / (rows[1][12] + ".json");
    const auto kept_time = fs::last_write_time(kept);
    ASSERT_TRUE(fs::remove(gone));

    const auto r = shell(cmd);
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("3 of 4 already done"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("running 1 with"), std::string::npos) << r.out;
    EXPECT_EQ(count(r.out, "] ok "), 1u) << r.out;
    EXPECT_NE(r.out.find("device.bus_clock=25MHz traffic.window=5840B"), std::string::npos)
        << r.out;
    EXPECT_TRUE(fs::exists(gone));
    EXPECT_EQ(fs::last_write_time(kept), kept_time);
    EXPECT_EQ(slurp(d / "o" / "results.csv"), csv);
    EXPECT_EQ(slurp(d / "o" / "plot-goodput_kBps.svg"), svg);

    // Everything done: nothing runs.
    const auto again = shell(cmd);
    EXPECT_NE(again.out.find("4 of 4 already done"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("running 0 with"), std::string::npos) << again.out;
}

TEST(SweepRun, KilledSweepResumesWhereItStoppedWithIdenticalResults) {
    const auto d = test_dir();
    const auto f = small_sweep(d, "64MiB", "300s"); // ~0.5 s a point: slow enough to kill midway on a loaded host
    ASSERT_EQ(shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "ref") + " -j 1").rc, 0);
    const std::string ref = slurp(d / "ref" / "results.csv");

    const fs::path points = d / "o" / "points";
    const fs::path tmp = d / "tmp"; // the killed sweep's TMPDIR: it must leave nothing there
    fs::create_directories(tmp);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        setenv("TMPDIR", tmp.c_str(), 1);
        execl(k_exe.c_str(), k_exe.c_str(), "sweep", f.c_str(), "--out", (d / "o").c_str(), "-j",
              "1", static_cast<char*>(nullptr));
        _exit(127);
    }
    auto done_points = [&] {
        size_t n = 0;
        if (fs::exists(points))
            for (const auto& e : fs::directory_iterator(points))
                n += e.path().extension() == ".json" && e.path().filename().string()[0] != '.';
        return n;
    };
    const auto t0 = std::chrono::steady_clock::now();
    while (done_points() == 0 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the sweep finished before it could be killed";
    const size_t before = done_points();
    ASSERT_GE(before, 1u);
    ASSERT_LT(before, 4u);
    EXPECT_FALSE(fs::exists(d / "o" / "results.csv"));
    // The stderr capture of the job it was running had no name: nothing is left behind.
    EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();

    const auto r = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2");
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find(std::to_string(before) + " of 4 already done"), std::string::npos)
        << r.out;
    EXPECT_EQ(count(r.out, "] ok "), 4 - before) << r.out;
    EXPECT_EQ(slurp(d / "o" / "results.csv"), ref);
}

TEST(SweepRun, EmittedCommandsPlusMergeEqualTheLocalRun) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    ASSERT_EQ(shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "local")).rc, 0);

    // Two "cluster jobs", each running half of the commands into its own directory.
    std::vector<std::string> cmds[2];
    for (int k = 0; k < 2; ++k) {
        const auto e = shell(q(k_exe) + " sweep " + q(f) + " --emit-commands --out " +
                             q(d / ("job" + std::to_string(k))));
        ASSERT_EQ(e.rc, 0) << e.out;
        std::istringstream in(e.out);
        for (std::string l; std::getline(in, l);)
            cmds[k].push_back(l);
        ASSERT_EQ(cmds[k].size(), 4u) << e.out;
        EXPECT_NE(cmds[k][0].find("'" + k_exe + "' 'run' '"), std::string::npos) << cmds[k][0];
        EXPECT_NE(cmds[k][0].find("'--set' 'traffic.bytes=64KiB' '--set' 'device.bus_clock=10MHz'"),
                  std::string::npos)
            << cmds[k][0];
    }
    for (size_t i = 0; i < 4; ++i) {
        const auto r = shell("cd / && " + cmds[i % 2][i]); // self-contained: any directory
        ASSERT_EQ(r.rc, 0) << cmds[i % 2][i] << "\n" << r.out;
    }
    // Only half of the points in each directory: merging one is incomplete.
    const auto partial = shell(q(k_exe) + " sweep " + q(f) + " --merge " + q(d / "job0") +
                               " --out " + q(d / "partial"));
    EXPECT_EQ(partial.rc, 2) << partial.out;
    EXPECT_NE(partial.out.find("merged 2 of 4 points, 2 missing"), std::string::npos)
        << partial.out;

    const auto m = shell(q(k_exe) + " sweep " + q(f) + " --merge " + q(d / "job0") + " " +
                         q(d / "job1" / "points") + " --out " + q(d / "merged"));
    ASSERT_EQ(m.rc, 0) << m.out;
    EXPECT_EQ(slurp(d / "merged" / "results.csv"), slurp(d / "local" / "results.csv"));
    EXPECT_EQ(slurp(d / "merged" / "results.json"), slurp(d / "local" / "results.json"));
    EXPECT_EQ(slurp(d / "merged" / "plot-goodput_kBps.svg"),
              slurp(d / "local" / "plot-goodput_kBps.svg"));
}

// A sweep over a frequency, a size and a duration: each a number in the unit of its header, and
// a resumed sweep and a merge of its point files write the same bytes as the fresh one.
TEST(SweepRun, QuantitySettingsAreNumbersInTheUnitOfTheirHeaderAfterResumeAndMerge) {
    const auto d = test_dir();
    const auto f = ks8851_sweep(
        d, "q.yaml",
        "set: {traffic.bytes: 64KiB, host.stack: fixed_window}\n"
        "points:\n"
        "  - {device.bus_clock: 12.5MHz, traffic.window: 8KiB, traffic.start: 500us}\n"
        "  - {device.bus_clock: 25MHz, traffic.window: 5840B, traffic.start: 2ms}\n");
    const std::string run = q(k_exe) + " sweep " + q(f) + " -j 2 --out ";
    ASSERT_EQ(shell(run + q(d / "fresh")).rc, 0);
    const std::string csv = slurp(d / "fresh" / "results.csv");
    const auto rows = csv_rows(csv);
    ASSERT_EQ(rows.size(), 3u) << csv;
    EXPECT_EQ(std::vector<std::string>(rows[0].begin(), rows[0].begin() + 3),
              (std::vector<std::string>{"device.bus_clock_hz", "traffic.window_bytes",
                                        "traffic.start_s"}));
    EXPECT_EQ(std::vector<std::string>(rows[1].begin(), rows[1].begin() + 3),
              (std::vector<std::string>{"12500000", "8192", "0.0005"}));
    EXPECT_EQ(std::vector<std::string>(rows[2].begin(), rows[2].begin() + 3),
              (std::vector<std::string>{"25000000", "5840", "0.002"}));
    // The numbers are the run's: its report gives the clock in Hz too.
    const auto rep = nlohmann::json::parse(slurp(d / "fresh" / "points" / (rows[1].back() + ".json")));
    EXPECT_EQ(rep["run"]["bus_clock_hz"].get<double>(), 12.5e6);

    // Resumed: one point file gone, the sweep runs it again.
    ASSERT_TRUE(fs::remove(d / "fresh" / "points" / (rows[2].back() + ".json")));
    const auto r = shell(run + q(d / "fresh"));
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("1 of 2 already done"), std::string::npos) << r.out;
    EXPECT_EQ(slurp(d / "fresh" / "results.csv"), csv);
    // Merged from the point files into another directory.
    const auto m = shell(q(k_exe) + " sweep " + q(f) + " --merge " + q(d / "fresh") + " --out " +
                         q(d / "merged"));
    ASSERT_EQ(m.rc, 0) << m.out;
    EXPECT_EQ(slurp(d / "merged" / "results.csv"), csv);
}

TEST(SweepRun, FailingPointIsRecordedAndTheOthersStillRun) {
    const auto d = test_dir();
    const auto f = ks8851_sweep(d, "f.yaml",
                                "set: {traffic.bytes: 64KiB}\n"
                                "points:\n"
                                "  - {device.bus_clock: 25MHz}\n"
                                "  - {device.bus_clock: 10MHz}\n");
    // The first point's temporary report path is made a non-empty directory, so its `nicsim run`
    // cannot write the report and exits 1.
    const auto em = shell(q(k_exe) + " sweep " + q(f) + " --emit-commands --out " + q(d / "o"));
    const size_t tmp_end = em.out.find(".json.tmp'");
    ASSERT_NE(tmp_end, std::string::npos) << em.out;
    const size_t tmp_begin = em.out.rfind('\'', tmp_end) + 1;
    const std::string tmp = em.out.substr(tmp_begin, tmp_end + 9 - tmp_begin);
    fs::create_directories(fs::path(tmp) / "blocker");

    const auto r = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("[2/2]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("FAILED device.bus_clock=25MHz (failed (exit 1))"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("1 failed and 0 missing of 2 points"), std::string::npos) << r.out;
    const auto rows = csv_rows(slurp(d / "o" / "results.csv"));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1][rows[1].size() - 2], "failed (exit 1)");
    EXPECT_EQ(rows[1][1], ""); // no goodput for the failed point
    EXPECT_EQ(rows[2][rows[2].size() - 2], "ok");
    const auto failure =
        nlohmann::json::parse(slurp(d / "o" / "points" / (rows[1].back() + ".failed.json")));
    EXPECT_EQ(failure["exit_code"], 1);
    EXPECT_NE(failure["stderr"].get<std::string>().find(".json.tmp"), std::string::npos)
        << failure.dump();
}

TEST(SweepRun, BadSweepFileFailsBeforeAnythingRuns) {
    const auto d = test_dir();
    const auto f = write_file(d / "bad.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                                  "/configs/ks8851-spi-iperf-rx.yaml\n"
                                                  "axes:\n"
                                                  "  - {key: driver.power_save, values: [true]}\n");
    const auto r = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o"));
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_NE(r.out.find(f + ":3:5: point 1 (driver.power_save=true) is rejected"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ks8851 driver has no chip sleep control"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(d / "o"));
    const auto e = write_file(d / "empty.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                                    "/configs/ks8851-spi-iperf-rx.yaml\n"
                                                    "axes: [{key: seed, values: []}]\n");
    const auto r2 = shell(q(k_exe) + " sweep " + q(e));
    EXPECT_EQ(r2.rc, 1) << r2.out;
    EXPECT_NE(r2.out.find("axis 'seed': values: expected a non-empty list"), std::string::npos)
        << r2.out;
}

// Issue 13: a point file is checked against the point's own settings and the report schema
// before it is trusted. `{}`, `null` and another point's report are rerun (and the rerun gives
// the results of a clean sweep); a stale temporary report is removed before anything runs.
TEST(SweepRun, BadPointFilesAreRerunNotKept) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    const std::string cmd = q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2";
    ASSERT_EQ(shell(cmd).rc, 0);
    const std::string csv = slurp(d / "o" / "results.csv");
    const auto rows = csv_rows(csv);
    const fs::path points = d / "o" / "points";
    const fs::path p1 = points / (rows[1][12] + ".json"), p2 = points / (rows[2][12] + ".json"),
                   p3 = points / (rows[3][12] + ".json"), p4 = points / (rows[4][12] + ".json");
    write_file(p1, "{}\n");
    write_file(p2, "null\n");
    fs::copy_file(p4, p3, fs::copy_options::overwrite_existing); // another point's report
    const fs::path stale = points / ("." + rows[4][12] + ".json.tmp");
    write_file(stale, "{\"partial\": ");

    const auto r = shell(cmd);
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("1 of 4 already done"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("running 3 with"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ignoring " + p1.string() + ": not a report: "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ignoring " + p2.string() +
                         ": not a report (a JSON object is "
                         "expected)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ignoring " + p3.string() + ": a report of other settings"),
              std::string::npos)
        << r.out;
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_EQ(slurp(d / "o" / "results.csv"), csv);
}

// Issue 36 item 6: a point file whose report says the run was interrupted (SIGINT/SIGTERM) or
// failed after it started covers the run so far, not the point: resume runs it again.
TEST(SweepRun, InterruptedOrFailedReportsAreRerun) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    const std::string cmd = q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2";
    ASSERT_EQ(shell(cmd).rc, 0);
    const std::string csv = slurp(d / "o" / "results.csv");
    const auto rows = csv_rows(csv);
    const fs::path points = d / "o" / "points";
    const fs::path p1 = points / (rows[1][12] + ".json"), p2 = points / (rows[2][12] + ".json");
    for (const auto& [file, reason] : {std::pair{p1, "interrupted"}, {p2, "run failed"}}) {
        auto j = nlohmann::json::parse(slurp(file));
        j["end_reason"] = reason;
        write_file(file, j.dump(2));
    }
    const auto r = shell(cmd);
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("2 of 4 already done"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("running 2 with"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ignoring " + p1.string() + ": the run it reports ended \"interrupted\""),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ignoring " + p2.string() + ": the run it reports ended \"run failed\""),
              std::string::npos)
        << r.out;
    EXPECT_EQ(nlohmann::json::parse(slurp(p1)).value("end_reason", ""),
              nlohmann::json::parse(slurp(points / (rows[3][12] + ".json"))).value("end_reason", ""));
    EXPECT_EQ(slurp(d / "o" / "results.csv"), csv);
}

// Issue 15: a reduced kernel-ab study (configs/studies/kernel-ab.yaml with 64 KiB per point): a
// base axis over two shipped scenarios × driver.kernel. Each point runs its own scenario with its
// own kernel's driver; the A/B table pairs them, and `nicsim compare` names the kernels.
TEST(SweepRun, KernelAxisOverScenariosWritesTheAbTable) {
    const auto v = shell(q(k_exe) + " --version");
    if (v.out.find("not built: 6.12/") != std::string::npos)
        GTEST_SKIP() << "this build has no 6.12 drivers (docs/driver-build.md)";
    const auto d = test_dir();
    const std::string cfg = std::string(NICSIM_SOURCE_DIR) + "/configs/";
    const auto f =
        write_file(d / "kab.yaml", "set: {traffic.bytes: 64KiB}\n"
                                   "axes:\n"
                                   "  - {key: driver.kernel, values: [\"6.1\", \"6.12\"]}\n"
                                   "  - key: base\n"
                                   "    values: [" +
                                       cfg + "enc28j60-spi-iperf-tx.yaml, " + cfg +
                                       "ks8851-spi-iperf-rx.yaml]\n"
                                       "compare: driver.kernel\n"
                                       "metrics: [goodput_mbps, irqs_per_frame, "
                                       "context_switches]\n");
    const auto r = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") + " -j 2");
    ASSERT_EQ(r.rc, 0) << r.out;
    const auto rows = csv_rows(slurp(d / "o" / "results.csv"));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0][0], "driver.kernel");
    EXPECT_EQ(rows[0][1], "base");
    EXPECT_EQ(rows[1][1], "enc28j60-spi-iperf-tx");
    EXPECT_EQ(rows[4][1], "ks8851-spi-iperf-rx");
    EXPECT_EQ(rows[4][0], "6.12");
    // The point reports: their own scenario file and their own kernel tree.
    std::vector<nlohmann::json> rep;
    for (size_t i = 1; i < 5; ++i) {
        EXPECT_EQ(rows[i].back().rfind("kernel-" + rows[i][0] + "_" + rows[i][1] + "-", 0), 0u)
            << rows[i].back();
        rep.push_back(
            nlohmann::json::parse(slurp(d / "o" / "points" / (rows[i].back() + ".json"))));
        EXPECT_EQ(rep.back()["run"]["scenario_file"], cfg + rows[i][1] + ".yaml");
        EXPECT_EQ(rep.back()["run"]["kernel_version"].get<std::string>().rfind(rows[i][0] + ".", 0),
                  0u)
            << rep.back()["run"]["kernel_version"];
        EXPECT_EQ(rep.back()["flows"][0]["bytes"].get<int>(), 65536);
    }
    // One thread wake-up per interrupt on both kernels: 6.1's hard handler (interrupt context)
    // wakes the kworker, 6.12's hard IRQ the IRQ thread; the switches differ by a few at most.
    const auto cs = [&](size_t i) { return rep[i]["host_cpu"]["context_switches"].get<int>(); };
    EXPECT_LE(std::abs(cs(2) - cs(0)), 3) << cs(0) << " vs " << cs(2);
    const int delta = cs(2) - cs(0);
    const std::string md = slurp(d / "o" / "compare.md");
    EXPECT_NE(md.find("| base | metric | 6.1 | 6.12 | Δ | Δ % |"), std::string::npos) << md;
    EXPECT_NE(md.find("| enc28j60-spi-iperf-tx | host context switches | " + std::to_string(cs(0)) +
                      " | " + std::to_string(cs(2)) + " | " + (delta > 0 ? "+" : "") +
                      std::to_string(delta) + " |"),
              std::string::npos)
        << md;
    const auto ab = csv_rows(slurp(d / "o" / "compare.csv"));
    ASSERT_EQ(ab.size(), 1u + 2 * 3); // two scenarios × three metrics
    EXPECT_EQ(ab[0],
              (std::vector<std::string>{"base", "metric", "6.1", "6.12", "delta", "delta_pct"}));
    for (const char* m : {"goodput_mbps", "irqs_per_frame", "context_switches"})
        EXPECT_TRUE(fs::exists(d / "o" / (std::string("plot-") + m + ".svg"))) << m;
    // nicsim compare of the two enc28j60 reports names the kernel of each column.
    const std::string a = (d / "o" / "points" / (rows[1].back() + ".json")).string();
    const std::string b = (d / "o" / "points" / (rows[3].back() + ".json")).string();
    const auto c = shell(q(k_exe) + " compare " + q(a) + " " + q(b));
    ASSERT_EQ(c.rc, 0) << c.out;
    EXPECT_NE(c.out.find("kernel=" + rep[0]["run"]["kernel_version"].get<std::string>()),
              std::string::npos)
        << c.out;
    EXPECT_NE(c.out.find("kernel=" + rep[2]["run"]["kernel_version"].get<std::string>()),
              std::string::npos)
        << c.out;
}

// Issue 36: a sweep value with shell metacharacters round-trips through --emit-commands as one
// literal argument. Each emitted line is executed by sh in a scratch directory: every point's
// report records its value exactly, and none of the commands hidden in the values ran.
TEST(SweepRun, EmittedCommandsKeepEveryValueOneLiteralArgument) {
    const auto d = test_dir();
    const auto scratch = d / "scratch";
    fs::create_directories(scratch);
    // The values as --set takes them (YAML: a backtick or '*' first needs quotes).
    const std::vector<std::string> values = {"a; touch pwned1",
                                             "$(touch pwned2)",
                                             "'`touch pwned3`'",
                                             "x' ; touch pwned4 ; echo '",
                                             "q\"uote && touch pwned5 | cat > pwned6",
                                             "'*'"};
    std::string points;
    for (const auto& v : values) {
        std::string yaml = "'";
        for (char c : v)
            yaml += c == '\'' ? std::string("''") : std::string(1, c);
        points += "  - {name: " + yaml + "'}\n";
    }
    const auto f = write_file(d / "meta.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                                   "/configs/ks8851-spi-iperf-rx.yaml\n"
                                                   "set: {host.stack: fixed_window, "
                                                   "traffic.bytes: 64KiB}\n"
                                                   "points:\n" +
                                                   points);
    const auto e = shell(q(k_exe) + " sweep " + q(f) + " --emit-commands --out " + q(d / "o"));
    ASSERT_EQ(e.rc, 0) << e.out;
    std::vector<std::string> lines;
    std::istringstream in(e.out);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    ASSERT_EQ(lines.size(), values.size()) << e.out;
    for (const auto& l : lines) {
        const auto r = shell("cd " + q(scratch) + " && sh -c " + sh_word(l));
        EXPECT_EQ(r.rc, 0) << l << "\n" << r.out;
    }
    for (const auto& entry : fs::directory_iterator(scratch))
        ADD_FAILURE() << "a command in a sweep value ran: " << entry.path();
    std::vector<std::string> seen;
    for (const auto& entry : fs::directory_iterator(d / "o" / "points")) {
        const auto j = nlohmann::json::parse(slurp(entry.path()));
        for (const auto& o : j["run"]["overrides"])
            if (o.get<std::string>().rfind("name=", 0) == 0)
                seen.push_back(o.get<std::string>().substr(5));
    }
    std::sort(seen.begin(), seen.end());
    auto want = values;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(seen, want);
}

// Issue 36: a newline in a sweep value would split its emitted command in two; it is refused
// before anything is printed or run (exit 1, the value's position named).
TEST(SweepRun, ANewlineInAValueIsRefusedBeforeAnyCommandIsPrinted) {
    const auto d = test_dir();
    const auto f = write_file(d / "nl.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                                 "/configs/ks8851-spi-iperf-rx.yaml\n"
                                                 "points:\n"
                                                 "  - {name: \"x\\ntouch pwned #\"}\n");
    for (const char* mode : {" --emit-commands", ""}) {
        const auto r = shell("cd " + q(d) + " && " + q(k_exe) + " sweep " + q(f) + mode +
                             " --out " + q(d / "o"));
        EXPECT_EQ(r.rc, 1) << r.out;
        EXPECT_NE(r.out.find(f + ":3:12: 'name': the value contains the control character 0x0a"),
                  std::string::npos)
            << r.out;
        EXPECT_EQ(r.out.find("touch pwned #'"), std::string::npos) << r.out;
    }
    EXPECT_FALSE(fs::exists(d / "pwned"));
    EXPECT_FALSE(fs::exists(d / "o"));
}

// Issue 36: every point writes its own trace files (<out>/traces/<id>.<name>); before, all
// points of a sweep wrote the scenario's one pcapng at once and it came out corrupt while every
// point said "ok".
TEST(SweepRun, EachPointWritesItsOwnTraceFiles) {
    const auto d = test_dir();
    const auto work = d / "cwd";
    fs::create_directories(work);
    std::string base = slurp(std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-spi-iperf-rx.yaml");
    base.replace(base.find("platform: rpi-class"), std::string("platform: rpi-class").size(),
                 "platform: " + std::string(NICSIM_SOURCE_DIR) +
                     "/configs/platforms/rpi-class.yaml");
    base += "trace: {pcap: cap.pcapng}\n";
    const auto scenario = write_file(d / "traced.yaml", base);
    const auto f =
        write_file(d / "t.yaml", "base: traced.yaml\n"
                                 "set: {host.stack: fixed_window, traffic.bytes: 64KiB}\n"
                                 "axes: [{key: device.bus_clock, values: [10MHz, 20MHz]}]\n");
    const auto r =
        shell("cd " + q(work) + " && " + q(k_exe) + " sweep " + q(f) + " -j 2 --out " + q(d / "o"));
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_FALSE(fs::exists(work / "cap.pcapng")) << "the scenario's one name was written";
    std::vector<std::string> captures;
    for (const auto& entry : fs::directory_iterator(d / "o" / "points")) {
        const std::string id = entry.path().stem().string();
        const auto cap = d / "o" / "traces" / (id + ".cap.pcapng");
        ASSERT_TRUE(fs::exists(cap)) << cap;
        const std::string bytes = slurp(cap);
        // pcapng: a Section Header Block first, its length repeated at the end of the block.
        ASSERT_GE(bytes.size(), 28u) << cap;
        EXPECT_EQ(bytes.substr(0, 4), std::string("\x0a\x0d\x0d\x0a", 4)) << cap;
        captures.push_back(bytes);
    }
    ASSERT_EQ(captures.size(), 2u);
    EXPECT_NE(captures[0], captures[1]); // two bus clocks, two different captures
    const auto e = shell(q(k_exe) + " sweep " + q(f) + " --emit-commands --out " + q(d / "e"));
    ASSERT_EQ(e.rc, 0) << e.out;
    EXPECT_NE(e.out.find("'mkdir' '-p' '" + (d / "e" / "points").string() + "' '" +
                         (d / "e" / "traces").string() + "' && "),
              std::string::npos)
        << e.out;
    EXPECT_NE(e.out.find("'--set' 'trace.pcap=" + (d / "e" / "traces").string() + "/"),
              std::string::npos)
        << e.out;
}

// Issue 36 item 5: a FIFO (or a device) in place of a point file used to block the sweep
// forever while it looked for finished points; it is refused naming it, and the point runs
// again (its new report replaces the FIFO). `timeout` turns a block into a failure.
TEST(SweepRun, AFifoAsPointFileIsIgnoredNamingItAndThePointRunsAgain) {
    const auto d = test_dir();
    const auto f = small_sweep(d);
    const std::string cmd = "timeout 60 " + q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o");
    ASSERT_EQ(shell(cmd).rc, 0);
    const std::string csv = slurp(d / "o" / "results.csv");
    const fs::path p1 = d / "o" / "points" / (csv_rows(csv)[1][12] + ".json");
    fs::remove(p1);
    ASSERT_EQ(mkfifo(p1.c_str(), 0600), 0);
    const auto r = shell(cmd);
    ASSERT_EQ(r.rc, 0) << r.out;
    EXPECT_NE(r.out.find("ignoring " + p1.string() + ": is a FIFO, not a regular file"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("3 of 4 already done"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::is_regular_file(p1));
    EXPECT_EQ(slurp(d / "o" / "results.csv"), csv);
}

// Issue 36 item 6: a point still running at the per-point timeout (--timeout, or the sweep
// file's timeout:) is stopped, recorded as timed out, and the sweep goes on and exits 2. The
// long point would move 4 GiB (minutes of wall time); the other takes a fraction of a second.
TEST(SweepRun, APointPastItsTimeoutIsStoppedAndRecorded) {
    const auto d = test_dir();
    const auto f = write_file(d / "t.yaml", "base: " + std::string(NICSIM_SOURCE_DIR) +
                                                "/configs/ks8851-spi-iperf-rx.yaml\n"
                                                "timeout: 3600s\n"
                                                "points:\n"
                                                "  - {traffic.bytes: 64KiB}\n"
                                                "  - {traffic.bytes: 4GiB, duration: 1e6s}\n");
    const auto r = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "o") +
                         " -j 2 --timeout 3s");
    EXPECT_EQ(r.rc, 2) << r.out;
    EXPECT_NE(r.out.find("FAILED traffic.bytes=4GiB duration=1e6s (timed out)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("per-point timeout of 3 s"), std::string::npos) << r.out;
    const auto rows = csv_rows(slurp(d / "o" / "results.csv"));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1][rows[1].size() - 2], "ok");
    EXPECT_EQ(rows[2][rows[2].size() - 2], "timed out");
    const auto failed =
        nlohmann::json::parse(slurp(d / "o" / "points" / (rows[2].back() + ".failed.json")));
    EXPECT_TRUE(failed.value("timed_out", false));
    // The file's timeout: reaches emitted commands as coreutils timeout (--timeout wins).
    const auto e = shell(q(k_exe) + " sweep " + q(f) + " --out " + q(d / "e") + " --emit-commands");
    EXPECT_NE(e.out.find("'timeout' '-k' '10s' '3600s' '" + k_exe + "' 'run'"), std::string::npos)
        << e.out;
}

// Issue 36 item 6: a 10^6-point grid says its size before it expands the points, and how far
// the check of its points got while it runs (it used to print nothing for hours). Stopped after
// the first progress line.
TEST(SweepRun, AMillionPointGridPrintsItsSizeAndProgressAtOnce) {
    const auto d = test_dir();
    std::string body = "base: " + std::string(NICSIM_SOURCE_DIR) +
                       "/configs/ks8851-spi-iperf-rx.yaml\nset: {host.stack: fixed_window}\n"
                       "axes:\n";
    for (const auto& [key, unit, first] : {std::tuple{"device.bus_clock", "MHz", 1},
                                           {"traffic.window", "B", 3000},
                                           {"traffic.bytes", "KiB", 1}}) {
        body += std::string("  - key: ") + key + "\n    values: [";
        for (int i = 0; i < 100; ++i)
            body += (i ? ", " : "") + std::to_string(first + i) + unit;
        body += "]\n";
    }
    const auto f = write_file(d / "big.yaml", body);
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[0]);
        execl(k_exe.c_str(), k_exe.c_str(), "sweep", f.c_str(), "--out",
              (d / "o").string().c_str(), "-j", "1", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(out[1]);
    // Lines as they come; a generous limit only guards against a hang.
    std::string text;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (text.find("checking points: ") == std::string::npos ||
           text.find('\n', text.find("checking points: ")) == std::string::npos) {
        pollfd p{out[0], POLLIN, 0};
        if (std::chrono::steady_clock::now() > give_up || poll(&p, 1, 1000) < 0)
            break;
        char buf[4096];
        const ssize_t n = (p.revents & (POLLIN | POLLHUP)) ? read(out[0], buf, sizeof buf) : 0;
        if (n < 0 || ((p.revents & POLLHUP) && n == 0))
            break;
        text.append(buf, static_cast<size_t>(n));
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    close(out[0]);
    EXPECT_EQ(text.rfind("big: 1000000 points\n", 0), 0u) << text;
    EXPECT_NE(text.find("checking points: "), std::string::npos) << text;
    EXPECT_NE(text.find(" of 1000000\n"), std::string::npos) << text;
}

// SPDX-License-Identifier: MIT
// What a user sees in a terminal, through the shipped binary: the text report and `compare` fit
// COLUMNS=80 and compare shows ratio and Δ; `run -i` prints interval lines without changing
// the report.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";
// Short runs of shipped scenarios (a few frames each).
const std::string wilc_tx = "'" + configs + "wilc1000-spi-ttcp-tx.yaml' --set traffic.bytes=64KiB";
const std::string ks_ping = "'" + configs + "ks8851-spi-ping.yaml' --set traffic.count=20";

fs::path dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-terminal-run" / info->name();
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

struct result {
    int code;
    std::string out; // stdout only: the driver's printk lines go to stderr
};

result nicsim(const std::string& env, const std::string& args) {
    const std::string cmd = env + " '" + NICSIM_EXE + "' " + args + " 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

size_t widest(const std::string& text) {
    size_t w = 0, line = 0;
    for (unsigned char c : text) {
        if (c == '\n') {
            w = std::max(w, line);
            line = 0;
        } else if ((c & 0xC0) != 0x80) {
            ++line;
        }
    }
    return std::max(w, line);
}

json report(const fs::path& p) {
    std::ifstream in(p);
    json r = json::parse(in);
    r.erase("host");
    return r;
}

std::string row(const std::string& text, const std::string& label) {
    const auto at = text.find("  " + label);
    return at == std::string::npos ? "" : text.substr(at, text.find('\n', at) - at);
}

} // namespace

TEST(TerminalRun, TextReportFitsEightyColumns) {
    for (const auto& run : {wilc_tx, ks_ping}) {
        const auto r = nicsim("COLUMNS=80", "run " + run);
        ASSERT_EQ(r.code, 0) << r.out;
        EXPECT_LE(widest(r.out), 80u) << r.out;
        EXPECT_NE(r.out.find("host CPU busy"), std::string::npos) << r.out;
    }
    // The ping prints round trips, not a goodput.
    const auto ping = nicsim("COLUMNS=80", "run " + ks_ping);
    EXPECT_EQ(ping.out.find("goodput"), std::string::npos) << ping.out;
    EXPECT_NE(ping.out.find("rtt min/avg/max/mdev"), std::string::npos) << ping.out;
}

TEST(TerminalRun, CompareFitsEightyColumnsAndShowsRatioAndDelta) {
    const fs::path d = dir();
    ASSERT_EQ(nicsim("", "run " + wilc_tx + " --set driver.power_save=false -q --json '" +
                             (d / "off.json").string() + "'")
                  .code,
              0);
    ASSERT_EQ(nicsim("", "run " + wilc_tx + " -q --json '" + (d / "on.json").string() + "'").code,
              0);
    ASSERT_EQ(nicsim("", "run " + ks_ping + " -q --json '" + (d / "ks.json").string() + "'").code,
              0);
    const std::string two =
        "compare '" + (d / "off.json").string() + "' '" + (d / "on.json").string() + "'";
    const auto c = nicsim("COLUMNS=80", two);
    ASSERT_EQ(c.code, 0) << c.out;
    EXPECT_LE(widest(c.out), 80u) << c.out;
    EXPECT_NE(c.out.substr(0, c.out.find('\n')).find("Δ"), std::string::npos) << c.out;
    const std::string goodput = row(c.out, "flow tcp goodput");
    EXPECT_NE(goodput.find("×"), std::string::npos) << c.out;
    EXPECT_NE(goodput.find(" %"), std::string::npos) << c.out;
    // Three reports of two devices still fit; COLUMNS is honoured both ways.
    const auto three = nicsim("COLUMNS=80", two + " '" + (d / "ks.json").string() + "'");
    EXPECT_LE(widest(three.out), 80u) << three.out;
    const auto wide = nicsim("COLUMNS=200", two);
    EXPECT_LT(std::count(wide.out.begin(), wide.out.end(), '\n'),
              std::count(c.out.begin(), c.out.end(), '\n'))
        << "a wide terminal needs no wrapping:\n"
        << wide.out;
}

TEST(TerminalRun, IntervalLinesAppearAndDoNotChangeTheReport) {
    const fs::path d = dir();
    const auto plain =
        nicsim("", "run " + wilc_tx + " -q --json '" + (d / "a.json").string() + "'");
    ASSERT_EQ(plain.code, 0);
    EXPECT_EQ(plain.out, "");
    const auto with =
        nicsim("", "run " + wilc_tx + " -i 0.05 -q --json '" + (d / "b.json").string() + "'");
    ASSERT_EQ(with.code, 0);
    EXPECT_EQ(report(d / "a.json"), report(d / "b.json")) << "slicing the run changes nothing";
    // 64 KiB at ~1500 KB/s is ~43 ms with chip sleep off; with it on (the default) ~160 ms:
    // a few 50 ms lines, then the total.
    size_t lines = 0;
    std::istringstream in(with.out);
    for (std::string l; std::getline(in, l);)
        lines += l.rfind("[tcp]", 0) == 0;
    EXPECT_GE(lines, 3u) << with.out;
    EXPECT_NE(with.out.find("0.00-0.05 sec"), std::string::npos) << with.out;
    EXPECT_NE(with.out.find("64.0 KBytes"), std::string::npos) << with.out; // the total
    EXPECT_NE(with.out.find("total"), std::string::npos) << with.out;
    // With the JSON on stdout the lines go to stderr, so stdout stays one JSON document.
    const auto j = nicsim("", "run " + wilc_tx + " -i 0.05 --json -");
    ASSERT_EQ(j.code, 0);
    EXPECT_NO_THROW(json::parse(j.out)) << j.out;
    EXPECT_EQ(nicsim("", "run " + wilc_tx + " -i 0").code, 1) << "the interval must be positive";
}

// SPDX-License-Identifier: MIT
// Progress output of `nicsim run` (tools/cli/run_progress.h): iperf3-style interval lines
// and the terminal heartbeat, with a fake wall clock.
#include <algorithm>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tools/cli/run_progress.h"

using namespace nicsim;
using namespace nicsim::cli;

namespace {
report::flow_report tcp(std::uint64_t bytes, std::uint64_t frames) {
    report::flow_report f;
    f.name = "tcp";
    f.kind = "ttcp_tx";
    f.bytes = bytes;
    f.frames = frames;
    return f;
}
sc_core::sc_time s(double seconds) {
    return sc_core::sc_time(seconds, sc_core::SC_SEC);
}
} // namespace

TEST(Progress, Iperf3Units) {
    EXPECT_EQ(format_transfer(512), "512 Bytes");
    EXPECT_EQ(format_transfer(150 * 1024), "150 KBytes");
    EXPECT_EQ(format_transfer(1530000), "1.46 MBytes");
    EXPECT_EQ(format_bitrate(12.2e6), "12.2 Mbits/sec");
    EXPECT_EQ(format_bitrate(950e3), "950 Kbits/sec");
}

TEST(Progress, IntervalLinesPerIntervalSinceTrafficStartAndATotal) {
    std::ostringstream out;
    run_progress p(1.0, out, nullptr, 0);
    // Bring-up: no flow yet; the observer asks to look again soon.
    EXPECT_GT(p.next_stop(s(0)), s(0));
    p.on_progress(s(0.01), nullptr, s(0));
    EXPECT_EQ(out.str(), "");
    // Traffic started at 0.5 s: boundaries at 1.5 s, 2.5 s, …
    const auto f0 = tcp(0, 0), f1 = tcp(125000, 90), f2 = tcp(250000, 180);
    p.on_progress(s(0.52), &f0, s(0.5));
    EXPECT_EQ(p.next_stop(s(0.52)), s(1.5));
    p.on_progress(s(1.5), &f1, s(0.5));
    p.on_progress(s(2.5), &f2, s(0.5));
    const auto last = tcp(300000, 216);
    p.on_end(s(2.75), &last, s(0.5));
    const std::string t = out.str();
    EXPECT_NE(t.find("0 = traffic start at 0.500000 s"), std::string::npos) << t;
    EXPECT_NE(t.find("[tcp]    0.00-1.00 sec     122 KBytes   1.00 Mbits/sec      90 frames"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("1.00-2.00 sec"), std::string::npos) << t;
    EXPECT_NE(t.find("2.00-2.25 sec    48.8 KBytes   1.60 Mbits/sec      36 frames"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("0.00-2.25 sec     293 KBytes   1.07 Mbits/sec     216 frames  total"),
              std::string::npos)
        << t;
}

TEST(Progress, HeartbeatWaitsThenRewritesOneLineAndErasesIt) {
    std::ostringstream err;
    double wall = 0;
    heartbeat hb(
        err, [&] { return wall; }, 2.0, 1.0);
    const auto f = tcp(8 * 1024 * 1024, 5000);
    hb.on_progress(0.5, &f, 16 * 1024 * 1024);
    EXPECT_EQ(err.str(), "") << "a short run stays quiet";
    wall = 2.5;
    hb.on_progress(3.0, &f, 16 * 1024 * 1024);
    EXPECT_EQ(err.str(), "\r\033[Knicsim: simulated 3.000 s, 8.00 MBytes of 16.0 MBytes (50 %)");
    wall = 2.9;
    hb.on_progress(3.1, &f, 16 * 1024 * 1024);
    EXPECT_EQ(err.str().find("3.100"), std::string::npos) << "at most once per period";
    hb.on_end();
    EXPECT_EQ(err.str().substr(err.str().size() - 4), "\r\033[K");
    EXPECT_FALSE(hb.shown());
}

// The runner (system::run_control) cuts the run into slices of at most 10 ms and reports
// progress when a slice reaches next_stop(). With ks8851-spi-iperf-rx's traffic start,
// 0.014536945 s, start + 2 s is a hair above its picosecond in a double: rounding it up put the
// stop 1 ps after the slice that ends at the boundary, and "1.00-3.00 sec" came out.
TEST(Progress, EveryIntervalGetsItsLineWhateverTheRoundingOfTheStops) {
    std::ostringstream out;
    run_progress p(1.0, out, nullptr, 0);
    const sc_core::sc_time start(14536945, sc_core::SC_NS);
    const sc_core::sc_time slice(10, sc_core::SC_MS);
    sc_core::sc_time now = start + sc_core::sc_time(5463055, sc_core::SC_NS); // at 20 ms
    const auto f0 = tcp(0, 0);
    p.on_progress(now, &f0, start);
    std::uint64_t bytes = 0;
    while (now < start + s(7.5)) {
        const sc_core::sc_time stop = p.next_stop(now);
        now += std::min(stop - now, slice);
        bytes += 25000;
        const auto f = tcp(bytes, bytes / 1000);
        if (now >= stop)
            p.on_progress(now, &f, start);
    }
    const std::string t = out.str();
    for (int k = 0; k < 7; ++k) {
        const std::string want = std::to_string(k) + ".00-" + std::to_string(k + 1) + ".00 sec";
        EXPECT_NE(t.find(want), std::string::npos) << want << " missing in\n" << t;
    }
}

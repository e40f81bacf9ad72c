// SPDX-License-Identifier: MIT
// trace.max_size / --trace-max-size (docs/traces.md, "Size limit"): every trace writer stops at
// the limit with a valid file and says so once. In-process on hand-made records per writer kind
// (VCD for GTKWave and sigrok, timeline JSON, transaction log, pcapng), then through the binary:
// one warning per file naming the limit and the file, and a report finding per file.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "trace/pcapng_writer.h"
#include "trace/timeline_writer.h"
#include "trace/txn_log.h"
#include "trace/vcd_writer.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace nicsim::trace;

namespace {

fs::path dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-trace-limit" / info->name();
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

// Records the limit's callbacks.
struct reached {
    std::vector<std::pair<std::string, uint64_t>> calls;
    size_limit limit(uint64_t max) {
        return {max, [this](const std::string& f, uint64_t t) { calls.emplace_back(f, t); }};
    }
};

// A VCD as GTKWave and libsigrok read it: declarations up to $enddefinitions, then time stamps
// that strictly increase, each followed by value changes of declared ids, one $dumpvars block.
// Returns the last time stamp.
uint64_t check_vcd(const std::string& text) {
    const auto ls = lines(text);
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n') << "the file ends with a whole line";
    std::vector<std::string> ids;
    size_t i = 0;
    for (; i < ls.size() && ls[i].rfind("$enddefinitions", 0) != 0; ++i)
        if (ls[i].rfind("$var", 0) == 0) {
            std::istringstream v(ls[i]);
            std::string var, type, width, id;
            v >> var >> type >> width >> id;
            ids.push_back(id);
        }
    EXPECT_LT(i, ls.size()) << "no $enddefinitions";
    bool stamped = false, in_dump = false;
    uint64_t last = 0;
    for (++i; i < ls.size(); ++i) {
        const std::string& l = ls[i];
        if (l == "$dumpvars") {
            in_dump = true;
            continue;
        }
        if (l == "$end") {
            EXPECT_TRUE(in_dump) << l;
            in_dump = false;
            continue;
        }
        if (l[0] == '#') {
            const uint64_t t = std::stoull(l.substr(1));
            EXPECT_TRUE(!stamped || t > last) << "time goes back at line " << i << ": " << l;
            stamped = true;
            last = t;
            continue;
        }
        EXPECT_TRUE(stamped) << l;
        // 0! / b101 ! / sname !
        const std::string id =
            (l[0] == 'b' || l[0] == 's') ? l.substr(l.find(' ') + 1) : l.substr(1);
        EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << "undeclared id: " << l;
    }
    EXPECT_FALSE(in_dump);
    return last;
}

// Writes a VCD with two streams of busy wires and a string, enough for several KiB.
void busy_vcd(vcd_writer& v, int changes) {
    const int s1 = v.new_stream(), s2 = v.new_stream();
    const int a = v.add_signal(s1, "bus", "a", vcd_writer::kind::wire, 1, 0);
    const int d = v.add_signal(s1, "bus", "data", vcd_writer::kind::vector, 8, 0);
    const int st = v.add_string_signal(s2, "chip", "state", "idle");
    for (int i = 1; i <= changes; ++i) {
        v.change(a, uint64_t(i) * 1000, i & 1);
        v.change(d, uint64_t(i) * 1000, uint32_t(i & 0xff));
        if (i % 10 == 0)
            v.change_string(st, uint64_t(i) * 1000 + 500, i % 20 ? "busy" : "idle");
    }
}

} // namespace

TEST(TraceLimit, VcdEndsAtATimeStampBeforeTheLimitAndStaysValid) {
    for (auto f : {vcd_writer::format::gtkwave, vcd_writer::format::sigrok}) {
        const fs::path d = dir();
        const fs::path p = d / "w.vcd";
        reached r;
        {
            // Few enough changes for the buffer (2 x the limit of 16-byte records) to take them
            // all: the merge's output limit ends the file.
            vcd_writer v(p.string(), window{}, f, r.limit(4096));
            busy_vcd(v, 200);
            v.close(10'000'000);
            EXPECT_TRUE(v.truncated());
        }
        const std::string text = slurp(p);
        EXPECT_LE(text.size(), 4096u);
        EXPECT_GT(text.size(), 2048u) << "the file fills most of the limit";
        const uint64_t last = check_vcd(text);
        ASSERT_EQ(r.calls.size(), 1u);
        EXPECT_EQ(r.calls[0].first, p.string());
        // The callback has the time in ps; the last stamp marks it (ns for sigrok).
        const uint64_t t = r.calls[0].second;
        EXPECT_GT(t, 0u);
        EXPECT_LT(t, 200'000u);
        EXPECT_EQ(last, f == vcd_writer::format::sigrok ? (t + 500) / 1000 : t);
    }
}

TEST(TraceLimit, VcdBufferLimitEndsTheFileWhereTheFirstStreamWasRefused) {
    const fs::path d = dir();
    const fs::path p = d / "w.vcd";
    reached r;
    {
        // Changes to the level a wire already has are buffered but write nothing: the buffer
        // (2 x 1600 B of 16-byte records = 200 records) fills while the file stays small, and
        // stream 1 is refused from its 201st change on, at 201 ns; stream 2's first change comes
        // after that and is refused as well: the file is complete up to 150 ns only.
        vcd_writer v(p.string(), window{}, vcd_writer::format::gtkwave, r.limit(1600));
        const int s1 = v.new_stream(), s2 = v.new_stream();
        const int a = v.add_signal(s1, "bus", "a", vcd_writer::kind::wire, 1, 0);
        const int irq = v.add_signal(s2, "chip", "irq", vcd_writer::kind::wire, 1, 1);
        for (int i = 1; i <= 300; ++i)
            v.change(a, uint64_t(i) * 1000, 1);
        v.change(irq, 150'000, 0);
        v.change(irq, 250'000, 1);
        v.close(10'000'000);
    }
    const std::string text = slurp(p);
    EXPECT_EQ(check_vcd(text), 150'000u) << text;
    ASSERT_EQ(r.calls.size(), 1u);
    EXPECT_EQ(r.calls[0].second, 150'000u) << "the earliest refused change of any stream";
    EXPECT_LT(text.size(), 400u);
}

TEST(TraceLimit, VcdWithoutLimitOrBelowItIsUnchanged) {
    const fs::path d = dir();
    reached r;
    for (uint64_t max : {uint64_t(0), uint64_t(1) << 30}) {
        const fs::path p = d / ("w" + std::to_string(max) + ".vcd");
        vcd_writer v(p.string(), window{}, vcd_writer::format::gtkwave, r.limit(max));
        busy_vcd(v, 200);
        v.close(10'000'000);
        EXPECT_FALSE(v.truncated());
    }
    EXPECT_TRUE(r.calls.empty());
    EXPECT_EQ(slurp(d / "w0.vcd"), slurp(d / ("w" + std::to_string(uint64_t(1) << 30) + ".vcd")));
    EXPECT_EQ(check_vcd(slurp(d / "w0.vcd")), 10'000'000u) << "ends at the end of the run";
}

TEST(TraceLimit, TimelineIsClosedJsonWithTheEventsThatFit) {
    const fs::path d = dir();
    const fs::path p = d / "t.json";
    reached r;
    {
        timeline_writer tl(p.string(), window{}, r.limit(2000));
        const int pid = tl.process("spi0");
        const int tid = tl.thread(pid, "transactions");
        for (int i = 0; i < 100; ++i)
            tl.span(pid, tid, "frame", uint64_t(i) * 1000, uint64_t(i) * 1000 + 500,
                    json_args().add("bytes", i).str());
        EXPECT_TRUE(tl.truncated());
        EXPECT_LT(tl.events(), 100u);
        tl.close();
    }
    const std::string text = slurp(p);
    EXPECT_LE(text.size(), 2000u);
    const json doc = json::parse(text); // throws if not closed properly
    const auto& ev = doc.at("traceEvents");
    EXPECT_GT(ev.size(), 4u);
    EXPECT_LT(ev.size(), 104u);
    ASSERT_EQ(r.calls.size(), 1u);
    EXPECT_EQ(r.calls[0].first, p.string());
}

TEST(TraceLimit, LogKeepsWholeLinesAndSaysWhereItStopped) {
    const fs::path d = dir();
    const fs::path p = d / "bus.log";
    reached r;
    {
        txn_log log(p.string(), window{}, r.limit(1024));
        for (int i = 0; i < 100; ++i) {
            bus_txn t;
            t.start_ps = uint64_t(i) * 1'000'000;
            t.end_ps = t.start_ps + 500'000;
            t.bytes = 9;
            t.dir = "wr";
            t.task = "wlan0-tx";
            t.name = "0xc7 DMA_EXT_WRITE";
            t.detail = "0x0000 3096 B";
            log.write("spi0", t);
        }
        EXPECT_TRUE(log.truncated());
        EXPECT_LT(log.lines(), 100u);
        log.close();
    }
    const std::string text = slurp(p);
    EXPECT_LE(text.size(), 1024u);
    const auto ls = lines(text);
    ASSERT_GE(ls.size(), 3u);
    for (size_t i = 1; i + 1 < ls.size(); ++i)
        EXPECT_NE(ls[i].find(" spi0 wr 9 500 wlan0-tx 0xc7 DMA_EXT_WRITE 0x0000 3096 B"),
                  std::string::npos)
            << ls[i];
    EXPECT_EQ(ls.back().rfind("# truncated at ", 0), 0u) << ls.back();
    EXPECT_NE(ls.back().find("trace.max_size 1KiB"), std::string::npos) << ls.back();
    ASSERT_EQ(r.calls.size(), 1u);
}

namespace {
// pcapng blocks: (type, total length) each, the length repeated at the block's end; the whole
// file must be whole blocks.
std::vector<uint32_t> pcapng_blocks(const std::string& b) {
    std::vector<uint32_t> types;
    auto u32 = [&](size_t at) {
        uint32_t v = 0;
        for (int i = 3; i >= 0; --i)
            v = v << 8 | uint8_t(b[at + size_t(i)]);
        return v;
    };
    size_t at = 0;
    while (at + 12 <= b.size()) {
        const uint32_t type = u32(at), len = u32(at + 4);
        EXPECT_EQ(len % 4, 0u);
        EXPECT_LE(at + len, b.size()) << "a cut block at " << at;
        if (at + len > b.size() || len < 12)
            break;
        EXPECT_EQ(u32(at + len - 4), len);
        types.push_back(type);
        at += len;
    }
    EXPECT_EQ(at, b.size()) << "trailing bytes";
    return types;
}
} // namespace

TEST(TraceLimit, PcapHasWholeBlocksUpToTheLimit) {
    const fs::path d = dir();
    const fs::path p = d / "f.pcapng";
    reached r;
    {
        pcapng_writer w(p.string(), "test capture", r.limit(2048));
        const unsigned host = w.add_interface("host", "board");
        std::vector<uint8_t> frame(100, 0xab);
        for (int i = 0; i < 50; ++i)
            w.packet(host, uint64_t(i) * 1000, frame.data(), frame.size(),
                     pcapng_writer::direction::outbound);
        EXPECT_TRUE(w.truncated());
        EXPECT_LT(w.packets(), 50u);
        EXPECT_GT(w.packets(), 5u);
        w.close();
    }
    const std::string b = slurp(p);
    EXPECT_LE(b.size(), 2048u);
    const auto types = pcapng_blocks(b);
    ASSERT_GE(types.size(), 3u);
    EXPECT_EQ(types[0], 0x0A0D0D0Au);
    EXPECT_EQ(types[1], 1u);
    ASSERT_EQ(r.calls.size(), 1u);
    EXPECT_EQ(r.calls[0].first, p.string());
}

// ---- through the binary -------------------------------------------------------------------------

namespace {
struct result {
    int code;
    std::string output;
};

result run_nicsim(const std::string& args) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' " + args;
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";
} // namespace

TEST(TraceLimit, RunWarnsOncePerFileAndTheReportSaysWhereEachTraceStops) {
    const fs::path d = dir();
    const std::string f = "'" + (d / "").string();
    const auto r = run_nicsim(
        "run '" + configs + "ks8851-spi-iperf-rx.yaml' --set traffic.bytes=64KiB -q --json " + f +
        "r.json' --vcd " + f + "w.vcd' --timeline " + f + "t.json' --log " + f +
        "bus.log' --pcap " + f + "f.pcapng' --trace-max-size 32KiB 2>" + f + "stderr'");
    ASSERT_EQ(r.code, 0) << slurp(d / "stderr");
    const std::string err = slurp(d / "stderr");
    const json rep = json::parse(slurp(d / "r.json"));
    for (const char* file : {"w.vcd", "t.json", "bus.log", "f.pcapng"}) {
        const std::string path = (d / file).string();
        EXPECT_LE(fs::file_size(path), 32u * 1024) << file;
        // One warning naming the file and the limit.
        const std::string warn =
            "nicsim: warning: trace file '" + path + "' reached trace.max_size 32KiB";
        const size_t at = err.find(warn);
        EXPECT_NE(at, std::string::npos) << warn << "\n" << err;
        EXPECT_EQ(err.find(warn, at + 1), std::string::npos) << "warned twice: " << file;
        // A finding in the report with the time.
        int findings = 0;
        for (const auto& fi : rep.at("findings"))
            if (fi.at("source") == "trace" && fi.at("severity") == "warning" &&
                fi.at("message").get<std::string>().find("'" + path + "' truncated at ") !=
                    std::string::npos) {
                ++findings;
                EXPECT_GT(fi.at("time_s").get<double>(), 0.0);
                EXPECT_LT(fi.at("time_s").get<double>(), rep.at("sim_time_s").get<double>());
            }
        EXPECT_EQ(findings, 1) << file;
    }
    check_vcd(slurp(d / "w.vcd"));
    EXPECT_NO_THROW(json::parse(slurp(d / "t.json")));
    EXPECT_EQ(lines(slurp(d / "bus.log")).back().rfind("# truncated at ", 0), 0u);
    pcapng_blocks(slurp(d / "f.pcapng"));
    EXPECT_FALSE(fs::exists(d / "w.vcd.spi0.part")) << "no part file left";
}

TEST(TraceLimit, DefaultLimitLeavesARunUntouchedAndBadSizesAreRejected) {
    const fs::path d = dir();
    const std::string f = "'" + (d / "").string();
    const auto r =
        run_nicsim("run '" + configs + "ks8851-spi-iperf-rx.yaml' --set traffic.bytes=16KiB" +
                   " -q --json " + f + "r.json' --log " + f + "bus.log' 2>&1");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
    const json rep = json::parse(slurp(d / "r.json")); // not a temporary: the loop keeps it
    for (const auto& fi : rep.at("findings"))
        EXPECT_NE(fi.at("source"), "trace");
    const auto bad =
        run_nicsim("run '" + configs + "ks8851-spi-iperf-rx.yaml' -q --trace-max-size 12XB --log " +
                   f + "x.log' 2>&1");
    EXPECT_EQ(bad.code, 1) << bad.output;
    EXPECT_NE(bad.output.find("trace.max_size"), std::string::npos) << bad.output;
}

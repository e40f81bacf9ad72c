// SPDX-License-Identifier: MIT
// Unit tests of the trace writers (VCD merge and window, Trace Event JSON, transaction log) and
// the bus decoders, on hand-made inputs.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bus/spi/spi_vcd_tracer.h"
#include "devices/ks8851/ks8851_decoder.h"
#include "trace/timeline_writer.h"
#include "trace/txn_log.h"
#include "trace/vcd_writer.h"
#include "devices/wilc1000/wilc1000_sdio_decoder.h"
#include "devices/wilc1000/wilc1000_spi_decoder.h"

namespace fs = std::filesystem;
using namespace nicsim::trace;

namespace {

fs::path tmp(const std::string& name) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-trace" / info->name();
    fs::create_directories(d);
    return d / name;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
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

// The body of a VCD after $enddefinitions: (time, "value id") pairs in file order.
std::vector<std::pair<uint64_t, std::string>> vcd_changes(const std::string& text) {
    std::vector<std::pair<uint64_t, std::string>> out;
    bool body = false;
    uint64_t t = 0;
    for (const auto& l : lines(text)) {
        if (!body) {
            body = l.rfind("$enddefinitions", 0) == 0;
            continue;
        }
        if (l.empty() || l[0] == '$')
            continue;
        if (l[0] == '#')
            t = std::stoull(l.substr(1));
        else
            out.emplace_back(t, l);
    }
    return out;
}

struct recorded_annotations : bus_annotations {
    struct item {
        std::string lane, name;
        uint64_t a, b;
        std::string args;
    };
    std::vector<item> spans, instants;
    void span(std::string_view lane, std::string_view name, uint64_t a, uint64_t b,
              std::string_view args) override {
        spans.push_back({std::string(lane), std::string(name), a, b, std::string(args)});
    }
    void instant(std::string_view lane, std::string_view name, uint64_t t,
                 std::string_view args) override {
        instants.push_back({std::string(lane), std::string(name), t, t, std::string(args)});
    }
};

// One WILC1000 frame: MOSI bytes, MISO bytes (padded with zeros to the MOSI length).
struct frame_data {
    std::vector<uint8_t> mosi, miso;
    nicsim::spi::spi_payload payload() {
        miso.resize(mosi.size());
        nicsim::spi::spi_payload p;
        nicsim::spi::spi_xfer x;
        x.tx = mosi.data();
        x.rx = miso.data();
        x.len = mosi.size();
        p.xfers.push_back(x);
        return p;
    }
};

// INTERNAL_READ of a clockless register answering `v` (echo, status, filler, F3 tag, LE data).
frame_data clockless_read(uint8_t reg, uint32_t v) {
    frame_data f;
    f.mosi = {0xc4, 0x80, reg, 0x00};
    f.mosi.resize(19, 0);
    f.miso = {0,
              0,
              0,
              0,
              0xc4,
              0x00,
              0xf3,
              uint8_t(v),
              uint8_t(v >> 8),
              uint8_t(v >> 16),
              uint8_t(v >> 24)};
    return f;
}

frame_data clockless_write(uint8_t reg, uint32_t v) {
    frame_data f;
    f.mosi = {0xc3,       0x80, reg, uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8),
              uint8_t(v), 0,    0};
    f.miso = {0, 0, 0, 0, 0, 0, 0, 0xc3, 0x00};
    return f;
}

} // namespace

TEST(TraceVcdWriter, MergesStreamsByTimeAndDumpsTheStateAtTheWindowStart) {
    const fs::path p = tmp("merge.vcd");
    {
        vcd_writer v(p.string(), window{100, 300});
        const int s1 = v.new_stream(), s2 = v.new_stream();
        const int a = v.add_signal(s1, "bus", "a", vcd_writer::kind::wire, 1, 1);
        const int d = v.add_signal(s1, "bus", "data", vcd_writer::kind::vector, 8, vcd_writer::z);
        const int st = v.add_string_signal(s2, "chip", "state", "awake");
        v.change(a, 50, 0); // before the window: only the level at 100 counts
        v.change(a, 200, 1);
        v.change(d, 200, 0x5a);
        v.change(a, 400, 0);                   // after the window: dropped
        v.change_string(st, 100, "asleep");    // at the window start: part of $dumpvars
        v.change_string(st, 150, "waking up"); // reported after stream 1 went to 400
        v.change_string(st, 250, "awake");
        v.close(1000);
    }
    const std::string text = slurp(p);
    EXPECT_NE(text.find("$timescale 1ps $end"), std::string::npos);
    EXPECT_NE(text.find("$var wire 1 ! a $end"), std::string::npos);
    EXPECT_NE(text.find("$var reg 8 \" data [7:0] $end"), std::string::npos);
    EXPECT_NE(text.find("$var string 1 # state $end"), std::string::npos);
    EXPECT_NE(text.find("$enddefinitions $end"), std::string::npos);
    // Window start with the levels at that instant.
    EXPECT_NE(text.find("#100\n$dumpvars\n0!\nbz \"\nsasleep #\n$end\n"), std::string::npos)
        << text;
    const auto ch = vcd_changes(text);
    const std::vector<std::pair<uint64_t, std::string>> expect = {
        {100, "0!"}, {100, "bz \""},       {100, "sasleep #"}, {150, "swaking_up #"},
        {200, "1!"}, {200, "b1011010 \""}, {250, "sawake #"}};
    EXPECT_EQ(ch, expect);
    // Time stamps strictly increase; the last one is the window end.
    uint64_t last = 0;
    bool first = true;
    for (const auto& l : lines(text))
        if (!l.empty() && l[0] == '#') {
            const uint64_t t = std::stoull(l.substr(1));
            EXPECT_TRUE(first || t > last) << t;
            first = false;
            last = t;
        }
    EXPECT_EQ(last, 300u);
}

TEST(TraceVcdWriter, TakesThePinsOfAnSpiVcdTracerFileAsOneStream) {
    const fs::path p = tmp("pins.vcd");
    const fs::path part = tmp("pins.vcd.spi0.part");
    {
        vcd_writer v(p.string(), window{});
        const int s = v.new_stream();
        const int cs = v.add_signal(s, "spi0", "cs_n0", vcd_writer::kind::wire, 1, 1);
        const int sck = v.add_signal(s, "spi0", "sck", vcd_writer::kind::wire, 1, 0);
        const int irq_s = v.new_stream();
        const int irq = v.add_signal(irq_s, "chip", "irq", vcd_writer::kind::wire, 1, 1);
        v.add_vcd_part(part.string(), {{"cs_n0", cs}, {"sck", sck}});
        nicsim::spi::spi_vcd_tracer tr(part.string(), 1, "spi0");
        using sc_core::SC_NS;
        using sc_core::sc_time;
        tr.record(nicsim::spi::spi_wire::cs_n, 0, sc_time(10, SC_NS), false);
        tr.record(nicsim::spi::spi_wire::sck, 0, sc_time(20, SC_NS), true);
        tr.record(nicsim::spi::spi_wire::sck, 0, sc_time(30, SC_NS), false);
        tr.record(nicsim::spi::spi_wire::cs_n, 0, sc_time(40, SC_NS), true);
        tr.close();
        v.change(irq, 25000, 0); // between the SCK edges
        v.close(50000);
    }
    const auto ch = vcd_changes(slurp(p));
    const std::vector<std::pair<uint64_t, std::string>> expect = {
        {0, "1!"},      {0, "0\""},    {0, "1#"},      {10000, "0!"},
        {20000, "1\""}, {25000, "0#"}, {30000, "0\""}, {40000, "1!"}};
    EXPECT_EQ(ch, expect);
    EXPECT_FALSE(fs::exists(part)) << "the part file is removed after the merge";
}

TEST(TraceTimelineWriter, WritesTraceEventJsonClippedToTheWindow) {
    const fs::path p = tmp("t.json");
    {
        timeline_writer tl(p.string(), window{2'000'000, 5'000'000}); // 2 us .. 5 us
        const int pid = tl.process("spi0");
        const int tid = tl.thread(pid, "transactions");
        tl.span(pid, tid, "inside", 2'500'000, 3'000'000, json_args().add("bytes", 13).str());
        tl.span(pid, tid, "straddles \"start\"", 1'000'000, 2'250'000);
        tl.span(pid, tid, "before", 0, 1'000'000);
        tl.span(pid, tid, "after", 6'000'000, 7'000'000);
        tl.instant(pid, tid, "in", 4'000'000);
        tl.instant(pid, tid, "out", 5'000'001);
        tl.counter(pid, "irq", 3'000'000, 1);
        tl.close();
    }
    const auto doc = nlohmann::json::parse(slurp(p));
    const auto& ev = doc.at("traceEvents");
    std::vector<std::string> names;
    for (const auto& e : ev)
        if (e.at("ph") != "M")
            names.push_back(e.at("name"));
    EXPECT_EQ(names, (std::vector<std::string>{"inside", "straddles \"start\"", "in", "irq"}));
    for (const auto& e : ev) {
        if (e.at("name") == "inside") {
            EXPECT_DOUBLE_EQ(e.at("ts").get<double>(), 2.5);
            EXPECT_DOUBLE_EQ(e.at("dur").get<double>(), 0.5);
            EXPECT_EQ(e.at("args").at("bytes"), 13);
        }
        if (e.at("name") == "straddles \"start\"") {
            EXPECT_DOUBLE_EQ(e.at("ts").get<double>(), 2.0); // clipped to the window
            EXPECT_DOUBLE_EQ(e.at("dur").get<double>(), 0.25);
        }
    }
    bool proc = false, thread = false;
    for (const auto& e : ev)
        if (e.at("ph") == "M") {
            proc |= e.at("name") == "process_name" && e.at("args").at("name") == "spi0";
            thread |= e.at("name") == "thread_name" && e.at("args").at("name") == "transactions";
        }
    EXPECT_TRUE(proc);
    EXPECT_TRUE(thread);
}

TEST(TraceTxnLog, WritesOneLinePerTransactionStartingInTheWindow) {
    const fs::path p = tmp("bus.log");
    {
        txn_log log(p.string(), window{1000, 5000});
        bus_txn t;
        t.dir = "rw";
        t.bytes = 19;
        t.name = "0xc4 INTERNAL_READ 0x0f clk_status (clockless) poll";
        t.detail = "-> 0x00000004";
        t.task = "wlan0-tx";
        for (uint64_t s : {0u, 1000u, 4999000u, 5000000u}) {
            t.start_ps = s;
            t.end_ps = s + 18186000;
            log.write("spi0", t);
        }
        EXPECT_EQ(log.lines(), 1u); // only start 1000 ps (1 ns) is in [1000, 5000] ps
        log.close();
    }
    const auto l = lines(slurp(p));
    ASSERT_EQ(l.size(), 2u);
    EXPECT_EQ(l[0][0], '#');
    EXPECT_EQ(l[1], "1 spi0 rw 19 18186 wlan0-tx 0xc4 INTERNAL_READ 0x0f clk_status (clockless) "
                    "poll -> 0x00000004");
}

TEST(TraceWriters, UnwritablePathsAreNamedInTheError) {
    const std::string bad = "/nonexistent-dir/x";
    try {
        vcd_writer v(bad, window{});
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
    EXPECT_THROW(timeline_writer(bad, window{}), std::runtime_error);
    EXPECT_THROW(txn_log(bad, window{}), std::runtime_error);
}

TEST(TraceWilc1000Decoder, FollowsTheWakeUpHandshakeAndADmaWriteAcrossFrames) {
    wilc1000_spi_decoder dec(
        [](uint32_t a) -> const char* { return a == 0x1078 ? "HOST_VMM_CTL" : nullptr; });
    recorded_annotations ann;
    std::vector<bus_txn> out;
    uint64_t t0 = 0;
    auto feed = [&](frame_data f) {
        auto p = f.payload();
        bus_txn t;
        t.start_ps = t0;
        t.end_ps = t0 + 1000;
        t0 += 2000;
        dec.decode(p, t, ann);
        out.push_back(t);
    };
    feed(clockless_write(0x0b, 1)); // HOST_TO_FW: wake-up starts
    feed(clockless_write(0x01, 2)); // WAKEUP
    feed(clockless_read(0x0f, 0));  // clock off
    feed(clockless_read(0x0f, 0));  // clock off
    feed(clockless_read(0x0f, 4));  // clock ready: handshake ends here
    frame_data cmd;                 // DMA_EXT_WRITE addr 0, 1548 bytes
    cmd.mosi = {0xc7, 0x00, 0x00, 0x00, 0x00, 0x06, 0x0c, 0, 0};
    cmd.miso = {0, 0, 0, 0, 0, 0, 0, 0xc7, 0x00};
    feed(cmd);
    feed({{0xf3}, {}}); // data-start tag, last packet
    frame_data data;
    data.mosi.assign(1548, 0xc4); // payload bytes that look like commands
    feed(data);
    feed({{0, 0, 0, 0}, {0, 0, 0xc3, 0x00}}); // data response
    frame_data vmm;                           // a following register write decodes normally
    vmm.mosi = {0xc9, 0x00, 0x10, 0x78, 0, 0, 0, 2, 0, 0};
    vmm.miso = {0, 0, 0, 0, 0, 0, 0, 0, 0xc9, 0};
    feed(vmm);

    ASSERT_EQ(out.size(), 10u);
    EXPECT_EQ(out[0].name, "0xc3 INTERNAL_WRITE 0x0b host_to_fw (clockless)");
    EXPECT_EQ(out[0].detail, "= 0x00000001");
    EXPECT_EQ(out[2].name, "0xc4 INTERNAL_READ 0x0f clk_status (clockless) poll");
    EXPECT_EQ(out[2].detail, "#1 -> 0x00000000 (clock off)");
    EXPECT_EQ(out[4].detail, "#3 -> 0x00000004 (clock ready)");
    EXPECT_EQ(out[5].name, "0xc7 DMA_EXT_WRITE 0x0000 1548 B");
    EXPECT_EQ(out[6].name, "DMA data tag 0xf3 (last)");
    EXPECT_EQ(out[7].name, "DMA_EXT_WRITE data 1548 B");
    EXPECT_EQ(out[8].name, "DMA_EXT_WRITE data response");
    EXPECT_EQ(out[8].detail, "-> 0xc3 0x00");
    EXPECT_EQ(out[9].name, "0xc9 SINGLE_WRITE 0x1078 HOST_VMM_CTL");
    EXPECT_EQ(out[9].detail, "= 0x00000002");

    ASSERT_EQ(ann.spans.size(), 2u);
    EXPECT_EQ(ann.spans[0].lane, "power handshake");
    EXPECT_EQ(ann.spans[0].name, "wake-up handshake");
    EXPECT_EQ(ann.spans[0].a, 0u);
    EXPECT_EQ(ann.spans[0].b, 9000u); // end of the poll that saw the clock
    EXPECT_NE(ann.spans[0].args.find("\"clk_status_polls\":3"), std::string::npos);
    EXPECT_EQ(ann.spans[1].lane, "operations");
    EXPECT_EQ(ann.spans[1].name, "DMA_EXT_WRITE 1548 B");
    EXPECT_EQ(ann.spans[1].a, 10000u);
    EXPECT_EQ(ann.spans[1].b, 17000u);
    EXPECT_EQ(dec.wakeups(), 1u);
}

TEST(TraceKs8851Decoder, NamesSpiRegisterAccessesAndQueues) {
    ks8851_spi_decoder dec;
    recorded_annotations ann;
    // RD ISR (0x92, bytes 2-3: BE = 0xC): MK_OP = BE << 2 | reg >> 6, reg << 2.
    frame_data rd{{0x32, 0x48, 0, 0}, {0, 0, 0x00, 0x20}};
    auto p = rd.payload();
    bus_txn t;
    dec.decode(p, t, ann);
    EXPECT_EQ(t.name, "RD ISR (0x92)");
    EXPECT_EQ(t.dir, "rd");
    EXPECT_EQ(t.detail, "-> 0x2000");
    frame_data txq{std::vector<uint8_t>(105, 0), {}};
    txq.mosi[0] = 0xc0;
    auto q = txq.payload();
    dec.decode(q, t, ann);
    EXPECT_EQ(t.name, "TXQ write 104 B");
}

TEST(TraceKs8851Decoder, FollowsParallelBusRegisterSelectionAndQueueMode) {
    ks8851_par_decoder dec(0x08000000, 0x2);
    recorded_annotations ann;
    auto access = [&](uint64_t off, bool write, uint16_t data) {
        nicsim::par::par_payload p;
        p.cmd = write ? nicsim::par::par_command::write : nicsim::par::par_command::read;
        p.addr = 0x08000000 + off;
        p.data = data;
        bus_txn t;
        dec.decode(p, t, ann);
        return t;
    };
    EXPECT_EQ(access(2, true, 0x3092).name, "CMD select ISR (0x92)");
    bus_txn r = access(0, false, 0x2000);
    EXPECT_EQ(r.name, "RD ISR (0x92)");
    EXPECT_EQ(r.detail, "-> 0x2000");
    access(2, true, 0x3082);                                    // select RXQCR
    EXPECT_EQ(access(0, true, 0x0008).name, "WR RXQCR (0x82)"); // SDA on
    EXPECT_EQ(access(0, false, 0x1234).name, "RXQ data");
    EXPECT_EQ(access(0, false, 0x5678).name, "RXQ data");
    access(2, true, 0x3082);
    EXPECT_EQ(access(0, true, 0x0000).name, "WR RXQCR (0x82)"); // SDA off
    EXPECT_EQ(access(0, false, 0).name, "RD RXQCR (0x82)");
}

TEST(TraceWilc1000Decoder, HandshakeSpansOfOneLaneNeverOverlap) {
    wilc1000_spi_decoder dec(nullptr);
    recorded_annotations ann;
    uint64_t t0 = 0;
    auto feed = [&](frame_data f) {
        auto p = f.payload();
        bus_txn t;
        t.start_ps = t0;
        t.end_ps = t0 + 1000;
        t0 += 2000;
        dec.decode(p, t, ann);
    };
    // chip_allow_sleep whose HOST_TO_FW read shows the bit already clear: no closing write.
    feed(clockless_read(0x10, 0));  // FW_TO_HOST: allow sleep starts (0)
    feed(clockless_read(0x01, 2));  // WAKEUP
    feed(clockless_write(0x01, 0)); // clear WAKEUP
    feed(clockless_read(0x0b, 0));  // HOST_TO_FW already clear
    // chip_wakeup that never sees the clock, then a new one that does.
    feed(clockless_write(0x0b, 1)); // 8000: wake-up starts, allow sleep ends here
    feed(clockless_write(0x01, 2));
    feed(clockless_read(0x0f, 0));
    feed(clockless_write(0x0b, 1)); // 14000: given up, a new wake-up
    feed(clockless_read(0x0f, 4));  // 16000..17000: ready
    ASSERT_EQ(ann.spans.size(), 3u);
    EXPECT_EQ(ann.spans[0].name, "allow sleep");
    EXPECT_EQ(ann.spans[0].a, 0u);
    EXPECT_EQ(ann.spans[0].b, 8000u);
    EXPECT_EQ(ann.spans[1].name, "wake-up handshake (no clock)");
    EXPECT_EQ(ann.spans[1].a, 8000u);
    EXPECT_EQ(ann.spans[1].b, 14000u);
    EXPECT_EQ(ann.spans[2].name, "wake-up handshake");
    EXPECT_EQ(ann.spans[2].a, 14000u);
    EXPECT_EQ(ann.spans[2].b, 17000u);
    for (size_t i = 1; i < ann.spans.size(); ++i)
        EXPECT_LE(ann.spans[i - 1].b, ann.spans[i].a);
}

TEST(TraceVcdWriter, AChangeDatedBeforeItsStreamsLastOneKeepsTheStreamOrder) {
    const fs::path p = tmp("late.vcd");
    {
        vcd_writer v(p.string(), window{});
        const int s = v.new_stream();
        const int st = v.add_string_signal(s, "chip", "power_state", "awake");
        const int fw = v.add_signal(s, "chip", "fw_busy", vcd_writer::kind::wire, 1, 0);
        v.change_string(st, 100, "asleep");
        v.change(fw, 300, 1);
        v.change_string(st, 200, "waking"); // dated before the fw_busy change: shown at 300
        v.change_string(st, 400, "awake");
        v.close(0);
    }
    const std::string text = slurp(p);
    EXPECT_NE(text.find("$comment 1 change(s) dated before their source's previous change are "
                        "shown at that change's time (chip.power_state) $end"),
              std::string::npos)
        << text;
    const auto ch = vcd_changes(text);
    const std::vector<std::pair<uint64_t, std::string>> expect = {
        {0, "sawake !"}, {0, "0\""},         {100, "sasleep !"},
        {300, "1\""},    {300, "swaking !"}, {400, "sawake !"}};
    EXPECT_EQ(ch, expect);
}

TEST(TraceWilc1000SdioDecoder, NamesVendorRegistersCsaAccessesAndTheWakeUp) {
    wilc1000_sdio_decoder dec(
        [](uint32_t a) -> const char* { return a == 0x1a40 ? "INTR_STATUS" : nullptr; });
    recorded_annotations ann;
    uint64_t t0 = 0;
    auto cmd52 = [&](bool write, uint32_t addr, uint8_t v) {
        nicsim::sdio::sdio_payload c;
        c.cmd = nicsim::sdio::sdio_command::cmd52;
        c.write = write;
        c.addr = addr;
        c.data = &v;
        bus_txn t;
        t.start_ps = t0;
        t.end_ps = t0 + 1000;
        t0 += 2000;
        dec.decode(c, t, ann);
        return t;
    };
    EXPECT_EQ(cmd52(true, 0xfa, 1).name, "CMD52 W F0 0x0fa host_to_fw"); // wake-up starts (0)
    cmd52(true, 0xf0, 1);
    bus_txn p1 = cmd52(false, 0xf1, 0);
    EXPECT_EQ(p1.name, "CMD52 R F0 0x0f1 clk_status poll");
    EXPECT_EQ(p1.detail, "#1 -> 0x00 (clock off)");
    EXPECT_EQ(cmd52(false, 0xf1, 1).detail, "#2 -> 0x01 (clock ready)"); // ends at 7000
    // CSA pointer 0x001a40, then a 4-byte CMD53 read through the window.
    cmd52(true, 0x10c, 0x40);
    cmd52(true, 0x10d, 0x1a);
    cmd52(true, 0x10e, 0x00);
    uint8_t word[4] = {0x17, 0x00, 0x01, 0x00};
    nicsim::sdio::sdio_payload c;
    c.cmd = nicsim::sdio::sdio_command::cmd53;
    c.addr = 0x10f;
    c.count = 4;
    c.data = word;
    bus_txn r;
    dec.decode(c, r, ann);
    EXPECT_EQ(r.name, "CMD53 R F0 csa 0x1a40 INTR_STATUS 4 B");
    EXPECT_EQ(r.detail, "-> 0x00010017");
    ASSERT_EQ(ann.spans.size(), 1u);
    EXPECT_EQ(ann.spans[0].name, "wake-up handshake");
    EXPECT_EQ(ann.spans[0].a, 0u);
    EXPECT_EQ(ann.spans[0].b, 7000u);
    EXPECT_EQ(dec.wakeups(), 1u);
}

// SPDX-License-Identifier: MIT
// The transaction-level host and the cycle-stepped reference host (pins toggled half period by
// half period, pin-level slaves) run the same frames side by side in one simulation: they must
// finish at the same times, the slaves must see the same MOSI slots and answer the same MISO
// bits, and the waveform reconstructed from transactions must equal the one recorded on the pins.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bus/spi/spi_host.h"
#include "bus/spi/spi_vcd_tracer.h"
#include "spi_test_util.h"

using namespace nicsim::spi;
using namespace nicsim::spi::test;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

constexpr unsigned num_cs = 4; // chip select k talks to a device in SPI mode k

// Frames plus the buffers they point to.
struct frame_set {
    std::vector<spi_payload> frames;
    std::vector<std::unique_ptr<std::vector<uint8_t>>> bufs;
    size_t zero_timing_from = 0; // frames from this index run with an all-zero host timing

    uint8_t* buf(size_t n, uint8_t seed) {
        bufs.push_back(std::make_unique<std::vector<uint8_t>>(n));
        for (size_t i = 0; i < n; ++i)
            (*bufs.back())[i] = static_cast<uint8_t>(seed + i * 37u + (i >> 3));
        return bufs.back()->data();
    }
    uint8_t* rxbuf(size_t n) {
        bufs.push_back(std::make_unique<std::vector<uint8_t>>(n, 0));
        return bufs.back()->data();
    }
    spi_xfer x(size_t len, unsigned bpw, uint32_t speed, bool tx, bool rx, uint8_t seed) {
        spi_xfer t;
        t.len = len;
        t.bits_per_word = bpw;
        t.speed_hz = speed;
        t.tx = tx ? buf(len, seed) : nullptr;
        t.rx = rx ? rxbuf(len) : nullptr;
        return t;
    }
    void frame(unsigned cs, uint32_t speed, std::vector<spi_xfer> xs) {
        spi_payload f;
        f.cs = cs;
        f.mode = static_cast<spi_mode>(cs);
        f.speed_hz = speed;
        f.xfers = std::move(xs);
        frames.push_back(std::move(f));
    }
};

frame_set make_frames() {
    frame_set s;
    // mode 0: plain 3-byte exchange at 10 MHz.
    s.frame(0, 10'000'000, {s.x(3, 8, 0, true, true, 0x5A)});
    // mode 1: 16-bit words at 7 MHz (period not a whole number of ps), delay_after, cs_change,
    // then 8-bit words at 20 MHz with MISO discarded.
    {
        spi_xfer a = s.x(4, 16, 7'000'000, true, true, 0x13);
        a.delay_after = sc_time(1, SC_US);
        a.cs_change = true;
        s.frame(1, 1'000'000, {a, s.x(5, 8, 20'000'000, true, false, 0x77)});
    }
    // mode 2: tx == nullptr (zeros), a zero-length transfer used as delay + cs_change, 16-bit.
    {
        spi_xfer gap = s.x(0, 8, 0, false, false, 0);
        gap.delay_after = sc_time(2, SC_US);
        gap.cs_change = true;
        s.frame(2, 4'000'000, {s.x(2, 8, 0, false, true, 0), gap, s.x(6, 16, 0, true, true, 0xC3)});
    }
    // mode 3: 12-bit words, a byte, 20-bit words at 3 MHz: slots straddle word and transfer
    // boundaries and the window ends with a partial slot (24 + 8 + 20 = 52 bits).
    s.frame(3, 5'000'000,
            {s.x(4, 12, 0, true, true, 0xF1), s.x(1, 8, 0, true, true, 0x2E),
             s.x(4, 20, 3'000'000, true, true, 0x99)});
    // mode 0: a DMA-sized transfer at 25 MHz, cs_change, 2 more bytes.
    {
        spi_xfer big = s.x(100, 8, 25'000'000, true, true, 0x01);
        big.cs_change = true;
        s.frame(0, 1'000'000, {big, s.x(2, 8, 0, true, true, 0x40)});
    }
    s.zero_timing_from = s.frames.size();
    // Zero host timing: CS deassert coincides with the last SCK edge and CS reasserts at the
    // same instant it deasserted.
    {
        spi_xfer a = s.x(2, 8, 0, true, true, 0x3D);
        a.cs_change = true;
        s.frame(3, 2'000'000, {a, s.x(2, 8, 0, true, true, 0x8B)});
    }
    {
        spi_xfer a = s.x(1, 8, 0, true, true, 0xE7);
        a.cs_change = true;
        s.frame(0, 2'000'000, {a, s.x(1, 8, 0, true, true, 0x64)});
    }
    s.frame(1, 9'000'000, {s.x(3, 8, 0, true, true, 0x1F)});
    return s;
}

spi_host_timing busy_timing() {
    spi_host_timing t;
    t.per_message_overhead = sc_time(2, SC_US);
    t.per_transfer_overhead = sc_time(500, SC_NS);
    t.cs_setup = sc_time(30, SC_NS);
    t.cs_hold = sc_time(40, SC_NS);
    t.cs_inactive_min = sc_time(100, SC_NS);
    t.inter_transfer_gap = sc_time(70, SC_NS);
    t.inter_word_gap_cycles = 1;
    t.inter_word_gap = sc_time(3, SC_NS);
    t.dma_threshold_bytes = 64;
    t.dma_setup = sc_time(1, SC_US);
    t.max_speed_hz = 50'000'000;
    return t;
}

// One host with four slaves, running a frame_set from a thread.
struct side : sc_core::sc_module {
    spi_host host;
    sc_core::sc_vector<hash_slave> slaves;
    std::vector<std::unique_ptr<spi_pin_slave>> pins;
    frame_set fs;
    std::vector<sc_time> ends;

    SC_HAS_PROCESS(side);
    side(const sc_core::sc_module_name& n, spi_host_mode mode, frame_set frames)
        : sc_core::sc_module(n), host("host", num_cs, busy_timing(), mode),
          slaves("slave", num_cs,
                 [](const char* nm, size_t i) { return new hash_slave(nm, 100 + i); }),
          fs(std::move(frames)) {
        for (unsigned i = 0; i < num_cs; ++i) {
            host.spi_out[i].bind(slaves[i].spi_in);
            if (mode == spi_host_mode::cycle_stepped) {
                pins.push_back(std::make_unique<spi_pin_slave>(
                    ("pin" + std::to_string(i)).c_str(), slaves[i], static_cast<spi_mode>(i)));
                pins.back()->cs_n.bind(host.cs_n[i]);
                pins.back()->sck.bind(host.sck);
                pins.back()->mosi.bind(host.mosi);
                pins.back()->miso.bind(host.miso);
            }
        }
        SC_THREAD(run);
    }
    void run() {
        for (size_t i = 0; i < fs.frames.size(); ++i) {
            if (i == fs.zero_timing_from)
                host.set_timing(spi_host_timing{});
            host.transfer(fs.frames[i]);
            ends.push_back(sc_core::sc_time_stamp());
        }
    }
};

// Per-process file names: the same test may run concurrently from two build directories.
std::string tmp(const std::string& name) {
    return ::testing::TempDir() + "nicsim_" + std::to_string(::getpid()) + "_" + name;
}

} // namespace

TEST(SpiReference, TransactionAndCycleSteppedAgree) {
    side tl("tl", spi_host_mode::transaction, make_frames());
    side ref("ref", spi_host_mode::cycle_stepped, make_frames());
    spi_vcd_tracer tl_vcd(tmp("ref_tl.vcd"), num_cs);
    spi_vcd_tracer pin_vcd(tmp("ref_pins.vcd"), num_cs);
    spi_vcd_tracer ref_obs_vcd(tmp("ref_obs.vcd"), num_cs);
    tl.host.add_observer(tl_vcd);
    ref.host.add_observer(ref_obs_vcd);
    spi_vcd_pin_probe probe("probe", ref.host, pin_vcd);

    sc_core::sc_start();
    tl_vcd.close();
    pin_vcd.close();
    ref_obs_vcd.close();

    // Same end times.
    ASSERT_EQ(tl.ends.size(), tl.fs.frames.size());
    EXPECT_EQ(tl.ends, ref.ends);

    // Same MISO bits in every rx buffer (the ref host sampled them from the pin).
    for (size_t f = 0; f < tl.fs.frames.size(); ++f)
        for (size_t x = 0; x < tl.fs.frames[f].xfers.size(); ++x) {
            const spi_xfer& a = tl.fs.frames[f].xfers[x];
            const spi_xfer& b = ref.fs.frames[f].xfers[x];
            ASSERT_EQ(a.rx == nullptr, b.rx == nullptr);
            if (a.rx) {
                EXPECT_EQ(std::vector<uint8_t>(a.rx, a.rx + a.len),
                          std::vector<uint8_t>(b.rx, b.rx + b.len))
                    << "frame " << f << " xfer " << x;
            }
        }
    // A non-trivial MISO stream arrived (a broken sampler would read zeros).
    const spi_xfer& big = ref.fs.frames[4].xfers[0];
    size_t nonzero = 0;
    for (size_t i = 0; i < big.len; ++i)
        nonzero += big.rx[i] != 0;
    EXPECT_GT(nonzero, 50u);

    // Same slave call sequences: select/deselect, every MOSI slot, every MISO slot.
    for (unsigned i = 0; i < num_cs; ++i) {
        EXPECT_GT(tl.slaves[i].log.size(), 6u);
        // Select timestamps differ by design (transaction slaves are called at frame end), so
        // compare the sequences without them.
        auto strip = [](std::vector<std::string> v) {
            for (auto& s : v)
                if (s.rfind("select@", 0) == 0)
                    s = "select";
            return v;
        };
        EXPECT_EQ(strip(tl.slaves[i].log), strip(ref.slaves[i].log)) << "chip select " << i;
        EXPECT_EQ(ref.pins[i]->error(), "");
    }
    // The pin slaves were selected at the scheduled CS assert times, not at frame end.
    EXPECT_EQ(ref.slaves[0].log.front(), "select@" + sc_time(2, SC_US).to_string());

    // Same waveform: reconstructed from transactions == recorded on the pins, and the
    // reconstruction from the reference host's own frames (miso_tail sampled from the pin) too.
    const vcd_file a = read_vcd(tmp("ref_tl.vcd"));
    const vcd_file b = read_vcd(tmp("ref_pins.vcd"));
    const vcd_file c = read_vcd(tmp("ref_obs.vcd"));
    for (const char* n : {"ref_tl.vcd", "ref_pins.vcd", "ref_obs.vcd"})
        std::remove(tmp(n).c_str());
    ASSERT_EQ(a.error, "");
    ASSERT_EQ(b.error, "");
    ASSERT_EQ(c.error, "");
    EXPECT_GT(a.changes.size(), 2000u);
    EXPECT_EQ(a.changes, b.changes);
    EXPECT_EQ(c.changes, b.changes);
}

// Known answer, independent of the transaction model: an echo slave returns each MOSI slot one
// slot later, so in every mode rx = {first, tx[0], tx[1], ...} in wire-slot order. For 16-bit
// words (little-endian in memory, MSB first on the wire) tx word 0x1234 sends slots 0x12, 0x34.
TEST(SpiReference, EchoSlaveKnownAnswerAllModes) {
    struct bench : sc_core::sc_module {
        spi_host host;
        sc_core::sc_vector<echo_slave> slaves;
        std::vector<std::unique_ptr<spi_pin_slave>> pins;
        uint8_t tx8[3] = {0xA5, 0x0F, 0x81};
        uint8_t tx16[4] = {0x34, 0x12, 0x78, 0x56};
        uint8_t rx8[num_cs][3] = {};
        uint8_t rx16[num_cs][4] = {};
        SC_HAS_PROCESS(bench);
        explicit bench(const sc_core::sc_module_name& n)
            : sc_core::sc_module(n), host("host", num_cs, {}, spi_host_mode::cycle_stepped),
              slaves("echo", num_cs,
                     [](const char* nm, size_t) { return new echo_slave(nm, 0xC6); }) {
            for (unsigned i = 0; i < num_cs; ++i) {
                host.spi_out[i].bind(slaves[i].spi_in);
                pins.push_back(std::make_unique<spi_pin_slave>(
                    ("pin" + std::to_string(i)).c_str(), slaves[i], static_cast<spi_mode>(i)));
                pins.back()->cs_n.bind(host.cs_n[i]);
                pins.back()->sck.bind(host.sck);
                pins.back()->mosi.bind(host.mosi);
                pins.back()->miso.bind(host.miso);
            }
            SC_THREAD(run);
        }
        void run() {
            for (unsigned m = 0; m < num_cs; ++m) {
                spi_payload f;
                f.cs = m;
                f.mode = static_cast<spi_mode>(m);
                f.xfers.resize(2);
                f.xfers[0].tx = tx8;
                f.xfers[0].rx = rx8[m];
                f.xfers[0].len = 3;
                f.xfers[0].cs_change = true;
                f.xfers[1].tx = tx16;
                f.xfers[1].rx = rx16[m];
                f.xfers[1].len = 4;
                f.xfers[1].bits_per_word = 16;
                host.transfer(f);
            }
        }
    } b("b");
    sc_core::sc_start();
    for (unsigned m = 0; m < num_cs; ++m) {
        EXPECT_EQ(std::vector<uint8_t>(b.rx8[m], b.rx8[m] + 3),
                  (std::vector<uint8_t>{0xC6, 0xA5, 0x0F}))
            << "mode " << m;
        // Wire slots 0x12 0x34 0x56 0x78, MISO slots C6 12 34 56 -> words 0xC612, 0x3456.
        EXPECT_EQ(std::vector<uint8_t>(b.rx16[m], b.rx16[m] + 4),
                  (std::vector<uint8_t>{0x12, 0xC6, 0x56, 0x34}))
            << "mode " << m;
        EXPECT_EQ(b.pins[m]->error(), "");
    }
}

// A device wired for mode 0 that sees a mode-3 frame (SCK idles high) reports it.
TEST(SpiReference, PinSlaveReportsWrongClockPolarity) {
    struct bench : sc_core::sc_module {
        spi_host host;
        echo_slave slave;
        spi_pin_slave pin;
        SC_HAS_PROCESS(bench);
        explicit bench(const sc_core::sc_module_name& n)
            : sc_core::sc_module(n), host("host", 1, {}, spi_host_mode::cycle_stepped),
              slave("echo", 0x11), pin("pin", slave, spi_mode::mode0) {
            host.spi_out[0].bind(slave.spi_in);
            pin.cs_n.bind(host.cs_n[0]);
            pin.sck.bind(host.sck);
            pin.mosi.bind(host.mosi);
            pin.miso.bind(host.miso);
            SC_THREAD(run);
        }
        void run() {
            spi_payload f;
            f.mode = spi_mode::mode3;
            f.xfers.resize(1);
            f.xfers[0].len = 1;
            host.transfer(f);
        }
    } b("b");
    sc_core::sc_start();
    EXPECT_NE(b.pin.error().find("does not match CPOL of SPI mode 0"), std::string::npos)
        << b.pin.error();
}

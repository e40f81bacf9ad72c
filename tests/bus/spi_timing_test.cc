// SPDX-License-Identifier: MIT
// Wire-schedule arithmetic (bus/spi/spi_timing.h) against hand-computed picosecond values.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "bus/spi/spi_timing.h"

using namespace nicsim::spi;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

sc_time ps(double v) {
    return sc_time(v, SC_PS);
}

spi_xfer xfer(size_t len, unsigned bpw = 8, uint32_t speed = 0) {
    spi_xfer x;
    x.len = len;
    x.bits_per_word = bpw;
    x.speed_hz = speed;
    return x;
}

// Expects compute_schedule() to throw std::invalid_argument whose message contains `needle`.
void expect_invalid(const spi_payload& f, const spi_host_timing& t, const std::string& needle) {
    try {
        compute_schedule(f, t);
        FAIL() << "no exception, expected one mentioning '" << needle << "'";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
            << "message '" << e.what() << "' does not mention '" << needle << "'";
    }
}

} // namespace

// 4 bytes at 48 MHz, 8-bit words, 1 idle SCK cycle between words, CS setup/hold 20 ns:
// 32 bit cycles + 3 gap cycles = 35 cycles = 35 / 48e6 s = 729166.67 ps -> 729167 ps.
TEST(SpiTiming, FourBytesAt48MHzWithWordGap) {
    spi_host_timing t;
    t.cs_setup = sc_time(20, SC_NS);
    t.cs_hold = sc_time(20, SC_NS);
    t.inter_word_gap_cycles = 1;
    spi_payload f;
    f.speed_hz = 48'000'000;
    f.xfers = {xfer(4)};
    const spi_schedule s = compute_schedule(f, t);
    ASSERT_EQ(s.xfers.size(), 1u);
    ASSERT_EQ(s.segments.size(), 1u);
    EXPECT_EQ(s.wire_start, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(s.xfers[0].start, ps(20000));
    EXPECT_EQ(s.xfers[0].end, ps(20000 + 729167));
    EXPECT_EQ(s.wire_end, ps(749167));
    EXPECT_EQ(s.cs_release, ps(769167));
    EXPECT_EQ(s.total, ps(769167));
    EXPECT_EQ(s.wire_time, ps(769167));
    EXPECT_EQ(s.sck_time, ps(729167));
    EXPECT_EQ(s.bytes, 4u);
    EXPECT_EQ(s.sck_cycles, 32u);
    EXPECT_EQ(s.gap_cycles, 3u);
    // Bit 8 (first bit of word 1) owns cycle 9; its leading edge is at half-period 19:
    // 19 / 96e6 s = 197916.67 ps -> 197917 ps after the transfer start.
    EXPECT_EQ(edge_time(s.xfers[0], 8, false), ps(20000 + 197917));
    // The last bit's trailing edge ends the transfer exactly.
    EXPECT_EQ(edge_time(s.xfers[0], 31, true), s.xfers[0].end);
}

// Long transfer at a frequency whose period is not a whole number of ps: no drift.
// 1000 bytes at 3 MHz = 8000 cycles = 2666666666.67 ps -> 2666666667 ps.
TEST(SpiTiming, NoDriftOnLongTransfer) {
    spi_payload f;
    f.speed_hz = 3'000'000;
    f.xfers = {xfer(1000)};
    const spi_schedule s = compute_schedule(f, {});
    EXPECT_EQ(s.xfers[0].end, ps(2666666667.0));
    // Bit 3 (cycle 3): leading edge at half-period 7 = 7/6e6 s = 1166666.67 -> 1166667 ps.
    EXPECT_EQ(edge_time(s.xfers[0], 3, false), ps(1166667));
    EXPECT_EQ(edge_time(s.xfers[0], 7999, true), s.xfers[0].end);
}

// Two transfers with software overheads, delay_after, cs_change and per-transfer speed/word size.
TEST(SpiTiming, OverheadsCsChangeDelayAndPerTransferSpeed) {
    spi_host_timing t;
    t.per_message_overhead = sc_time(10, SC_US);
    t.per_transfer_overhead = sc_time(2, SC_US);
    t.cs_setup = sc_time(100, SC_NS);
    t.cs_hold = sc_time(50, SC_NS);
    t.cs_inactive_min = sc_time(1, SC_US);
    t.inter_transfer_gap = sc_time(300, SC_NS);
    spi_payload f;
    f.speed_hz = 1'000'000;
    f.xfers = {xfer(2), xfer(4, 16, 10'000'000)};
    f.xfers[0].delay_after = sc_time(5, SC_US);
    f.xfers[0].cs_change = true;
    const spi_schedule s = compute_schedule(f, t);
    ASSERT_EQ(s.segments.size(), 2u);
    // 10 us message overhead, CS asserts; +100 ns setup, +2 us transfer overhead.
    EXPECT_EQ(s.segments[0].cs_assert, sc_time(10, SC_US));
    EXPECT_EQ(s.xfers[0].start, sc_time(12100, SC_NS));
    EXPECT_EQ(s.xfers[0].end, sc_time(28100, SC_NS)); // 16 bits at 1 MHz
    // +5 us delay_after, +50 ns hold -> deassert; +1 us inactive -> reassert.
    EXPECT_EQ(s.segments[0].cs_deassert, sc_time(33150, SC_NS));
    EXPECT_EQ(s.segments[1].cs_assert, sc_time(34150, SC_NS));
    // +100 ns setup, +300 ns inter-transfer gap, +2 us transfer overhead.
    EXPECT_EQ(s.xfers[1].start, sc_time(36550, SC_NS));
    EXPECT_EQ(s.xfers[1].words, 2u);
    EXPECT_EQ(s.xfers[1].bits, 32u);
    EXPECT_EQ(s.xfers[1].end, sc_time(39750, SC_NS)); // 32 bits at 10 MHz = 3.2 us
    EXPECT_EQ(s.segments[1].cs_deassert, sc_time(39800, SC_NS));
    EXPECT_EQ(s.total, sc_time(40800, SC_NS)); // + final CS inactive time
    EXPECT_EQ(s.segments[0].first_xfer, 0u);
    EXPECT_EQ(s.segments[0].last_xfer, 0u);
    EXPECT_EQ(s.segments[1].first_xfer, 1u);
    EXPECT_EQ(s.xfers[1].segment, 1u);
    EXPECT_EQ(s.wire_time, sc_time(23150 + 5650, SC_NS));
    // CPU: 10 us + 2 x 2 us overheads + 19.2 us PIO (no DMA engine).
    EXPECT_EQ(s.pio_time, sc_time(19200, SC_NS));
    EXPECT_EQ(s.cpu_busy, sc_time(33200, SC_NS));
    EXPECT_EQ(s.pio_transfers, 2u);
    EXPECT_EQ(s.dma_transfers, 0u);
}

// Inter-word gap given both in SCK cycles and in time: 2 words at 1 MHz, 2 gap cycles, 500 ns.
TEST(SpiTiming, InterWordGapCyclesAndTime) {
    spi_host_timing t;
    t.inter_word_gap_cycles = 2;
    t.inter_word_gap = sc_time(500, SC_NS);
    spi_payload f;
    f.speed_hz = 1'000'000;
    f.xfers = {xfer(2)};
    const spi_schedule s = compute_schedule(f, t);
    EXPECT_EQ(s.xfers[0].end, sc_time(18500, SC_NS));
    // First bit of word 1 = cycle 10, leading edge 10.5 us, plus one 500 ns gap.
    EXPECT_EQ(edge_time(s.xfers[0], 8, false), sc_time(11000, SC_NS));
    EXPECT_EQ(edge_time(s.xfers[0], 15, true), s.xfers[0].end);
}

// bcm2835-style DMA/PIO choice: DMA for len >= 96 bytes, with a DMA setup cost per transfer.
TEST(SpiTiming, DmaPioThreshold) {
    spi_host_timing t;
    t.dma_threshold_bytes = 96;
    t.dma_setup = sc_time(5, SC_US);
    spi_payload f;
    f.speed_hz = 8'000'000; // 1 us per byte
    f.xfers = {xfer(95), xfer(96), xfer(200)};
    const spi_schedule s = compute_schedule(f, t);
    EXPECT_FALSE(s.xfers[0].dma);
    EXPECT_TRUE(s.xfers[1].dma);
    EXPECT_TRUE(s.xfers[2].dma);
    EXPECT_EQ(s.pio_transfers, 1u);
    EXPECT_EQ(s.dma_transfers, 2u);
    EXPECT_EQ(s.xfers[0].start, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(s.xfers[1].start, sc_time(100, SC_US)); // 95 us + 5 us DMA setup
    EXPECT_EQ(s.xfers[2].start, sc_time(201, SC_US));
    EXPECT_EQ(s.total, sc_time(401, SC_US));
    EXPECT_EQ(s.pio_time, sc_time(95, SC_US));
    EXPECT_EQ(s.cpu_busy, sc_time(105, SC_US)); // PIO + 2 DMA setups

    t.dma_threshold_bytes = 0; // no DMA engine: everything PIO, no setup cost
    const spi_schedule p = compute_schedule(f, t);
    EXPECT_EQ(p.dma_transfers, 0u);
    EXPECT_EQ(p.pio_time, sc_time(391, SC_US));
    EXPECT_EQ(p.total, sc_time(391, SC_US));
}

// A zero-length transfer clocks nothing but still costs its overhead and delay.
TEST(SpiTiming, ZeroLengthTransferIsADelay) {
    spi_host_timing t;
    t.per_transfer_overhead = sc_time(1, SC_US);
    spi_payload f;
    f.xfers = {xfer(0)};
    f.xfers[0].delay_after = sc_time(7, SC_US);
    const spi_schedule s = compute_schedule(f, t);
    EXPECT_EQ(s.xfers[0].bits, 0u);
    EXPECT_EQ(s.xfers[0].start, s.xfers[0].end);
    EXPECT_EQ(s.total, sc_time(8, SC_US));
}

TEST(SpiTiming, InvalidInputsNameTheField) {
    spi_host_timing t;
    t.max_speed_hz = 25'000'000;
    spi_payload f;
    expect_invalid(f, t, "xfers is empty");

    f.xfers = {xfer(1)};
    f.speed_hz = 0;
    expect_invalid(f, t, "xfers[0].speed_hz = 0");

    f.speed_hz = 50'000'000;
    expect_invalid(f, t, "speed_hz = 50000000 Hz exceeds the host's max_speed_hz = 25000000");

    f.speed_hz = 1'000'000;
    f.xfers = {xfer(1), xfer(2, 0)};
    expect_invalid(f, t, "xfers[1].bits_per_word = 0");
    f.xfers = {xfer(4, 33)};
    expect_invalid(f, t, "xfers[0].bits_per_word = 33");
    f.xfers = {xfer(3, 16)};
    expect_invalid(f, t, "xfers[0].len = 3");
    f.xfers = {xfer(6, 32)};
    expect_invalid(f, t, "xfers[0].len = 6");
    f.xfers = {xfer(2), xfer(2, 8, 30'000'000)};
    expect_invalid(f, t, "xfers[1].speed_hz = 30000000");

    // Word sizes that are not multiples of 8 are valid: 12-bit words take 2 bytes.
    f.xfers = {xfer(4, 12)};
    const spi_schedule s = compute_schedule(f, t);
    EXPECT_EQ(s.sck_cycles, 24u);
}

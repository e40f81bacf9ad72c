// SPDX-License-Identifier: MIT
// SDIO wire schedule: every command shape against cycle counts computed by hand from the spec
// rules (sdio_timing.h), overhead accounting, and input validation.
//
// Hand-count rules used below (defaults: N_CR 2, N_AC 2, N_WR 2, CRC status delay 2, busy 0):
//   command  [0, 48); response [48 + 2 = 50, 98)
//   block    1 start + bytes*8/width data + 16 CRC16 + 1 end
//   read:    block 0 starts N_AC = 2 after the command end bit (cycle 50); block i+1 starts 2
//            after block i's end; the card is called at max(98, last block end)
//   write:   block 0 starts N_WR = 2 after the response end (cycle 100); CRC status token
//            (5 cycles) starts 2 after the data end; block i+1 starts 2 after the token (+busy);
//            the card is called at the end of the last token
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bus/sdio/sdio_timing.h"

using namespace nicsim::sdio;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

constexpr uint32_t mhz25 = 25'000'000; // 40 ns per cycle

uint8_t g_byte = 0;
std::vector<uint8_t> g_buf(512 * 511);

sdio_payload cmd52(bool write, bool raw = false) {
    sdio_payload p;
    p.cmd = sdio_command::cmd52;
    p.write = write;
    p.raw = raw;
    p.fn = 1;
    p.addr = 0x10;
    g_byte = 0x5A;
    p.data = &g_byte;
    return p;
}

sdio_payload cmd53(bool write, bool block_mode, unsigned count, unsigned block_size = 0) {
    sdio_payload p;
    p.cmd = sdio_command::cmd53;
    p.write = write;
    p.fn = 1;
    p.addr = 0x108;
    p.block_mode = block_mode;
    p.count = count;
    p.block_size = block_size;
    p.data = g_buf.data();
    return p;
}

sc_time cyc(uint64_t n, uint64_t ns_per_cycle = 40) {
    return sc_time(double(n * ns_per_cycle), SC_NS);
}

// Expects `f` to throw std::invalid_argument whose message contains `needle`.
template <class F> void expect_invalid(F f, const std::string& needle) {
    try {
        f();
        FAIL() << "no exception, expected one mentioning '" << needle << "'";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

} // namespace

// CMD52 read: 48 command + 2 N_CR + 48 response = 98 cycles, no DAT activity; next command no
// earlier than 98 + N_RC 8 = 106 cycles.
TEST(SdioTiming, Cmd52Read) {
    const sdio_schedule s = compute_schedule(cmd52(false), mhz25, 1, sdio_host_timing{});
    EXPECT_EQ(s.resp_start_cycle, 50u);
    EXPECT_EQ(s.resp_end_cycle, 98u);
    EXPECT_EQ(s.card_cycle, 98u);
    EXPECT_EQ(s.wire_cycles, 98u);
    EXPECT_TRUE(s.blocks.empty());
    EXPECT_EQ(s.data_cycles, 0u);
    EXPECT_EQ(s.card_at, cyc(98)); // 3.92 us
    EXPECT_EQ(s.wire_end, cyc(98));
    EXPECT_EQ(s.bus_free, cyc(106)); // 4.24 us
    EXPECT_EQ(s.total, cyc(98));
    EXPECT_EQ(s.data_bytes, 0u);
    // Argument (SDIO 5.1): read, fn 1 << 28, addr 0x10 << 9, no data = 0x10002000.
    EXPECT_EQ(command_argument(cmd52(false)), 0x10002000u);
}

// CMD52 write: same 98 cycles (the byte travels in the argument); argument 0x9000205A.
TEST(SdioTiming, Cmd52Write) {
    const sdio_schedule s = compute_schedule(cmd52(true), mhz25, 4, sdio_host_timing{});
    EXPECT_EQ(s.card_cycle, 98u);
    EXPECT_EQ(s.wire_end, cyc(98));
    EXPECT_EQ(command_argument(cmd52(true)), 0x9000205Au);
}

// CMD52 read-after-write: RAW flag bit 27 (0x9800205A), still 98 cycles; with N_CR at its
// 64-cycle maximum the response ends at 48 + 64 + 48 = 160.
TEST(SdioTiming, Cmd52Raw) {
    EXPECT_EQ(command_argument(cmd52(true, true)), 0x9800205Au);
    EXPECT_EQ(compute_schedule(cmd52(true, true), mhz25, 1, sdio_host_timing{}).card_cycle, 98u);
    sdio_host_timing t;
    t.n_cr_cycles = 64;
    const sdio_schedule s = compute_schedule(cmd52(true, true), mhz25, 1, t);
    EXPECT_EQ(s.resp_end_cycle, 160u);
    EXPECT_EQ(s.card_at, cyc(160));
}

// CMD53 byte read of 4 bytes. 4-bit: block 1 + 8 + 16 + 1 = 26 cycles at [50, 76); it ends
// before the response (98), so the card is called at 98. 1-bit: 1 + 32 + 16 + 1 = 50 cycles
// at [50, 100): card at 100.
TEST(SdioTiming, Cmd53ByteRead) {
    const sdio_schedule s4 = compute_schedule(cmd53(false, false, 4), mhz25, 4, {});
    ASSERT_EQ(s4.blocks.size(), 1u);
    EXPECT_EQ(s4.blocks[0].start_cycle, 50u);
    EXPECT_EQ(s4.blocks[0].crc_cycle, 59u);
    EXPECT_EQ(s4.blocks[0].end_cycle, 76u);
    EXPECT_EQ(s4.card_cycle, 98u);
    EXPECT_EQ(s4.data_cycles, 26u);
    EXPECT_EQ(s4.data_bytes, 4u);
    const sdio_schedule s1 = compute_schedule(cmd53(false, false, 4), mhz25, 1, {});
    EXPECT_EQ(s1.blocks[0].end_cycle, 100u);
    EXPECT_EQ(s1.card_cycle, 100u);
    EXPECT_EQ(s1.card_at, cyc(100));
    EXPECT_EQ(s1.bus_free, cyc(106)); // response end 98 + N_RC 8 > data end 100
    // Argument (SDIO 5.3): read, fn 1, byte mode, incrementing (bit 26), addr 0x108 << 9,
    // count 4 = 0x14021004; 512 bytes are sent as count 0.
    EXPECT_EQ(command_argument(cmd53(false, false, 4)), 0x14021004u);
    EXPECT_EQ(command_argument(cmd53(false, false, 512)) & 0x1FF, 0u);
}

// CMD53 byte write of 4 bytes, 4-bit: data [100, 126), CRC status [128, 133) -> card at 133.
// 1-bit, 8 bytes: data 1 + 64 + 16 + 1 = 82 at [100, 182), status [184, 189) -> 189.
TEST(SdioTiming, Cmd53ByteWrite) {
    const sdio_schedule s4 = compute_schedule(cmd53(true, false, 4), mhz25, 4, {});
    EXPECT_EQ(s4.blocks[0].start_cycle, 100u);
    EXPECT_EQ(s4.blocks[0].end_cycle, 126u);
    EXPECT_EQ(s4.blocks[0].status_cycle, 128u);
    EXPECT_EQ(s4.card_cycle, 133u);
    EXPECT_EQ(s4.wire_cycles, 133u);
    EXPECT_EQ(s4.data_cycles, 33u); // 26 data + 2 gap + 5 token
    const sdio_schedule s1 = compute_schedule(cmd53(true, false, 8), mhz25, 1, {});
    EXPECT_EQ(s1.blocks[0].end_cycle, 182u);
    EXPECT_EQ(s1.card_cycle, 189u);
    EXPECT_EQ(s1.wire_end, cyc(189));
    EXPECT_EQ(s1.bus_free, cyc(189));
}

// Block read, 4-bit, 512-byte blocks: 1 + 1024 + 16 + 1 = 1042 cycles each. One block [50, 1092);
// three blocks [50,1092) [1094,2136) [2138,3180): card at 3180. 1-bit, 2 x 64 bytes:
// 1 + 512 + 16 + 1 = 530 each, [50,580) [582,1112).
TEST(SdioTiming, Cmd53BlockRead) {
    const sdio_schedule one = compute_schedule(cmd53(false, true, 1, 512), mhz25, 4, {});
    EXPECT_EQ(one.card_cycle, 1092u);
    EXPECT_EQ(one.data_bytes, 512u);
    const sdio_schedule three = compute_schedule(cmd53(false, true, 3, 512), mhz25, 4, {});
    ASSERT_EQ(three.blocks.size(), 3u);
    EXPECT_EQ(three.blocks[1].start_cycle, 1094u);
    EXPECT_EQ(three.blocks[1].end_cycle, 2136u);
    EXPECT_EQ(three.blocks[2].start_cycle, 2138u);
    EXPECT_EQ(three.card_cycle, 3180u);
    EXPECT_EQ(three.card_at, cyc(3180)); // 127.2 us
    EXPECT_EQ(three.data_cycles, 3u * 1042u);
    EXPECT_EQ(three.data_bytes, 1536u);
    const sdio_schedule w1 = compute_schedule(cmd53(false, true, 2, 64), mhz25, 1, {});
    EXPECT_EQ(w1.blocks[0].end_cycle, 580u);
    EXPECT_EQ(w1.blocks[1].start_cycle, 582u);
    EXPECT_EQ(w1.card_cycle, 1112u);
}

// Block write, 4-bit, 512-byte blocks: [100,1142) status [1144,1149); next block N_WR later:
// [1151,2193) status [2195,2200); [2202,3244) status [3246,3251): card at 3251.
// With 10 busy cycles after every token: block 1 starts at 1149 + 10 + 2 = 1161, the last token
// ends at 3251 + 2*10 = 3271 (card) and the bus is free at 3281.
TEST(SdioTiming, Cmd53BlockWrite) {
    const sdio_schedule one = compute_schedule(cmd53(true, true, 1, 512), mhz25, 4, {});
    EXPECT_EQ(one.card_cycle, 1149u);
    EXPECT_EQ(one.wire_end, cyc(1149));
    const sdio_schedule three = compute_schedule(cmd53(true, true, 3, 512), mhz25, 4, {});
    EXPECT_EQ(three.blocks[1].start_cycle, 1151u);
    EXPECT_EQ(three.blocks[1].status_cycle, 2195u);
    EXPECT_EQ(three.blocks[2].start_cycle, 2202u);
    EXPECT_EQ(three.card_cycle, 3251u);
    sdio_host_timing t;
    t.write_busy_cycles = 10;
    const sdio_schedule busy = compute_schedule(cmd53(true, true, 3, 512), mhz25, 4, t);
    EXPECT_EQ(busy.blocks[1].start_cycle, 1161u);
    EXPECT_EQ(busy.card_cycle, 3271u);
    EXPECT_EQ(busy.wire_cycles, 3281u);
    EXPECT_EQ(busy.card_at, cyc(3271));
    EXPECT_EQ(busy.wire_end, cyc(3281));
}

// 1-bit vs 4-bit for the same 512-byte block read: 1 + 4096 + 16 + 1 = 4114 cycles -> card at
// 50 + 4114 = 4164 vs 1092 (4-bit).
TEST(SdioTiming, OneBitVersusFourBit) {
    EXPECT_EQ(compute_schedule(cmd53(false, true, 1, 512), mhz25, 1, {}).card_cycle, 4164u);
    EXPECT_EQ(compute_schedule(cmd53(false, true, 1, 512), mhz25, 4, {}).card_cycle, 1092u);
}

// A clock that does not divide 1 s: the Raspberry Pi 4's 41.666667 MHz. Cycle 98 starts at
// round(98e12 / 41666667) = round(2351999.98) = 2352000 ps; cycle 1092 at
// round(1092e12 / 41666667) = round(26207999.79) = 26208000 ps.
TEST(SdioTiming, FractionalClockGrid) {
    EXPECT_EQ(compute_schedule(cmd52(false), 41'666'667, 4, {}).card_at, sc_time(2352000, SC_PS));
    EXPECT_EQ(compute_schedule(cmd53(false, true, 1, 512), 41'666'667, 4, {}).card_at,
              sc_time(26208000, SC_PS));
}

// Overheads, DMA: request 10 us + DMA setup 3 us before the start bit; 3 x 512 block write
// (1536 >= threshold 512: DMA) with a 2 us stall before blocks 1 and 2: card at
// 13 us + 3251 * 40 ns + 2 * 2 us = 147.04 us, caller resumes after completion 5 us at
// 152.04 us. CPU: 10 + 3 + 5 + 2*2 = 22 us, no PIO.
TEST(SdioTiming, OverheadsDma) {
    sdio_host_timing t;
    t.per_request_overhead = sc_time(10, SC_US);
    t.completion_overhead = sc_time(5, SC_US);
    t.dma_threshold_bytes = 512;
    t.dma_setup = sc_time(3, SC_US);
    t.per_block_overhead = sc_time(2, SC_US);
    const sdio_schedule s = compute_schedule(cmd53(true, true, 3, 512), mhz25, 4, t);
    EXPECT_TRUE(s.dma);
    EXPECT_EQ(s.cmd_start, sc_time(13, SC_US));
    EXPECT_EQ(s.blocks[1].start, sc_time(13, SC_US) + cyc(1151) + sc_time(2, SC_US));
    EXPECT_EQ(s.card_at, sc_time(147040, SC_NS));
    EXPECT_EQ(s.total, sc_time(152040, SC_NS));
    EXPECT_EQ(s.cpu_busy, sc_time(22, SC_US));
    EXPECT_EQ(s.pio_time, sc_time(0, SC_NS));
    EXPECT_EQ(s.bus_time, cyc(3251) + sc_time(4, SC_US));
}

// Overheads, PIO: 2 x 64-byte block read, 4-bit (128 < 512: PIO): blocks of
// 1 + 128 + 16 + 1 = 146 cycles at [50,196) and, after N_AC and a 2 us stall, [198,344).
// Data phase 294 cycles = 11.76 us of PIO (+2 us stall on the bus); card at
// 10 + 344 * 0.04 + 2 = 25.76 us; CPU 10 + 5 + 2 + 11.76 = 28.76 us. A bus wait of 1 us (N_RC
// of a previous command) delays the start bit but costs no CPU.
TEST(SdioTiming, OverheadsPio) {
    sdio_host_timing t;
    t.per_request_overhead = sc_time(10, SC_US);
    t.completion_overhead = sc_time(5, SC_US);
    t.dma_threshold_bytes = 512;
    t.dma_setup = sc_time(3, SC_US);
    t.per_block_overhead = sc_time(2, SC_US);
    const sdio_schedule s = compute_schedule(cmd53(false, true, 2, 64), mhz25, 4, t);
    EXPECT_FALSE(s.dma);
    EXPECT_EQ(s.blocks[1].start_cycle, 198u);
    EXPECT_EQ(s.card_at, sc_time(25760, SC_NS));
    EXPECT_EQ(s.data_time, sc_time(13760, SC_NS));
    EXPECT_EQ(s.pio_time, sc_time(11760, SC_NS));
    EXPECT_EQ(s.cpu_busy, sc_time(28760, SC_NS));
    const sdio_schedule w =
        compute_schedule(cmd53(false, true, 2, 64), mhz25, 4, t, sc_time(1, SC_US));
    EXPECT_EQ(w.cmd_start, sc_time(11, SC_US));
    EXPECT_EQ(w.card_at, sc_time(26760, SC_NS));
    EXPECT_EQ(w.cpu_busy, s.cpu_busy);
}

// The card annotating 1 us: everything after the card call moves; a write's last busy grows.
TEST(SdioTiming, CardDelayShiftsTheEnd) {
    sdio_schedule s = compute_schedule(cmd53(true, true, 1, 512), mhz25, 4, {});
    add_card_delay(s, sc_time(1, SC_US));
    EXPECT_EQ(s.card_at, cyc(1149));
    EXPECT_EQ(s.wire_end, cyc(1149) + sc_time(1, SC_US));
    EXPECT_EQ(s.bus_free, s.wire_end);
    EXPECT_EQ(s.bus_time, cyc(1149) + sc_time(1, SC_US));
    EXPECT_EQ(s.blocks[0].end, s.wire_end);
}

// CRC7 of CMD0 with argument 0 (the well-known 0x40 00 00 00 00 95 frame: CRC7 0x4A) and of
// CMD17 arg 0 (0x51 00 00 00 00 55: 0x2A); CRC16 of 512 bytes of 0xFF is 0x7FA1 (PLS 4.5).
TEST(SdioTiming, Crcs) {
    EXPECT_EQ(crc7_bits(0x4000000000ULL, 40), 0x4A);
    EXPECT_EQ(crc7_bits(0x5100000000ULL, 40), 0x2A);
    uint16_t crc = 0;
    for (int i = 0; i < 512 * 8; ++i)
        crc = crc16_step(crc, true);
    EXPECT_EQ(crc, 0x7FA1);
}

TEST(SdioTiming, BadIosRejected) {
    expect_invalid([] { validate_ios(mhz25, 2, {}); }, "bus_width = 2");
    expect_invalid([] { validate_ios(60'000'000, 4, {}); }, "clock_hz = 60000000");
    expect_invalid([] { validate_ios(0, 4, {}); }, "clock_hz = 0");
    sdio_host_timing t;
    t.max_clock_hz = 41'666'667;
    expect_invalid([&] { validate_ios(50'000'000, 4, t); }, "max_clock_hz = 41666667");
    EXPECT_NO_THROW(validate_ios(50'000'000, 4, {}));
    expect_invalid([] { compute_schedule(cmd52(false), mhz25, 8, {}); }, "bus_width = 8");
}

TEST(SdioTiming, BadCommandsRejected) {
    expect_invalid([] { validate_command(cmd53(false, true, 0, 512)); }, "block count = 0");
    expect_invalid([] { validate_command(cmd53(false, true, 512, 512)); }, "block count = 512");
    expect_invalid([] { validate_command(cmd53(true, false, 513)); }, "byte count = 513");
    expect_invalid([] { validate_command(cmd53(true, false, 0)); }, "byte count = 0");
    expect_invalid([] { validate_command(cmd53(true, true, 1, 0)); }, "block_size = 0");
    expect_invalid([] { validate_command(cmd53(true, true, 1, 4096)); }, "block_size = 4096");
    expect_invalid(
        [] {
            sdio_payload p = cmd52(false);
            p.data = nullptr;
            validate_command(p);
        },
        "CMD52 needs exactly one data byte");
    expect_invalid(
        [] {
            sdio_payload p = cmd53(false, false, 4);
            p.data = nullptr;
            validate_command(p);
        },
        "data == nullptr");
    expect_invalid(
        [] {
            sdio_payload p = cmd52(false);
            p.fn = 8;
            validate_command(p);
        },
        "fn = 8");
    expect_invalid(
        [] {
            sdio_payload p = cmd52(false);
            p.addr = 0x20000;
            validate_command(p);
        },
        "addr = 131072");
    EXPECT_NO_THROW(validate_command(cmd53(true, false, 512)));
    EXPECT_NO_THROW(validate_command(cmd53(true, true, 511, 2048)));
}

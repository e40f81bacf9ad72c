// SPDX-License-Identifier: MIT
// KS8851 over SPI: command encoding, register file, soft reset, TX to the wire, RX from the
// wire, RX overrun, address filtering, IRQ level, RX thresholds and duration timer, PHY/link.
#include <gtest/gtest.h>

#include "tests/models/ks8851_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

uint64_t ps(const sc_time& t) {
    return uint64_t(t.to_seconds() * 1e12 + 0.5);
}
// Next 25 MHz edge (40 ns) at or after t, in ps.
uint64_t edge_ps(uint64_t t) {
    return (t + 39999) / 40000 * 40000;
}

// Linux ether_crc() written bit by bit from 802.3 (MSB-first register, data LSB first): an
// independent implementation to place multicast addresses in the hash table.
unsigned hash_index(const uint8_t* mac) {
    uint32_t crc = 0xFFFFFFFF;
    for (int i = 0; i < 6; ++i) {
        uint8_t b = mac[i];
        for (int k = 0; k < 8; ++k, b >>= 1) {
            const uint32_t msb = crc >> 31;
            crc <<= 1;
            if (msb ^ (b & 1))
                crc ^= 0x04C11DB7;
        }
    }
    return crc >> 26;
}

} // namespace

// The encoder produces the wire bytes of ks8851_spi.c's framing, and the chip answers the
// CIDER read with 0x8872 in the last two bytes of the 4-byte frame.
TEST(Ks8851Spi, CommandEncodingAndCider) {
    EXPECT_EQ(ks_spi_cmd(0x00, 0x3, 0xC0), (std::vector<uint8_t>{0x0F, 0x00}));
    EXPECT_EQ(ks_spi_cmd(0x00, 0xC, 0x92), (std::vector<uint8_t>{0x32, 0x48}));
    EXPECT_EQ(ks_spi_cmd(0x40, 0xC, 0x92), (std::vector<uint8_t>{0x72, 0x48}));
    EXPECT_EQ(ks_spi_cmd(0x00, 0x3, 0x9C), (std::vector<uint8_t>{0x0E, 0x70}));
    EXPECT_EQ(ks_spi_cmd(0x40, 0xC, 0x82), (std::vector<uint8_t>{0x72, 0x08}));
    EXPECT_EQ(ks_spi_cmd(0x40, 0x3, 0x80), (std::vector<uint8_t>{0x4E, 0x00}));
    EXPECT_EQ(ks_spi_cmd(0x00, 0x3, 0x78), (std::vector<uint8_t>{0x0D, 0xE0}));
    EXPECT_EQ(ks_spi_cmd(0x00, 0xC, 0xE6), (std::vector<uint8_t>{0x33, 0x98}));
    ks_bench::start(spi_params(), [](ks_bench& b) {
        EXPECT_EQ(b.spi->rd16(ks::reg::CIDER), 0x8872);
        EXPECT_EQ(b.spi->mosi_log.back(), (std::vector<uint8_t>{0x0F, 0x00, 0xA5, 0xA5}));
        EXPECT_EQ((b.spi->rd16(ks::reg::CIDER) & ~0xEu), 0x8870u); // the driver's id check
        EXPECT_EQ(b.spi->rd16(ks::reg::CCR), ks::CCR_SPI | ks::CCR_32PIN);
        EXPECT_EQ(b.spi->rd16(ks::reg::MBIR), 0x1010);
        EXPECT_EQ(b.spi->rd16(ks::reg::TXMIR), 0x1800);
        b.spi->half_duplex = true; // SPI_MASTER_HALF_DUPLEX form: 2 + 2 bytes in two transfers
        EXPECT_EQ(b.spi->rd16(ks::reg::CIDER), 0x8872);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

// 16-bit writes, 8-bit writes that touch one byte lane only, and 8/32-bit reads of the same
// dword return the right bytes.
TEST(Ks8851Spi, RegisterByteEnables) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.wr16(ks::reg::MARL, 0x1234);
        h.wr16(ks::reg::MARM, 0x5678);
        EXPECT_EQ(h.rd16(ks::reg::MARL), 0x1234);
        EXPECT_EQ(h.rd16(ks::reg::MARM), 0x5678);
        h.wr(0x2, ks::reg::MARL, {0xAB}); // BE1: high byte of MARL only
        EXPECT_EQ(h.rd16(ks::reg::MARL), 0xAB34);
        h.wr(0x4, ks::reg::MARL, {0xCD}); // BE2: low byte of MARM (dword 0x10, lane 2)
        EXPECT_EQ(h.rd16(ks::reg::MARM), 0x56CD);
        // 32-bit read of dword 0x10: MARL low, MARL high, MARM low, MARM high.
        EXPECT_EQ(h.rd(0xF, 0x10, 4), (std::vector<uint8_t>{0x34, 0xAB, 0xCD, 0x56}));
        // 8-bit reads (pre-2020 driver form, e.g. RXFC at 0x9D): one data byte.
        EXPECT_EQ(h.rd(0x8, 0x13, 1), (std::vector<uint8_t>{0x56}));
        EXPECT_EQ(h.rd(0x1, 0x10, 1), (std::vector<uint8_t>{0x34}));
        // 32-bit write covering two registers at once.
        h.wr(0xF, 0xA0, {0x01, 0x02, 0x03, 0x04});
        EXPECT_EQ(h.rd16(ks::reg::MAHTR0), 0x0201);
        EXPECT_EQ(h.rd16(ks::reg::MAHTR1), 0x0403);
        // Read-only registers ignore writes.
        h.wr16(ks::reg::CIDER, 0x0000);
        EXPECT_EQ(h.rd16(ks::reg::CIDER), 0x8872);
        // A command with no byte enable is a bus error: ISR.SPIBEI.
        h.wr(0x0, ks::reg::MARL, {});
        EXPECT_TRUE(h.rd16(ks::reg::ISR) & ks::IRQ_SPIBEI);
    });
}

// GRR.GSR restores register defaults and empties the queues.
TEST(Ks8851Spi, SoftResetRestoresDefaults) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        h.set_mac(ks_mac);
        h.wr16(ks::reg::MAHTR2, 0xBEEF);
        h.tx(ks_make_frame(ks_mac, 100), false);
        // Written but TXE off -> the frame stays in the TXQ.
        h.wr16(ks::reg::TXCR, 0);
        h.tx(ks_make_frame(ks_mac, 200), false);
        EXPECT_LT(h.rd16(ks::reg::TXMIR), 0x1800);
        EXPECT_EQ(h.rd16(ks::reg::IER), 0xE302);
        h.wr16(ks::reg::GRR, ks::GRR_GSR);
        h.wr16(ks::reg::GRR, 0);
        EXPECT_EQ(h.rd16(ks::reg::IER), 0);
        EXPECT_EQ(h.rd16(ks::reg::ISR), 0);
        EXPECT_EQ(h.rd16(ks::reg::TXCR), 0);
        EXPECT_EQ(h.rd16(ks::reg::RXCR1), 0);
        EXPECT_EQ(h.rd16(ks::reg::MAHTR2), 0);
        EXPECT_EQ(h.rd16(ks::reg::MARL), 0);
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 0x1800);
        EXPECT_EQ(h.rd16(ks::reg::CIDER), 0x8872);
        EXPECT_TRUE(b.line.level());
    });
}

// A 1514-byte frame through the TXQ leaves on the wire padded/CRC'd byte-exact, at the time the
// 25 MHz enqueue/start latencies and 100 Mb/s serialisation give; TXMIR accounts ALIGN(len+4,4)
// until transmission ends, then TXI (TXIC) fires.
TEST(Ks8851Spi, TxFrameOnWireByteExact) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.gap = sc_time(1010, SC_NS); // keep frame ends off the 40 ns grid
        h.open(0xE302);
        h.set_mac(ks_mac);
        const uint8_t dst[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        const auto frame = ks_make_frame(dst, 1514);
        h.fid = 5;
        h.tx(frame, true);
        const uint64_t t_metfe = ps(sc_core::sc_time_stamp() - h.gap); // METFE frame end
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 6144 - 1520); // frame still in memory / on the wire
        wait(sc_time(200, SC_US));
        ASSERT_EQ(b.wire.peer_received().size(), 1u);
        const auto& f = b.wire.peer_received()[0];
        auto expect = frame;
        eth::append_fcs(expect);
        EXPECT_EQ(f.bytes, expect);
        // enqueue: edge + 2 cycles; MAC start: +16 cycles; wire: (8 + 1518) * 80 ns.
        const uint64_t t_start = edge_ps(t_metfe) + 2 * 40000 + 16 * 40000;
        EXPECT_EQ(ps(f.t_start), t_start);
        EXPECT_EQ(ps(f.t_end), t_start + 1526ull * 80000);
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 6144);
        EXPECT_TRUE(h.rd16(ks::reg::ISR) & ks::IRQ_TXI);
        EXPECT_FALSE(b.line.level());                // TXI enabled in IER -> INTRN low
        EXPECT_EQ(h.rd16(ks::reg::TXSR) & 0x3F, 5u); // FID of the completed frame
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

// Two frames in one TXQ write (header, padded data, header, data): the burst is split at each
// frame's end and header as byte by byte, and both leave in order.
TEST(Ks8851Spi, TwoFramesInOneTxqBurst) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        const uint8_t dst[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        const auto f1 = ks_make_frame(dst, 1001), f2 = ks_make_frame(dst, 64);
        std::vector<uint8_t> burst = {0xC0};
        for (const auto* f : {&f1, &f2}) {
            const unsigned len = unsigned(f->size());
            burst.insert(burst.end(), {0x01, 0x00, uint8_t(len), uint8_t(len >> 8)});
            burst.insert(burst.end(), f->begin(), f->end());
            burst.resize(burst.size() + (align4(len) - len), 0x5A);
        }
        h.wr16(ks::reg::RXQCR, uint16_t(h.rc_rxqcr | ks::RXQCR_SDA));
        h.frame({burst}, {nullptr}, {burst.size()});
        h.wr16(ks::reg::RXQCR, h.rc_rxqcr);
        h.wr16(ks::reg::TXQCR, ks::TXQCR_METFE);
        wait(sc_time(200, SC_US));
        ASSERT_EQ(b.wire.peer_received().size(), 2u);
        auto e1 = f1, e2 = f2;
        eth::append_fcs(e1);
        eth::append_fcs(e2);
        EXPECT_EQ(b.wire.peer_received()[0].bytes, e1);
        EXPECT_EQ(b.wire.peer_received()[1].bytes, e2);
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 6144);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

// A short frame is padded to 60 bytes + CRC by TXPE/TXCRC.
TEST(Ks8851Spi, TxShortFramePadded) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        const uint8_t dst[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        const auto frame = ks_make_frame(dst, 42);
        h.tx(frame, false);
        wait(sc_time(20, SC_US));
        ASSERT_EQ(b.wire.peer_received().size(), 1u);
        auto expect = frame;
        expect.resize(60, 0);
        eth::append_fcs(expect);
        EXPECT_EQ(b.wire.peer_received()[0].bytes, expect);
        EXPECT_FALSE(h.rd16(ks::reg::ISR) & ks::IRQ_TXI); // no TXIC -> no TXI
    });
}

// A frame from the wire is read back exactly as the driver reads it: RXFCTR count, header
// registers, 4 dummy bytes + status + byte count + data; RRXEF releases it.
TEST(Ks8851Spi, RxFrameFromWireByteExact) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        h.set_mac(ks_mac);
        const auto frame = ks_make_frame(ks_mac, 101);
        b.wire.peer_send(frame);
        wait(sc_time(2, sc_core::SC_MS)); // duration timer (1 ms) fires
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(h.rd16(ks::reg::ISR) & ks::IRQ_RXI, ks::IRQ_RXI);
        EXPECT_EQ(h.rd16(ks::reg::RXFHSR), 0x8028); // RXFV | RXUF | RXFT
        EXPECT_EQ(h.rd16(ks::reg::RXFHBCR), 105);
        const auto rx = h.rx_all();
        ASSERT_EQ(rx.size(), 1u);
        EXPECT_EQ(rx[0].raw.size(), 8u + 104u);
        EXPECT_EQ(std::vector<uint8_t>(rx[0].raw.begin(), rx[0].raw.begin() + 8),
                  (std::vector<uint8_t>{0, 0, 0, 0, 0x28, 0x80, 105, 0}));
        EXPECT_EQ(rx[0].frame, frame);
        // The 3 bytes after the frame are the start of its CRC.
        auto with_fcs = frame;
        eth::append_fcs(with_fcs);
        EXPECT_EQ(std::vector<uint8_t>(rx[0].raw.begin() + 8, rx[0].raw.end()),
                  std::vector<uint8_t>(with_fcs.begin(), with_fcs.begin() + 104));
        EXPECT_EQ(h.rd16(ks::reg::RXFCTR) >> 8, 0);
        EXPECT_EQ(b.core().rxq_used(), 0u);
        EXPECT_EQ(b.core().stats().rx_released, 1u);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

// With nobody reading, the 12 KB RXQ takes 8 full-size frames (ALIGN(4 + 1518, 4) = 1524 B each);
// the 9th and 10th overrun: counter, ISR.RXOI, frame count stays at 8.
TEST(Ks8851Spi, RxOverrunWhenFull) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302 | ks::IRQ_RXOI);
        h.set_mac(ks_mac);
        h.wr16(ks::reg::RXFCTR, 100); // keep the frame-count threshold out of the way
        for (int i = 0; i < 10; ++i)
            b.wire.peer_send(ks_make_frame(ks_mac, 1514, uint8_t(i)));
        wait(sc_time(1500, SC_US));
        EXPECT_EQ(h.rd16(ks::reg::RXFCTR) >> 8, 8);
        EXPECT_EQ(b.core().stats().rx_overruns, 2u);
        EXPECT_EQ(b.core().rxq_used(), 8u * 1524u);
        EXPECT_TRUE(h.rd16(ks::reg::ISR) & ks::IRQ_RXOI);
        // Draining frees the memory: all 8 come out intact and in order.
        const auto rx = h.rx_all();
        ASSERT_EQ(rx.size(), 8u);
        for (int i = 0; i < 8; ++i)
            EXPECT_EQ(rx[size_t(i)].frame, ks_make_frame(ks_mac, 1514, uint8_t(i)));
        EXPECT_EQ(b.core().rxq_used(), 0u);
    });
}

// Unicast to the own MAC, broadcast (RXBE), multicast via the hash table, all-multicast and
// promiscuous, set the way the driver's set_rx_mode does.
TEST(Ks8851Spi, AddressFiltering) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.rc_rxqcr = 0; // interrupt per frame: no timer needed
        h.open(0xE302);
        h.set_mac(ks_mac);
        const uint8_t other[6] = {0x02, 0x99, 0x99, 0x99, 0x99, 0x99};
        const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        const uint8_t mc_in[6] = {0x01, 0x00, 0x5E, 0x00, 0x00, 0x01};
        const uint8_t mc_out[6] = {0x33, 0x33, 0x00, 0x00, 0x00, 0x01};
        ASSERT_NE(hash_index(mc_in), hash_index(mc_out));
        const unsigned hi = hash_index(mc_in);
        auto deliver = [&](const uint8_t* da) {
            b.wire.peer_send(ks_make_frame(da, 80));
            wait(sc_time(20, SC_US));
            const auto rx = h.rx_all();
            return rx.empty() ? uint16_t(0) : rx[0].status;
        };
        // Default mode (RXPAFMA | RXFCE | RXBE | RXUE | RXE).
        EXPECT_EQ(deliver(ks_mac), 0x8028);
        EXPECT_EQ(deliver(other), 0);
        EXPECT_EQ(deliver(bcast), 0x8088); // RXFV | RXBF | RXFT
        EXPECT_EQ(deliver(mc_in), 0);
        // Broadcast disabled.
        h.wr16(ks::reg::RXCR1, 0x0C21);
        EXPECT_EQ(deliver(bcast), 0);
        // Multicast hash (RXME | RXPAFMA + UE/BE/E/FCE), one bit for mc_in.
        h.wr16(uint16_t(ks::reg::MAHTR0 + 2 * (hi >> 4)), uint16_t(1u << (hi & 15)));
        h.wr16(ks::reg::RXCR1, 0x0CE1);
        EXPECT_EQ(deliver(mc_in), 0x8048); // RXFV | RXMF | RXFT
        EXPECT_EQ(deliver(mc_out), 0);
        EXPECT_EQ(deliver(other), 0);
        // All multicast (RXME | RXAE | RXPAFMA | RXMAFMA + ...): other unicast still rejected.
        h.wr16(ks::reg::RXCR1, 0x0DF1);
        EXPECT_EQ(deliver(mc_out), 0x8048);
        EXPECT_EQ(deliver(other), 0);
        // Promiscuous (RXAE | RXINVF + ...).
        h.wr16(ks::reg::RXCR1, 0x04B3);
        EXPECT_EQ(deliver(other), 0x8028);
        EXPECT_EQ(deliver(mc_out), 0x8048);
        EXPECT_EQ(b.core().stats().rx_filtered, 6u);
    });
}

// INTRN is low exactly while ISR & IER != 0; writing the ISR bits back (W1C) releases it; an
// ISR bit not enabled in IER leaves it high.
TEST(Ks8851Spi, IrqLevelFollowsIsrAndIer) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.rc_rxqcr = 0;
        h.open(ks::IRQ_RXI);
        h.set_mac(ks_mac);
        EXPECT_TRUE(b.line.level());
        b.wire.peer_send(ks_make_frame(ks_mac, 60));
        wait(sc_time(20, SC_US));
        EXPECT_FALSE(b.line.level());
        const uint16_t isr = h.rd16(ks::reg::ISR);
        EXPECT_EQ(isr, ks::IRQ_RXI);
        h.wr16(ks::reg::ISR, isr);
        EXPECT_TRUE(b.line.level());
        EXPECT_EQ(h.rd16(ks::reg::ISR), 0);
        // RXPSI is raised by RXE 1->0 but masked: line stays high; unmasking asserts it.
        h.wr16(ks::reg::RXCR1, 0);
        EXPECT_EQ(h.rd16(ks::reg::ISR), ks::IRQ_RXPSI);
        EXPECT_TRUE(b.line.level());
        h.wr16(ks::reg::IER, ks::IRQ_RXI | ks::IRQ_RXPSI);
        EXPECT_FALSE(b.line.level());
        h.wr16(ks::reg::ISR, 0xFFFF);
        EXPECT_TRUE(b.line.level());
        EXPECT_EQ(b.line.negedges(), 2u);
        // TXE 1->0 raises TXPSI.
        h.wr16(ks::reg::TXCR, 0);
        EXPECT_EQ(h.rd16(ks::reg::ISR), ks::IRQ_TXPSI);
    });
}

// With the driver's thresholds (10 frames, 4096 bytes, RXDTTR 1000), a single frame raises RXI
// when the duration timer expires: 1000 x 25 cycles of 40 ns after the frame was committed
// (last FCS bit + clock edge + 8 cycles); not one clock before.
TEST(Ks8851Spi, DurationTimerFiresAfterRxdttr) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(ks::IRQ_RXI);
        h.set_mac(ks_mac);
        const sc_time t0 = sc_core::sc_time_stamp() + sc_time(3333, SC_NS);
        b.wire.peer_send(ks_make_frame(ks_mac, 200), t0);
        // Wire: (8 + 204) * 80 ns = 16.96 us.
        const uint64_t t_end = ps(t0) + 212ull * 80000;
        const uint64_t t_commit = edge_ps(t_end) + 8 * 40000;
        const uint64_t t_fire = t_commit + 1000ull * 25 * 40000;
        wait(sc_time(double(t_fire - ps(sc_core::sc_time_stamp()) - 40000), sc_core::SC_PS));
        EXPECT_TRUE(b.line.level()) << "RXI before the duration timer expired";
        EXPECT_EQ(b.core().rxq_frames(), 1u);
        wait(sc_time(41, SC_NS)); // past the edge: no same-time ordering question
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(ps(b.line.last_change()), t_fire);
        EXPECT_TRUE(h.rd16(ks::reg::RXQCR) & ks::RXQCR_RXDTTS);
        h.wr16(ks::reg::ISR, ks::IRQ_RXI);
        EXPECT_FALSE(h.rd16(ks::reg::RXQCR) & ks::RXQCR_RXDTTS);
    });
}

// The frame-count threshold (RXFCTR low byte) raises RXI on the Nth frame, not before; the
// byte-count threshold (RXDBCTR) on the frame that crosses it.
TEST(Ks8851Spi, FrameAndByteCountThresholds) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.rc_rxqcr = ks::RXQCR_RXFCTE;
        h.open(ks::IRQ_RXI);
        h.set_mac(ks_mac);
        h.wr16(ks::reg::RXFCTR, 3);
        for (int i = 0; i < 2; ++i)
            b.wire.peer_send(ks_make_frame(ks_mac, 100));
        wait(sc_time(50, SC_US));
        EXPECT_TRUE(b.line.level());
        b.wire.peer_send(ks_make_frame(ks_mac, 100));
        wait(sc_time(20, SC_US));
        EXPECT_FALSE(b.line.level());
        EXPECT_TRUE(h.rd16(ks::reg::RXQCR) & ks::RXQCR_RXFCTS);
        EXPECT_EQ(h.rx_all().size(), 3u);
        h.wr16(ks::reg::ISR, 0xFFFF);
        // Byte count: 3 x 1518 = 4554 >= 4096 on the third frame.
        h.rc_rxqcr = ks::RXQCR_RXDBCTE;
        h.wr16(ks::reg::RXQCR, h.rc_rxqcr);
        h.wr16(ks::reg::RXDBCTR, 4096);
        for (int i = 0; i < 2; ++i)
            b.wire.peer_send(ks_make_frame(ks_mac, 1514));
        wait(sc_time(300, SC_US));
        EXPECT_TRUE(b.line.level());
        b.wire.peer_send(ks_make_frame(ks_mac, 1514));
        wait(sc_time(150, SC_US));
        EXPECT_FALSE(b.line.level());
        EXPECT_TRUE(h.rd16(ks::reg::RXQCR) & ks::RXQCR_RXDBCTS);
    });
}

// The driver's rx-mode handshake: RXCR1 = 0 raises RXPSI (enabled in IER) so the IRQ thread can
// reprogram the filter.
TEST(Ks8851Spi, RxpsiHandshake) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        EXPECT_TRUE(b.line.level());
        h.wr16(ks::reg::RXCR1, 0);
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(h.rd16(ks::reg::ISR), ks::IRQ_RXPSI);
        h.wr16(ks::reg::ISR, ks::IRQ_RXPSI);
        h.wr16(ks::reg::RXCR1, 0x0CA1);
        EXPECT_TRUE(b.line.level());
        // Writing 0 again while already 0 raises nothing.
        h.wr16(ks::reg::RXCR1, 0);
        h.wr16(ks::reg::ISR, 0xFFFF);
        h.wr16(ks::reg::RXCR1, 0);
        EXPECT_EQ(h.rd16(ks::reg::ISR), 0);
    });
}

// Link state of the wire shows in P1MBSR (latching low, as MII BMSR), P1SR and ISR.LCI; a link
// drop makes the first P1MBSR read report down even after the link returned.
TEST(Ks8851Spi, PhyLinkStatusFollowsWire) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        EXPECT_EQ(h.rd16(ks::reg::P1MBSR), 0x782D);
        EXPECT_EQ(h.rd16(ks::reg::PHY1ILR), 0x1430);
        EXPECT_EQ(h.rd16(ks::reg::PHY1IHR), 0x0022);
        EXPECT_TRUE(h.rd16(ks::reg::P1SR) & (1u << 5));
        b.wire.set_link(false);
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(h.rd16(ks::reg::ISR), ks::IRQ_LCI);
        h.wr16(ks::reg::ISR, ks::IRQ_LCI);
        EXPECT_EQ(h.rd16(ks::reg::P1MBSR), 0x7809);
        EXPECT_EQ(h.rd16(ks::reg::P1SR), 0);
        b.wire.set_link(true);
        EXPECT_EQ(h.rd16(ks::reg::P1MBSR), 0x782D);
        b.wire.set_link(false);
        b.wire.set_link(true);
        EXPECT_EQ(h.rd16(ks::reg::P1MBSR), 0x7809); // latched low
        EXPECT_EQ(h.rd16(ks::reg::P1MBSR), 0x782D);
    });
}

// TX memory: TXMIR drops by ALIGN(len + 4, 4) per written frame; a frame that does not fit is
// refused (finding) and the others still go out.
TEST(Ks8851Spi, TxMemoryAccounting) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        h.wr16(ks::reg::TXCR, 0); // hold frames in the TXQ
        const uint8_t dst[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        for (int i = 0; i < 4; ++i)
            h.tx(ks_make_frame(dst, 1514, uint8_t(i)), false);
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 6144 - 4 * 1520);
        h.tx(ks_make_frame(dst, 101), false); // ALIGN(105, 4) = 108 > 64 left
        EXPECT_EQ(b.core().findings().count(ks::finding_kind::txq_overflow), 1u);
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 64);
        h.tx(ks_make_frame(dst, 60), false); // 64 bytes: fits exactly
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 0);
        h.wr16(ks::reg::TXCR, 0x000F);
        wait(sc_time(600, SC_US));
        ASSERT_EQ(b.wire.peer_received().size(), 5u);
        EXPECT_EQ(b.wire.peer_received()[3].payload(), ks_make_frame(dst, 1514, 3));
        EXPECT_EQ(b.wire.peer_received()[4].payload(), ks_make_frame(dst, 60));
        EXPECT_EQ(h.rd16(ks::reg::TXMIR), 6144);
    });
}

// SPDX-License-Identifier: MIT
// ENC28J60 MAC on the 10 Mb/s wire: one TX frame with padding, CRC, wire time and status
// vector; RX into the ring (header, next pointer, status vector), wrap across ERXND,
// EPKTCNT/PKTDEC, RX overflow, receive filter, INT pin gating and the link-change interrupt.
#include <gtest/gtest.h>

#include "tests/models/enc28j60_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

struct rx_packet {
    uint16_t next = 0;
    uint16_t len = 0; // incl. CRC
    uint16_t status = 0;
    std::vector<uint8_t> data; // len bytes
};

// enc28j60_hw_rx for a ring rxs..rxe: read the 6-byte header at `ptr`, the data after it
// (the read wraps in the chip), free the packet (ERXRDPT odd workaround) and PKTDEC.
rx_packet rx_one(enc_host& h, uint16_t& ptr, uint16_t rxs = rx_start, uint16_t rxe = rx_end) {
    rx_packet p;
    const auto hdr = h.mem_read(ptr, 6);
    p.next = uint16_t(hdr[0] | hdr[1] << 8);
    p.len = uint16_t(hdr[2] | hdr[3] << 8);
    p.status = uint16_t(hdr[4] | hdr[5] << 8);
    const uint16_t data_at = (ptr + 6 > rxe) ? uint16_t(ptr + 6 - (rxe - rxs + 1)) : ptr + 6;
    p.data = h.mem_read(data_at, p.len);
    const uint16_t rdpt = (p.next - 1 < rxs || p.next - 1 > rxe) ? rxe : uint16_t(p.next - 1);
    h.wrw(r::ERXRDPTL, rdpt);
    ptr = p.next;
    h.bfs(r::ECON2, 0x40);
    return p;
}

} // namespace

TEST(Enc28j60Ethernet, TxOneFrameOntoTheWireWithStatusVector) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init();
        static const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        const auto f = enc_make_frame(peer, 100);
        h.transmit(f);
        const sc_time t_rts = sc_core::sc_time_stamp();
        ASSERT_TRUE(b.wait_int());
        // 1 us MAC start + (8 preamble/SFD + 104) bytes at 10 Mb/s = 89.6 us, then TXIF.
        const double us = (sc_core::sc_time_stamp() - t_rts).to_seconds() * 1e6;
        EXPECT_NEAR(us, 1.0 + 89.6, 0.5);
        ASSERT_EQ(b.wire.peer_received().size(), 1u);
        const auto& got = b.wire.peer_received()[0].bytes;
        EXPECT_EQ(got.size(), 104u);
        EXPECT_TRUE(eth::fcs_ok(got));
        EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end() - 4), f);
        // The driver's IRQ work: INTIE off, EIR, ESTAT, TSV, TXRTS off, TXIF off, INTIE on.
        h.bfc(r::EIE, 0x80);
        EXPECT_TRUE(b.line.level());
        EXPECT_EQ(h.rd(r::EIR), 0x08);
        EXPECT_EQ(h.rd(r::ESTAT) & 0x02, 0); // no TXABRT
        EXPECT_EQ(h.rd(r::ECON1) & 0x08, 0); // TXRTS cleared by the MAC
        const uint16_t end = h.rdw(r::ETXNDL);
        EXPECT_EQ(end, tx_start + 100);
        const auto tsv = h.mem_read(uint16_t(end + 1), 7);
        EXPECT_EQ(tsv[0] | tsv[1] << 8, 104); // byte count
        EXPECT_EQ(tsv[2] & 0x80, 0x80);       // done
        EXPECT_EQ(tsv[3], 0x00);              // unicast, not giant
        EXPECT_EQ(tsv[4] | tsv[5] << 8, 104);
        h.bfc(r::EIR, 0x08);
        h.bfs(r::EIE, 0x80);
        EXPECT_TRUE(b.line.level());
        // A short frame is padded to 60 and gets the CRC (MACON3.PADCFG = 001, TXCRCEN).
        h.transmit(enc_make_frame(peer, 42));
        ASSERT_TRUE(b.wait_int());
        ASSERT_EQ(b.wire.peer_received().size(), 2u);
        EXPECT_EQ(b.wire.peer_received()[1].bytes.size(), 64u);
        EXPECT_TRUE(eth::fcs_ok(b.wire.peer_received()[1].bytes));
        EXPECT_EQ(b.core().stats().tx_frames, 2u);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Enc28j60Ethernet, RxFrameIntoTheRingWithHeaderAndStatus) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init();
        const auto f = enc_make_frame(enc_mac, 101); // odd: the next packet pointer is padded
        b.wire.peer_send(f);
        ASSERT_TRUE(b.wait_int());
        h.bfc(r::EIE, 0x80);
        EXPECT_EQ(h.rd(r::EIR) & 0x40, 0x40); // PKTIF
        EXPECT_EQ(h.rd(r::EPKTCNT), 1);
        uint16_t ptr = rx_start;
        const auto p = rx_one(h, ptr);
        EXPECT_EQ(p.len, 105);                // incl. CRC
        EXPECT_EQ(p.next, 6 + 105 + 1);       // even
        EXPECT_EQ(p.status & 0x0080, 0x0080); // RX OK
        EXPECT_EQ(p.status & 0x0310, 0);      // no CRC error, not multi/broadcast
        EXPECT_EQ(std::vector<uint8_t>(p.data.begin(), p.data.end() - 4), f);
        EXPECT_EQ(h.rdw(r::ERXWRPTL), p.next);
        EXPECT_EQ(h.rd(r::EPKTCNT), 0);
        EXPECT_EQ(h.rd(r::EIR) & 0x40, 0);
        h.bfs(r::EIE, 0x80);
        EXPECT_TRUE(b.line.level());
        EXPECT_EQ(b.core().rx_read_pointer(), p.next - 1);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Enc28j60Ethernet, RxWrapsAcrossTheRingEnd) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        const uint16_t rxs = 0x1000, rxe = 0x10FF; // 256-byte ring
        h.init(rxs, rxe);
        uint16_t ptr = rxs;
        for (int i = 0; i < 4; ++i) { // 4 x 110 bytes: the third and fourth cross ERXND
            const auto f = enc_make_frame(enc_mac, 100, uint8_t(i));
            b.wire.peer_send(f);
            ASSERT_TRUE(b.wait_int());
            const auto p = rx_one(h, ptr, rxs, rxe);
            ASSERT_EQ(p.len, 104);
            EXPECT_EQ(std::vector<uint8_t>(p.data.begin(), p.data.end() - 4), f) << i;
            EXPECT_GE(p.next, rxs);
            EXPECT_LE(p.next, rxe);
        }
        EXPECT_EQ(ptr, rxs + (4 * 110) % 256);
        EXPECT_EQ(b.core().stats().rx_frames, 4u);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Enc28j60Ethernet, PacketCountAndPktdec) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init();
        for (int i = 0; i < 3; ++i)
            b.wire.peer_send(enc_make_frame(enc_mac, 60, uint8_t(i)));
        sc_core::wait(sc_time(300, SC_US)); // 3 x 67.2 us + gaps
        EXPECT_EQ(h.rd(r::EPKTCNT), 3);
        EXPECT_FALSE(b.line.level());
        uint16_t ptr = rx_start;
        for (int i = 3; i > 0; --i) {
            EXPECT_EQ(h.rd(r::EPKTCNT), i);
            rx_one(h, ptr);
        }
        EXPECT_EQ(h.rd(r::EPKTCNT), 0);
        EXPECT_TRUE(b.line.level()); // PKTIF follows EPKTCNT
        EXPECT_EQ(b.core().stats().pktdec, 3u);
        h.bfs(r::ECON2, 0x40);
        EXPECT_EQ(b.core().findings().count(enc::finding_kind::pktdec_empty), 1u);
    });
}

TEST(Enc28j60Ethernet, RxOverflowSetsRxerifAndBufer) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init(0x0000, 0x00FF);     // 256-byte ring
        h.wr(r::EIE, 0x80 | 0x01);  // RXERIE only
        for (int i = 0; i < 4; ++i) // 110 bytes each: two fit (free 254 -> 34)
            b.wire.peer_send(enc_make_frame(enc_mac, 100, uint8_t(i)));
        ASSERT_TRUE(b.wait_int(sc_time(1, sc_core::SC_MS)));
        sc_core::wait(sc_time(400, SC_US));
        EXPECT_EQ(h.rd(r::EPKTCNT), 2);
        EXPECT_EQ(h.rd(r::EIR) & 0x01, 0x01);
        EXPECT_EQ(h.rd(r::ESTAT) & 0x40, 0x40);
        EXPECT_EQ(b.core().stats().rx_overruns, 2u);
        EXPECT_EQ(b.core().rx_free(), 254u - 220u);
        h.bfc(r::EIR, 0x01);
        EXPECT_TRUE(b.line.level());
    });
}

TEST(Enc28j60Ethernet, ReceiveFilter) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init();
        static const uint8_t other[6] = {0x02, 0x99, 0x99, 0x99, 0x99, 0x99};
        static const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
        static const uint8_t mcast[6] = {0x01, 0x00, 0x5E, 0x00, 0x00, 0x01};
        auto send = [&](const uint8_t* da) {
            b.wire.peer_send(enc_make_frame(da, 60));
            sc_core::wait(sc_time(100, SC_US));
        };
        send(other); // UCEN|CRCEN|BCEN: dropped
        send(bcast); // accepted
        send(mcast); // dropped without MCEN
        EXPECT_EQ(h.rd(r::EPKTCNT), 1);
        h.wr(r::ERXFCON, 0x80 | 0x20 | 0x01 | 0x02); // + MCEN (the driver's multicast mode)
        send(mcast);
        EXPECT_EQ(h.rd(r::EPKTCNT), 2);
        // Bad CRC: dropped with CRCEN, kept with the CRC-error status in promiscuous mode.
        auto bad = enc_make_frame(enc_mac, 60);
        eth::append_fcs(bad);
        bad.back() ^= 0xFF;
        b.wire.peer_send_raw(bad, sc_core::sc_time_stamp());
        sc_core::wait(sc_time(100, SC_US));
        EXPECT_EQ(h.rd(r::EPKTCNT), 2);
        h.wr(r::ERXFCON, 0x00); // the driver's promiscuous mode
        b.wire.peer_send_raw(bad, sc_core::sc_time_stamp());
        send(other); // serialised after the bad frame: both in after 2 x 67.2 us + IFG
        sc_core::wait(sc_time(100, SC_US));
        EXPECT_EQ(h.rd(r::EPKTCNT), 4);
        uint16_t ptr = rx_start;
        const auto p1 = rx_one(h, ptr);
        EXPECT_EQ(p1.status & 0x0200, 0x0200); // broadcast
        const auto p2 = rx_one(h, ptr);
        EXPECT_EQ(p2.status & 0x0100, 0x0100); // multicast
        const auto p3 = rx_one(h, ptr);
        EXPECT_EQ(p3.status & 0x0090, 0x0010); // CRC error, not RX OK
        EXPECT_EQ(b.core().stats().rx_filtered, 3u);
    });
}

TEST(Enc28j60Ethernet, IntPinGatedByIntieWithNewEdgeOnReenable) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init();
        h.wr(r::EIE, 0x40); // PKTIE without INTIE
        b.wire.peer_send(enc_make_frame(enc_mac, 60));
        sc_core::wait(sc_time(100, SC_US));
        EXPECT_EQ(h.rd(r::EPKTCNT), 1);
        EXPECT_TRUE(b.line.level());
        EXPECT_EQ(h.rd(r::ESTAT) & 0x80, 0x80); // ESTAT.INT: a pending enabled flag
        h.bfs(r::EIE, 0x80);
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(b.line.negedges(), 1u);
        // The driver's handler masks INTIE, works, and unmasks; a flag still pending gives a
        // new falling edge (the driver's IRQ is edge-triggered).
        h.bfc(r::EIE, 0x80);
        EXPECT_TRUE(b.line.level());
        h.bfs(r::EIE, 0x80);
        EXPECT_FALSE(b.line.level());
        EXPECT_EQ(b.line.negedges(), 2u);
        EXPECT_EQ(b.core().stats().irq_assertions, 2u);
    });
}

TEST(Enc28j60Ethernet, LinkChangeInterruptAndLatchingLinkStatus) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.init(); // PHIE = PGEIE | PLNKIE, EIE.LINKIE
        EXPECT_TRUE(b.line.level());
        b.wire.set_link(false);
        ASSERT_TRUE(b.wait_int(sc_time(10, SC_US)));
        h.bfc(r::EIE, 0x80);
        EXPECT_EQ(h.rd(r::EIR) & 0x10, 0x10);
        EXPECT_EQ(h.phy_read(0x11) & 0x0400, 0); // PHSTAT2.LSTAT
        h.phy_read(0x13);                        // reading PHIR clears the flag
        EXPECT_EQ(h.rd(r::EIR) & 0x10, 0);
        h.bfs(r::EIE, 0x80);
        EXPECT_TRUE(b.line.level());
        b.wire.set_link(true);
        ASSERT_TRUE(b.wait_int(sc_time(10, SC_US)));
        EXPECT_EQ(h.phy_read(0x11) & 0x0400, 0x0400);
        EXPECT_EQ(h.phy_read(0x01) & 0x0004, 0);      // PHSTAT1.LLSTAT latched low
        EXPECT_EQ(h.phy_read(0x01) & 0x0004, 0x0004); // re-armed by the read
        h.phy_read(0x13);
        EXPECT_TRUE(b.line.level());
    });
}

TEST(Enc28j60Ethernet, DuplexMismatchAndWireRateAreFindings) {
    eth::eth_wire_params wp;
    wp.rate_bps = 100e6;
    enc_bench::start(
        {},
        [](enc_bench& b) {
            auto& h = b.host;
            EXPECT_EQ(b.core().findings().count(enc::finding_kind::wire_rate), 1u);
            h.init();
            h.wr(r::MACON3, 0x20 | 0x10 | 0x02 | 0x01); // MAC full duplex, PHY half
            static const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
            h.transmit(enc_make_frame(peer, 60));
            ASSERT_TRUE(b.wait_int());
            EXPECT_EQ(b.core().findings().count(enc::finding_kind::duplex_mismatch), 1u);
        },
        wp);
}

TEST(Enc28j60Ethernet, FullDuplexInitHasNoFindings) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        h.full_duplex = true;
        h.init();
        static const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        h.transmit(enc_make_frame(peer, 60));
        ASSERT_TRUE(b.wait_int());
        b.wire.peer_send(enc_make_frame(enc_mac, 60));
        sc_core::wait(sc_time(100, SC_US));
        EXPECT_EQ(h.rd(r::EPKTCNT), 1);
        EXPECT_EQ(h.phy_read(0x11) & 0x0200, 0x0200); // DPXSTAT
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

// The driver's whole life cycle in its own order: probe (hw_init, MAC, low power), open (wake,
// disable, hw_init, MAC, enable, link check), traffic through its IRQ work loop (INTIE masked,
// EIR, TX done with ESTAT/TSV, RX by EPKTCNT with the odd ERXRDPT and PKTDEC, INTIE unmasked),
// close. The model must see nothing to report.
TEST(Enc28j60Ethernet, DriverLifeCycleHasNoFindings) {
    enc_bench::start({}, [](enc_bench& b) {
        auto& h = b.host;
        ASSERT_TRUE(h.hw_init());
        h.set_mac(enc_mac);
        h.lowpower(true);
        sc_core::wait(sc_time(5, sc_core::SC_MS)); // register_netdev .. ifup
        h.lowpower(false);
        h.hw_disable();
        ASSERT_TRUE(h.hw_init());
        h.set_mac(enc_mac);
        h.hw_enable();
        EXPECT_EQ(h.phy_read(0x11) & 0x0400, 0x0400); // carrier on
        static const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        uint16_t next = rx_start;
        unsigned tx_done = 0, rx_done = 0;
        auto irq_work = [&] {
            h.bfc(r::EIE, 0x80);
            for (;;) {
                unsigned loop = 0;
                const uint8_t eir = h.rd(r::EIR);
                if (eir & 0x10) {
                    ++loop;
                    h.phy_read(0x11);
                    h.phy_read(0x13);
                }
                if ((eir & 0x08) && !(eir & 0x02)) {
                    ++loop;
                    EXPECT_EQ(h.rd(r::ESTAT) & 0x02, 0);
                    const uint16_t end = h.rdw(r::ETXNDL);
                    const auto tsv = h.mem_read(uint16_t(end + 1), 7);
                    EXPECT_EQ(tsv[2] & 0x80, 0x80);
                    h.bfc(r::ECON1, 0x08);
                    h.bfc(r::EIR, 0x08);
                    ++tx_done;
                }
                if (eir & 0x01) {
                    ++loop;
                    h.bfc(r::EIR, 0x01);
                }
                unsigned n = h.rd(r::EPKTCNT);
                if (n)
                    ++loop;
                for (; n; --n) {
                    const auto p = rx_one(h, next);
                    EXPECT_EQ(p.status & 0x0080, 0x0080);
                    ++rx_done;
                }
                if (!loop)
                    break;
            }
            h.bfs(r::EIE, 0x80);
        };
        for (int i = 0; i < 20; ++i) {
            h.transmit(enc_make_frame(peer, 60 + 70 * i, uint8_t(i)));
            b.wire.peer_send(enc_make_frame(enc_mac, 1514 - 70 * i, uint8_t(i)));
            while (tx_done <= unsigned(i) || rx_done <= unsigned(i)) {
                ASSERT_TRUE(b.wait_int(sc_time(5, sc_core::SC_MS))) << i;
                irq_work();
            }
        }
        EXPECT_EQ(b.wire.peer_received().size(), 20u);
        EXPECT_EQ(b.core().stats().rx_frames, 20u);
        EXPECT_EQ(b.core().stats().rx_overruns, 0u);
        h.hw_disable();
        h.lowpower(true);
        EXPECT_TRUE(b.core().findings().list().empty())
            << enc::to_string(b.core().findings().list().front().kind) << ": "
            << b.core().findings().list().front().text;
    });
}

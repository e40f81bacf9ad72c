// SPDX-License-Identifier: MIT
// WILC1000 firmware functional model: boot -> 'I' + falling IRQ edge, config frames, TX VMM
// handshake to the air peer, RX from the air with the header the driver parses, fault knobs.
#include <algorithm>

#include <gtest/gtest.h>

#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/models/wilc1000_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {
std::vector<uint8_t> eth_frame(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (auto& x : v) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        x = uint8_t(seed);
    }
    return v;
}
} // namespace

TEST(Wilc1000Fw, BootSendsStatusInfoWithFallingIrqEdge) {
    wilc::params p;
    p.boot_delay = sc_time(3, SC_MS);
    p.irq_delay = sc_time(2, SC_US);
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        ASSERT_TRUE(b.download_and_start());
        const sc_time t_start = b.cmd_time(2); // GLB_RESET_0 bit 10 written (SINGLE_WRITE)
        EXPECT_TRUE(b.core().cpu_running());
        EXPECT_EQ(b.line.negedges(), 0u);
        ASSERT_TRUE(b.wait_irq(sc_time(1, sc_core::SC_SEC)));
        EXPECT_EQ(b.line.negedges(), 1u);
        EXPECT_TRUE(
            wilc_bench::near(b.line.last_change(), t_start + sc_time(3, SC_MS) + sc_time(2, SC_US)))
            << b.line.last_change();
        const auto pk = b.isr();
        ASSERT_EQ(pk.size(), 1u);
        EXPECT_TRUE(pk[0].cfg);
        EXPECT_GE(pk[0].offset, 16u);
        const std::vector<uint8_t> want = {'I', 0, 12, 0, 0x05, 0x00, 1, 0, 0, 0, 0, 0};
        EXPECT_EQ(pk[0].payload, want);
        EXPECT_TRUE(b.line.level()); // released by CLR_INT0
        EXPECT_TRUE(b.core().firmware_ready());
        // The VMM port select/enable bits read back after the 0x181 write (checked in isr),
        // and INT_STATUS is empty afterwards.
        uint32_t st = 1;
        ASSERT_TRUE(b.host.read(0x40, st, true));
        EXPECT_EQ(st, 0u);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fw, QueryMacAddressAndFirmwareVersion) {
    wilc::params p;
    p.mac_addr = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot());
        // 'Q' with two WIDs: MAC_ADDR (0x300c) and FIRMWARE_VERSION (0x3001).
        auto q = wilc_bench::cfg_frame('Q', 7, {0x0c, 0x30, 0x01, 0x30});
        ASSERT_EQ(b.send_tx({{true, q}}), 1);
        ASSERT_TRUE(b.wait_irq(sc_time(100, SC_MS)));
        auto pk = b.isr();
        ASSERT_EQ(pk.size(), 1u);
        const auto& r = pk[0].payload;
        ASSERT_TRUE(pk[0].cfg);
        EXPECT_EQ(r[0], 'R');
        EXPECT_EQ(r[1], 7); // same sequence number
        ASSERT_GE(r.size(), 14u);
        EXPECT_EQ(r[4], 0x0c);
        EXPECT_EQ(r[5], 0x30);
        EXPECT_EQ(r[6], 6);
        EXPECT_EQ(std::vector<uint8_t>(r.begin() + 8, r.begin() + 14),
                  std::vector<uint8_t>({0x02, 0x11, 0x22, 0x33, 0x44, 0x55}));
        const std::string ver = b.core().config().firmware_version;
        EXPECT_EQ(r[14] | r[15] << 8, 0x3001);
        EXPECT_EQ(size_t(r[16] | r[17] << 8), ver.size());
        EXPECT_EQ(std::string(r.begin() + 18, r.begin() + 18 + ver.size()), ver);
        EXPECT_EQ(b.core().stats().cfg_replies, 1u);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fw, SetPowerManagementAnsweredWithEmptyReply) {
    wilc_bench b({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot());
        // 'W' WID_POWER_MANAGEMENT (CHAR) = 1 plus an INT WID, as wilc_wlan_cfg_set frames it.
        auto w = wilc_bench::cfg_frame('W', 9, {0x0b, 0x00, 1, 0, 1, 0x79, 0x30, 4, 0, 4, 0, 0, 0});
        ASSERT_EQ(b.send_tx({{true, w}}), 1);
        ASSERT_TRUE(b.wait_irq(sc_time(100, SC_MS)));
        auto pk = b.isr();
        ASSERT_EQ(pk.size(), 1u);
        EXPECT_EQ(pk[0].payload, std::vector<uint8_t>({'R', 9, 4, 0}));
        EXPECT_EQ(b.core().fw_power_mode(), 1);
        EXPECT_EQ(b.core().wid_value(0x3079), std::vector<uint8_t>({4, 0, 0, 0}));
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fw, TxFrameReachesAirPeerByteExact) {
    air_link_params ap;
    ap.phy_rate_bps = 72.2e6;
    ap.mac_efficiency = 0.5;
    wilc_bench b(
        {},
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            const auto f1 = eth_frame(1514, 1), f2 = eth_frame(60, 2);
            const uint8_t bssid[6] = {1, 2, 3, 4, 5, 6};
            ASSERT_EQ(b.send_tx({{false, f1, 2}, {false, f2, 0}}, bssid), 2);
            // Both frames are in the chip: HOST_TX_CTRL shows BE = 1, VO = 1 (bit 0 clear).
            uint32_t reg = 0;
            ASSERT_TRUE(b.host.read(wilc::regmap::HOST_TX_CTRL, reg));
            EXPECT_EQ(reg, (1u << 25) | (1u << 9));
            wait(sc_time(1, SC_MS));
            const auto& got = b.air->peer_received();
            ASSERT_EQ(got.size(), 2u);
            EXPECT_EQ(got[0].bytes, f1);
            EXPECT_EQ(got[1].bytes, f2);
            EXPECT_EQ(got[0].t_end - got[0].t_start, b.air->airtime(1514));
            EXPECT_EQ(got[1].t_start, got[0].t_end); // back to back on the medium
            ASSERT_TRUE(b.host.read(wilc::regmap::HOST_TX_CTRL, reg));
            EXPECT_EQ(reg, 0u);
            EXPECT_EQ(b.core().findings().list().size(), 1u); // the negotiation probe only
        },
        true, ap);
    sc_core::sc_start();
    EXPECT_NEAR(b.air->airtime(1514).to_seconds(), 8.0 * 1514 / (72.2e6 * 0.5), 1e-12);
}

TEST(Wilc1000Fw, VmmFullGrantsZeroEntries) {
    wilc::params p;
    p.tx_vmm_bytes = 2048;
    air_link_params ap;
    ap.phy_rate_bps = 1e6; // slow air: the first frame stays in the chip for ~12 ms
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            ASSERT_EQ(b.send_tx({{false, eth_frame(1514, 3)}}), 1);
            EXPECT_EQ(b.send_tx({{false, eth_frame(1514, 4)}}), 0); // no VMM space
            EXPECT_EQ(b.core().stats().vmm_alloc_full, 1u);
            wait(sc_time(30, SC_MS));
            EXPECT_EQ(b.send_tx({{false, eth_frame(1514, 4)}}), 1);
        },
        true, ap);
    sc_core::sc_start();
}

TEST(Wilc1000Fw, RxFrameFromAirHasDriverHeader) {
    wilc::params p;
    p.rx_pkt_offset = 36;
    air_link_params ap;
    ap.bss.bssid = {0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}; // addr2: the BSSID the firmware joined
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            const auto f = eth_frame(1000, 9);
            b.air->peer_send(f);
            ASSERT_TRUE(b.wait_irq(sc_time(10, SC_MS)));
            auto pk = b.isr();
            ASSERT_EQ(pk.size(), 1u);
            EXPECT_FALSE(pk[0].cfg);
            EXPECT_EQ(pk[0].offset, 36u);
            EXPECT_EQ(pk[0].len, 1000u);
            EXPECT_EQ(pk[0].total, 1036u);
            EXPECT_EQ(std::vector<uint8_t>(pk[0].raw.begin() + 10, pk[0].raw.begin() + 16),
                      std::vector<uint8_t>({0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f})); // addr2
            EXPECT_EQ(std::vector<uint8_t>(pk[0].raw.begin() + 4, pk[0].raw.begin() + 10),
                      std::vector<uint8_t>(b.core().config().mac_addr.begin(),
                                           b.core().config().mac_addr.end())); // addr1
            EXPECT_EQ(pk[0].payload, f);
            EXPECT_TRUE(b.line.level());
        },
        true, ap);
    sc_core::sc_start();
}

// The size register is live until the host reads it (the driver re-reads a size of 0, so the
// firmware writes it apart from the interrupt): a frame that arrives after the read waits for
// the next batch.
TEST(Wilc1000Fw, AnnouncedBatchGrowsUntilTheHostReadsItsSize) {
    wilc::params p;
    p.rx_aggregation_bytes = 8192;
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            b.air->peer_send(eth_frame(1000, 1));
            ASSERT_TRUE(b.wait_irq(sc_time(1, SC_MS)));
            uint32_t st = 0;
            ASSERT_TRUE(b.host.read(0x40, st, true));
            EXPECT_EQ((st & 0x7fff) * 4, 1036u); // one frame announced and read
            b.air->peer_send(eth_frame(1000, 2));
            wait(sc_time(1, SC_MS)); // the second frame is in the chip now
            auto pk = b.isr();
            ASSERT_EQ(pk.size(), 1u) << "the batch grew after the host read its size";
            EXPECT_EQ(pk[0].payload, eth_frame(1000, 1));
            ASSERT_TRUE(b.wait_irq(sc_time(1, SC_MS)));
            pk = b.isr();
            ASSERT_EQ(pk.size(), 1u);
            EXPECT_EQ(pk[0].payload, eth_frame(1000, 2));
        },
        true);
    sc_core::sc_start();
}

TEST(Wilc1000Fw, RxAggregatesQueuedFramesBehindOneInterrupt) {
    wilc::params p;
    p.rx_aggregation_bytes = 4096;
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            for (int i = 0; i < 5; ++i)
                b.air->peer_send(eth_frame(1000, 20 + i));
            wait(sc_time(2, SC_MS)); // all five on the air and in the chip
            std::vector<size_t> per_irq;
            size_t total = 0;
            while (total < 5 && b.wait_irq(sc_time(1, SC_MS))) {
                auto pk = b.isr();
                per_irq.push_back(pk.size());
                total += pk.size();
                for (size_t i = 0; i < pk.size(); ++i)
                    EXPECT_EQ(pk[i].payload, eth_frame(1000, uint32_t(20 + total - pk.size() + i)));
            }
            // The first frame's interrupt went out at once, but the host read the size only
            // now: the batch grew to 3 frames (<= 4096 B), the other 2 come with the next one.
            EXPECT_EQ(per_irq, std::vector<size_t>({3, 2}));
            // 'I' after boot, the join's 'R' and 'I' connected (wilc_bench::join), two batches.
            EXPECT_EQ(b.line.negedges(), 3u + 2u);
        },
        true);
    sc_core::sc_start();
}

TEST(Wilc1000Fault, WrongChipId) {
    wilc::params p;
    p.fault_wrong_chip_id = true;
    p.fault_chip_id = 0x12345678;
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        uint32_t v = 0;
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(v, 0x12345678u);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fault, FirmwareNeverSendsStatusInfo) {
    wilc::params p;
    p.fault_no_fw_ready = true;
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        ASSERT_TRUE(b.download_and_start());
        EXPECT_FALSE(b.wait_irq(sc_time(100, SC_MS)));
        EXPECT_TRUE(b.core().firmware_ready()); // it runs, it just never reports
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fault, CpuStartWithoutFirmwareDoesNotBoot) {
    wilc_bench b({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        ASSERT_TRUE(b.host.write(0x1408, 1u << 8));
        ASSERT_TRUE(b.host.write(0x1a00, 1u << 27));
        ASSERT_TRUE(b.host.write(0x1400, 1u << 10));
        EXPECT_FALSE(b.wait_irq(sc_time(100, SC_MS)));
        EXPECT_EQ(b.core().findings().count(wilc::finding_kind::firmware), 1u);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Fault, ConfigFrameNeverAnswered) {
    wilc::params p;
    p.fault_cfg_unanswered = true;
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot()); // 'I' still arrives
        auto q = wilc_bench::cfg_frame('Q', 1, {0x0c, 0x30});
        ASSERT_EQ(b.send_tx({{true, q}}), 1);
        EXPECT_FALSE(b.wait_irq(sc_time(100, SC_MS)));
        EXPECT_EQ(b.core().stats().cfg_frames, 1u);
        EXPECT_EQ(b.core().stats().cfg_replies, 0u);
    });
    sc_core::sc_start();
}

// An RX DMA read longer than INT_STATUS announced gets zeros after the batch, and one with no
// data pending gets only zeros, also when the transfer before it left data in the chip's DMA
// buffer; the firmware reports both.
TEST(Wilc1000Fault, RxDmaReadBeyondTheBatchReadsZeros) {
    wilc_bench b(
        wilc::params{},
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot());
            b.air->peer_send(eth_frame(1000, 7));
            ASSERT_TRUE(b.wait_irq(sc_time(10, SC_MS)));
            uint32_t st = 0;
            ASSERT_TRUE(b.host.read(0x40, st, true));
            const uint32_t size = (st & 0x7fff) * 4;
            ASSERT_GT(size, 1000u);
            ASSERT_TRUE(b.host.write(0x44, 0x181, true));
            std::vector<uint8_t> buf;
            ASSERT_TRUE(b.host.dma_read(0, buf, size + 64));
            ASSERT_EQ(buf.size(), size + 64);
            EXPECT_NE(std::count(buf.begin(), buf.begin() + size, 0), long(size));
            EXPECT_EQ(std::count(buf.begin() + size, buf.end(), 0), 64);
            ASSERT_TRUE(b.host.write(0x44, 0x181, true));
            ASSERT_TRUE(b.host.dma_read(0, buf, 256));
            EXPECT_EQ(std::count(buf.begin(), buf.end(), 0), 256);
            EXPECT_EQ(b.core().findings().count(wilc::finding_kind::firmware), 2u);
        },
        true);
    sc_core::sc_start();
}

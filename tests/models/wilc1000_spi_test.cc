// SPDX-License-Identifier: MIT
// WILC1000 SPI slave protocol: framing, CRC negotiation and checking, register paths, DMA
// packetisation, filler bytes, protocol violations -> chip answer + finding.
#include <cstring>

#include <gtest/gtest.h>

#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/models/wilc1000_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::sc_time;
using sc_core::SC_US;
using wilc::finding_kind;

namespace {
void run(const wilc::params& p, std::function<void(wilc_bench&)> body) {
    wilc_bench b(p, std::move(body));
    sc_core::sc_start();
}
std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (auto& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = uint8_t(seed >> 16);
    }
    return v;
}
} // namespace

TEST(Wilc1000Crc, KnownCheckValues) {
    const char* s = "123456789";
    const auto* p = reinterpret_cast<const uint8_t*>(s);
    // CRC-7/MMC check value 0x75, left-justified; CRC-16/CCITT-FALSE check value 0x29B1.
    EXPECT_EQ(wilc::crc7_be(0, p, 9), 0x75 << 1);
    EXPECT_EQ(wilc::crc16_ccitt(0xffff, p, 9), 0x29B1);
}

TEST(Wilc1000Spi, CrcNegotiationFromResetStateThenChipId) {
    wilc::params p; // reset: CRC7 + CRC16 on
    run(p, [](wilc_bench& b) {
        // The driver's first probe (CRC7 off) must fail against a CRC-on chip; the second works.
        ASSERT_TRUE(b.host.init(false, false)) << b.host.error;
        EXPECT_EQ(b.core().findings().count(finding_kind::bad_crc7), 1u);
        // 5 frames: 2 probes, the write, the re-read and CHIPID.
        EXPECT_EQ(b.host.frames, 5u);
        uint32_t v = 0;
        ASSERT_TRUE(b.host.read(0x24, v, true)) << b.host.error;
        EXPECT_EQ(v, 5u << 4); // CRC bits cleared, 8 KiB packets
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v)) << b.host.error;
        EXPECT_EQ(v, 0x1003A0u);
        ASSERT_TRUE(b.host.read(wilc::regmap::RF_REVISION_ID, v));
        EXPECT_EQ(v, 0x3u);
    });
}

TEST(Wilc1000Spi, InternalAndSingleReadWrite) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        uint32_t v = 0;
        // SPI-controller register through CMD_INTERNAL_*; INT_CLEAR reads back the VMM bits.
        ASSERT_TRUE(b.host.write(0x44, 0x1c0, true));
        ASSERT_TRUE(b.host.read(0x44, v, true));
        EXPECT_EQ(v, 0x1c0u);
        // The same register through its AHB address with CMD_SINGLE_*.
        ASSERT_TRUE(b.host.read(0xe844, v));
        EXPECT_EQ(v, 0x1c0u);
        // Plain storage register: big-endian on the wire for writes, little-endian for reads.
        ASSERT_TRUE(b.host.write(wilc::regmap::GP_REG_0, 0x12345678));
        ASSERT_TRUE(b.host.read(wilc::regmap::GP_REG_0, v));
        EXPECT_EQ(v, 0x12345678u);
        const auto& w = b.host.last_rx;
        // The data follows the 0xF3 tag LSB first.
        auto tag = std::find(w.begin() + 6, w.end(), 0xf3);
        ASSERT_NE(tag, w.end());
        EXPECT_EQ(tag[1], 0x78);
        EXPECT_EQ(tag[4], 0x12);
        // Memory through single accesses.
        ASSERT_TRUE(b.host.write(0x30010, 0xdeadbeef));
        ASSERT_TRUE(b.host.read(0x30010, v));
        EXPECT_EQ(v, 0xdeadbeefu);
        EXPECT_TRUE(b.core().findings().list().size() == 1); // only the negotiation probe
    });
}

TEST(Wilc1000Spi, ClocklessRegisters) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        uint32_t v = 0;
        ASSERT_TRUE(b.host.read(0x0f, v));
        EXPECT_EQ(v, 4u); // clock running
        ASSERT_TRUE(b.host.write(0x01, 2));
        ASSERT_TRUE(b.host.read(0x01, v));
        EXPECT_EQ(v, 2u);
        ASSERT_TRUE(b.host.write(0x0b, 1));
        ASSERT_TRUE(b.host.read(0x0b, v));
        EXPECT_EQ(v, 1u);
        ASSERT_TRUE(b.host.read(0x10, v));
        EXPECT_EQ(v, 0u);
        // The clockless response frame: echo + status, no CRC16 even when CRC16 is on.
        const size_t before = b.core().findings().list().size();
        ASSERT_TRUE(b.host.read(0x05, v)); // undecoded clockless offset
        EXPECT_EQ(v, 0u);
        ASSERT_EQ(b.core().findings().list().size(), before + 1);
        const auto& f = b.core().findings().list().back();
        EXPECT_EQ(f.kind, finding_kind::out_of_range);
        EXPECT_TRUE(wilc_bench::near(f.time, b.cmd_time(15))) << f.time;
    });
}

TEST(Wilc1000Spi, OutOfRangeAddressAnsweredAndLogged) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        uint32_t v = 1;
        // Unmapped AHB address: the chip answers OK with data 0 (assumption) and logs it.
        ASSERT_TRUE(b.host.read(0x2000, v)) << b.host.error;
        EXPECT_EQ(v, 0u);
        EXPECT_EQ(b.core().findings().count(finding_kind::out_of_range), 1u);
        EXPECT_TRUE(wilc_bench::near(b.core().findings().list().back().time, b.cmd_time(15)));
        ASSERT_TRUE(b.host.write(0x2000, 5));
        EXPECT_EQ(b.core().findings().count(finding_kind::out_of_range), 2u);
        // DMA to port 0 without INT_CLEAR arming the VMM port is out of range too.
        EXPECT_TRUE(b.host.dma_write(0, std::vector<uint8_t>(64, 1)));
        EXPECT_EQ(b.core().findings().count(finding_kind::out_of_range), 3u);
    });
}

TEST(Wilc1000Spi, DmaRoundTripMultiPacket) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        const auto data = pattern(20000, 7); // 3 packets of <= 8 KiB: F1, F2, F3
        ASSERT_TRUE(b.host.dma_write(0x30000, data)) << b.host.error;
        std::vector<uint8_t> back;
        ASSERT_TRUE(b.host.dma_read(0x30000, back, uint32_t(data.size()))) << b.host.error;
        EXPECT_EQ(back, data);
        std::vector<uint8_t> mem(data.size());
        b.core().mem_peek(0x30000, mem.data(), mem.size());
        EXPECT_EQ(mem, data);
        EXPECT_EQ(b.chip.spi.stats().commands[0xc7], 1u);
        EXPECT_EQ(b.chip.spi.stats().commands[0xc8], 1u);
        EXPECT_EQ(b.core().findings().list().size(), 1u); // the negotiation probe only
    });
}

TEST(Wilc1000Spi, DmaRoundTripWithCrc7AndCrc16) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(true, true)) << b.host.error;
        EXPECT_EQ(b.core().findings().list().size(), 0u); // chip was CRC-on: first probe works
        const auto data = pattern(9000, 3);
        ASSERT_TRUE(b.host.dma_write(0x80000, data)) << b.host.error;
        std::vector<uint8_t> back;
        ASSERT_TRUE(b.host.dma_read(0x80000, back, 9000)) << b.host.error;
        EXPECT_EQ(back, data);
        uint32_t v = 0;
        ASSERT_TRUE(b.host.read(0x24, v, true)) << b.host.error; // CRC16 checked on the read
        EXPECT_EQ(v, 0x5cu);
        EXPECT_EQ(b.chip.spi.stats().crc16_errors, 0u);
    });
}

TEST(Wilc1000Spi, BadCrc7GivesErrorStatusAndFinding) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(true, false));
        uint32_t v = 0;
        b.host.corrupt_next_crc7 = true;
        EXPECT_FALSE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(b.host.error, "status 3"); // echo + CRC7-error status
        ASSERT_EQ(b.core().findings().count(finding_kind::bad_crc7), 1u);
        // The CRC7 byte is checked when it is in: command (4) + CRC7 (1), then 17 bytes follow.
        EXPECT_TRUE(wilc_bench::near(b.core().findings().list().back().time, b.cmd_time(17)));
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v)); // the slave recovers at once
        EXPECT_EQ(v, 0x1003A0u);
    });
}

TEST(Wilc1000Spi, BadCrc16RejectsDataAndLogs) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, true));
        b.host.corrupt_next_crc16 = true;
        EXPECT_FALSE(b.host.dma_write(0x30000, std::vector<uint8_t>(100, 0x5a)));
        EXPECT_EQ(b.host.error, "data response error 4");
        EXPECT_EQ(b.core().findings().count(finding_kind::bad_crc16), 1u);
        uint8_t m[100];
        b.core().mem_peek(0x30000, m, 100);
        EXPECT_EQ(m[0], 0); // data of a bad packet is not committed
        ASSERT_TRUE(b.host.dma_write(0x30000, std::vector<uint8_t>(100, 0x5a)));
        b.core().mem_peek(0x30000, m, 100);
        EXPECT_EQ(m[99], 0x5a);
    });
}

TEST(Wilc1000Spi, FillerBytesAt48MHzNoneAt1MHz) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        auto fillers = [&](size_t cmd_len) {
            const auto& r = b.host.last_rx;
            size_t i = cmd_len + 2, n = 0;
            while (i < r.size() && r[i] == 0) {
                ++i;
                ++n;
            }
            EXPECT_LT(i, r.size());
            EXPECT_EQ(r[i], 0xf3);
            return n;
        };
        uint32_t v;
        b.host.speed_hz = 48'000'000;
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(fillers(4), 4u); // AHB read
        ASSERT_TRUE(b.host.read(0x24, v, true));
        EXPECT_EQ(fillers(4), 1u); // SPI-internal read
        ASSERT_TRUE(b.host.read(0x0f, v));
        EXPECT_EQ(fillers(4), 1u); // clockless read
        b.host.speed_hz = 1'000'000;
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(fillers(4), 0u);
        ASSERT_TRUE(b.host.read(0x24, v, true));
        EXPECT_EQ(fillers(4), 0u);
        EXPECT_EQ(v, 0x50u);
    });
    // The rule itself: access time minus the echo+status bytes, in started byte times.
    EXPECT_EQ(wilc::spi_frontend::filler_bytes(sc_time(950, sc_core::SC_NS), 48e6), 4u);
    EXPECT_EQ(wilc::spi_frontend::filler_bytes(sc_time(950, sc_core::SC_NS), 20e6), 1u);
    EXPECT_EQ(wilc::spi_frontend::filler_bytes(sc_time(950, sc_core::SC_NS), 1e6), 0u);
}

TEST(Wilc1000Spi, UnknownCommandAndTruncatedCommand) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        auto r = b.host.xfer({0xc5, 0, 0, 0, 0, 0});
        EXPECT_EQ(r[4], 0xc5);
        EXPECT_EQ(r[5], 0x01); // unsupported
        EXPECT_EQ(b.core().findings().count(finding_kind::unknown_command), 1u);
        b.host.xfer({0xca, 0x00}); // CS drops mid-command
        EXPECT_EQ(b.core().findings().count(finding_kind::unexpected_frame), 1u);
        uint32_t v;
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v)); // next command parses normally
        EXPECT_EQ(v, 0x1003A0u);
    });
}

TEST(Wilc1000Spi, ResetCommandKeepsProtocolConfig) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(true, false));
        ASSERT_TRUE(b.host.reset()) << b.host.error;
        uint32_t v;
        ASSERT_TRUE(b.host.read(0x24, v, true)) << b.host.error; // still CRC7 framing
        EXPECT_EQ(v, 0x54u);
    });
}

TEST(Wilc1000Spi, DmaReadTagPollsUntilDataReady) {
    wilc::params p;
    p.dma_read_latency = sc_time(20, SC_US);
    run(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        b.host.gap = sc_time(2, SC_US);
        std::vector<uint8_t> d;
        ASSERT_TRUE(b.host.dma_read(0x30000, d, 64));
        // Each 1-byte poll is 1/6 us of wire + 2 us gap: ~10 polls until 20 us have passed.
        EXPECT_GE(b.host.tag_polls, 9);
        EXPECT_LE(b.host.tag_polls, 11);
    });
}

// Garbage on the bus for thousands of frames: the findings stay bounded (the first
// per_kind_cap of each kind stored, the rest counted), and the chip still answers afterwards.
TEST(Wilc1000Spi, GarbageTrafficKeepsTheFindingLogBounded) {
    run({}, [](wilc_bench& b) {
        ASSERT_TRUE(b.host.init(false, false));
        constexpr size_t frames = 5000;
        for (size_t i = 0; i < frames; ++i) {
            b.host.xfer({0xc5, 0, 0, 0, 0, 0}); // unknown command
            b.host.xfer({0xca, 0x00});          // truncated command
        }
        const auto& log = b.core().findings();
        EXPECT_EQ(log.count(finding_kind::unknown_command), frames);
        EXPECT_EQ(log.count(finding_kind::unexpected_frame), frames);
        // The two capped kinds, plus the odd finding of another kind from the set-up.
        EXPECT_LE(log.list().size(), 2 * log.per_kind_cap() + 4);
        bool unknown_overflow = false;
        for (const auto& [kind, more] : log.overflow())
            if (kind == finding_kind::unknown_command) {
                unknown_overflow = true;
                EXPECT_EQ(more, frames - log.per_kind_cap());
            }
        EXPECT_TRUE(unknown_overflow);
        uint32_t v;
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(v, 0x1003A0u);
    });
}

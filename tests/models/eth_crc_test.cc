// SPDX-License-Identifier: MIT
// The 802.3 CRC-32: the carry-less-multiplication path (used for 64+ byte buffers on CPUs with
// PCLMULQDQ) must give the table version's value for every length, alignment and seed.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "models/ethernet/eth_crc.h"

namespace nicsim::eth {
namespace {

TEST(EthCrc, CheckValueOfTheStandard) {
    // CRC-32/ISO-HDLC check value: "123456789" -> 0xCBF43926.
    const char* s = "123456789";
    EXPECT_EQ(fcs32(reinterpret_cast<const uint8_t*>(s), std::strlen(s)), 0xCBF43926u);
}

TEST(EthCrc, FastPathEqualsTableForEveryLengthAlignmentAndSeed) {
    std::mt19937 rng(7);
    std::vector<uint8_t> buf(2100);
    for (auto& b : buf)
        b = static_cast<uint8_t>(rng());
    int compared = 0;
    for (size_t len = 0; len <= 2048; ++len)
        for (size_t off : {size_t(0), size_t(1), size_t(3), size_t(13)})
            for (uint32_t seed : {0xFFFFFFFFu, 0u, 0x12345678u}) {
                ASSERT_EQ(crc32_le_raw(seed, buf.data() + off, len),
                          crc32_le_raw_table(seed, buf.data() + off, len))
                    << "len " << len << " offset " << off << " seed " << std::hex << seed;
                ++compared;
            }
    EXPECT_EQ(compared, 2049 * 4 * 3);
}

TEST(EthCrc, AppendedFcsChecksAndACorruptedByteFails) {
    std::vector<uint8_t> f(1514);
    for (size_t i = 0; i < f.size(); ++i)
        f[i] = static_cast<uint8_t>(i * 7 + 1);
    append_fcs(f);
    ASSERT_EQ(f.size(), 1518u);
    EXPECT_TRUE(fcs_ok(f));
    f[700] ^= 0x10;
    EXPECT_FALSE(fcs_ok(f));
}

} // namespace
} // namespace nicsim::eth

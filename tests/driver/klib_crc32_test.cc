// SPDX-License-Identifier: MIT
// The kernel's own lib/crc32.c (slice-by-8, its generated table) as the drivers link it: the
// check value of CRC-32/IEEE ("123456789" -> 0xCBF43926 with pre/post inversion, which crc32_le
// leaves to the caller), the same on every length and alignment as the bitwise definition, and
// ether_crc's use of it (the KS8851 multicast hash) through the seam's inline.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

extern "C" uint32_t crc32_le(uint32_t crc, const unsigned char* p, size_t len);

namespace {

uint32_t bitwise(uint32_t crc, const unsigned char* p, size_t len) {
    while (len--) {
        crc ^= *p++;
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ ((crc & 1) ? 0xEDB88320u : 0);
    }
    return crc;
}

TEST(KlibCrc32, CheckValue) {
    const unsigned char s[] = "123456789";
    EXPECT_EQ(~crc32_le(~0u, s, 9), 0xCBF43926u);
}

TEST(KlibCrc32, EqualsTheBitwiseDefinitionOnEveryLengthAndAlignment) {
    std::vector<unsigned char> buf(1600);
    for (size_t i = 0; i < buf.size(); ++i)
        buf[i] = static_cast<unsigned char>(i * 131 + (i >> 3));
    for (size_t off = 0; off < 8; ++off)
        for (size_t len = 0; len + off <= 1600; len += (len < 64 ? 1 : 97))
            ASSERT_EQ(crc32_le(0x12345678u, buf.data() + off, len),
                      bitwise(0x12345678u, buf.data() + off, len))
                << "off " << off << " len " << len;
}

} // namespace

// SPDX-License-Identifier: MIT
// IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320): the frame check sequence and the
// building block of the KS8851 multicast hash. Written from the 802.3 definition.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nicsim::eth {

namespace detail {
constexpr std::array<uint32_t, 256> make_crc_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[i] = c;
    }
    return t;
}
inline constexpr std::array<uint32_t, 256> crc_table = make_crc_table();
// Slicing-by-8 tables: t[k][i] = CRC of byte i followed by k zero bytes.
constexpr std::array<std::array<uint32_t, 256>, 8> make_slice_tables() {
    std::array<std::array<uint32_t, 256>, 8> t{};
    t[0] = make_crc_table();
    for (uint32_t i = 0; i < 256; ++i)
        for (int k = 1; k < 8; ++k)
            t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
    return t;
}
inline constexpr std::array<std::array<uint32_t, 256>, 8> crc_slices = make_slice_tables();
} // namespace detail

// Register value after shifting `len` bytes LSB-first into a register preset to `seed`
// (no final inversion): the portable slicing-by-8 version.
inline uint32_t crc32_le_raw_table(uint32_t seed, const uint8_t* p, size_t len) {
    uint32_t c = seed;
    const auto& t = detail::crc_slices;
    for (; len >= 8; len -= 8, p += 8) {
        const uint32_t lo = c ^ (uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
                                 uint32_t(p[3]) << 24);
        c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
            t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    }
    for (size_t i = 0; i < len; ++i)
        c = detail::crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c;
}

// The same value; on x86-64 CPUs with PCLMULQDQ, frames of 64 bytes and more are folded with
// carry-less multiplication (eth_crc.cc), several times faster than the table. Every frame of a
// KS8851 run crosses the CRC, so this is on the simulator's hot path.
uint32_t crc32_le_raw(uint32_t seed, const uint8_t* p, size_t len);

// The FCS value of an 802.3 frame (DA .. payload/pad).
inline uint32_t fcs32(const uint8_t* p, size_t len) {
    return ~crc32_le_raw(0xFFFFFFFFu, p, len);
}

// Append the FCS; it goes on the wire least significant byte first.
inline void append_fcs(std::vector<uint8_t>& frame) {
    const uint32_t f = fcs32(frame.data(), frame.size());
    for (int i = 0; i < 4; ++i)
        frame.push_back(static_cast<uint8_t>(f >> (8 * i)));
}

// True when the last 4 bytes are the correct FCS of the bytes before them.
inline bool fcs_ok(const std::vector<uint8_t>& frame) {
    if (frame.size() < 4)
        return false;
    const uint32_t f = fcs32(frame.data(), frame.size() - 4);
    for (int i = 0; i < 4; ++i)
        if (frame[frame.size() - 4 + i] != static_cast<uint8_t>(f >> (8 * i)))
            return false;
    return true;
}

inline uint32_t bitrev32(uint32_t v) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i, v >>= 1)
        r = (r << 1) | (v & 1);
    return r;
}

} // namespace nicsim::eth

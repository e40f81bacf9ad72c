// SPDX-License-Identifier: MIT
#include "host/traffic/pattern.h"

#include <cstring>

namespace nicsim::traffic {

namespace {
// Byte k of the stream word is bits 8k..8k+7 (little-endian by definition, on any host), so on
// a little-endian host a word is moved with one 8-byte copy.
inline std::uint64_t to_le(std::uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return w;
#else
    std::uint64_t r = 0;
    auto* b = reinterpret_cast<std::uint8_t*>(&r);
    for (int k = 0; k < 8; ++k)
        b[k] = static_cast<std::uint8_t>(w >> (8 * k));
    return r;
#endif
}
inline void store_word(std::uint8_t* dst, std::uint64_t w) {
    const std::uint64_t le = to_le(w);
    std::memcpy(dst, &le, 8);
}
} // namespace

// Both functions hash once per 8-byte word and move whole words in the aligned middle part: a
// full-size segment is generated and checked for every frame of a 16 MiB run, so this is the
// traffic layer's hot loop.
void payload_pattern::fill(std::uint64_t offset, std::uint8_t* dst, std::size_t len) const {
    std::size_t i = 0;
    while (i < len && ((offset + i) & 7) != 0) {
        dst[i] = at(offset + i);
        ++i;
    }
    for (; i + 8 <= len; i += 8)
        store_word(dst + i, word((offset + i) >> 3));
    for (; i < len; ++i)
        dst[i] = at(offset + i);
}

std::size_t payload_pattern::first_mismatch(std::uint64_t offset, const std::uint8_t* src,
                                            std::size_t len) const {
    std::size_t i = 0;
    while (i < len && ((offset + i) & 7) != 0) {
        if (src[i] != at(offset + i))
            return i;
        ++i;
    }
    for (; i + 8 <= len; i += 8) {
        std::uint64_t got;
        std::memcpy(&got, src + i, 8);
        if (got != to_le(word((offset + i) >> 3)))
            break; // the byte loop below finds the exact position
    }
    for (; i < len; ++i)
        if (src[i] != at(offset + i))
            return i;
    return len;
}

} // namespace nicsim::traffic

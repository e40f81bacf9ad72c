// SPDX-License-Identifier: MIT
//
// The deterministic payload pattern every flow sends and every receiver checks against.
//
// byte(offset) is byte offset % 8 of a hash of (seed, offset / 8) - not a short period - so a
// duplicated, shifted, reordered or stale block of data does not accidentally match: a receiver
// that got the right number of bytes in the wrong order still sees a mismatch. It is cheap (one
// 64-bit mix per 8 bytes) so checking 16 MiB costs nothing noticeable.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nicsim::traffic {

class payload_pattern {
  public:
    explicit payload_pattern(std::uint64_t seed = 0)
        : m_seed(seed), m_key(splitmix(seed + 0x9e3779b97f4a7c15ull)) {}

    std::uint8_t at(std::uint64_t offset) const {
        return static_cast<std::uint8_t>(word(offset >> 3) >> (8 * (offset & 7)));
    }
    // Writes bytes [offset, offset + len) of the stream into dst.
    void fill(std::uint64_t offset, std::uint8_t* dst, std::size_t len) const;
    // Index of the first byte of src that differs from the stream at offset, or len if none.
    std::size_t first_mismatch(std::uint64_t offset, const std::uint8_t* src,
                               std::size_t len) const;

    std::uint64_t seed() const { return m_seed; }

  private:
    std::uint64_t word(std::uint64_t index) const {
        // One multiply per 8 bytes (this is the traffic layer's hot loop): an odd multiplier is a
        // bijection on 64 bits, the xor-shift folds the well-mixed high half into the low bytes.
        // m_key (splitmix64 of the seed) makes different seeds unrelated streams.
        std::uint64_t z = (index ^ m_key) * 0x9e3779b97f4a7c15ull;
        return z ^ (z >> 29) ^ (z >> 47);
    }

    static std::uint64_t splitmix(std::uint64_t z) {
        // splitmix64 finaliser (Steele, Lea, Flood 2014): a bijective, well-mixed 64-bit hash.
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    std::uint64_t m_seed;
    std::uint64_t m_key;
};

// splitmix64 step for deriving per-flow values (ISNs, IP ids) from a scenario seed.
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t salt) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (salt + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

} // namespace nicsim::traffic

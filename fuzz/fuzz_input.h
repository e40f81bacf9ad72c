// SPDX-License-Identifier: MIT
// The fuzz targets' view of libFuzzer's byte string: a cursor that hands out integers and byte
// runs and yields zeros once the input is used up (so every input is a valid sequence of
// operations, and the fuzzer's mutations map to small changes of it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nicsim::fuzz {

class input {
  public:
    input(const uint8_t* data, size_t size) : m_p(data), m_end(data + size) {}
    bool empty() const { return m_p == m_end; }
    size_t left() const { return size_t(m_end - m_p); }
    uint8_t u8() { return m_p == m_end ? 0 : *m_p++; }
    uint16_t u16() { // little-endian
        const uint16_t lo = u8();
        return uint16_t(lo | uint16_t(u8()) << 8);
    }
    uint32_t u32() {
        const uint32_t lo = u16();
        return lo | uint32_t(u16()) << 16;
    }
    // n bytes (fewer if the input ends: the rest are zeros).
    std::vector<uint8_t> bytes(size_t n) {
        std::vector<uint8_t> v(n, 0);
        const size_t k = std::min(n, left());
        std::copy(m_p, m_p + k, v.begin());
        m_p += k;
        return v;
    }

  private:
    const uint8_t* m_p;
    const uint8_t* m_end;
};

} // namespace nicsim::fuzz

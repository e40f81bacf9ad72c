// SPDX-License-Identifier: MIT
// The frames and addresses the KS8851 driver-on-the-model tests exchange (the shadow-header
// build: tests/models/ks8851_driver_test.cc; the real-header variants:
// tests/driver/real_variant_chip_test.cc), so both runs are checked on the same traffic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace nicsim::test::ks8851_driver {

inline const uint8_t mac[6] = {0x02, 0x12, 0x34, 0x56, 0x78, 0x9A};
inline const uint8_t peer[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};

// An IPv4 Ethernet frame of `len` bytes (no FCS) from `src` to `dst` with a counting payload.
inline std::vector<uint8_t> make_frame(const uint8_t* dst, const uint8_t* src, size_t len,
                                       uint8_t seed) {
    std::vector<uint8_t> f(len);
    for (size_t i = 0; i < len; ++i)
        f[i] = uint8_t(seed + 3 * i);
    std::copy(dst, dst + 6, f.begin());
    std::copy(src, src + 6, f.begin() + 6);
    f[12] = 0x08;
    f[13] = 0x00;
    return f;
}

} // namespace nicsim::test::ks8851_driver

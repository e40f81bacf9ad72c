// SPDX-License-Identifier: MIT
// The two CRCs of the WILC SPI protocol, written from their definitions:
// * CRC7, polynomial x^7 + x^3 + 1, MSB first, result left-justified in the byte (bit 0 = 0),
//   seeded like the driver's crc7_be(0xfe, ...) call;
// * CRC-16/CCITT-FALSE (poly 0x1021, MSB first, no reflection), seeded with 0xffff.
#pragma once

#include <cstddef>
#include <cstdint>

namespace nicsim::wilc {

inline uint8_t crc7_be(uint8_t crc, const uint8_t* p, size_t n) {
    while (n--) {
        crc ^= *p++;
        for (int b = 0; b < 8; ++b)
            crc = (crc & 0x80) ? uint8_t((crc << 1) ^ 0x12) : uint8_t(crc << 1);
    }
    return crc;
}

inline uint16_t crc16_ccitt(uint16_t crc, const uint8_t* p, size_t n) {
    while (n--) {
        crc ^= uint16_t(*p++) << 8;
        for (int b = 0; b < 8; ++b)
            crc = (crc & 0x8000) ? uint16_t((crc << 1) ^ 0x1021) : uint16_t(crc << 1);
    }
    return crc;
}

} // namespace nicsim::wilc

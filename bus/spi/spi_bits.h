// SPDX-License-Identifier: MIT
//
// Bit order on the SPI wire, shared by everything that looks at individual bits (the
// cycle-stepped host, spi_byte_slave, spi_vcd_tracer), so they cannot disagree.
//
// As in Linux: a transfer is a sequence of words of bits_per_word bits; a word occupies
// bytes_per_word() bytes of the tx/rx buffer in host memory order (little-endian, as on ARM and
// x86 hosts); each word is shifted MSB first (bit bits_per_word-1 first). For 8-bit words that is
// simply "bytes in order, MSB first".
#pragma once

#include <cstdint>

#include "bus/spi/spi_payload.h"
#include "bus/spi/spi_timing.h"

namespace nicsim::spi {

// Number of bits transfer x clocks.
inline uint64_t xfer_bits(const spi_xfer& x) {
    return static_cast<uint64_t>(x.len / bytes_per_word(x.bits_per_word)) * x.bits_per_word;
}

// Byte offset of word w's byte holding bit `pos` (0 = LSB) of that word.
inline size_t word_byte(const spi_xfer& x, uint64_t w, unsigned pos) {
    return static_cast<size_t>(w) * bytes_per_word(x.bits_per_word) + pos / 8;
}

// MOSI level of bit k (0 = first bit on the wire) of transfer x; tx == nullptr shifts zeros.
inline bool mosi_bit(const spi_xfer& x, uint64_t k) {
    if (!x.tx)
        return false;
    const uint64_t w = k / x.bits_per_word;
    const unsigned pos = x.bits_per_word - 1 - static_cast<unsigned>(k % x.bits_per_word);
    return (x.tx[word_byte(x, w, pos)] >> (pos % 8)) & 1u;
}

// MISO level of bit k as stored in x.rx (nullptr reads 0).
inline bool miso_bit(const spi_xfer& x, uint64_t k) {
    if (!x.rx)
        return false;
    const uint64_t w = k / x.bits_per_word;
    const unsigned pos = x.bits_per_word - 1 - static_cast<unsigned>(k % x.bits_per_word);
    return (x.rx[word_byte(x, w, pos)] >> (pos % 8)) & 1u;
}

// Store received bit k into x.rx (no-op for nullptr). The first bit of a word clears the whole
// word, so bits above bits_per_word read as zero, like a controller's RX FIFO.
inline void store_miso_bit(const spi_xfer& x, uint64_t k, bool v) {
    if (!x.rx)
        return;
    const uint64_t w = k / x.bits_per_word;
    const unsigned in_word = static_cast<unsigned>(k % x.bits_per_word);
    const unsigned pos = x.bits_per_word - 1 - in_word;
    if (in_word == 0)
        for (unsigned b = 0; b < bytes_per_word(x.bits_per_word); ++b)
            x.rx[word_byte(x, w, 0) + b] = 0;
    if (v)
        x.rx[word_byte(x, w, pos)] |= static_cast<uint8_t>(1u << (pos % 8));
}

// CPOL / CPHA of a mode.
inline bool cpol(spi_mode m) {
    return (static_cast<unsigned>(m) & 2u) != 0;
}
inline bool cpha(spi_mode m) {
    return (static_cast<unsigned>(m) & 1u) != 0;
}

} // namespace nicsim::spi

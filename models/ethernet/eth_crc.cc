// SPDX-License-Identifier: MIT
// CRC-32 (802.3, reflected) by carry-less multiplication: the folding method of Gopal et al.,
// "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel, 2009),
// with the bit-reflected constants of its appendix for the polynomial 0x04C11DB7. Written from
// the paper; tests/models/eth_crc_test.cc checks it against the table version byte for byte.
#include "models/ethernet/eth_crc.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NICSIM_CRC_CLMUL 1
#endif

namespace nicsim::eth {

#ifdef NICSIM_CRC_CLMUL
namespace {

#define NICSIM_CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))

NICSIM_CLMUL_TARGET inline __m128i load(const uint8_t* q) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
}

// x * k folded onto the next 128 bits: (x.lo * k.lo) ^ (x.hi * k.hi) ^ next.
NICSIM_CLMUL_TARGET inline __m128i fold(__m128i x, __m128i k, __m128i next) {
    const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}

// Folds len bytes (len >= 64, a multiple of 16) into the raw register value `crc`.
NICSIM_CLMUL_TARGET uint32_t crc32_clmul(uint32_t crc, const uint8_t* buf, size_t len) {
    // x^(4*128+32) mod P, x^(4*128-32) mod P: fold four lanes by 512 bits.
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    // x^(128+32), x^(128-32): fold by 128 bits.
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    // x^64 mod P: 64 -> 32 bits.
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    // P(x)' and mu' for the Barrett reduction.
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i x1 = _mm_xor_si128(load(buf), _mm_cvtsi32_si128(static_cast<int>(crc)));
    __m128i x2 = load(buf + 16), x3 = load(buf + 32), x4 = load(buf + 48);
    buf += 64;
    len -= 64;
    while (len >= 64) {
        x1 = fold(x1, k1k2, load(buf));
        x2 = fold(x2, k1k2, load(buf + 16));
        x3 = fold(x3, k1k2, load(buf + 32));
        x4 = fold(x4, k1k2, load(buf + 48));
        buf += 64;
        len -= 64;
    }
    x1 = fold(x1, k3k4, x2);
    x1 = fold(x1, k3k4, x3);
    x1 = fold(x1, k3k4, x4);
    while (len >= 16) {
        x1 = fold(x1, k3k4, load(buf));
        buf += 16;
        len -= 16;
    }
    // 128 -> 64 bits.
    __m128i t = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), t);
    // 64 -> 32 bits.
    t = _mm_srli_si128(x1, 4);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k5, 0x00), t);
    // Barrett reduction to the 32-bit remainder.
    t = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), poly, 0x00);
    x1 = _mm_xor_si128(x1, t);
    return static_cast<uint32_t>(_mm_extract_epi32(x1, 1));
}

bool have_clmul() {
    static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
    return yes;
}

} // namespace
#endif

uint32_t crc32_le_raw(uint32_t seed, const uint8_t* p, size_t len) {
#ifdef NICSIM_CRC_CLMUL
    if (len >= 64 && have_clmul()) {
        const size_t folded = len & ~size_t(15);
        const uint32_t c = crc32_clmul(seed, p, folded);
        return crc32_le_raw_table(c, p + folded, len - folded);
    }
#endif
    return crc32_le_raw_table(seed, p, len);
}

} // namespace nicsim::eth

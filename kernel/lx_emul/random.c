// SPDX-License-Identifier: MIT
/* lx_emul: the kernel's random bytes (lx_emul/shared.h), one fixed xorshift32 stream for the
 * whole run, so that every run draws the same: a random MAC address (eth_random_addr) is the
 * same on every run of a scenario. */
#include <lx_emul/shared.h>

void lx_emul_random_bytes(void* buf, size_t len)
{
    static uint32_t state = 0x2545F491u;
    unsigned char* p = buf;
    for (size_t i = 0; i < len; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        p[i] = (unsigned char)state;
    }
}

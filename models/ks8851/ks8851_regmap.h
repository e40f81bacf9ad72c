// SPDX-License-Identifier: MIT
// The KS8851 register file declared as a table: offset, name, reset value, writable bits and
// kind. Values the chip computes (TXMIR, RXFHSR, ISR, PHY status, ...) have kind `computed` and
// are produced by ks::core; everything else is plain storage with the writable mask applied.
#pragma once

#include <cstdint>

namespace nicsim::ks {

enum class reg_kind : uint8_t {
    storage,  // read back what was written (writable bits), no side effect
    control,  // storage with a side effect on write (GRR, TXCR, RXCR1, TXQCR, RXQCR, ...)
    w1c,      // write 1 to clear (ISR)
    computed, // read value produced by the core (writes to writable bits still stored)
    constant, // read-only
};

struct reg_desc {
    uint8_t off;
    const char* name;
    uint16_t reset;    // 0 for computed/variant-dependent registers (see core::reset_registers)
    uint16_t writable; // bits a write changes
    reg_kind kind;
};

// Returns nullptr for an offset that is not a register (odd offsets included).
const reg_desc* find_reg(uint8_t off);
// The whole table, in offset order.
const reg_desc* reg_table(unsigned& count);

} // namespace nicsim::ks

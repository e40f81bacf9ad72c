// SPDX-License-Identifier: MIT
// The KS8851 register file declared once (bus/common/reg.h): name, offset, reset value and
// access per bit. Everything else is derived from these declarations: the core attaches read
// handlers to the registers the chip computes and write handlers to the control registers
// (ks8851_core.cc), the host access rules and reset come from the access kinds and reset
// values, and traces name registers with reg_name() (no second table).
#pragma once

#include <cstdint>

#include "bus/common/reg.h"

namespace nicsim::ks {

using reg16 = regs::reg<uint16_t>;
using reg_map16 = regs::reg_map<uint16_t>;

// Declares every register into `m`, without handlers. Reset values do not depend on params
// (CCR and the MAC address registers are set by the core's reset).
void declare_registers(reg_map16& m);

// "ISR", "RXQCR", ... or nullptr for an offset that is not a register (odd offsets included).
const char* reg_name(uint32_t off);

} // namespace nicsim::ks

// SPDX-License-Identifier: MIT
// 16-bit asynchronous parallel bus (SRAM-like: CS#, RD#/WR#, address, 16 data lines, two byte
// lanes) as used by the KS8851-16MLL behind an i.MX-EIM-class external bus controller. One
// payload = one bus access (one strobe). docs/bus-par.md describes the protocol and timing.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include <systemc>
#include <tlm>

namespace nicsim::par {

enum class par_command : uint8_t { read, write };

enum class par_response : uint8_t {
    ok,
    no_device,      // nothing decodes this address
    protocol_error, // the device rejected the access (details in `error`)
};

// Byte-lane enables of the 16-bit data bus (host-side BHE#/BLE#-style lanes): bit 0 = D7..0,
// bit 1 = D15..8. The KS8851 driver only issues 16-bit accesses (both lanes).
inline constexpr uint8_t lane_lo = 0x1;
inline constexpr uint8_t lane_hi = 0x2;
inline constexpr uint8_t lanes_all = lane_lo | lane_hi;

struct par_payload {
    par_command cmd = par_command::read;
    uint64_t addr = 0;         // offset inside the chip-select window (bytes)
    uint16_t data = 0;         // write: driven by the host; read: filled by the device
    uint8_t lanes = lanes_all; // byte-lane enables
    par_response response = par_response::ok;
    std::string error; // set by the device when response != ok

    bool is_read() const { return cmd == par_command::read; }
    bool is_write() const { return cmd == par_command::write; }
    bool operator==(const par_payload& o) const {
        return cmd == o.cmd && addr == o.addr && data == o.data && lanes == o.lanes;
    }
};

inline std::ostream& operator<<(std::ostream& os, const par_payload& p) {
    os << (p.is_read() ? "RD" : "WR") << " 0x" << std::hex << p.addr << " [data: 0x" << p.data
       << " lanes: 0x" << unsigned(p.lanes) << "]" << std::dec;
    return os;
}

// TLM-2.0 protocol traits: par_payload instead of tlm_generic_payload, standard phases.
struct par_protocol_types {
    using tlm_payload_type = par_payload;
    using tlm_phase_type = tlm::tlm_phase;
};

} // namespace nicsim::par

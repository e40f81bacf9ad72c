// SPDX-License-Identifier: MIT
// One frame on the Ethernet wire: the bytes after the SFD (destination address through FCS,
// including any pad the sending MAC added) plus the simulated times of its life on the wire.
// Same shape as models/air/air_frame.h so the traffic layer can treat both links alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <systemc>

namespace nicsim::eth {

struct eth_frame {
    std::vector<uint8_t> bytes;                        // DA .. FCS as serialised (no preamble/SFD)
    uint64_t id = 0;                                   // assigned by the wire, unique per wire
    sc_core::sc_time t_submit = sc_core::SC_ZERO_TIME; // handed to the wire (queued)
    sc_core::sc_time t_start = sc_core::SC_ZERO_TIME;  // first preamble bit on the wire
    sc_core::sc_time t_end = sc_core::SC_ZERO_TIME;    // last FCS bit received = delivery time
    // The sender computed the FCS from exactly these bytes (eth_wire::peer_send), so a receiver
    // may skip re-checking it: a simulation-speed shortcut with the same outcome. Frames from
    // peer_send_raw (tests: bad FCS) leave it false and are checked.
    bool fcs_known_good = false;

    // The frame without its 4-byte FCS (what a host stack sees); empty if shorter than 4.
    std::vector<uint8_t> payload() const {
        return bytes.size() < 4 ? std::vector<uint8_t>{}
                                : std::vector<uint8_t>(bytes.begin(), bytes.end() - 4);
    }
};

} // namespace nicsim::eth

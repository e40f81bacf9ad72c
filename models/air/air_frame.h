// SPDX-License-Identifier: MIT
// One frame on the air link: the bytes the station's driver sent (or will receive) plus the
// simulated times of its life on the link. Frame-level only: no 802.11 framing is modelled, the
// MAC/PHY cost is folded into the link's airtime formula (air_link.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim {

struct air_frame {
    std::vector<uint8_t> bytes;                        // Ethernet frame as the host sees it
    uint64_t id = 0;                                   // assigned by the link, unique per link
    sc_core::sc_time t_submit = sc_core::SC_ZERO_TIME; // handed to the link (queued)
    sc_core::sc_time t_start = sc_core::SC_ZERO_TIME;  // first bit on the air
    sc_core::sc_time t_end = sc_core::SC_ZERO_TIME;    // last bit on the air = delivery time

    // sc_time's copy constructor is not noexcept, so the implicit move would not be either and
    // std::vector<air_frame> would deep-copy every frame's bytes when it grows. Moving is
    // member-wise and cannot throw (vector move + sc_time copy of a plain integer).
    air_frame() = default;
    air_frame(const air_frame&) = default;
    air_frame& operator=(const air_frame&) = default;
    air_frame(air_frame&& o) noexcept
        : bytes(std::move(o.bytes)), id(o.id), t_submit(o.t_submit), t_start(o.t_start),
          t_end(o.t_end) {}
    air_frame& operator=(air_frame&& o) noexcept {
        bytes = std::move(o.bytes);
        id = o.id;
        t_submit = o.t_submit;
        t_start = o.t_start;
        t_end = o.t_end;
        return *this;
    }
};

} // namespace nicsim

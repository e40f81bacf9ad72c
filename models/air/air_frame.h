// SPDX-License-Identifier: MIT
// One frame on the air link: the bytes the station's driver sent (or will receive) plus the
// simulated times of its life on the link. Frame-level only: no 802.11 framing is modelled, the
// MAC/PHY cost is folded into the link's airtime formula (air_link.h). What 802.11 power save
// needs of the MAC header is carried as fields: the frame's kind, the Power Management and More
// Data bits, and a beacon's TIM.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim {

// data: an Ethernet frame of the host's. beacon: the access point's (its TIM in the fields
// below). null_data: the station's frame without payload that only carries the PM bit (802.11
// "Null" data frame), sent to enter or leave power save.
enum class air_kind : uint8_t { data, beacon, null_data };

const char* to_string(air_kind k);

struct air_frame {
    std::vector<uint8_t> bytes;                        // Ethernet frame as the host sees it
    uint64_t id = 0;                                   // assigned by the link, unique per link
    sc_core::sc_time t_submit = sc_core::SC_ZERO_TIME; // handed to the link (queued)
    sc_core::sc_time t_start = sc_core::SC_ZERO_TIME;  // first bit on the air
    sc_core::sc_time t_end = sc_core::SC_ZERO_TIME;    // last bit on the air = delivery time
    air_kind kind = air_kind::data;
    bool pm = false;        // station frames: Power Management bit (the station dozes after it)
    bool more_data = false; // access point frames: more buffered group frames follow this one
    // Beacons: the TIM says unicast frames are buffered for the station (tim), this is a DTIM
    // beacon (dtim), and buffered group-addressed frames follow it (bcmc).
    bool tim = false, dtim = false, bcmc = false;

    // sc_time's copy constructor is not noexcept, so the implicit move would not be either and
    // std::vector<air_frame> would deep-copy every frame's bytes when it grows. Moving is
    // member-wise and cannot throw (vector move + sc_time copy of a plain integer).
    air_frame() = default;
    air_frame(const air_frame&) = default;
    air_frame& operator=(const air_frame&) = default;
    air_frame(air_frame&& o) noexcept
        : bytes(std::move(o.bytes)), id(o.id), t_submit(o.t_submit), t_start(o.t_start),
          t_end(o.t_end), kind(o.kind), pm(o.pm), more_data(o.more_data), tim(o.tim), dtim(o.dtim),
          bcmc(o.bcmc) {}
    air_frame& operator=(air_frame&& o) noexcept {
        bytes = std::move(o.bytes);
        id = o.id;
        t_submit = o.t_submit;
        t_start = o.t_start;
        t_end = o.t_end;
        kind = o.kind;
        pm = o.pm;
        more_data = o.more_data;
        tim = o.tim;
        dtim = o.dtim;
        bcmc = o.bcmc;
        return *this;
    }
};

} // namespace nicsim

// SPDX-License-Identifier: MIT
#include "models/air/air_link.h"

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace sc_core;

namespace nicsim {

air_link::air_link(sc_module_name name, const air_link_params& params)
    : sc_module(name), m_params(params) {
    if (!(m_params.phy_rate_bps > 0.0))
        throw std::invalid_argument(std::string(this->name()) + ": phy_rate_bps must be > 0");
    if (!(m_params.mac_efficiency > 0.0 && m_params.mac_efficiency <= 1.0))
        throw std::invalid_argument(std::string(this->name()) +
                                    ": mac_efficiency must be in (0, 1]");
    SC_HAS_PROCESS(air_link);
    SC_THREAD(medium);
}

sc_time air_link::airtime(size_t bytes) const {
    const double s = 8.0 * double(bytes) / (m_params.phy_rate_bps * m_params.mac_efficiency);
    return sc_time(s, SC_SEC) + m_params.per_frame_overhead;
}

uint64_t air_link::station_send(std::vector<uint8_t> bytes) {
    air_frame f;
    f.bytes = std::move(bytes);
    f.id = m_next_id++;
    f.t_submit = sc_time_stamp();
    m_station_q.push_back(std::move(f));
    m_wake.notify(SC_ZERO_TIME);
    return m_station_q.back().id;
}

void air_link::peer_send(std::vector<uint8_t> bytes, sc_time at) {
    if (at < sc_time_stamp())
        throw std::invalid_argument(std::string(name()) + ": peer_send release time in the past");
    air_frame f;
    f.bytes = std::move(bytes);
    f.id = m_next_id++;
    f.t_submit = at;
    // Keep release-time order; equal times stay FIFO.
    auto it = std::upper_bound(m_peer_q.begin(), m_peer_q.end(), at,
                               [](const sc_time& t, const air_frame& x) { return t < x.t_submit; });
    m_peer_q.insert(it, std::move(f));
    m_wake.notify(SC_ZERO_TIME);
}

bool air_link::peer_ready(sc_time now) {
    if (m_peer_q.empty() && m_peer_source) {
        std::vector<uint8_t> b;
        if (m_peer_source(b)) {
            air_frame f;
            f.bytes = std::move(b);
            f.id = m_next_id++;
            f.t_submit = now;
            m_peer_q.push_back(std::move(f));
        } else {
            m_peer_source = nullptr;
        }
    }
    if (m_peer_q.empty() || m_peer_q.front().t_submit > now)
        return false;
    if (!m_station)
        return false;
    if (m_params.rx_backpressure && !m_station->air_can_receive(m_peer_q.front().bytes.size()))
        return false;
    return true;
}

void air_link::medium() {
    for (;;) {
        const sc_time now = sc_time_stamp();
        const bool st = !m_station_q.empty();
        const bool pr = peer_ready(now);
        if (!st && !pr) {
            // Sleep until something is queued, the next peer release time, or the station frees
            // buffer space.
            if (!m_peer_q.empty() && m_peer_q.front().t_submit > now)
                wait(m_peer_q.front().t_submit - now, m_wake);
            else
                wait(m_wake);
            continue;
        }
        const bool take_station = st && (!pr || m_station_turn);
        m_station_turn = !take_station;
        air_frame& f = m_on_air;
        if (take_station) {
            f = std::move(m_station_q.front());
            m_station_q.pop_front();
        } else {
            f = std::move(m_peer_q.front());
            m_peer_q.pop_front();
        }
        const sc_time at = airtime(f.bytes.size());
        f.t_start = now;
        f.t_end = now + at;
        // link_down: the frame is sent but never arrives (a lost peer frame never reaches the
        // station's radio).
        const bool lost = link_down.attached() && link_down.fires(now);
        if (lost)
            link_down.effect(now, take_station ? "station frame lost on the air"
                                               : "peer frame lost on the air");
        if (m_station && !(lost && !take_station)) {
            if (take_station)
                m_station->air_tx_started(f);
            else
                m_station->air_rx_started(f);
        }
        wait(at);
        m_stats.busy += at;
        if (lost) {
            if (take_station) {
                ++m_stats.station_frames_lost;
                if (m_station)
                    m_station->air_tx_done(f);
            } else {
                ++m_stats.peer_frames_lost;
            }
            f = air_frame{};
            continue;
        }
        if (take_station) {
            ++m_stats.station_frames;
            m_stats.station_bytes += f.bytes.size();
            if (m_station)
                m_station->air_tx_done(f);
            if (m_peer_sink)
                m_peer_sink(f);
            if (m_params.record_peer_rx)
                m_peer_rx.push_back(std::move(f));
        } else {
            // With backpressure the space was checked before the frame started (the station is
            // the only consumer of it meanwhile); without, a full station loses the frame.
            if (m_station &&
                (m_params.rx_backpressure || m_station->air_can_receive(f.bytes.size()))) {
                ++m_stats.peer_frames;
                m_stats.peer_bytes += f.bytes.size();
                m_station->air_rx_done(std::move(f));
            } else {
                ++m_stats.peer_frames_lost;
            }
        }
        f = air_frame{};
    }
}

} // namespace nicsim

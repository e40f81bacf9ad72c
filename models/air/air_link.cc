// SPDX-License-Identifier: MIT
#include "models/air/air_link.h"

#include <algorithm>
#include <stdexcept>
#include <string>

using namespace sc_core;

namespace nicsim {

const char* to_string(air_kind k) {
    switch (k) {
    case air_kind::data:
        return "data";
    case air_kind::beacon:
        return "beacon";
    case air_kind::null_data:
        return "null_data";
    }
    return "?";
}

namespace {

bool group_addressed(const std::vector<uint8_t>& b) {
    return !b.empty() && (b[0] & 1) != 0;
}

// Insert keeping release-time order; equal times stay FIFO.
void insert_by_release(std::deque<air_frame>& q, air_frame f) {
    auto it = std::upper_bound(q.begin(), q.end(), f.t_submit,
                               [](const sc_time& t, const air_frame& x) { return t < x.t_submit; });
    q.insert(it, std::move(f));
}

} // namespace

air_link::air_link(sc_module_name name, const air_link_params& params)
    : sc_module(name), m_params(params), m_associated(params.associated) {
    if (!(m_params.phy_rate_bps > 0.0))
        throw std::invalid_argument(std::string(this->name()) + ": phy_rate_bps must be > 0");
    if (!(m_params.mac_efficiency > 0.0 && m_params.mac_efficiency <= 1.0))
        throw std::invalid_argument(std::string(this->name()) +
                                    ": mac_efficiency must be in (0, 1]");
    if (m_params.beacon_interval > SC_ZERO_TIME &&
        (m_params.dtim_period == 0 || !(m_params.beacon_rate_bps > 0.0)))
        throw std::invalid_argument(std::string(this->name()) +
                                    ": dtim_period and beacon_rate_bps must be > 0");
    m_next_tbtt = tbtt(1);
    SC_HAS_PROCESS(air_link);
    SC_THREAD(medium);
}

sc_time air_link::airtime(size_t bytes) const {
    const double s = 8.0 * double(bytes) / (m_params.phy_rate_bps * m_params.mac_efficiency);
    return sc_time(s, SC_SEC) + m_params.per_frame_overhead;
}

sc_time air_link::beacon_airtime() const {
    return m_params.beacon_preamble +
           sc_time(8.0 * double(m_params.beacon_bytes) / m_params.beacon_rate_bps, SC_SEC);
}

uint64_t air_link::next_beacon_at_or_after(sc_time t) const {
    if (m_params.beacon_interval == SC_ZERO_TIME)
        return 0;
    const uint64_t k = t.value() / m_params.beacon_interval.value();
    return tbtt(k) >= t && k >= 1 ? k : k + 1;
}

bool air_link::station_join(const std::array<uint8_t, 6>& bssid, const std::string& ssid,
                            unsigned channel) {
    const air_bss& b = m_params.bss;
    m_associated =
        m_params.associated && bssid == b.bssid && ssid == b.ssid && channel == b.channel;
    return m_associated;
}

uint64_t air_link::station_send(std::vector<uint8_t> bytes, air_kind kind, bool pm) {
    if (kind == air_kind::beacon)
        throw std::invalid_argument(std::string(name()) + ": the station does not send beacons");
    air_frame f;
    f.bytes = std::move(bytes);
    f.id = m_next_id++;
    f.t_submit = sc_time_stamp();
    f.kind = kind;
    f.pm = pm;
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
    if (!m_associated) {
        ++m_stats.frames_unassociated; // the AP has no association to deliver it to
        return;
    }
    std::deque<air_frame>& q = group_addressed(f.bytes) ? m_bcmc_q : m_peer_q;
    insert_by_release(q, std::move(f));
    m_wake.notify(SC_ZERO_TIME);
}

// Unicast frames released for the station and held because it is in power save (the TIM bit).
bool air_link::unicast_buffered(sc_time now) const {
    return (!m_peer_q.empty() && m_peer_q.front().t_submit <= now) || m_peer_source;
}

void air_link::build_beacon(air_frame& f, sc_time now) {
    f = air_frame{};
    f.kind = air_kind::beacon;
    f.bytes.assign(m_params.beacon_bytes, 0);
    f.id = m_next_id++;
    f.t_submit = m_next_tbtt;
    f.dtim = is_dtim(m_beacon_k);
    f.tim = m_associated && m_station_ps && unicast_buffered(now);
    if (f.dtim && m_station_ps) {
        // Group frames buffered since the last DTIM go out right after this beacon.
        m_bcmc_released =
            size_t(std::count_if(m_bcmc_q.begin(), m_bcmc_q.end(),
                                 [&](const air_frame& x) { return x.t_submit <= now; }));
        f.bcmc = m_bcmc_released > 0;
    }
    ++m_stats.beacons;
    if (f.dtim)
        ++m_stats.dtim_beacons;
    ++m_beacon_k;
    m_next_tbtt = tbtt(m_beacon_k);
}

// The peer queue whose front frame may go on the air now: group frames when a DTIM beacon
// released them or the station is awake, unicast unless the station is in power save; of two
// candidates the one released first (the AP's single transmit queue for an awake station).
std::deque<air_frame>* air_link::peer_queue_ready(sc_time now) {
    const auto released = [now](const std::deque<air_frame>& q) {
        return !q.empty() && q.front().t_submit <= now;
    };
    std::deque<air_frame>* group =
        released(m_bcmc_q) && (!m_station_ps || m_bcmc_released > 0) ? &m_bcmc_q : nullptr;
    std::deque<air_frame>* unicast = !m_station_ps && released(m_peer_q) ? &m_peer_q : nullptr;
    if (group && unicast) {
        const air_frame &g = group->front(), &u = unicast->front();
        return g.t_submit < u.t_submit || (g.t_submit == u.t_submit && g.id < u.id) ? group
                                                                                    : unicast;
    }
    return group ? group : unicast;
}

// The AP takes the station's PM bit from each frame it receives (802.11-2016 11.2.3.2).
void air_link::station_frame_received(air_frame& f) {
    const bool was_ps = m_station_ps;
    m_station_ps = f.pm;
    if (was_ps && !m_station_ps)
        m_bcmc_released = 0; // the station is awake: group frames flow normally again
    if (f.kind == air_kind::null_data) {
        ++m_stats.station_null_frames;
        return;
    }
    if (!m_associated) {
        ++m_stats.frames_unassociated;
        return;
    }
    ++m_stats.station_frames;
    m_stats.station_bytes += f.bytes.size();
    if (m_peer_sink)
        m_peer_sink(f);
    if (m_params.record_peer_rx)
        m_peer_rx.push_back(std::move(f));
}

bool air_link::peer_ready(sc_time now) {
    if (m_peer_q.empty() && m_peer_source && !m_station_ps) {
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
    const std::deque<air_frame>* q = peer_queue_ready(now);
    if (!q || !m_station)
        return false;
    if (m_params.rx_backpressure && !m_station->air_can_receive(q->front().bytes.size()))
        return false;
    return true;
}

void air_link::medium() {
    for (;;) {
        const sc_time now = sc_time_stamp();
        const bool beacon = beacon_due(now);
        const bool st = !beacon && !m_station_q.empty();
        const bool pr = !beacon && peer_ready(now);
        if (!beacon && !st && !pr) {
            // Sleep until something is queued, the next peer release time, the next beacon, or
            // the station frees buffer space.
            sc_time next = SC_ZERO_TIME;
            const auto earlier = [&](sc_time t) {
                if (t > now && (next == SC_ZERO_TIME || t < next))
                    next = t;
            };
            if (!m_peer_q.empty())
                earlier(m_peer_q.front().t_submit);
            if (!m_bcmc_q.empty())
                earlier(m_bcmc_q.front().t_submit);
            if (m_params.beacon_interval > SC_ZERO_TIME)
                earlier(m_next_tbtt);
            if (next > SC_ZERO_TIME)
                m_timer.wait_until(next);
            else
                wait(m_wake);
            continue;
        }
        const bool take_station = st && (!pr || m_station_turn);
        if (!beacon)
            m_station_turn = !take_station;
        air_frame& f = m_on_air;
        if (beacon) {
            build_beacon(f, now);
        } else if (take_station) {
            f = std::move(m_station_q.front());
            m_station_q.pop_front();
        } else {
            std::deque<air_frame>& q = *peer_queue_ready(now);
            f = std::move(q.front());
            q.pop_front();
            m_peer_taken.notify(); // immediate: no delta cycle when nobody waits
            if (&q == &m_bcmc_q && m_bcmc_released > 0) {
                --m_bcmc_released;
                f.more_data = m_bcmc_released > 0;
            }
        }
        const bool from_peer = !take_station;
        const sc_time at = beacon ? beacon_airtime() : airtime(f.bytes.size());
        f.t_start = now;
        f.t_end = now + at;
        // link_down: the frame is sent but never arrives (a lost peer frame never reaches the
        // station's radio).
        const bool lost = link_down.attached() && link_down.fires(now);
        if (lost)
            link_down.effect(now, from_peer ? "peer frame lost on the air"
                                            : "station frame lost on the air");
        if (m_station && !(lost && from_peer)) {
            if (from_peer)
                m_station->air_rx_started(f);
            else
                m_station->air_tx_started(f);
        }
        wait(at);
        m_stats.busy += at;
        if (lost) {
            if (!from_peer) {
                ++m_stats.station_frames_lost;
                if (m_station)
                    m_station->air_tx_done(f);
            } else if (!beacon) {
                ++m_stats.peer_frames_lost;
            }
            f = air_frame{};
            continue;
        }
        if (!from_peer) {
            if (m_station)
                m_station->air_tx_done(f);
            station_frame_received(f);
        } else if (beacon) {
            if (m_station)
                m_station->air_rx_done(std::move(f));
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

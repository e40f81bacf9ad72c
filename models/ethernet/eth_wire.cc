// SPDX-License-Identifier: MIT
#include "models/ethernet/eth_wire.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/common/frame_buffers.h"
#include "models/ethernet/eth_crc.h"

namespace nicsim::eth {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

eth_wire::eth_wire(sc_core::sc_module_name name, const eth_wire_params& params)
    : sc_module(name), m_params(params), m_link(params.link_up) {
    link_down.react_to_window([this](bool open) {
        link_down.effect(sc_core::sc_time_stamp(), open ? "link went down" : "link came back up");
        set_link(!open);
    });
    if (!(params.rate_bps > 0.0) || !std::isfinite(params.rate_bps))
        throw std::invalid_argument(std::string(this->name()) +
                                    ": eth_wire_params.rate_bps must be positive");
    if (params.min_frame_bytes < 4)
        throw std::invalid_argument(std::string(this->name()) +
                                    ": eth_wire_params.min_frame_bytes must be >= 4 (FCS)");
    SC_HAS_PROCESS(eth_wire);
    SC_THREAD(station_direction);
    SC_THREAD(peer_direction);
    SC_THREAD(deliver_to_peer);
    SC_THREAD(deliver_to_station);
}

sc_time eth_wire::frame_time(size_t n) const {
    const double bits = 8.0 * double(m_params.preamble_bytes + m_params.sfd_bytes + n);
    return sc_time(bits / m_params.rate_bps, sc_core::SC_SEC);
}

sc_time eth_wire::ifg_time() const {
    return sc_time(8.0 * m_params.ifg_bytes / m_params.rate_bps, sc_core::SC_SEC);
}

eth_frame eth_wire::station_frame_of(std::vector<uint8_t> bytes, const char* who) {
    if (bytes.empty())
        throw std::invalid_argument(std::string(name()) + ": " + who + " of an empty frame");
    eth_frame f;
    f.bytes = std::move(bytes);
    f.id = m_next_id++;
    f.t_submit = sc_time_stamp();
    return f;
}

uint64_t eth_wire::station_send(std::vector<uint8_t> bytes) {
    m_station_q.push_back(station_frame_of(std::move(bytes), "station_send"));
    m_station_kick.notify(sc_core::SC_ZERO_TIME);
    return m_station_q.back().id;
}

uint64_t eth_wire::peer_send(std::vector<uint8_t> b, sc_time at) {
    const size_t min_no_fcs = m_params.min_frame_bytes - 4;
    if (b.size() < min_no_fcs)
        b.resize(min_no_fcs, 0); // the peer's MAC pads with zeros
    append_fcs(b);
    const uint64_t id = peer_send_raw(std::move(b), at);
    // peer_send_raw queued it ordered by release time; mark the queued frame (found by id).
    for (auto it = m_peer_q.rbegin(); it != m_peer_q.rend(); ++it)
        if (it->id == id) {
            it->fcs_known_good = true;
            break;
        }
    return id;
}

uint64_t eth_wire::peer_send_raw(std::vector<uint8_t> b, sc_time at) {
    if (b.empty())
        throw std::invalid_argument(std::string(name()) + ": peer_send of an empty frame");
    if (at < sc_time_stamp())
        throw std::invalid_argument(std::string(name()) + ": peer_send release time " +
                                    at.to_string() + " is in the past (now " +
                                    sc_time_stamp().to_string() + ")");
    eth_frame f;
    f.bytes = std::move(b);
    f.id = m_next_id++;
    f.t_submit = at;
    // Keep the queue ordered by release time (stable for equal times).
    auto it = m_peer_q.end();
    while (it != m_peer_q.begin() && std::prev(it)->t_submit > at)
        --it;
    const uint64_t id = f.id;
    m_peer_q.insert(it, std::move(f));
    m_peer_kick.notify(sc_core::SC_ZERO_TIME);
    return id;
}

void eth_wire::set_peer_source(std::function<bool(std::vector<uint8_t>&)> source) {
    m_peer_source = std::move(source);
    m_peer_kick.notify(sc_core::SC_ZERO_TIME);
}

void eth_wire::set_link(bool up) {
    if (up == m_link)
        return;
    m_link = up;
    if (m_station)
        m_station->eth_link_changed(up);
    m_station_kick.notify(sc_core::SC_ZERO_TIME);
    m_peer_kick.notify(sc_core::SC_ZERO_TIME);
}

uint64_t eth_wire::station_transmit(std::vector<uint8_t> bytes) {
    if (m_station_sending || !m_station_q.empty())
        throw std::logic_error(std::string(name()) +
                               ": station_transmit while station_send frames are on the way");
    m_station_cur = station_frame_of(std::move(bytes), "station_transmit");
    const uint64_t id = m_station_cur.id;
    station_frame();
    return id;
}

void eth_wire::station_direction() {
    for (;;) {
        while (m_station_q.empty())
            sc_core::wait(m_station_kick);
        m_station_cur = std::move(m_station_q.front());
        m_station_q.pop_front();
        station_frame();
    }
}

void eth_wire::station_frame() {
    m_station_sending = true;
    if (m_station_line_free > sc_time_stamp())
        sc_core::wait(m_station_line_free - sc_time_stamp());
    const sc_time dur = frame_time(m_station_cur.bytes.size());
    m_station_cur.t_start = sc_time_stamp();
    if (m_station)
        m_station->eth_line_busy(true, true);
    sc_core::wait(dur);
    if (m_station)
        m_station->eth_line_busy(true, false);
    m_station_line_free = sc_time_stamp() + ifg_time();
    m_station_cur.t_end = sc_time_stamp() + m_params.propagation_delay;
    m_station_sending = false;
    // The MAC's transmission is over either way; with the link down nobody hears it.
    if (m_station)
        m_station->eth_tx_done(m_station_cur);
    if (!m_link) {
        ++m_stats.dropped_link_down;
        return;
    }
    m_stats.station_busy += dur;
    if (m_station_cur.bytes.size() < m_params.min_frame_bytes)
        ++m_stats.station_runts;
    if (m_params.propagation_delay == sc_core::SC_ZERO_TIME && m_to_peer.empty()) {
        to_peer(std::move(m_station_cur)); // it arrives as it ends: no hand-over
        return;
    }
    m_to_peer.push_back(std::move(m_station_cur));
    m_to_peer_kick.notify(m_params.propagation_delay);
}

void eth_wire::deliver_to_peer() {
    for (;;) {
        while (m_to_peer.empty())
            sc_core::wait(m_to_peer_kick);
        if (m_to_peer.front().t_end > sc_time_stamp()) {
            sc_core::wait(m_to_peer.front().t_end - sc_time_stamp());
            continue;
        }
        eth_frame f = std::move(m_to_peer.front());
        m_to_peer.pop_front();
        to_peer(std::move(f));
    }
}

void eth_wire::to_peer(eth_frame f) {
    ++m_stats.station_frames;
    m_stats.station_bytes += f.bytes.size();
    if (m_peer_sink)
        m_peer_sink(f);
    if (m_params.record_peer_rx)
        m_peer_rx.push_back(std::move(f));
    else
        frame_buffers::give(f.bytes);
}

void eth_wire::deliver_to_station() {
    for (;;) {
        while (m_to_station.empty())
            sc_core::wait(m_to_station_kick);
        if (m_to_station.front().t_end > sc_time_stamp()) {
            sc_core::wait(m_to_station.front().t_end - sc_time_stamp());
            continue;
        }
        eth_frame f = std::move(m_to_station.front());
        m_to_station.pop_front();
        to_station(std::move(f));
    }
}

void eth_wire::to_station(eth_frame f) {
    ++m_stats.peer_frames;
    m_stats.peer_bytes += f.bytes.size();
    if (m_station)
        m_station->eth_rx_frame(std::move(f));
}

bool eth_wire::next_peer_frame(eth_frame& f) {
    if (m_peer_q.empty() && m_peer_source) {
        std::vector<uint8_t> b;
        if (m_peer_source(b))
            peer_send(std::move(b), sc_time_stamp());
        else
            m_peer_source = nullptr;
    }
    if (m_peer_q.empty())
        return false;
    f = std::move(m_peer_q.front());
    m_peer_q.pop_front();
    m_peer_taken.notify(); // immediate: no delta cycle when nobody waits
    return true;
}

void eth_wire::peer_direction() {
    sc_time line_free = sc_core::SC_ZERO_TIME;
    for (;;) {
        if (!next_peer_frame(m_peer_cur)) {
            sc_core::wait(m_peer_kick);
            continue;
        }
        const sc_time start = std::max({m_peer_cur.t_submit, line_free, sc_time_stamp()});
        if (start > sc_time_stamp())
            sc_core::wait(start - sc_time_stamp());
        if (!m_link) {
            ++m_stats.dropped_link_down;
            continue;
        }
        const sc_time dur = frame_time(m_peer_cur.bytes.size());
        m_peer_cur.t_start = sc_time_stamp();
        if (m_station)
            m_station->eth_line_busy(false, true);
        sc_core::wait(dur);
        if (m_station)
            m_station->eth_line_busy(false, false);
        line_free = sc_time_stamp() + ifg_time();
        m_peer_cur.t_end = sc_time_stamp() + m_params.propagation_delay;
        m_stats.peer_busy += dur;
        if (m_params.propagation_delay == sc_core::SC_ZERO_TIME && m_to_station.empty()) {
            to_station(std::move(m_peer_cur)); // it arrives as it ends: no hand-over
            continue;
        }
        m_to_station.push_back(std::move(m_peer_cur));
        m_to_station_kick.notify(m_params.propagation_delay);
    }
}

} // namespace nicsim::eth

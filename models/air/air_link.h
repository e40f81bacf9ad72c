// SPDX-License-Identifier: MIT
// nicsim::air::air_link — a half-duplex radio medium between one station (the chip model) and
// one peer (the access point / far host). Both directions share the medium; a frame occupies it
// for airtime(bytes) and is delivered when its last bit is on the air.
//
// Airtime = 8 * bytes / (phy_rate_bps * mac_efficiency) + per_frame_overhead. mac_efficiency folds
// every 802.11 MAC/PHY cost (preamble, SIFS/DIFS, backoff, ACK, headers) into one factor: a
// frame-level model, deliberately not an 802.11 MAC. See docs/models/air.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "models/common/fault_point.h"

#include "models/air/air_frame.h"

namespace nicsim {

struct air_link_params {
    // 802.11n HT20 1x1 MCS7 with short GI (docs/sources.md#phy-rates): datasheet-class fact.
    double phy_rate_bps = 72.2e6;
    // Share of the PHY rate left for payload after MAC/PHY overhead. Assumption (typical
    // single-stream 802.11n without aggregation); to be calibrated.
    double mac_efficiency = 0.6;
    // Fixed extra medium time per frame (assumption: 0, all overhead is in mac_efficiency).
    sc_core::sc_time per_frame_overhead = sc_core::SC_ZERO_TIME;
    // true: the peer only transmits when the station can accept the frame (link-level retries /
    // AP buffering hide station buffer overflow). false: frames the station cannot take are lost.
    bool rx_backpressure = true;
    // Keep a copy of every frame the peer received (tests); counters are always kept.
    bool record_peer_rx = true;
};

// Implemented by the station (chip model); called by the link in simulated time.
class air_station_if {
  public:
    virtual ~air_station_if() = default;
    virtual bool air_can_receive(size_t bytes) const = 0;
    virtual void air_tx_started(const air_frame& f) = 0; // station frame starts on the air
    virtual void air_tx_done(const air_frame& f) = 0;    // ... and has reached the peer
    virtual void air_rx_started(const air_frame& f) = 0; // peer frame starts arriving
    virtual void air_rx_done(air_frame f) = 0;           // peer frame completely received
};

struct air_link_stats {
    uint64_t station_frames = 0, station_bytes = 0; // station -> peer, delivered
    uint64_t peer_frames = 0, peer_bytes = 0;       // peer -> station, delivered
    uint64_t peer_frames_lost = 0;                  // station could not take them (no backpressure)
    uint64_t station_frames_lost = 0;               // lost on the air (fault link_down)
    sc_core::sc_time busy = sc_core::SC_ZERO_TIME;  // medium occupied
};

class air_link : public sc_core::sc_module {
  public:
    air_link(sc_core::sc_module_name name, const air_link_params& params = {});

    void attach_station(air_station_if& station) { m_station = &station; }
    const air_link_params& params() const { return m_params; }
    sc_core::sc_time airtime(size_t bytes) const;

    // Station side: queue a frame for transmission to the peer; returns its id.
    uint64_t station_send(std::vector<uint8_t> bytes);
    size_t station_queue_depth() const { return m_station_q.size(); }
    // The station calls this when air_can_receive() may have turned true.
    void station_ready() { m_wake.notify(sc_core::SC_ZERO_TIME); }

    // Peer side: a frame released at simulated time `at` (absolute; >= now).
    void peer_send(std::vector<uint8_t> bytes, sc_core::sc_time at);
    void peer_send(std::vector<uint8_t> bytes) {
        peer_send(std::move(bytes), sc_core::sc_time_stamp());
    }
    // Saturating source: asked for the next frame whenever the peer queue is empty; return false
    // when the source is exhausted.
    void set_peer_source(std::function<bool(std::vector<uint8_t>&)> source) {
        m_peer_source = std::move(source);
        m_wake.notify(sc_core::SC_ZERO_TIME);
    }
    void set_peer_sink(std::function<void(const air_frame&)> sink) {
        m_peer_sink = std::move(sink);
    }
    const std::vector<air_frame>& peer_received() const { return m_peer_rx; }
    size_t peer_queue_depth() const { return m_peer_q.size(); }

    const air_link_stats& stats() const { return m_stats; }

    // link_down (docs/faults.md): while its window is open every frame on the air is lost
    // (the station out of range of the access point); the sender's radio still transmits it.
    fault::point link_down{"link_down"};

  private:
    void medium();
    bool peer_ready(sc_core::sc_time now);

    air_link_params m_params;
    air_station_if* m_station = nullptr;
    std::deque<air_frame> m_station_q;
    std::deque<air_frame> m_peer_q; // ordered by release time (t_submit)
    // The frame on the air. A member, not a thread local: a coroutine stack that is never
    // unwound at the end of simulation would leak it.
    air_frame m_on_air;
    std::function<bool(std::vector<uint8_t>&)> m_peer_source;
    std::function<void(const air_frame&)> m_peer_sink;
    std::vector<air_frame> m_peer_rx;
    air_link_stats m_stats;
    sc_core::sc_event m_wake;
    uint64_t m_next_id = 1;
    bool m_station_turn = true; // round-robin when both sides have a frame
};

} // namespace nicsim

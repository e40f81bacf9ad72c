// SPDX-License-Identifier: MIT
// nicsim::air::air_link — a half-duplex radio medium between one station (the chip model) and
// one peer (the access point / far host). Both directions share the medium; a frame occupies it
// for airtime(bytes) and is delivered when its last bit is on the air.
//
// Airtime = 8 * bytes / (phy_rate_bps * mac_efficiency) + per_frame_overhead. mac_efficiency folds
// every 802.11 MAC/PHY cost (preamble, SIFS/DIFS, backoff, ACK, headers) into one factor: a
// frame-level model, deliberately not an 802.11 MAC. See docs/models/air.md.
//
// The peer is an access point: it beacons every beacon_interval (a DTIM beacon every
// dtim_period), and while the station is in power save (the PM bit of its last frame) it buffers
// the station's unicast frames, announcing them in the beacon's TIM, and holds group-addressed
// frames until after the next DTIM beacon (IEEE 802.11-2016 11.2.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "bus/common/deadline_timer.h"

#include "models/common/fault_point.h"

#include "models/air/air_bss.h"
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

    // --- the access point (docs/models/air.md "Access point") ---
    // The BSS it advertises; a station's join must name its BSSID, SSID and channel.
    air_bss bss;
    // true: the AP answers the station's authentication and association (and a station that does
    // not join, see station_join, starts associated). false: it never answers: the station stays
    // unassociated, the AP beacons but exchanges no data with it (frames either side sends are
    // dropped and counted).
    bool associated = true;
    // Target beacon transmission time spacing: 100 TU = 102.4 ms, 802.11's default
    // dot11BeaconPeriod and hostapd's beacon_int (docs/sources.md#wifi-power-save).
    // SC_ZERO_TIME: no beacons.
    sc_core::sc_time beacon_interval = sc_core::sc_time(102.4, sc_core::SC_MS);
    // Every dtim_period-th beacon is a DTIM beacon. Default 2: hostapd's dtim_period
    // (docs/sources.md#wifi-power-save).
    unsigned dtim_period = 2;
    // Beacon frame on the air: [assumption] 200 bytes (MAC header, timestamp, SSID, rates, TIM,
    // HT elements; typical beacons are 150-300 bytes), sent at the lowest basic rate, 1 Mbit/s
    // DSSS, behind its 192 us long PLCP preamble and header [fact: IEEE 802.11-2016 16.2.2].
    size_t beacon_bytes = 200;
    double beacon_rate_bps = 1e6;
    sc_core::sc_time beacon_preamble = sc_core::sc_time(192, sc_core::SC_US);
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
    uint64_t beacons = 0;                           // beacons sent (DTIM ones in dtim_beacons)
    uint64_t dtim_beacons = 0;
    uint64_t station_null_frames = 0;              // null-data frames (PM bit only)
    uint64_t frames_unassociated = 0;              // data dropped: no association
    sc_core::sc_time busy = sc_core::SC_ZERO_TIME; // medium occupied
};

class air_link : public sc_core::sc_module {
  public:
    air_link(sc_core::sc_module_name name, const air_link_params& params = {});

    void attach_station(air_station_if& station) { m_station = &station; }
    const air_link_params& params() const { return m_params; }
    sc_core::sc_time airtime(size_t bytes) const;
    sc_core::sc_time beacon_airtime() const;
    // Target beacon transmission time of beacon k (k = 1, 2, ...; beacon k is a DTIM beacon when
    // k % dtim_period == 0). The beacon goes on the air at its TBTT, or when the frame on the
    // air then ends. SC_ZERO_TIME when beacons are off.
    sc_core::sc_time tbtt(uint64_t k) const { return m_params.beacon_interval * double(k); }
    // The first beacon at or after t (k >= 1); 0 when beacons are off.
    uint64_t next_beacon_at_or_after(sc_core::sc_time t) const;
    bool is_dtim(uint64_t k) const { return m_params.dtim_period && k % m_params.dtim_period == 0; }
    // The access point's view of the station: in power save (PM = 1 on its last frame).
    bool station_in_power_save() const { return m_station_ps; }

    // The station's association with the AP (802.11 state 3: data frames flow). It starts as
    // params.associated, for stations that never join (tests of the link alone); a station that
    // joins (the WILC1000 firmware) calls station_leave() when it attaches and station_join()
    // when its authentication and association exchange is done.
    bool associated() const { return m_associated; }
    // Whether the AP answered the exchange: it does when params.associated and the request names
    // its BSSID, SSID and channel. The station is associated from now on if so.
    bool station_join(const std::array<uint8_t, 6>& bssid, const std::string& ssid,
                      unsigned channel);
    void station_leave() { m_associated = false; }

    // Station side: queue a frame for transmission to the peer; returns its id. kind data or
    // null_data; pm is the frame's Power Management bit.
    uint64_t station_send(std::vector<uint8_t> bytes, air_kind kind = air_kind::data,
                          bool pm = false);
    size_t station_queue_depth() const { return m_station_q.size(); }
    // The station calls this when air_can_receive() may have turned true.
    void station_ready() { m_wake.notify(sc_core::SC_ZERO_TIME); }

    // Peer side: a frame released at simulated time `at` (absolute; >= now). A group-addressed
    // destination (first byte's I/G bit) goes to the group queue.
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
    size_t peer_queue_depth() const { return m_peer_q.size() + m_bcmc_q.size(); }
    // Notified (immediately) when a peer frame leaves a peer queue for the medium: a sender that
    // bounds what it has queued (its socket send buffer) waits for it.
    const sc_core::sc_event& peer_taken_event() const { return m_peer_taken; }

    const air_link_stats& stats() const { return m_stats; }

    // link_down (docs/faults.md): while its window is open every frame on the air is lost
    // (the station out of range of the access point); the sender's radio still transmits it.
    fault::point link_down{"link_down"};

  private:
    void medium();
    bool peer_ready(sc_core::sc_time now);
    // The peer frame that may go next (unicast or group queue), null if none may.
    std::deque<air_frame>* peer_queue_ready(sc_core::sc_time now);
    bool beacon_due(sc_core::sc_time now) const {
        return m_params.beacon_interval > sc_core::SC_ZERO_TIME && m_next_tbtt <= now;
    }
    void build_beacon(air_frame& f, sc_core::sc_time now);
    void station_frame_received(air_frame& f);
    bool unicast_buffered(sc_core::sc_time now) const;

    air_link_params m_params;
    air_station_if* m_station = nullptr;
    std::deque<air_frame> m_station_q;
    std::deque<air_frame> m_peer_q; // unicast, ordered by release time (t_submit)
    std::deque<air_frame> m_bcmc_q; // group-addressed, ordered by release time
    bool m_associated;              // see associated()
    bool m_station_ps = false;      // PM bit of the station's last frame
    size_t m_bcmc_released = 0;     // group frames the last DTIM beacon announced, still to send
    uint64_t m_beacon_k = 1;        // next beacon's number
    sc_core::sc_time m_next_tbtt;
    // The frame on the air. A member, not a thread local: a coroutine stack that is never
    // unwound at the end of simulation would leak it.
    air_frame m_on_air;
    std::function<bool(std::vector<uint8_t>&)> m_peer_source;
    std::function<void(const air_frame&)> m_peer_sink;
    std::vector<air_frame> m_peer_rx;
    air_link_stats m_stats;
    sc_core::sc_event m_wake;
    sc_core::sc_event m_peer_taken;
    deadline_timer m_timer{m_wake}; // medium()'s wait for the next release or beacon
    uint64_t m_next_id = 1;
    bool m_station_turn = true; // round-robin when both sides have a frame
};

} // namespace nicsim

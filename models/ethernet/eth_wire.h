// SPDX-License-Identifier: MIT
// nicsim::eth::eth_wire — a full-duplex 10/100 Ethernet link between one station (the chip
// model's MAC) and one peer host. Each direction serialises its own frames:
//
//   on-wire time of a frame of n bytes (DA..FCS) = (preamble 7 + SFD 1 + n) * 8 / rate
//   next frame in the same direction starts >= IFG (12 bytes) after the previous one ends
//
// A frame is delivered to the receiver when its last FCS bit arrives (t_end = start + on-wire
// time + propagation delay); the sender's tx-done fires when its last bit has left. The station
// MAC pads and adds the FCS itself (the wire sends what it is given; a frame shorter than the
// 64-byte minimum is counted as a runt). The peer side behaves like a host stack over a normal
// MAC: peer_send() takes a frame without FCS, pads it to 60 bytes and appends the FCS. There is
// no back-pressure toward the station (Ethernet has none; PAUSE frames are not modelled).
// The peer API mirrors models/air/air_link.h. See docs/models/ethernet.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "models/common/fault_point.h"
#include "models/ethernet/eth_frame.h"

namespace nicsim::eth {

struct eth_wire_params {
    double rate_bps = 100e6;       // [fact] 100BASE-TX (10e6 for 10BASE-T)
    unsigned preamble_bytes = 7;   // [fact] IEEE 802.3 clause 4
    unsigned sfd_bytes = 1;        // [fact]
    unsigned ifg_bytes = 12;       // [fact] 96 bit times
    unsigned min_frame_bytes = 64; // [fact] DA..FCS; shorter frames are runts
    // Cable + PHY latency. [assumption] 0; a 100 m cable is about 0.5 us.
    sc_core::sc_time propagation_delay = sc_core::SC_ZERO_TIME;
    bool link_up = true;        // initial link state
    bool record_peer_rx = true; // keep a copy of every frame the peer received (tests)
};

// Implemented by the station (chip MAC); called by the wire in simulated time.
class eth_station_if {
  public:
    virtual ~eth_station_if() = default;
    virtual void eth_tx_done(const eth_frame& f) = 0; // last bit of a station frame has left
    virtual void eth_rx_frame(eth_frame f) = 0;       // a peer frame fully received
    virtual void eth_link_changed(bool up) = 0;       // link state changed
    // A frame starts (busy) or ends (!busy) on the wire, station_tx = the station sends; at the
    // wire's own times (the peer direction ignores the propagation delay). For power meters;
    // a station without one ignores it.
    virtual void eth_line_busy(bool /*station_tx*/, bool /*busy*/) {}
};

struct eth_wire_stats {
    uint64_t station_frames = 0, station_bytes = 0; // station -> peer, delivered (bytes DA..FCS)
    uint64_t peer_frames = 0, peer_bytes = 0;       // peer -> station, delivered
    uint64_t station_runts = 0;                     // station frames below min_frame_bytes
    uint64_t dropped_link_down = 0;                 // frames discarded because the link was down
    sc_core::sc_time station_busy = sc_core::SC_ZERO_TIME; // wire occupied, station direction
    sc_core::sc_time peer_busy = sc_core::SC_ZERO_TIME;    // wire occupied, peer direction
};

class eth_wire : public sc_core::sc_module {
  public:
    eth_wire(sc_core::sc_module_name name, const eth_wire_params& params = {});

    void attach_station(eth_station_if& station) { m_station = &station; }
    const eth_wire_params& params() const { return m_params; }
    // Preamble + SFD + n bytes at the line rate.
    sc_core::sc_time frame_time(size_t bytes_with_fcs) const;
    sc_core::sc_time ifg_time() const;

    // --- station side ---
    // Queue a frame (DA..FCS, already padded by the MAC) toward the peer; returns its id.
    uint64_t station_send(std::vector<uint8_t> bytes_with_fcs);
    // The same in the calling SC_THREAD (a MAC's TX engine that waits for its frame anyway):
    // returns when the frame's last bit has left, after eth_tx_done, as station_send's frame
    // would; the station thread's hand-over and its two context switches a frame are spared.
    // Throws std::logic_error while station_send frames are still queued or on the line.
    uint64_t station_transmit(std::vector<uint8_t> bytes_with_fcs);
    size_t station_queue_depth() const { return m_station_q.size(); }

    // --- peer side ---
    // A frame without FCS released at absolute time `at` (>= now): padded to 60 bytes, FCS
    // appended, serialised after the frames queued before it.
    uint64_t peer_send(std::vector<uint8_t> bytes_no_fcs, sc_core::sc_time at);
    uint64_t peer_send(std::vector<uint8_t> bytes_no_fcs) {
        return peer_send(std::move(bytes_no_fcs), sc_core::sc_time_stamp());
    }
    // Same, but the bytes go on the wire exactly as given (tests: runts, bad FCS).
    uint64_t peer_send_raw(std::vector<uint8_t> bytes_with_fcs, sc_core::sc_time at);
    // Saturating source: asked for the next frame (without FCS) whenever the peer queue is
    // empty; return false when exhausted.
    void set_peer_source(std::function<bool(std::vector<uint8_t>&)> source);
    void set_peer_sink(std::function<void(const eth_frame&)> sink) {
        m_peer_sink = std::move(sink);
    }
    const std::vector<eth_frame>& peer_received() const { return m_peer_rx; }
    size_t peer_queue_depth() const { return m_peer_q.size(); }
    // Notified (immediately) when a frame leaves the peer queue for the line: a sender that
    // bounds what it has queued (its socket send buffer) waits for it.
    const sc_core::sc_event& peer_taken_event() const { return m_peer_taken; }

    // --- link ---
    // Takes effect now; the station is told through eth_link_changed(). Frames queued or
    // released while the link is down are discarded (counted in dropped_link_down).
    void set_link(bool up);
    bool link_up() const { return m_link; }
    // link_down (docs/faults.md): the link goes down when the fault's window opens and up
    // again when it closes (set_link, so the station's PHY sees both changes).
    fault::point link_down{"link_down"};

    const eth_wire_stats& stats() const { return m_stats; }

  private:
    void station_direction();
    // A station frame of `bytes` (throws naming `who` if empty), and the current one from its
    // start (after the IFG) to its arrival, in the calling thread.
    eth_frame station_frame_of(std::vector<uint8_t> bytes, const char* who);
    void station_frame();
    void peer_direction();
    void deliver_to_peer(); // frames leave the wire after the propagation delay
    void deliver_to_station();
    void to_peer(eth_frame f); // the frame's last bit reaches the receiver now
    void to_station(eth_frame f);
    bool next_peer_frame(eth_frame& f);

    eth_wire_params m_params;
    eth_station_if* m_station = nullptr;
    bool m_link;
    std::deque<eth_frame> m_station_q;
    std::deque<eth_frame> m_peer_q; // ordered by release time
    eth_frame m_station_cur;        // members, not thread locals (coroutine stacks never unwind)
    sc_core::sc_time m_station_line_free = sc_core::SC_ZERO_TIME; // next start after the IFG
    bool m_station_sending = false; // station_frame() has m_station_cur on the line
    eth_frame m_peer_cur;
    std::function<bool(std::vector<uint8_t>&)> m_peer_source;
    std::function<void(const eth_frame&)> m_peer_sink;
    std::vector<eth_frame> m_peer_rx;
    eth_wire_stats m_stats;
    sc_core::sc_event m_station_kick;
    sc_core::sc_event m_peer_kick;
    sc_core::sc_event m_peer_taken;
    std::deque<eth_frame> m_to_peer; // serialised, in flight (propagation), in order
    std::deque<eth_frame> m_to_station;
    sc_core::sc_event m_to_peer_kick;
    sc_core::sc_event m_to_station_kick;
    uint64_t m_next_id = 1;
};

} // namespace nicsim::eth

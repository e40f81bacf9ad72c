// SPDX-License-Identifier: MIT
// The WILC1000 firmware's 802.11 power save as a station ("fast PS", the WILC_FW_MIN_FAST_PS the
// 6.1 driver sends in WID_POWER_MANAGEMENT), in chip time:
//
//   off --(power save on, the firmware associated)--> active
//   active --(no data for ps_dynamic_timeout)--> entering: null-data frame with PM=1 on the air
//   entering --(the AP has it)--> doze                            (radio meter: doze)
//   doze --(ps_wake_ahead before the next wake beacon's TBTT)--> beacon_wait   (listen)
//   beacon_wait --(beacon, TIM set)--> null-data PM=0 --> active  (the AP releases the frames)
//   beacon_wait --(beacon, buffered group frames)--> bcmc_wait --(last one: More Data 0)--> doze
//   beacon_wait --(beacon, nothing buffered / no beacon by TBTT + ps_beacon_timeout)--> doze
//   doze, beacon_wait, entering --(the host sends a frame)--> active (after ps_radio_wake_time
//                                   when the radio was dozing; the data frame carries PM=0)
//
// Data frames always carry PM=0: the station sends them only when active. The wake beacons are
// the DTIM beacons (mac80211's ps_dtim_period behaviour), or with params::ps_wake =
// listen_interval every listen-interval-th beacon (docs/models/wilc1000.md "802.11 power save").
// Host-interface sleep (power_model's chip sleep) is independent of all of this.
#pragma once

#include <cstdint>

#include <systemc>

#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000_params.h"
#include "models/wilc1000/wilc1000_power.h"

namespace nicsim::wilc {

enum class ps_state { off, active, entering, doze, beacon_wait, bcmc_wait };
const char* to_string(ps_state s);

struct station_ps_stats {
    uint64_t dozes = 0;          // entries into doze
    uint64_t beacon_wakeups = 0; // doze -> beacon_wait
    uint64_t uplink_wakeups = 0; // doze -> active for a frame from the host
    uint64_t tim_wakeups = 0;    // beacon with the TIM bit -> active
    uint64_t beacons_missed = 0; // beacon_wait timed out
    uint64_t frames_missed = 0;  // a frame arrived while the radio dozed (lost)
    uint64_t null_frames = 0;    // null-data frames sent
};

class station_ps {
  public:
    station_ps(const params& p, power_model& power);
    void attach(air_link* link) { m_air = link; }

    // Power save allowed: firmware running, WID_POWER_MANAGEMENT != NO_POWERSAVE, and the
    // firmware associated (the core's join state, wilc1000_join.h).
    void set_enabled(sc_core::sc_time t, bool enabled);
    // The firmware stopped (CPU halted): power save is off without a frame to the AP.
    void reset(sc_core::sc_time t);
    // The firmware has a data frame for the air. Returns true when the radio can send it now;
    // false: it dozes, hold the frame until wake_for_uplink_done() (next_event() says when).
    bool uplink(sc_core::sc_time t);
    // Whether the radio hears a frame the AP starts sending now (false while it dozes).
    bool hears(const air_frame& f) const;
    // A frame the radio heard is complete.
    void received(sc_core::sc_time t, const air_frame& f);
    // A station frame left the air. tx_idle: nothing else of the station's is queued or on air.
    void sent(sc_core::sc_time t, const air_frame& f, bool tx_idle);
    // The timer of next_event() expired (t >= next_event()). tx_idle as above.
    void timer(sc_core::sc_time t, bool tx_idle);
    // Absolute time of the next timed transition; SC_ZERO_TIME when none is pending.
    sc_core::sc_time next_event() const { return m_deadline; }
    // true right after timer() completed a wake for the host's frame: send the held frames.
    bool take_uplink_ready() {
        const bool r = m_uplink_ready;
        m_uplink_ready = false;
        return r;
    }

    // The listen interval in beacons the host set (WID_LISTEN_INTERVAL; 0 counts as 1).
    void set_listen_interval(unsigned beacons) { m_listen_interval = beacons ? beacons : 1; }
    unsigned listen_interval() const { return m_listen_interval; }

    // A frame arrived while the radio dozed (hears() was false): it is lost.
    void frame_missed() { ++m_stats.frames_missed; }

    ps_state state() const { return m_state; }
    const station_ps_stats& stats() const { return m_stats; }

  private:
    void enter(sc_core::sc_time t, ps_state s);
    void send_null(bool pm);
    void doze_until_next_wake(sc_core::sc_time t);
    bool is_wake_beacon(uint64_t k) const;
    void go_active(sc_core::sc_time t);

    const params& m_p;
    power_model& m_power;
    air_link* m_air = nullptr;
    ps_state m_state = ps_state::off;
    bool m_waking_for_uplink = false, m_uplink_ready = false;
    uint64_t m_null_id = 0;     // the PM=1 null frame on its way (entering)
    uint64_t m_wait_beacon = 0; // the wake beacon beacon_wait listens for
    unsigned m_listen_interval = 1;
    sc_core::sc_time m_deadline;
    sc_core::sc_time m_last_data; // active: the last data frame sent or received
    station_ps_stats m_stats;
};

} // namespace nicsim::wilc

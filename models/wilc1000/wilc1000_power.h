// SPDX-License-Identifier: MIT
// Chip power state machine in chip time, plus the chip's two energy meters.
//
// The firmware's sleep decision (docs/models/wilc1000.md "Chip sleep"):
//   awake --(no hold)--> sleep_pending --(sleep_entry_delay)--> asleep
//   sleep_pending --(host access)--> sleep_pending, idle time counted again from the access
//   sleep_pending --(hold)--> awake            (no latency: the clock never stopped)
//   asleep --(WAKEUP bit or firmware work)--> waking --(wake_latency, or deep_wake_latency after
//            deep_sleep_after asleep)--> awake
//
// "hold" = host WAKEUP bit | HOST_TO_FW bit | firmware work: what it holds for the host (boot,
// config jobs, RX frames queued or announced, VMM space allocated for a pending DMA) and on the
// air (TX frames queued or on the air, a frame being received) | firmware power save off. The
// firmware finishes all of it before it gates its clocks, and then waits until the host has been
// silent for sleep_entry_delay.
// CLK_STATUS bit 2 is 1 exactly in awake/sleep_pending. The model is evaluated lazily: every
// input and query carries its simulated time (monotonic), and pending timed transitions are
// applied first, so results do not depend on how often it is polled.
//
// Every host wake request (WAKEUP written 0 -> 1) is recorded with the state it found (clock
// running, waking, asleep and for how long) and the CLK_STATUS polls the host made until it read
// the clock ready (wake_stats).
//
// Energy (ns-3's split of device energy models from the source): a radio meter and a
// host-interface meter, each charging its own states' currents at the supply voltage.
//   host interface: awake (awake, sleep_pending), sleep (asleep), waking (waking): the state
//                   machine above, so chip sleep gates only this meter.
//   radio:          off until the firmware runs; then tx / rx while the air link uses it,
//                   doze while the firmware's 802.11 power save dozes (wilc1000_station_ps.h),
//                   listen otherwise. The host interface's sleep does not reach it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <systemc>

#include "models/common/energy_meter.h"
#include "models/wilc1000/wilc1000_params.h"

namespace nicsim::wilc {

enum class power_state { awake, sleep_pending, asleep, waking };
// Meter states, in report order (indices into the meters).
enum class radio_state { tx = 0, rx, listen, doze, off, count_ };
enum class host_if_state { awake = 0, sleep, waking, count_ };

const char* to_string(power_state s);
const char* to_string(radio_state s);
const char* to_string(host_if_state s);

// Trace hook (timelines, waveforms). Called synchronously while the model applies a change, with
// the simulated time the change takes effect. Because the model is lazy, a timed transition
// (sleep_pending -> asleep, waking -> awake) is reported when the model is next advanced past it,
// with its own (earlier) time; times reported to one observer never decrease.
class power_observer {
  public:
    virtual ~power_observer() = default;
    virtual void on_power_state(sc_core::sc_time t, power_state s) = 0;
    // Firmware and radio activity inputs (set_fw_busy / set_radio), when one of them changes.
    virtual void on_activity(sc_core::sc_time, bool /*fw_host_work*/, bool /*fw_air_work*/,
                             bool /*tx*/, bool /*rx*/) {}
    // The radio meter's state, when it changes (same time order as on_power_state).
    virtual void on_radio_state(sc_core::sc_time, radio_state) {}
};

// How the host's wake requests went (report devices[].wake, docs/report-schema.md). Histogram
// buckets are log2: bucket i counts values in [2^(i-1), 2^i) (bucket 0: below 1), of
// microseconds asleep or of CLK_STATUS polls.
struct wake_stats {
    static constexpr size_t buckets = 24;
    uint64_t requests = 0;      // WAKEUP 0 -> 1 writes
    uint64_t found_running = 0; // the clock was running (awake or sleep_pending): no start-up
    uint64_t found_waking = 0;  // a start-up was already under way
    uint64_t found_asleep = 0;  // the clock was gated: the request started the oscillator
    uint64_t found_deep = 0;    // ... of which from deep sleep
    std::array<uint64_t, buckets> asleep_us{}; // time asleep before the requests that found it so
    std::array<uint64_t, buckets> polls{};     // CLK_STATUS reads per request until one read 1
    static size_t bucket(double v);
};

class power_model {
  public:
    explicit power_model(const params& p);

    // Inputs.
    void set_host_bits(sc_core::sc_time t, bool wakeup_bit, bool host_to_fw_bit);
    // host_work: firmware work the host waits for; air_work: radio-side work only.
    void set_fw_busy(sc_core::sc_time t, bool host_work, bool air_work);
    void set_ps_enabled(sc_core::sc_time t, bool enabled);
    // A host access the chip decoded while its clock ran: the firmware counts its idle time
    // before sleeping from here.
    void host_access(sc_core::sc_time t);
    // A CLK_STATUS read and what it returned (the wake statistics count the polls).
    void clk_status_read(sc_core::sc_time t, bool ready);
    void set_radio(sc_core::sc_time t, bool tx, bool rx);
    // The firmware runs (radio powered: listen / tx / rx) or not (radio off).
    void set_radio_on(sc_core::sc_time t, bool on);
    // 802.11 power save: the radio dozes between beacons (doze unless it sends or receives).
    void set_radio_doze(sc_core::sc_time t, bool doze);

    // Queries (advance to t first).
    bool clock_ready(sc_core::sc_time t);
    power_state state(sc_core::sc_time t);
    // Time the clock becomes ready (t itself when it already is; only meaningful while waking).
    sc_core::sc_time ready_time(sc_core::sc_time t);

    // At most one observer; null detaches. Not owned. With none the model pays one check per
    // state change.
    void set_observer(power_observer* obs) { m_obs = obs; }

    // Accounting up to t: the meters are charged up to t first.
    const energy_meter& radio(sc_core::sc_time t);
    const energy_meter& host_if(sc_core::sc_time t);
    sc_core::sc_time time_in(radio_state s, sc_core::sc_time t);
    sc_core::sc_time time_in(host_if_state s, sc_core::sc_time t);
    double energy_j(sc_core::sc_time t);                            // both meters
    uint64_t wakeups() const { return m_wakeups; }                  // asleep -> waking transitions
    uint64_t host_wake_requests() const { return m_wake.requests; } // WAKEUP 0->1 writes
    // The wake statistics, a request whose CLK_STATUS polls are still being counted included.
    wake_stats wakes() const;
    sc_core::sc_time waking_time(sc_core::sc_time t) { return time_in(host_if_state::waking, t); }

  private:
    void advance(sc_core::sc_time t);
    void evaluate(sc_core::sc_time t);
    void enter(sc_core::sc_time t, power_state s);
    void update_radio(sc_core::sc_time t);
    bool fw_holds() const { return m_fw_busy || m_air_busy; }
    bool hold() const { return m_wakeup_bit || m_h2f_bit || fw_holds() || !m_ps_enabled; }
    bool deep_since(sc_core::sc_time t) const; // asleep long enough for deep sleep (at t)
    void record_wake_request(sc_core::sc_time t);
    static void close_polls(wake_stats& w, uint64_t polls);

    const params& m_p;
    power_state m_state = power_state::awake;
    bool m_wakeup_bit = false, m_h2f_bit = false, m_fw_busy = false, m_ps_enabled = false;
    bool m_air_busy = false;
    bool m_tx = false, m_rx = false, m_radio_on = false, m_doze = false;
    sc_core::sc_time m_t_sleep, m_t_ready, m_t_asleep;
    energy_meter m_radio, m_host_if;
    uint64_t m_wakeups = 0;
    wake_stats m_wake;
    bool m_polls_open = false; // a wake request whose CLK_STATUS polls are being counted
    uint64_t m_open_polls = 0;
    power_observer* m_obs = nullptr;
};

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
// What `nicsim run` prints while a run goes (docs/scenarios.md "Progress"):
//  * interval lines (`-i/--interval SECONDS`), iperf3-style, one per interval of simulated time
//    since the traffic started, and a total line at the end;
//  * a heartbeat on stderr when it is a terminal: one line rewritten in place about once a
//    second of wall time (simulated time, bytes so far), erased when the run ends, so the
//    terminal keeps only the report. Pipes and files never get it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "sim/progress.h"

namespace nicsim::cli {

// iperf3's units: Bytes/KBytes/MBytes/GBytes by 1024, bits/s by 1000.
std::string format_transfer(std::uint64_t bytes); // "1.46 MBytes"
std::string format_bitrate(double bps);           // "12.2 Mbits/sec"

class interval_printer {
  public:
    interval_printer(double interval_s, std::ostream& out) : m_interval_s(interval_s), m_out(out) {}
    double interval_s() const { return m_interval_s; }
    // Next boundary after `now` (the first interval starts when the traffic does).
    double next_stop_s(double now_s, bool traffic_started, double traffic_start_s) const;
    // Whether on_progress at `now` prints a line (an interval boundary has been reached).
    bool due(double now_s, double traffic_start_s) const;
    void on_progress(double now_s, const report::flow_report& f, double traffic_start_s);
    void on_end(double now_s, const report::flow_report& f, double traffic_start_s);

  private:
    void header(double traffic_start_s);
    void line(const report::flow_report& f, double from_s, double to_s, std::uint64_t bytes,
              std::uint64_t frames, const char* suffix);

    double m_interval_s;
    std::ostream& m_out;
    bool m_header = false;
    double m_last_s = 0; // end of the last printed interval, since traffic start
    std::uint64_t m_last_bytes = 0, m_last_frames = 0;
};

class heartbeat {
  public:
    using clock = std::function<double()>; // wall seconds, monotonic
    // `first_after_s`: quiet runs stay quiet; `every_s`: refresh period.
    heartbeat(std::ostream& err, clock now, double first_after_s = 2.0, double every_s = 1.0)
        : m_err(err), m_now(std::move(now)), m_next(m_now() + first_after_s), m_every(every_s) {}
    void on_progress(double sim_s, const report::flow_report* f, std::uint64_t expected_bytes);
    void on_end(); // erases the line, if one was printed
    bool shown() const { return m_shown; }

  private:
    std::ostream& m_err;
    clock m_now;
    double m_next;
    double m_every;
    bool m_shown = false;
};

// Both, as the progress observer of one run. `interval_s` 0 = no interval lines; `beat` null =
// no heartbeat. The slices are `slice_s` of simulated time at most, so the heartbeat sees the
// wall clock often enough.
class run_progress : public system::progress_observer {
  public:
    run_progress(double interval_s, std::ostream& out, heartbeat* beat,
                 std::uint64_t expected_bytes, double slice_s = 0.01);
    sc_core::sc_time next_stop(const sc_core::sc_time& now) override;
    void on_progress(const sc_core::sc_time& now, const report::flow_report* flow,
                     const sc_core::sc_time& traffic_start) override;
    void on_end(const sc_core::sc_time& now, const report::flow_report* flow,
                const sc_core::sc_time& traffic_start) override;

  private:
    interval_printer m_intervals;
    heartbeat* m_beat;
    std::uint64_t m_expected;
    double m_slice_s;
    bool m_started = false;
    double m_traffic_start_s = 0;
};

// True when stderr is a terminal (the heartbeat's condition).
bool stderr_is_terminal();

} // namespace nicsim::cli

namespace nicsim::cli {

// Installs the progress observer of one `nicsim run` for its lifetime: interval lines to
// `lines` when interval_s > 0, the heartbeat to `err` when `heartbeat_on`. Nothing is installed
// when neither applies, so such a run calls sc_start once, as before.
class progress_scope {
  public:
    progress_scope(double interval_s, bool heartbeat_on, std::ostream& lines, std::ostream& err,
                   std::uint64_t expected_bytes);
    ~progress_scope();
    progress_scope(const progress_scope&) = delete;
    progress_scope& operator=(const progress_scope&) = delete;

  private:
    std::unique_ptr<heartbeat> m_beat;
    std::unique_ptr<run_progress> m_progress;
};

} // namespace nicsim::cli

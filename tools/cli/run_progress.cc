// SPDX-License-Identifier: MIT
#include "tools/cli/run_progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <unistd.h>

namespace nicsim::cli {
namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// iperf3 prints three significant digits ("1.46 MBytes", "12.2 Mbits/sec", "146 KBytes").
std::string three_digits(double v) {
    return fixed(v, v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2);
}

std::string pad_left(const std::string& s, size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

bool is_ping(const report::flow_report& f) {
    return f.kind == "ping";
}

} // namespace

// A value that rounds to 1000 of a unit is printed in the next one ("1.00 Mbits/sec").
constexpr double up = 0.9995;

std::string format_transfer(std::uint64_t bytes) {
    const double b = double(bytes);
    if (b >= up * 1024.0 * 1024 * 1024)
        return three_digits(b / (1024.0 * 1024 * 1024)) + " GBytes";
    if (b >= up * 1024.0 * 1024)
        return three_digits(b / (1024.0 * 1024)) + " MBytes";
    if (b >= 1024.0)
        return three_digits(b / 1024.0) + " KBytes";
    return std::to_string(bytes) + " Bytes";
}

std::string format_bitrate(double bps) {
    if (bps >= up * 1e9)
        return three_digits(bps / 1e9) + " Gbits/sec";
    if (bps >= up * 1e6)
        return three_digits(bps / 1e6) + " Mbits/sec";
    if (bps >= up * 1e3)
        return three_digits(bps / 1e3) + " Kbits/sec";
    return three_digits(bps) + " bits/sec";
}

// ---- interval lines ---------------------------------------------------------------------------

double interval_printer::next_stop_s(double now_s, bool traffic_started,
                                     double traffic_start_s) const {
    if (!traffic_started)
        return std::numeric_limits<double>::infinity(); // the traffic start is not known yet
    const double since = now_s - traffic_start_s;
    // The next multiple of the interval strictly after now. The margin against rounding stays
    // below sc_time's 1 ps: a slice that ended 1 ps short of a boundary (the run is cut into
    // slices of its own length too) must still stop at that boundary, not skip to the next.
    const double k = std::floor((since + 1e-13) / m_interval_s) + 1;
    return traffic_start_s + k * m_interval_s;
}

void interval_printer::header(double traffic_start_s) {
    if (m_header)
        return;
    m_header = true;
    m_out << "[ ID] Interval (simulated s, 0 = traffic start at " << fixed(traffic_start_s, 6)
          << " s)\n";
}

void interval_printer::line(const report::flow_report& f, double from_s, double to_s,
                            std::uint64_t bytes, std::uint64_t frames, const char* suffix) {
    std::string s =
        "[" + f.name + "] " + pad_left(fixed(from_s, 2), 7) + "-" + fixed(to_s, 2) + " sec";
    s += std::string(std::max<size_t>(1, 24 - std::min<size_t>(24, s.size())), ' ');
    if (is_ping(f)) {
        s += pad_left(std::to_string(frames), 6) + " frames";
        if (f.rtt)
            s += "  rtt avg " + fixed(f.rtt->avg_ms, 3) + " ms";
    } else {
        const double dt = to_s - from_s;
        s += pad_left(format_transfer(bytes), 13) + "  " +
             pad_left(format_bitrate(dt > 0 ? double(bytes) * 8.0 / dt : 0.0), 15) +
             pad_left(std::to_string(frames), 8) + " frames";
    }
    m_out << s << suffix << "\n" << std::flush;
}

bool interval_printer::due(double now_s, double traffic_start_s) const {
    return now_s - traffic_start_s + 1e-12 >= m_last_s + m_interval_s;
}

void interval_printer::on_progress(double now_s, const report::flow_report& f,
                                   double traffic_start_s) {
    // Called at every slice; print only when an interval boundary has been reached.
    if (!due(now_s, traffic_start_s))
        return;
    const double t = now_s - traffic_start_s;
    header(traffic_start_s);
    line(f, m_last_s, t, f.bytes - m_last_bytes, f.frames - m_last_frames, "");
    m_last_s = t;
    m_last_bytes = f.bytes;
    m_last_frames = f.frames;
}

void interval_printer::on_end(double now_s, const report::flow_report& f, double traffic_start_s) {
    header(traffic_start_s);
    const double t = now_s - traffic_start_s;
    if (t > m_last_s + 1e-12)
        line(f, m_last_s, t, f.bytes - m_last_bytes, f.frames - m_last_frames, "");
    m_out << "- - - - - - - - - - - - - - - - - - - - - - - - -\n";
    line(f, 0.0, t, f.bytes, f.frames, "  total");
}

// ---- heartbeat --------------------------------------------------------------------------------

void heartbeat::on_progress(double sim_s, const report::flow_report* f,
                            std::uint64_t expected_bytes) {
    const double wall = m_now();
    if (wall < m_next)
        return;
    m_next = wall + m_every;
    std::string s = "nicsim: simulated " + fixed(sim_s, 3) + " s";
    if (!f)
        s += ", bringing the interface up";
    else if (is_ping(*f))
        s += ", " + std::to_string(f->frames) + " ping frames";
    else {
        s += ", " + format_transfer(f->bytes);
        if (expected_bytes > 0)
            s += " of " + format_transfer(expected_bytes) + " (" +
                 fixed(100.0 * double(f->bytes) / double(expected_bytes), 0) + " %)";
    }
    // \r + erase-line: one line, rewritten in place.
    m_err << "\r\033[K" << s << std::flush;
    m_shown = true;
}

void heartbeat::on_end() {
    if (m_shown)
        m_err << "\r\033[K" << std::flush;
    m_shown = false;
}

// ---- both -------------------------------------------------------------------------------------

run_progress::run_progress(double interval_s, std::ostream& out, heartbeat* beat,
                           std::uint64_t expected_bytes, double slice_s)
    : m_intervals(interval_s, out), m_beat(beat), m_expected(expected_bytes), m_slice_s(slice_s) {}

sc_core::sc_time run_progress::next_stop(const sc_core::sc_time& now) {
    const double n = now.to_seconds();
    double stop = std::numeric_limits<double>::infinity();
    if (m_intervals.interval_s() > 0)
        stop = m_intervals.next_stop_s(n, m_started, m_traffic_start_s);
    if (m_beat)
        stop = std::min(stop, n + m_slice_s);
    if (!std::isfinite(stop))
        stop = n + m_slice_s; // before the traffic starts: look again soon
    // To the nearest ps (sc_time's resolution), never at or before now: rounding up instead
    // put a boundary 1 ps after where the run's own 10 ms slices land (0.014537 s + 2 s is not
    // exact in a double), and the interval it ended was then skipped.
    const sc_core::sc_time at(std::round(stop * 1e12), sc_core::SC_PS);
    return at > now ? at : now + sc_core::sc_time(1, sc_core::SC_PS);
}

void run_progress::on_progress(const sc_core::sc_time& now, const report::flow_report* flow,
                               const sc_core::sc_time& traffic_start) {
    if (flow && !m_started) {
        m_started = true;
        m_traffic_start_s = traffic_start.to_seconds();
    }
    if (m_beat)
        m_beat->on_progress(now.to_seconds(), flow, m_expected);
    if (flow && m_intervals.interval_s() > 0 &&
        m_intervals.due(now.to_seconds(), m_traffic_start_s)) {
        if (m_beat)
            m_beat->on_end(); // the interval line goes where the heartbeat line was
        m_intervals.on_progress(now.to_seconds(), *flow, m_traffic_start_s);
    }
}

void run_progress::on_end(const sc_core::sc_time& now, const report::flow_report* flow,
                          const sc_core::sc_time& traffic_start) {
    if (m_beat)
        m_beat->on_end();
    if (flow && m_intervals.interval_s() > 0)
        m_intervals.on_end(now.to_seconds(), *flow, traffic_start.to_seconds());
}

bool stderr_is_terminal() {
    return isatty(STDERR_FILENO) == 1;
}

} // namespace nicsim::cli

namespace nicsim::cli {

progress_scope::progress_scope(double interval_s, bool heartbeat_on, std::ostream& lines,
                               std::ostream& err, std::uint64_t expected_bytes) {
    if (heartbeat_on)
        m_beat = std::make_unique<heartbeat>(err, [] {
            return std::chrono::duration<double>(
                       std::chrono::steady_clock::now().time_since_epoch())
                .count();
        });
    if (interval_s > 0 || m_beat) {
        m_progress =
            std::make_unique<run_progress>(interval_s, lines, m_beat.get(), expected_bytes);
        system::set_progress_observer(m_progress.get());
    }
}

progress_scope::~progress_scope() {
    if (m_progress)
        system::set_progress_observer(nullptr);
}

} // namespace nicsim::cli

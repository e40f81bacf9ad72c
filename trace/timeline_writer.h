// SPDX-License-Identifier: MIT
// Streaming writer of the Trace Event JSON format ({"traceEvents":[...]}) that Perfetto
// (ui.perfetto.dev) and chrome://tracing open. Events are written as they come (the format does
// not require time order), so memory does not grow with the run. Times are microseconds with
// nanosecond digits ("ts":12.346, each time rounded to the nearest ns, which keeps the nesting
// exact in viewers that store integer ns); tracks are process/thread ids with "M" name metadata.
//
// Event kinds used: "X" complete spans (ts + dur), "i" instants, "C" counters, "M" metadata,
// "s"/"f" flow arrows (from a driver task to the bus transaction it issued).
// The window clips spans to it and drops instants/counters outside it; metadata is always kept.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "trace/trace_common.h"

namespace nicsim::trace {

class timeline_writer {
  public:
    // Opens `path` and writes the opening of the document; throws std::runtime_error naming the
    // path if it cannot. With a limit, the event that would take the file (with its closing)
    // past it and all after it are dropped; the document is still closed.
    timeline_writer(const std::string& path, window w, size_limit limit = {});
    ~timeline_writer();
    timeline_writer(const timeline_writer&) = delete;
    timeline_writer& operator=(const timeline_writer&) = delete;

    // A new process track (pid) named `name`, sorted in creation order.
    int process(const std::string& name);
    // A new thread track of `pid` (tid unique in the file), sorted in creation order.
    int thread(int pid, const std::string& name);

    // args_json: "" or a JSON object ("{...}", see json_args).
    void span(int pid, int tid, std::string_view name, uint64_t start_ps, uint64_t end_ps,
              std::string_view args_json = {});
    void instant(int pid, int tid, std::string_view name, uint64_t t_ps,
                 std::string_view args_json = {});
    // A flow arrow from the slice at t_ps on (from_pid, from_tid) to the slice starting at t_ps
    // on (to_pid, to_tid): Trace Event "s"/"f" events with one id ("bp":"e" binds the end to
    // the enclosing slice). Dropped outside the window.
    void flow(int from_pid, int from_tid, int to_pid, int to_tid, std::string_view name,
              uint64_t t_ps);
    // One value of the counter track `name` of `pid`.
    void counter(int pid, std::string_view name, uint64_t t_ps, uint64_t value);

    uint64_t events() const { return m_events; }
    bool truncated() const { return m_truncated; }
    const window& win() const { return m_win; }
    // Ends the document and closes the file; throws std::runtime_error on a write error.
    // Idempotent.
    void close();

  private:
    void begin_event();
    void end_event();
    static uint64_t to_ns(uint64_t ps); // nearest
    void ts(const char* key, uint64_t ns);

    std::ofstream m_out;
    std::string m_path;
    window m_win;
    std::string m_buf;
    size_limit m_limit;
    uint64_t m_bytes = 0; // written so far
    bool m_truncated = false;
    int m_next_pid = 1;
    int m_next_tid = 1;
    uint64_t m_next_flow = 1;
    uint64_t m_events = 0;
    bool m_closed = false;
};

} // namespace nicsim::trace

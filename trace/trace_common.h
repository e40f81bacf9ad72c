// SPDX-License-Identifier: MIT
// Shared pieces of the trace writers: integer picosecond time, the trace window and a small
// builder for the JSON "args" objects of timeline events.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <systemc>

namespace nicsim::trace {

// Simulated time in integer picoseconds (nicsim runs SystemC at 1 ps resolution; a coarser
// resolution still converts exactly, a finer one is truncated to ps).
uint64_t to_ps(const sc_core::sc_time& t);

// [start_ps, end_ps]: everything the writers emit lies inside. end_ps = UINT64_MAX: open end.
struct window {
    uint64_t start_ps = 0;
    uint64_t end_ps = UINT64_MAX;
    bool contains(uint64_t t) const { return t >= start_ps && t <= end_ps; }
    bool overlaps(uint64_t a, uint64_t b) const { return b >= start_ps && a <= end_ps; }
};

// The size limit of one trace file (trace.max_size, --trace-max-size; docs/traces.md). A writer
// that would pass `max_bytes` with its next record stops writing records, leaves a valid file
// (VCD up to a time stamp, JSON closed, whole pcapng blocks, whole log lines) and calls
// `on_reached` once with its file and the simulated time it stopped at. 0 = no limit.
struct size_limit {
    uint64_t max_bytes = 0;
    std::function<void(const std::string& file, uint64_t t_ps)> on_reached;
    bool limited() const { return max_bytes != 0; }
};

// Appends `s` to `out` as a JSON string literal (quotes included).
void append_json_string(std::string& out, std::string_view s);

// Builds the body of a JSON object ({"k":v,...}) key by key.
class json_args {
  public:
    json_args& add(std::string_view key, std::string_view value);
    json_args& add(std::string_view key, const char* value) {
        return add(key, std::string_view(value));
    }
    json_args& add(std::string_view key, const std::string& value) {
        return add(key, std::string_view(value));
    }
    json_args& add(std::string_view key, uint64_t value);
    json_args& add(std::string_view key, int value) { return add(key, uint64_t(value)); }
    json_args& add(std::string_view key, unsigned value) { return add(key, uint64_t(value)); }
    json_args& add_hex(std::string_view key, uint64_t value, int digits = 8);
    bool empty() const { return m_body.empty(); }
    // "{...}", or "" when nothing was added.
    std::string str() const { return m_body.empty() ? std::string() : "{" + m_body + "}"; }

  private:
    void key(std::string_view k);
    std::string m_body;
};

std::string hex(uint64_t v, int digits);

} // namespace nicsim::trace

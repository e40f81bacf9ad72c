// SPDX-License-Identifier: MIT
#include "trace/timeline_writer.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "bus/common/local_time.h"

namespace nicsim::trace {

namespace {
constexpr std::string_view opening = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":"
                                     "\"nicsim\"},\"traceEvents\":[\n";
constexpr std::string_view closing = "\n]}\n";
} // namespace

timeline_writer::timeline_writer(const std::string& path, window w, size_limit limit)
    : m_out(path), m_path(path), m_win(w), m_limit(std::move(limit)) {
    if (!m_out)
        throw std::runtime_error("cannot open timeline file '" + path + "' for writing");
    m_out << opening;
    m_bytes = opening.size();
}

timeline_writer::~timeline_writer() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; call close() to see errors.
    }
}

void timeline_writer::begin_event() {
    m_buf.clear();
    if (m_events)
        m_buf += ",\n";
    m_buf += '{';
}

void timeline_writer::end_event() {
    m_buf += '}';
    if (m_truncated)
        return;
    if (m_limit.limited() && m_bytes + m_buf.size() + closing.size() > m_limit.max_bytes) {
        m_truncated = true;
        if (m_limit.on_reached)
            m_limit.on_reached(m_path, to_ps(local_time::now()));
        return;
    }
    m_out << m_buf;
    m_bytes += m_buf.size();
    ++m_events;
}

uint64_t timeline_writer::to_ns(uint64_t ps) {
    return ps / 1000 + (ps % 1000 >= 500 ? 1 : 0);
}

void timeline_writer::ts(const char* key, uint64_t ns) {
    // Microseconds with three fractional digits: whole nanoseconds, exact. A viewer converts
    // "ts" and "dur" to integer ns each on its own (Perfetto: llround(value * 1000)); with
    // sub-ns digits, ts and dur could each round up and a slice end 1 ns after its neighbour
    // starts or its parent ends. Whole ns round to themselves, and the endpoints were rounded
    // before dur was taken, so what nests in picoseconds nests in the viewer.
    char num[48];
    std::snprintf(num, sizeof num, "\"%s\":%llu.%03llu", key,
                  static_cast<unsigned long long>(ns / 1000),
                  static_cast<unsigned long long>(ns % 1000));
    m_buf += num;
}

int timeline_writer::process(const std::string& name) {
    const int pid = m_next_pid++;
    for (int pass = 0; pass < 2; ++pass) {
        begin_event();
        m_buf += "\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":0,\"name\":";
        if (pass == 0) {
            m_buf += "\"process_name\",\"args\":{\"name\":";
            append_json_string(m_buf, name);
            m_buf += '}';
        } else {
            m_buf += "\"process_sort_index\",\"args\":{\"sort_index\":" + std::to_string(pid) + "}";
        }
        end_event();
    }
    return pid;
}

int timeline_writer::thread(int pid, const std::string& name) {
    const int tid = m_next_tid++;
    for (int pass = 0; pass < 2; ++pass) {
        begin_event();
        m_buf += "\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                 ",\"name\":";
        if (pass == 0) {
            m_buf += "\"thread_name\",\"args\":{\"name\":";
            append_json_string(m_buf, name);
            m_buf += '}';
        } else {
            m_buf += "\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid) + "}";
        }
        end_event();
    }
    return tid;
}

void timeline_writer::span(int pid, int tid, std::string_view name, uint64_t start_ps,
                           uint64_t end_ps, std::string_view args_json) {
    if (m_closed || end_ps < start_ps || !m_win.overlaps(start_ps, end_ps))
        return;
    start_ps = std::max(start_ps, m_win.start_ps);
    end_ps = std::min(end_ps, m_win.end_ps);
    begin_event();
    m_buf +=
        "\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",";
    // Rounding is monotonic: a child inside its parent, or a slice that ends before the next
    // starts, stays so in ns (a span shorter than 0.5 ns may become 0 ns long).
    const uint64_t start_ns = to_ns(start_ps);
    ts("ts", start_ns);
    m_buf += ',';
    ts("dur", to_ns(end_ps) - start_ns);
    m_buf += ",\"name\":";
    append_json_string(m_buf, name);
    if (!args_json.empty()) {
        m_buf += ",\"args\":";
        m_buf += args_json;
    }
    end_event();
}

void timeline_writer::instant(int pid, int tid, std::string_view name, uint64_t t_ps,
                              std::string_view args_json) {
    if (m_closed || !m_win.contains(t_ps))
        return;
    begin_event();
    m_buf += "\"ph\":\"i\",\"s\":\"t\",\"pid\":" + std::to_string(pid) +
             ",\"tid\":" + std::to_string(tid) + ",";
    ts("ts", to_ns(t_ps));
    m_buf += ",\"name\":";
    append_json_string(m_buf, name);
    if (!args_json.empty()) {
        m_buf += ",\"args\":";
        m_buf += args_json;
    }
    end_event();
}

void timeline_writer::flow(int from_pid, int from_tid, int to_pid, int to_tid,
                           std::string_view name, uint64_t t_ps) {
    if (m_closed || !m_win.contains(t_ps))
        return;
    const std::string id = std::to_string(m_next_flow++);
    for (int end = 0; end < 2; ++end) {
        begin_event();
        m_buf += end ? "\"ph\":\"f\",\"bp\":\"e\",\"pid\":" + std::to_string(to_pid) +
                           ",\"tid\":" + std::to_string(to_tid)
                     : "\"ph\":\"s\",\"pid\":" + std::to_string(from_pid) +
                           ",\"tid\":" + std::to_string(from_tid);
        m_buf += ",\"id\":" + id + ",\"cat\":\"bus\",";
        ts("ts", to_ns(t_ps));
        m_buf += ",\"name\":";
        append_json_string(m_buf, name);
        end_event();
    }
}

void timeline_writer::counter(int pid, std::string_view name, uint64_t t_ps, uint64_t value) {
    if (m_closed || !m_win.contains(t_ps))
        return;
    begin_event();
    m_buf += "\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",";
    ts("ts", to_ns(t_ps));
    m_buf += ",\"name\":";
    append_json_string(m_buf, name);
    m_buf += ",\"args\":{\"value\":" + std::to_string(value) + "}";
    end_event();
}

void timeline_writer::close() {
    if (m_closed)
        return;
    m_closed = true;
    m_out << closing;
    m_out.close();
    if (!m_out)
        throw std::runtime_error("error writing timeline file '" + m_path + "'");
}

} // namespace nicsim::trace

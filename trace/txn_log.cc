// SPDX-License-Identifier: MIT
#include "trace/txn_log.h"

#include <stdexcept>

#include "bus/common/local_time.h"
#include "core/config/units.h"

namespace nicsim::trace {

namespace {
constexpr std::string_view header =
    "# nicsim bus transaction log: start_ns bus dir bytes duration_ns task command [detail]\n";
// Room kept below the limit for the line that says the log was truncated.
constexpr uint64_t trailer_room = 96;
} // namespace

txn_log::txn_log(const std::string& path, window w, size_limit limit)
    : m_out(path), m_path(path), m_win(w), m_limit(std::move(limit)) {
    if (!m_out)
        throw std::runtime_error("cannot open transaction log '" + path + "' for writing");
    m_out << header;
    m_bytes = header.size();
}

txn_log::~txn_log() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; call close() to see errors.
    }
}

void txn_log::write(const std::string& bus, const bus_txn& t) {
    if (m_closed || m_truncated || !m_win.contains(t.start_ps))
        return;
    std::string& l = m_line;
    l.clear();
    l += std::to_string(t.start_ps / 1000);
    l += ' ';
    l += bus;
    l += ' ';
    l += t.dir.empty() ? "rw" : t.dir;
    l += ' ';
    l += std::to_string(t.bytes);
    l += ' ';
    l += std::to_string((t.end_ps - t.start_ps) / 1000);
    l += ' ';
    l += t.task.empty() ? "-" : t.task;
    l += ' ';
    l += t.name;
    if (!t.detail.empty()) {
        l += ' ';
        l += t.detail;
    }
    l += '\n';
    if (m_limit.limited() && m_bytes + l.size() + trailer_room > m_limit.max_bytes) {
        m_truncated = true;
        const uint64_t now = to_ps(local_time::now());
        m_out << "# truncated at " << now / 1000 << " ns: trace.max_size "
              << config::to_string(config::byte_size{m_limit.max_bytes})
              << " reached, later transactions not written\n";
        if (m_limit.on_reached)
            m_limit.on_reached(m_path, now);
        return;
    }
    m_out << l;
    m_bytes += l.size();
    ++m_lines;
}

void txn_log::close() {
    if (m_closed)
        return;
    m_closed = true;
    m_out.close();
    if (!m_out)
        throw std::runtime_error("error writing transaction log '" + m_path + "'");
}

} // namespace nicsim::trace

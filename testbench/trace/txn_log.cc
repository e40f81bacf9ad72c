// SPDX-License-Identifier: MIT
#include "testbench/trace/txn_log.h"

#include <stdexcept>

namespace nicsim::trace {

txn_log::txn_log(const std::string& path, window w) : m_out(path), m_path(path), m_win(w) {
    if (!m_out)
        throw std::runtime_error("cannot open transaction log '" + path + "' for writing");
    m_out << "# nicsim bus transaction log: start_ns bus dir bytes duration_ns task command "
             "[detail]\n";
}

txn_log::~txn_log() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; call close() to see errors.
    }
}

void txn_log::write(const std::string& bus, const bus_txn& t) {
    if (m_closed || !m_win.contains(t.start_ps))
        return;
    m_out << t.start_ps / 1000 << ' ' << bus << ' ' << (t.dir.empty() ? "rw" : t.dir) << ' '
          << t.bytes << ' ' << (t.end_ps - t.start_ps) / 1000 << ' '
          << (t.task.empty() ? "-" : t.task) << ' ' << t.name;
    if (!t.detail.empty())
        m_out << ' ' << t.detail;
    m_out << '\n';
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

// SPDX-License-Identifier: MIT
// The bus transaction log (--log): one line per bus transaction (SPI chip-select frame, parallel
// bus access), written as the transactions complete:
//
//   <start_ns> <bus> <dir> <bytes> <duration_ns> <task> <decoded command> [<detail>]
//
// start = CS assert, duration = CS assert .. CS release, dir = rd/wr/rw (what the frame carries
// that matters), task = the lx_kit task that issued it ("-" if none). Lines starting with '#'
// are comments (the header). Transactions starting outside the trace window are not written.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "trace/bus_decoder.h"
#include "trace/trace_common.h"

namespace nicsim::trace {

class txn_log {
  public:
    // Throws std::runtime_error naming the path if it cannot be opened. With a limit, the line
    // that would take the file past it and all after it are dropped, and a '#' line says so.
    txn_log(const std::string& path, window w, size_limit limit = {});
    ~txn_log();
    void write(const std::string& bus, const bus_txn& t);
    uint64_t lines() const { return m_lines; }
    bool truncated() const { return m_truncated; }
    // Throws std::runtime_error on a write error. Idempotent.
    void close();

  private:
    std::ofstream m_out;
    std::string m_path;
    window m_win;
    size_limit m_limit;
    std::string m_line;
    uint64_t m_bytes = 0;
    bool m_truncated = false;
    uint64_t m_lines = 0;
    bool m_closed = false;
};

} // namespace nicsim::trace

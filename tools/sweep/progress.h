// SPDX-License-Identifier: MIT
//
// Progress of a batch of points: on a terminal one bar redrawn in place (done/total, failures,
// ETA); otherwise one plain line per finished point, so logs of CI or batch jobs stay readable.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>

namespace nicsim::sweep {

class progress {
  public:
    progress(std::ostream& out, bool tty, size_t total, size_t already_done);
    // One point finished (ok or not); label names it, seconds is its wall time.
    void finished(const std::string& label, bool ok, const std::string& status, double seconds);
    // Redraws the bar (tty only); called periodically so the ETA moves.
    void tick();
    // Ends the bar line (tty only).
    void close();

  private:
    void draw();
    std::ostream& out_;
    bool tty_;
    size_t total_, done_, failed_ = 0, ran_ = 0;
    std::chrono::steady_clock::time_point start_;
    bool drawn_ = false;
};

} // namespace nicsim::sweep

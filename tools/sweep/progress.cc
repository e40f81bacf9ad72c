// SPDX-License-Identifier: MIT
#include "tools/sweep/progress.h"

#include <cstdio>
#include <ostream>

namespace nicsim::sweep {
namespace {

std::string clock_text(double s) {
    const long t = static_cast<long>(s + 0.5);
    char buf[32];
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, (t / 60) % 60, t % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
    return buf;
}

} // namespace

progress::progress(std::ostream& out, bool tty, size_t total, size_t already_done)
    : out_(out), tty_(tty), total_(total), done_(already_done),
      start_(std::chrono::steady_clock::now()) {}

void progress::finished(const std::string& label, bool ok, const std::string& status,
                        double seconds) {
    ++done_;
    ++ran_;
    if (!ok)
        ++failed_;
    if (tty_) {
        if (!ok) { // failures stay visible above the bar
            out_ << "\r\033[K"
                 << "FAILED " << label << ": " << status << "\n";
            drawn_ = false;
        }
        draw();
        return;
    }
    char t[32];
    std::snprintf(t, sizeof t, "%.1f s", seconds);
    out_ << "[" << done_ << "/" << total_ << "] " << (ok ? "ok     " : "FAILED ") << label
         << (ok ? "" : " (" + status + ")") << "  " << t << "\n"
         << std::flush;
}

void progress::tick() {
    if (tty_)
        draw();
}

void progress::draw() {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t width = 30;
    const size_t fill = total_ ? done_ * width / total_ : width;
    std::string bar(fill, '#');
    bar += std::string(width - fill, '.');
    std::string eta = "--:--";
    if (ran_ > 0 && done_ < total_)
        eta = clock_text(elapsed / static_cast<double>(ran_) * static_cast<double>(total_ - done_));
    else if (done_ >= total_)
        eta = "0:00";
    out_ << "\r\033[K[" << bar << "] " << done_ << "/" << total_ << " done, " << failed_
         << " failed, elapsed " << clock_text(elapsed) << ", ETA " << eta << std::flush;
    drawn_ = true;
}

void progress::close() {
    if (tty_) {
        draw();
        out_ << "\n" << std::flush;
    }
}

} // namespace nicsim::sweep

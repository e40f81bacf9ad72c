// SPDX-License-Identifier: MIT
// `nicsim calibrate`: the text it prints and the profile it writes (calibrate.h render,
// write_profile).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/calibrate/calibrate.h"
#include "tools/report/text_layout.h"

namespace nicsim::calibrate {
namespace fs = std::filesystem;
std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string figure(double v) {
    const double a = std::fabs(v);
    const int decimals = a >= 1000 || a == 0 ? 1 : std::max(1, 3 - int(std::floor(std::log10(a))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

namespace {

using row = std::vector<std::string>;

// Columns two spaces apart; the columns in `right` are aligned right (numbers).
std::string table(const std::vector<row>& rows, const std::vector<bool>& right) {
    std::vector<size_t> w;
    for (const auto& r : rows)
        for (size_t k = 0; k < r.size(); ++k) {
            if (w.size() <= k)
                w.push_back(0);
            w[k] = std::max(w[k], report::display_width(r[k]));
        }
    std::string out;
    for (const auto& r : rows) {
        std::string l = " ";
        for (size_t k = 0; k < r.size(); ++k)
            l += " " + (k < right.size() && right[k] ? report::pad_left(r[k], w[k])
                                                      : report::pad_right(r[k], w[k])) + " ";
        while (!l.empty() && l.back() == ' ')
            l.pop_back();
        out += l + "\n";
    }
    return out;
}

std::string value_text(const key_plan& k, double x) {
    return format_quantity(x, k.unit, k.key.integer);
}

std::string moved(const plan& p, const result& res) {
    std::vector<row> rows = {{"key", "was", "now", "bounds", "tolerances allow"}};
    std::string notes;
    for (size_t j = 0; j < p.keys.size(); ++j) {
        const key_plan& k = p.keys[j];
        const double s = res.spread.size() > j ? res.spread[j] : NAN;
        rows.push_back({k.key.name, k.old_text, value_text(k, res.written[j]),
                        "[" + value_text(k, k.key.lo) + ", " + value_text(k, k.key.hi) + "]",
                        std::isfinite(s) ? "±" + fmt("%.3g", s * 100) + " %" : "-"});
        if (res.fit.at_bound[j]) {
            const bool upper = res.written[j] >= k.key.hi;
            notes += "  " + k.key.name + " ran into its " + (upper ? "upper" : "lower") +
                     " bound " + value_text(k, upper ? k.key.hi : k.key.lo) +
                     ": the measurements pull it further; widen the bounds (--key " + k.key.name +
                     "=LO:HI) if that value is plausible, else this key cannot explain them "
                     "(docs/your-board.md#when-a-key-runs-into-its-bound)\n";
        }
    }
    for (const auto& t : p.ties) {
        const key_plan& k = p.keys[t.of];
        rows.push_back({t.path, t.old_text,
                        format_quantity(t.factor * res.written[t.of], k.unit, false),
                        fmt("%g", t.factor) + " × " + k.key.name, ""});
    }
    std::string out = table(rows, {false, true, true, false, true});
    return notes.empty() ? out : out + notes;
}

std::string residuals(const plan& p, const result& res) {
    std::vector<row> rows = {
        {"measurement", "metric", "predicted", "measured", "unit", "residual", "tolerance"}};
    for (size_t i = 0; i < p.checks.size(); ++i) {
        const auto& c = p.checks[i];
        const double f = c.measured.value / c.measured_in_metric_unit;
        rows.push_back({c.name, c.metric, figure(res.predicted[i] * f),
                        figure(c.measured.value), c.measured.unit,
                        fmt("%+.2f", (res.predicted[i] / p.targets[i].value - 1) * 100) + " %",
                        "±" + fmt("%g", c.measured.tolerance_pct) + " %"});
    }
    return table(rows, {false, false, true, true, false, true, true});
}

std::string sensitivity(const plan& p, const result& res) {
    row head = {"measurement"};
    for (const auto& k : p.keys)
        head.push_back(k.key.name);
    std::vector<row> rows = {head};
    std::vector<bool> right = {false};
    for (size_t i = 0; i < p.checks.size(); ++i) {
        row r = {p.checks[i].name};
        for (size_t j = 0; j < p.keys.size(); ++j) {
            const double e = res.elasticity[i][j];
            r.push_back(std::isfinite(e) ? fmt("%+.3f", e) : "-");
            right.push_back(true);
        }
        rows.push_back(r);
    }
    return table(rows, right);
}

std::string held_out(const plan& p, const result& res) {
    std::vector<row> rows = {{"left out", "keys fitted to the others", "predicted", "measured",
                              "error", "tolerance"}};
    for (size_t i = 0; i < res.leave_one_out.size(); ++i) {
        const auto& c = p.checks[i];
        const auto& h = res.leave_one_out[i];
        std::string keys;
        for (size_t j = 0; j < p.keys.size(); ++j)
            keys += (j ? ", " : "") + p.keys[j].key.name + "=" + value_text(p.keys[j], h.x[j]);
        const double f = c.measured.value / c.measured_in_metric_unit;
        rows.push_back({c.name, keys, figure(h.predicted * f),
                        figure(c.measured.value) + " " + c.measured.unit,
                        fmt("%+.2f", (h.predicted / p.targets[i].value - 1) * 100) + " %",
                        "±" + fmt("%g", c.measured.tolerance_pct) + " %"});
    }
    return table(rows, {false, false, true, true, true, true});
}

} // namespace

std::string render(const plan& p, const result& res) {
    std::string out = "\nprofile " + p.profile.file + " fitted to " + p.measurement_label + " (" +
                      std::to_string(res.evaluations) + " candidates of " +
                      std::to_string(res.runs_per_evaluation) + " runs each; the fit " +
                      (res.fit.converged ? "converged" : "stopped at the step limit") + ")\n\n";
    out += "what moved:\n" + moved(p, res);
    out += "\nresiduals (predicted: the mean over each file's seeds, at the written values):\n" +
           residuals(p, res);
    out += "\nsensitivity (elasticity: % change of each prediction per +1 % of the key, from a "
           "+" + fmt("%g", fit_options{}.rel_step * 100) + " % step):\n" + sensitivity(p, res);
    if (!res.leave_one_out.empty())
        out += "\nleave-one-out (each measurement predicted by a fit to the others):\n" +
               held_out(p, res);
    return out;
}

std::string render_others(const plan& p, const result& res) {
    if (res.other.empty())
        return "";
    row head = {"scenario", "metric", "predicted", "unit"};
    for (const auto& k : p.keys)
        head.push_back(k.key.name);
    std::vector<row> rows = {head};
    std::vector<bool> right = {false, false, true, false};
    for (size_t i = 0; i < p.predictions.size(); ++i) {
        const auto& c = p.predictions[i];
        row r = {c.name, c.metric, figure(res.other[i]), c.measured.unit};
        for (size_t j = 0; j < p.keys.size(); ++j) {
            const double e = res.other_elasticity[i][j];
            r.push_back(std::isfinite(e) ? fmt("%+.3f", e) : "-");
            right.push_back(true);
        }
        rows.push_back(r);
    }
    return "\nother predictions with the fitted profile and their elasticity to each key:\n" +
           table(rows, right);
}

void write_profile(const plan& p, const result& res) {
    std::vector<replacement> r;
    std::string changes;
    const std::string marker = "calibrated to " + p.measurement_label + " by nicsim calibrate";
    for (size_t j = 0; j < p.keys.size(); ++j) {
        const std::string v = value_text(p.keys[j], res.written[j]);
        r.push_back({p.keys[j].key.name, v, marker + " (was " + p.keys[j].old_text + ")"});
        changes += (changes.empty() ? "" : ", ") + p.keys[j].key.name + " " + p.keys[j].old_text +
                   " -> " + v;
    }
    for (const auto& t : p.ties) {
        const key_plan& k = p.keys[t.of];
        const std::string v = format_quantity(t.factor * res.written[t.of], k.unit, false);
        r.push_back({t.path, v,
                     marker + " (" + fmt("%g", t.factor) + " x " + k.key.name + "; was " +
                         t.old_text + ")"});
        changes += ", " + t.path + " " + t.old_text + " -> " + v;
    }
    const std::string text =
        rewrite_profile(p.profile, r, p.name,
                        {"Written by nicsim calibrate from " + p.profile.file + ",",
                         "fitted to " + p.measurement_label + ": " + changes + "."});

    // Whole or not at all: a temporary file beside the output, flushed to disk, renamed over it,
    // with the signals that would end the process held until then (no temporary file is left).
    sigset_t block, old;
    sigemptyset(&block);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        sigaddset(&block, s);
    sigprocmask(SIG_BLOCK, &block, &old);
    struct restore {
        sigset_t* s;
        ~restore() { sigprocmask(SIG_SETMASK, s, nullptr); }
    } restore_mask{&old};
    const fs::path out = fs::absolute(p.output);
    std::string tmpl = (out.parent_path() / ("." + out.filename().string() + ".XXXXXX")).string();
    const int fd = mkstemp(tmpl.data());
    if (fd < 0)
        throw std::runtime_error("cannot create a temporary file beside " + p.output + ": " +
                                 std::strerror(errno));
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int e = errno;
            ::close(fd);
            ::unlink(tmpl.c_str());
            throw std::runtime_error("cannot write " + tmpl + ": " + std::strerror(e));
        }
        done += size_t(n);
    }
    fchmod(fd, 0644);
    const bool synced = ::fsync(fd) == 0;
    int e = errno;
    const bool closed = ::close(fd) == 0;
    if (synced && !closed)
        e = errno;
    if (!synced || !closed || std::rename(tmpl.c_str(), out.c_str()) != 0) {
        if (synced && closed)
            e = errno;
        ::unlink(tmpl.c_str());
        throw std::runtime_error("cannot write " + p.output + ": " + std::strerror(e));
    }
}

} // namespace nicsim::calibrate

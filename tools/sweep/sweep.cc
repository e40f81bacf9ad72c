// SPDX-License-Identifier: MIT
#include "tools/sweep/sweep.h"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <unistd.h>

#include "tools/config/yaml_reader.h"
#include "tools/io/input_file.h"
#include "tools/report/json_writer.h"
#include "tools/sweep/process_pool.h"
#include "tools/sweep/progress.h"

namespace nicsim::sweep {
namespace fs = std::filesystem;
namespace {

// A point or failure file, or nullopt when there is none or it is unusable; `why` says what was
// wrong with one that is there but is no regular file or too large (a FIFO would block the sweep,
// /dev/zero fill its memory).
std::optional<nlohmann::json> read_json(const std::string& file, std::string* why = nullptr) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec)))
        return std::nullopt;
    std::string text;
    try {
        text = io::read_input_file(file, io::max_report_bytes, "a sweep point file");
    } catch (const io::input_file_error& e) {
        if (why)
            *why = e.what();
        return std::nullopt;
    }
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        return std::nullopt; // a damaged point file counts as not done: the point runs again
    }
}

// The overrides a point's run is given, as its report records them (run.overrides).
std::vector<std::string> override_texts(const sweep_spec& spec, const point& p) {
    std::vector<std::string> t;
    for (const auto& a : overrides_of(spec, p))
        if (!is_trace_key(a.key))
            t.push_back(a.text());
    return t;
}

// A point file is trusted only if it is a report (the schema reads it) of this very point: the
// base scenario and the overrides it ran with are the point's. Anything else (an empty object,
// `null`, another point's report copied over it, a report of an older nicsim without
// run.overrides, the report of a run that was interrupted or failed) is "not done": the point
// runs again. `why` says what was wrong.
std::optional<nlohmann::json> read_point_report(const std::string& file, const sweep_spec& spec,
                                                const point& p, std::string* why = nullptr) {
    auto j = read_json(file, why);
    if (!j)
        return std::nullopt;
    const auto reject = [&](const std::string& w) -> std::optional<nlohmann::json> {
        if (why)
            *why = file + ": " + w;
        return std::nullopt;
    };
    if (!j->is_object())
        return reject("not a report (a JSON object is expected)");
    report::report r;
    try {
        r = report::read_json(j->dump(), file);
    } catch (const std::exception& e) {
        return reject(std::string("not a report: ") + e.what());
    }
    if (r.run.scenario_file != p.base)
        return reject("a report of " + r.run.scenario_file + ", not of " + p.base);
    if (r.run.overrides != override_texts(spec, p))
        return reject("a report of other settings than this point's");
    // The report a run writes when it is stopped by a signal or fails after it started: it
    // covers the run so far, not the point.
    if (r.end_reason == "interrupted" || r.end_reason == "run failed")
        return reject("the run it reports ended \"" + r.end_reason + "\"");
    return j;
}

std::string label_of(const point& p) {
    std::string s;
    for (const auto& a : p.settings)
        s += (s.empty() ? "" : " ") + a.text();
    return s;
}

std::string points_dir(const std::string& out_dir) {
    return (fs::path(out_dir) / "points").string();
}

std::string traces_dir(const std::string& out_dir) {
    return (fs::path(out_dir) / "traces").string();
}

bool writes_traces(const sweep_spec& spec) {
    for (const auto& p : spec.points)
        if (!p.traces.empty())
            return true;
    return false;
}

std::string tmp_file(const std::string& out_dir, const point& p) {
    return (fs::path(points_dir(out_dir)) / ("." + p.id + ".json.tmp")).string();
}

std::string seconds_text(double s) {
    std::ostringstream t;
    t << s << " s";
    return t.str();
}

// The last lines of a child's stderr, indented, for the summary.
std::string tail_lines(const std::string& text, size_t n) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.empty())
            lines.push_back(l);
    std::string o;
    for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i)
        o += "    " + lines[i] + "\n";
    return o;
}

} // namespace

double point_timeout_s(const sweep_spec& spec, const sweep_options& o) {
    return o.timeout_s > 0 ? o.timeout_s : spec.timeout_s;
}

std::string point_file(const std::string& out_dir, const point& p) {
    return (fs::path(points_dir(out_dir)) / (p.id + ".json")).string();
}

std::string failure_file(const std::string& out_dir, const point& p) {
    return (fs::path(points_dir(out_dir)) / (p.id + ".failed.json")).string();
}

std::string trace_file(const std::string& out_dir, const point& p, const std::string& name) {
    return (fs::path(traces_dir(out_dir)) / (p.id + "." + name)).string();
}

std::string shell_quote(const std::string& s) {
    std::string o = "'";
    for (char c : s)
        o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

std::vector<std::string> run_command(const sweep_spec& spec, const point& p, const std::string& exe,
                                     const std::string& json_file, const std::string& out_dir) {
    std::vector<std::string> argv = {exe, "run", p.base};
    for (const auto& a : overrides_of(spec, p)) {
        argv.push_back("--set");
        argv.push_back(a.text());
    }
    // Last, so they win over the scenario's and the sweep's trace paths.
    for (const auto& t : p.traces)
        argv.insert(argv.end(), {"--set", t.key + "=" + trace_file(out_dir, p, t.value)});
    argv.insert(argv.end(), {"--json", json_file, "-q"});
    return argv;
}

point_outcome read_outcome(const std::string& out_dir, const sweep_spec& spec, const point& p) {
    point_outcome o;
    if (auto j = read_point_report(point_file(out_dir, p), spec, p)) {
        o.st = point_outcome::state::ok;
        o.report = std::move(*j);
        return o;
    }
    if (auto j = read_json(failure_file(out_dir, p))) {
        o.st = point_outcome::state::failed;
        o.exit_code = j->value("exit_code", -1);
        o.stderr_text = j->value("stderr", "");
        o.timed_out = j->value("timed_out", false);
    }
    return o;
}

sweep_summary run_sweep(const sweep_spec& spec, const sweep_options& o, std::ostream& out) {
    sweep_summary sum;
    sum.total = spec.points.size();
    fs::create_directories(points_dir(o.out_dir));
    if (writes_traces(spec))
        fs::create_directories(traces_dir(o.out_dir));

    std::vector<point_outcome> outcomes(spec.points.size());
    std::vector<size_t> todo;
    std::vector<std::string> rejected;
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const point& p = spec.points[i];
        // A temporary report left by a sweep that was killed is never trusted, nor kept.
        std::error_code ec;
        fs::remove(tmp_file(o.out_dir, p), ec);
        std::string why;
        if (auto j = read_point_report(point_file(o.out_dir, p), spec, p, &why)) {
            outcomes[i].st = point_outcome::state::ok;
            outcomes[i].report = std::move(*j);
            ++sum.already;
        } else {
            todo.push_back(i); // never run, failed last time or a bad point file: run (again)
            if (!why.empty())
                rejected.push_back(why);
        }
    }
    for (const auto& why : rejected)
        out << "ignoring " << why << "; running the point again\n";
    out << spec.stem << ": " << sum.total << " points";
    if (sum.already)
        out << ", " << sum.already << " of " << sum.total << " already done in "
            << points_dir(o.out_dir);
    out << "; running " << todo.size() << " with up to " << o.jobs << " in parallel\n"
        << std::flush;

    const double limit = point_timeout_s(spec, o);
    std::vector<job> jobs;
    for (size_t i : todo)
        jobs.push_back({run_command(spec, spec.points[i], o.exe,
                                    tmp_file(o.out_dir, spec.points[i]), o.out_dir),
                        limit});

    progress prog(out, o.tty, sum.total, sum.already);
    run_jobs(
        jobs, o.jobs,
        [&](size_t k, const job_result& r) {
            const size_t i = todo[k];
            const point& p = spec.points[i];
            ++sum.ran;
            point_outcome& po = outcomes[i];
            std::optional<nlohmann::json> rep;
            if (r.exit_code == 0)
                rep = read_point_report(tmp_file(o.out_dir, p), spec, p);
            if (rep) {
                std::error_code ec;
                fs::rename(tmp_file(o.out_dir, p), point_file(o.out_dir, p), ec);
                if (ec)
                    rep.reset();
                else
                    fs::remove(failure_file(o.out_dir, p), ec);
            }
            if (rep) {
                po.st = point_outcome::state::ok;
                po.report = std::move(*rep);
            } else {
                po.st = point_outcome::state::failed;
                po.exit_code = r.exit_code == 0 ? -1 : r.exit_code;
                po.timed_out = r.timed_out;
                po.stderr_text = r.exit_code == 0
                                     ? "exited 0 but wrote no readable report " +
                                           tmp_file(o.out_dir, p) + "\n" + r.stderr_text
                                     : r.stderr_text;
                if (r.timed_out)
                    po.stderr_text = "timed out: still running after the per-point timeout of " +
                                     seconds_text(limit) + ", stopped by SIGTERM\n" +
                                     po.stderr_text;
                nlohmann::ordered_json f;
                f["id"] = p.id;
                f["settings"] = nlohmann::ordered_json::object();
                for (const auto& a : p.settings)
                    f["settings"][a.key] = a.value;
                f["exit_code"] = po.exit_code;
                f["signal"] = r.signal;
                f["timed_out"] = r.timed_out;
                f["stderr"] = po.stderr_text;
                write_file_atomic(failure_file(o.out_dir, p), f.dump(2) + "\n");
                std::error_code ec;
                fs::remove(tmp_file(o.out_dir, p), ec);
                ++sum.failed;
            }
            prog.finished(label_of(p), po.st == point_outcome::state::ok, status_text(po),
                          r.wall_s);
        },
        [&] { prog.tick(); });
    prog.close();

    for (size_t i = 0; i < spec.points.size(); ++i)
        if (outcomes[i].st == point_outcome::state::failed)
            out << "FAILED " << label_of(spec.points[i]) << " (" << status_text(outcomes[i])
                << "), stderr in " << failure_file(o.out_dir, spec.points[i]) << ":\n"
                << tail_lines(outcomes[i].stderr_text, 5);
    sum.written = write_results(spec, outcomes, o.out_dir);
    return sum;
}

std::string emit_commands(const sweep_spec& spec, const sweep_options& o) {
    const std::string out = fs::absolute(o.out_dir).lexically_normal().string();
    const std::string dir = points_dir(out);
    std::string s;
    for (const auto& p : spec.points) {
        const std::string tmp = (fs::path(dir) / ("." + p.id + ".json.tmp")).string();
        const std::string fin = (fs::path(dir) / (p.id + ".json")).string();
        std::vector<std::string> words = {"mkdir", "-p", dir};
        if (!p.traces.empty())
            words.push_back(traces_dir(out));
        words.push_back("&&");
        if (const double limit = point_timeout_s(spec, o); limit > 0) {
            // coreutils timeout: SIGTERM at the limit, SIGKILL after the grace, as run_jobs.
            std::ostringstream t, k;
            t << limit << "s";
            k << k_kill_grace_s << "s";
            words.insert(words.end(), {"timeout", "-k", k.str(), t.str()});
        }
        for (const auto& a : run_command(spec, p, o.exe, tmp, out))
            words.push_back(a);
        words.insert(words.end(), {"&&", "mv", "-f", tmp, fin});
        std::string cmd;
        for (const auto& w : words) {
            // Quoting keeps every metacharacter literal, but a line is one command to GNU
            // Parallel and to the sbatch line of docs/sweep.md: a newline in a path (the
            // binary's, --out, a base scenario's) would split it. Sweep values are checked
            // when the file is read (sweep_spec.cc check_value).
            for (const char c : w)
                if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                    throw config::config_error(
                        "nicsim sweep --emit-commands: '" + w +
                        "' contains a control character (a newline, tab, ...), which would "
                        "split or garble the command line of point " +
                        p.id);
            cmd += (cmd.empty() ? "" : " ") + (w == "&&" ? w : shell_quote(w));
        }
        s += cmd + "\n";
    }
    return s;
}

sweep_summary merge_sweep(const sweep_spec& spec, const std::vector<std::string>& dirs,
                          const sweep_options& o, std::ostream& out) {
    sweep_summary sum;
    sum.total = spec.points.size();
    std::vector<point_outcome> outcomes(spec.points.size());
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const point& p = spec.points[i];
        for (const auto& d : dirs) {
            for (const auto& f : {point_file(d, p), (fs::path(d) / (p.id + ".json")).string()})
                if (auto j = read_point_report(f, spec, p)) {
                    outcomes[i].st = point_outcome::state::ok;
                    outcomes[i].report = std::move(*j);
                    break;
                }
            if (outcomes[i].st == point_outcome::state::ok)
                break;
        }
        if (outcomes[i].st != point_outcome::state::ok) {
            // A recorded failure still tells why; otherwise the point is missing.
            for (const auto& d : dirs) {
                point_outcome f = read_outcome(d, spec, p);
                if (f.st == point_outcome::state::failed) {
                    outcomes[i] = f;
                    break;
                }
            }
        }
        if (outcomes[i].st == point_outcome::state::ok)
            ++sum.already;
        else if (outcomes[i].st == point_outcome::state::failed)
            ++sum.failed;
        else {
            ++sum.missing;
            out << "missing: " << label_of(p) << " (no " << p.id << ".json in any directory)\n";
        }
    }
    out << spec.stem << ": merged " << sum.already << " of " << sum.total << " points";
    if (sum.failed)
        out << ", " << sum.failed << " failed";
    if (sum.missing)
        out << ", " << sum.missing << " missing";
    out << "\n";
    sum.written = write_results(spec, outcomes, o.out_dir);
    return sum;
}

} // namespace nicsim::sweep

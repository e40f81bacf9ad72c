// SPDX-License-Identifier: MIT
#include "tools/validate/validation.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "tools/config/config_loader.h"
#include "tools/config/yaml_reader.h"
#include "tools/report/text_layout.h"
#include "sim/runner.h"
#include "tools/sweep/metrics.h"
#include "tools/sweep/process_pool.h"
#include "tools/sweep/progress.h"

namespace nicsim::validate {
namespace fs = std::filesystem;
using config::config_error;

namespace {

std::string value_text(const YAML::Node& n) {
    if (n.IsScalar())
        return n.Scalar();
    YAML::Emitter e;
    e.SetMapFormat(YAML::Flow);
    e.SetSeqFormat(YAML::Flow);
    e << n;
    return e.c_str();
}

check load_check(const std::string& file) {
    check c;
    c.file = file;
    const YAML::Node root = config::load_yaml_file(file);
    auto src = std::make_shared<config::yaml_source>();
    src->file = file;
    config::yaml_reader r(root, "", "validation file", src);
    c.name = r.optional<std::string>("name", fs::path(file).stem().string());
    r.optional<std::string>("description", "");
    const std::string scen = r.required<std::string>("scenario");
    fs::path sp(scen);
    if (sp.is_relative())
        sp = fs::absolute(fs::path(file)).parent_path() / sp;
    sp = sp.lexically_normal();
    if (!fs::is_regular_file(sp))
        r.fail("scenario", "scenario '" + sp.string() + "' does not exist");
    c.scenario = sp.string();
    if (r.optional_child("set"))
        for (auto it = root["set"].begin(); it != root["set"].end(); ++it)
            c.set.push_back({it->first.Scalar(), value_text(it->second)});

    // A list of seeds (a single scalar reads as one): each must be a non-negative integer.
    for (const auto& s : r.scalar_list("seeds")) {
        try {
            c.seeds.push_back(config::decode<std::uint64_t>::from(s.text));
        } catch (const std::exception&) {
            throw config_error(s.where + ": seeds: '" + s.text +
                               "' is not a seed (a non-negative integer)");
        }
    }
    c.metric = r.required<std::string>("metric");
    const sweep::metric_info* m = sweep::find_metric(c.metric);
    if (!m)
        r.fail("metric",
               "unknown metric '" + c.metric + "' (known: " + sweep::metric_names() + ")");
    c.minus = r.optional<std::string>("minus", "");
    if (!c.minus.empty()) {
        const sweep::metric_info* mm = sweep::find_metric(c.minus);
        if (!mm)
            r.fail("minus",
                   "unknown metric '" + c.minus + "' (known: " + sweep::metric_names() + ")");
        if (mm->unit != m->unit)
            r.fail("minus", "metric '" + c.minus + "' is in " + mm->unit + ", '" + c.metric +
                                "' in " + m->unit + ": a difference needs one unit");
    }
    auto mr = r.child("measured");
    c.measured.value = mr.required<double>("value");
    if (!(c.measured.value > 0))
        mr.fail("value", "the measured value must be > 0 (the error is relative to it)");
    c.measured.unit = mr.required<std::string>("unit");
    try {
        c.measured_in_metric_unit = c.measured.value * sweep::unit_factor(*m, c.measured.unit);
    } catch (const std::invalid_argument& e) {
        mr.fail("unit", e.what());
    }
    c.measured.source = mr.required<std::string>("source");
    c.measured.tolerance_pct = mr.optional<double>("tolerance_pct", 0.0, [](const double& v) {
        return v > 0 ? std::string() : std::string("must be > 0");
    });
    c.measured.tolerance_factor =
        mr.optional<double>("tolerance_factor", 0.0, [](const double& v) {
            return v > 1 ? std::string() : std::string("must be > 1");
        });
    if ((c.measured.tolerance_pct > 0) == (c.measured.tolerance_factor > 0))
        mr.fail(c.measured.tolerance_factor > 0 ? "tolerance_factor" : "tolerance_pct",
                "give exactly one of tolerance_pct and tolerance_factor");
    for (const auto& s : mr.scalar_list("runs")) {
        try {
            c.measured.runs.push_back(config::decode<double>::from(s.text));
        } catch (const std::exception&) {
            throw config_error(s.where + ": runs: '" + s.text + "' is not a number");
        }
        if (!(c.measured.runs.back() > 0))
            throw config_error(s.where + ": runs: '" + s.text + "' must be > 0");
    }
    c.measured.runs_widen_pct = mr.optional<double>("runs_widen_pct", 0.0, [](const double& v) {
        return v >= 0 ? std::string() : std::string("must be >= 0");
    });
    if (!c.measured.runs.empty() && c.seeds.empty())
        mr.fail("runs", "the published runs are checked seed by seed: give `seeds:` too");
    mr.reject_unknown_keys();
    r.reject_unknown_keys();

    // The overrides must be accepted by the scenario, as `nicsim run --set` would.
    config::load_options o;
    add_known_drivers(o);
    for (const auto& a : c.set)
        o.overrides.push_back(a.text());
    try {
        config::load_scenario(c.scenario, o);
    } catch (const config_error& e) {
        throw config_error(file + ": the scenario with this file's settings is rejected:\n  " +
                           e.what());
    }
    return c;
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// The check's value in one run's report: the metric, less `minus` when given; empty when the
// report lacks either.
std::optional<double> check_value(const check& c, const nlohmann::json& report) {
    const std::optional<double> v = sweep::metric_value(report, c.metric);
    if (!v || c.minus.empty())
        return v;
    const std::optional<double> m = sweep::metric_value(report, c.minus);
    if (!m)
        return std::nullopt;
    return *v - *m;
}

// Small values (an RTT spread in ms) with three decimals, the rest with one.
std::string fmt_value(double v) {
    return fmt(std::fabs(v) < 10 ? "%.3f" : "%.1f", v);
}

std::string metric_label(const check& c) {
    return c.minus.empty() ? c.metric : c.metric + " - " + c.minus;
}

std::string tolerance_label(const measurement& m) {
    return m.tolerance_factor > 0 ? "×/÷" + fmt("%g", m.tolerance_factor)
                                  : "±" + fmt("%g", m.tolerance_pct) + " %";
}

// Factor from the metric's unit to the unit the measurement was published in.
double to_measured_unit(const check& c) {
    return c.measured_in_metric_unit != 0 ? c.measured.value / c.measured_in_metric_unit : 1.0;
}

std::string join_seeds(const std::vector<std::uint64_t>& seeds) {
    std::string s;
    for (size_t k = 0; k < seeds.size(); ++k)
        s += (k ? ", " : "") + std::to_string(seeds[k]);
    return s;
}

std::string seed_label(const check& c, size_t k) {
    return "seed " + std::to_string(c.seeds.at(k));
}

std::string pad(const std::string& s, size_t w, bool right = false) {
    // Width in characters, counting UTF-8 continuation bytes as nothing (for "±").
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    if (n >= w)
        return s;
    return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

} // namespace

std::vector<check> load_checks(const std::string& file_or_dir) {
    std::vector<check> out;
    if (fs::is_directory(file_or_dir)) {
        std::vector<std::string> files;
        for (const auto& e : fs::directory_iterator(file_or_dir))
            if (e.is_regular_file() &&
                (e.path().extension() == ".yaml" || e.path().extension() == ".yml"))
                files.push_back(e.path().string());
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw config_error(file_or_dir + ": no validation files (*.yaml) in this directory");
        for (const auto& f : files)
            out.push_back(load_check(f));
    } else if (fs::is_regular_file(file_or_dir)) {
        out.push_back(load_check(file_or_dir));
    } else {
        throw config_error(file_or_dir + ": no such file or directory");
    }
    return out;
}

outcome judge(const check& c, std::optional<double> predicted, const std::vector<double>& samples) {
    outcome o;
    o.predicted = predicted;
    if (!predicted) {
        o.problem = "the report has no value for " + c.metric;
        return o;
    }
    o.error_pct = (*predicted - c.measured_in_metric_unit) / c.measured_in_metric_unit * 100.0;
    if (c.measured.tolerance_factor > 0) {
        const double f = c.measured.tolerance_factor, v = c.measured_in_metric_unit;
        o.pass = *predicted >= v / f && *predicted <= v * f;
    } else {
        o.pass = std::fabs(o.error_pct) <= c.measured.tolerance_pct;
    }
    const auto& runs = c.measured.runs;
    if (!runs.empty() && samples.size() == c.seeds.size()) {
        const double to_metric = c.measured_in_metric_unit / c.measured.value;
        const double w = c.measured.runs_widen_pct / 100.0;
        const double lo = *std::min_element(runs.begin(), runs.end()) * (1 - w) * to_metric;
        const double hi = *std::max_element(runs.begin(), runs.end()) * (1 + w) * to_metric;
        for (size_t k = 0; k < samples.size(); ++k)
            if (samples[k] < lo || samples[k] > hi)
                o.outside_runs.push_back(c.seeds[k]);
        o.pass = o.pass && o.outside_runs.empty();
    }
    return o;
}

std::vector<outcome> run_checks(const std::vector<check>& checks, const options& o,
                                std::ostream& out) {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/nicsim-validate-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
        throw std::runtime_error("cannot create a temporary directory " + templ + ": " +
                                 std::strerror(errno));
    const fs::path dir = buf.data();

    // One job per check and seed.
    struct run_ref {
        size_t check, seed; // seed: index into checks[check].seeds
    };
    std::vector<sweep::job> jobs;
    std::vector<run_ref> refs;
    for (size_t i = 0; i < checks.size(); ++i) {
        const size_t runs = std::max<size_t>(1, checks[i].seeds.size());
        for (size_t k = 0; k < runs; ++k) {
            const std::string id = std::to_string(jobs.size());
            std::vector<std::string> argv = {o.exe, "run", checks[i].scenario};
            for (const auto& a : checks[i].set) {
                argv.push_back("--set");
                argv.push_back(a.text());
            }
            if (!checks[i].seeds.empty())
                argv.insert(argv.end(), {"--set", "seed=" + std::to_string(checks[i].seeds[k])});
            argv.insert(argv.end(), {"--json", (dir / (id + ".json")).string(), "-q"});
            jobs.push_back({argv});
            refs.push_back({i, k});
        }
    }
    std::vector<outcome> res(checks.size());
    std::vector<std::vector<std::optional<double>>> samples(checks.size());
    for (size_t i = 0; i < checks.size(); ++i)
        samples[i].resize(std::max<size_t>(1, checks[i].seeds.size()));
    std::vector<size_t> left(checks.size()); // runs of each check still to come
    for (size_t i = 0; i < checks.size(); ++i)
        left[i] = samples[i].size();
    sweep::progress prog(out, o.tty, jobs.size(), 0);
    sweep::run_jobs(
        jobs, o.jobs,
        [&](size_t j, const sweep::job_result& r) {
            const size_t i = refs[j].check;
            std::string problem;
            // Exit 4 (cli::exit_traffic_short): the run reached its duration limit; its report
            // still holds the rate a search needs.
            if (r.exit_code != 0 && !(o.accept_short_runs && r.exit_code == 4)) {
                problem = "nicsim run failed (exit " + std::to_string(r.exit_code) +
                          "): " + r.stderr_text;
            } else {
                std::ifstream in(dir / (std::to_string(j) + ".json"));
                try {
                    const auto rep = nlohmann::json::parse(in);
                    samples[i][refs[j].seed] = check_value(checks[i], rep);
                } catch (const std::exception& e) {
                    problem = std::string("cannot read the run's report: ") + e.what();
                }
            }
            if (!problem.empty() && res[i].problem.empty())
                res[i].problem = checks[i].seeds.empty()
                                     ? problem
                                     : seed_label(checks[i], refs[j].seed) + ": " + problem;
            std::string label = checks[i].name;
            if (!checks[i].seeds.empty())
                label += " (" + seed_label(checks[i], refs[j].seed) + ")";
            prog.finished(label, problem.empty(), problem.empty() ? "ok" : "run failed", r.wall_s);
            if (--left[i] == 0 && res[i].problem.empty()) {
                // Every run of the check is in: judge the mean.
                std::optional<double> mean = 0.0;
                std::vector<double> vals;
                for (const auto& v : samples[i]) {
                    if (!v) {
                        mean.reset();
                        break;
                    }
                    vals.push_back(*v);
                    *mean += *v / double(samples[i].size());
                }
                res[i] = judge(checks[i], mean, vals);
                if (!checks[i].seeds.empty())
                    res[i].samples = vals;
            }
        },
        [&] { prog.tick(); });
    prog.close();
    std::error_code ec;
    fs::remove_all(dir, ec);
    return res;
}

namespace {
// `text` as lines of at most `columns`: the first after `indent`, the rest after four more
// spaces (deeper than the next item's indent, so a continuation never reads as one).
std::string wrapped(const std::string& indent, const std::string& text, std::size_t columns) {
    const std::string more = indent + "    ";
    const std::size_t room = columns > more.size() + 20 ? columns - more.size() : 20;
    std::string out;
    bool first = true;
    for (const auto& l : report::wrap(text, room)) {
        out += (first ? indent : more) + l + "\n";
        first = false;
    }
    return out;
}
} // namespace

std::string render_table(const std::vector<check>& checks, const std::vector<outcome>& outcomes,
                         std::size_t columns) {
    struct row {
        std::vector<std::string> cells;
    };
    const std::vector<std::string> head = {"check", "metric", "predicted", "measured",
                                           "unit",  "error",  "tolerance", "result"};
    std::vector<row> rows;
    for (size_t i = 0; i < checks.size(); ++i) {
        const auto& c = checks[i];
        const auto& o = outcomes[i];
        const sweep::metric_info* m = sweep::find_metric(c.metric);
        row r;
        r.cells.push_back(c.name);
        r.cells.push_back(metric_label(c));
        // In the unit the measurement was published in (280 mW, not 0.3 W).
        r.cells.push_back(o.predicted ? fmt_value(*o.predicted * to_measured_unit(c)) : "-");
        r.cells.push_back(fmt_value(c.measured.value));
        r.cells.push_back(c.measured.unit.empty() && m ? m->unit : c.measured.unit);
        r.cells.push_back(o.predicted ? fmt("%+.1f %%", o.error_pct) : "-");
        r.cells.push_back(tolerance_label(c.measured));
        r.cells.push_back(!o.problem.empty() ? "ERROR" : o.pass ? "PASS" : "FAIL");
        rows.push_back(r);
    }
    std::vector<size_t> w(head.size());
    for (size_t k = 0; k < head.size(); ++k) {
        w[k] = head[k].size();
        for (const auto& r : rows)
            w[k] = std::max(w[k], r.cells[k].size());
    }
    // Too wide for `columns` (the shipped checks' long names): the metric moves from its column
    // to the check's line under "measured values".
    size_t total = 2 * (head.size() - 1);
    for (size_t k = 0; k < head.size(); ++k)
        total += w[k];
    const bool metric_column = total <= columns;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (size_t k = 0; k < cells.size(); ++k) {
            if (k == 1 && !metric_column)
                continue;
            const bool num = k == 2 || k == 3 || k == 5 || k == 6;
            s += (k ? "  " : "") + pad(cells[k], w[k], num);
        }
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
        return s + "\n";
    };
    std::string out = line(head);
    for (const auto& r : rows)
        out += line(r.cells);
    size_t pass = 0;
    for (const auto& o : outcomes)
        pass += o.problem.empty() && o.pass;
    out += std::to_string(pass) + " of " + std::to_string(checks.size()) +
           " within tolerance\n\nmeasured values:\n";
    for (size_t i = 0; i < checks.size(); ++i) {
        const std::string metric = metric_column ? "" : " (" + checks[i].metric + ")";
        out += wrapped("  ",
                       checks[i].name + metric + ": " + fmt("%g", checks[i].measured.value) + " " +
                           checks[i].measured.unit + " — " + checks[i].measured.source,
                       columns);
        if (!outcomes[i].problem.empty())
            out += wrapped("    ", "ERROR: " + outcomes[i].problem, columns);
        const auto& runs = checks[i].measured.runs;
        if (!runs.empty()) {
            std::string text = "runs";
            for (size_t k = 0; k < runs.size(); ++k)
                text += std::string(k ? ", " : " ") + fmt("%g", runs[k]);
            text += "; every seed's run within them ±" +
                    fmt("%g", checks[i].measured.runs_widen_pct) + " %";
            if (outcomes[i].problem.empty())
                text += outcomes[i].outside_runs.empty()
                            ? std::string(": yes")
                            : ": no (seed " + join_seeds(outcomes[i].outside_runs) + " outside)";
            out += wrapped("    ", text, columns);
        }
    }
    bool any_seeds = false;
    for (size_t i = 0; i < checks.size(); ++i)
        any_seeds = any_seeds || !outcomes[i].samples.empty();
    if (any_seeds) {
        out += "\npredicted: the mean of one run per seed\n";
        for (size_t i = 0; i < checks.size(); ++i) {
            if (outcomes[i].samples.empty())
                continue;
            std::string text = checks[i].name + ":";
            for (size_t s = 0; s < outcomes[i].samples.size(); ++s)
                text += std::string(s ? ", " : " ") + seed_label(checks[i], s) + " " +
                        fmt_value(outcomes[i].samples[s] * to_measured_unit(checks[i]));
            out += wrapped("  ", text + " " + checks[i].measured.unit, columns);
        }
    }
    return out;
}

} // namespace nicsim::validate

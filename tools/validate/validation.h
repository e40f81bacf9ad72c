// SPDX-License-Identifier: MIT
//
// `nicsim validate`: predictions checked against published measurements. Each file of a
// validation directory names a scenario (plus overrides), a metric and the measured value with
// its source and tolerance (docs/validate.md); every file runs as its own `nicsim run` process.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/sweep_spec.h"

namespace nicsim::validate {

struct measurement {
    double value = 0;
    std::string unit;
    std::string source;
    // Exactly one of the two: pass when |predicted - value| <= tolerance_pct % of value, or
    // when value / tolerance_factor <= predicted <= value * tolerance_factor.
    double tolerance_pct = 0;
    double tolerance_factor = 0;
    // `runs:` — the published runs the value is the mean of; with `seeds:`, every seed's run
    // must lie in [min(runs), max(runs)] widened by runs_widen_pct (the hardware's spread).
    std::vector<double> runs;
    double runs_widen_pct = 0;
};

struct check {
    std::string file;     // the validation file
    std::string name;     // `name:` or the file stem
    std::string scenario; // absolute path
    std::vector<sweep::assignment> set;
    std::string metric;
    // `minus:` — a second metric (same unit) subtracted from `metric` in each run, for a spread
    // such as rtt_max_ms - rtt_min_ms; empty: none.
    std::string minus;
    measurement measured;
    double measured_in_metric_unit = 0; // measured.value converted to the metric's unit
    // `seeds:` — run once per seed and predict the mean, as the measurement is the mean of
    // repeated runs; empty: one run with the scenario's own seed.
    std::vector<std::uint64_t> seeds;
};

// One file, or every *.yaml of a directory (sorted by name); config_error (file:line:col) on any
// problem, including overrides the scenario rejects.
std::vector<check> load_checks(const std::string& file_or_dir);

struct outcome {
    std::optional<double> predicted; // in the metric's unit (the mean over the seeds)
    std::vector<double> samples;     // one per seed, in the order of check::seeds
    double error_pct = 0;            // (predicted - measured) / measured × 100
    bool pass = false;
    // Seeds whose run lies outside the published runs' widened range (check::measured.runs);
    // any makes the check fail.
    std::vector<std::uint64_t> outside_runs;
    std::string problem; // why there is no prediction (run failed, no such value)
};

struct options {
    std::string exe; // nicsim binary
    unsigned jobs = 1;
    bool tty = false;
    // A run that ended at its duration limit before its traffic was delivered still predicts
    // (calibrate: a far-off candidate); validate counts it as a failed run.
    bool accept_short_runs = false;
};

// Runs the checks (progress on out) and returns one outcome per check.
std::vector<outcome> run_checks(const std::vector<check>& checks, const options& o,
                                std::ostream& out);

// The table: check, metric, predicted, measured, unit, error, tolerance, result; then the
// measured values with their sources and the per-seed predictions, each wrapped to `columns`
// (continuation lines indented under their first).
std::string render_table(const std::vector<check>& checks, const std::vector<outcome>& outcomes,
                         std::size_t columns);

// Compares a prediction with a check (pure; exposed for tests). samples: one per seed (in the
// metric's unit), judged against measured.runs when both are given.
outcome judge(const check& c, std::optional<double> predicted,
              const std::vector<double>& samples = {});

} // namespace nicsim::validate

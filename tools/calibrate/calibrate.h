// SPDX-License-Identifier: MIT
//
// `nicsim calibrate` (docs/your-board.md): fits named keys of a platform profile to a user's
// measurements, written as validation files (docs/validate.md), and writes a new profile with the
// fitted values marked "calibrated to <file>". Phases: plan (every input checked before anything
// runs: config_error), choose keys (the profile's assumptions by their effect, when none are
// named), fit (fit.h, each candidate judged by the mean over the files' seeds), check
// (sensitivities, leave-one-out), write (whole file or nothing).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tools/calibrate/fit.h"
#include "tools/calibrate/profile_text.h"
#include "tools/validate/validation.h"

namespace nicsim::calibrate {

struct request {
    std::vector<std::string> measurements; // validation files or directories
    std::string profile;                   // "" = the profile the measurements' scenarios name
    std::vector<std::string> keys;         // "KEY" or "KEY=LO:HI"; none = the assumptions
    std::vector<std::string> ties;         // "KEY=FACTOR*FITTED_KEY"
    std::vector<std::string> predict;      // "SCENARIO[:METRIC]": other predictions to judge
    std::string output;                    // the new profile
    std::string name;                      // its `name:` ("" = <profile name>-calibrated)
    std::string exe;                       // the nicsim binary the runs use
    unsigned jobs = 1;
};

struct key_plan {
    fit_key key;           // in the unit the profile writes it
    std::string unit;
    std::string old_text;  // as the profile writes it
};

struct tie_plan {
    std::string path;
    std::string old_text;
    double factor = 1;
    size_t of = 0; // index into plan::keys
};

struct plan {
    std::vector<validate::check> checks; // with the profile override when --profile is given
    std::vector<target> targets;         // one per check
    profile_text profile;
    std::string profile_name;
    std::vector<key_plan> keys;          // empty until chosen when no --key was given
    std::vector<tie_plan> ties;
    std::vector<validate::check> predictions; // --predict: scenario and metric, no measurement
    std::string output, name;
    std::string measurement_label;       // the files as the user named them, for the marker
};

// Checks every input; config_error naming the file, key or option on any problem: unknown key,
// a key that is no number, bounds the profile refuses, more keys than measurements, an output
// that would overwrite a shipped profile.
plan make_plan(const request& r);

// Keys marked assumption in the profile (numeric, not 0), in file order: the default candidates,
// bounded by a quarter and four times their value. Those the profile refuses at a bound are left
// out, and listed in `refused` with the reason ("KEY: ...").
std::vector<key_plan> assumption_keys(const plan& p, std::vector<std::string>* refused = nullptr);

struct result {
    fit_result fit;
    std::vector<double> written;            // the values written, one per key
    std::vector<double> predicted;          // at the written values
    std::vector<std::vector<double>> elasticity; // [measurement][key]
    std::vector<double> spread;             // key_spread of the tolerances
    struct held_out {
        std::vector<double> x;
        double predicted = 0;
    };
    std::vector<held_out> leave_one_out;    // one per measurement when there are more than keys
    std::string screening;                  // the default key choice, as text ("" when named)
    int evaluations = 0;                    // distinct candidates run (each: every file's seeds)
    int runs_per_evaluation = 0;
    // --predict, at the written values: the prediction and its elasticity to each key
    std::vector<double> other;
    std::vector<std::vector<double>> other_elasticity;
};

// Runs the fit (progress on out). Throws std::runtime_error when a run fails.
result run(plan& p, const request& r, std::ostream& out);

// What moved, the residuals, the sensitivities and the leave-one-out check.
std::string render(const plan& p, const result& res);

// The --predict scenarios at the written values and +5 % of each key (after write_profile: a
// failing run there loses no fit). Throws std::runtime_error when a run fails.
void predict_others(const plan& p, const request& r, result& res, std::ostream& out);
std::string render_others(const plan& p, const result& res);

// Writes the new profile whole (temporary file, fsync, rename): an interrupted calibrate leaves
// no half-written profile. Throws std::runtime_error.
void write_profile(const plan& p, const result& res);

// printf of one double; figure(): a measured quantity with one decimal, more below 1000 so that
// at least four significant digits show (15964.3, 400.1, 1.6096).
std::string fmt(const char* format, double v);
std::string figure(double v);

// True when every residual is within its measurement's tolerance.
bool within_tolerance(const plan& p, const result& res);

} // namespace nicsim::calibrate

// SPDX-License-Identifier: MIT
//
// The search of `nicsim calibrate` (docs/your-board.md), independent of what it fits: a bounded
// Gauss-Newton least-squares fit of k keys to n >= k targets, where one evaluation predicts every
// target. The Jacobian starts from forward steps and is then updated from the steps taken
// (Broyden), so a near-linear model converges in a few evaluations beyond the first k + 1; a
// step that makes the fit worse is halved, and a key the step would push past a bound stays on
// it (reported). Targets are weighted by 1 / tolerance, so every residual is in tolerances.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nicsim::calibrate {

struct fit_key {
    std::string name;
    double start = 0, lo = 0, hi = 0;
    bool integer = false; // the value is written without a fraction (rounded)
};

struct target {
    double value = 0;     // the measurement, in the prediction's unit (> 0)
    double tolerance = 1; // relative (0.15 for ±15 %), its weight in the fit is 1 / tolerance
};

// Predictions, one per target, at the key values x (in fit_key order). Throws on a failed run.
using evaluator = std::function<std::vector<double>(const std::vector<double>& x)>;

struct fit_options {
    double rel_step = 0.05;    // finite-difference step, relative to the key (of the range at 0)
    double residual_tol = 5e-4; // done when every used residual is below this (relative),
    double key_tol = 2e-3;      // or when the next step would move no key by more than this
    int max_steps = 10;         // (relative): the seeds' roughness is larger than what is left
};

struct fit_result {
    std::vector<double> x;           // the fitted values
    std::vector<double> predicted;   // at x, one per target
    std::vector<bool> at_bound;      // the key ended on its bound with the fit pulling past it
    int evaluations = 0;             // new evaluations this fit made
    bool converged = false;          // stopped by the tolerances, not by max_steps
};

struct fit_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Fits keys to the targets whose `use` entry is true (all when `use` is empty); `use` must leave
// at least keys.size() targets. Throws fit_error when a key moves none of the used predictions.
fit_result fit(const std::vector<fit_key>& keys, const std::vector<target>& targets,
               const evaluator& eval, const fit_options& o = {},
               const std::vector<bool>& use = {});

// The candidate x rounded to what the profile will hold (integers, 4 significant digits).
double written_value(const fit_key& k, double x);

// Elasticities at x: e[i][j] = relative change of prediction i per relative change of key j,
// from a forward step of o.rel_step (backward at the upper bound); NaN for a key at 0.
// base: the predictions at x.
std::vector<std::vector<double>> elasticities(const std::vector<fit_key>& keys,
                                              const std::vector<double>& x,
                                              const std::vector<double>& base,
                                              const evaluator& eval, const fit_options& o = {});

// How far each key may move, relative to its value, while every prediction stays within its
// tolerance, to first order: sqrt of the diagonal of (J^T W J)^-1 with J from the elasticities
// and W = 1 / tolerance^2. NaN where J^T W J is singular.
std::vector<double> key_spread(const std::vector<std::vector<double>>& elasticity,
                               const std::vector<target>& targets);

} // namespace nicsim::calibrate

// SPDX-License-Identifier: MIT
//
// A line plot as a self-contained SVG text (no dependencies): x ticks at the data's x values,
// "nice" y ticks from zero, one polyline with point markers per series, legend on the right.
// The output is a pure function of the input (fixed number formatting), so plots are
// byte-identical between runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nicsim::sweep {

struct plot_series {
    std::string label;                    // legend text ("" = no legend entry)
    std::vector<std::optional<double>> y; // one per x position; nullopt = no value (skipped)
};

struct line_plot {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<std::string> x_ticks; // tick text per x position
    std::vector<double> x;            // position of each tick (numeric axis or 0, 1, 2, ...)
    std::vector<plot_series> series;
};

std::string render_svg(const line_plot& p);

// Ticks 1/2/5 × 10^n covering [lo, hi] (exposed for tests).
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

} // namespace nicsim::sweep

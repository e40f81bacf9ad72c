// SPDX-License-Identifier: MIT
#include "tools/sweep/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nicsim::sweep {
namespace {

// Colour-blind-safe palette (Okabe-Ito; its yellow is too pale on white and left out). Past
// seven series the colours repeat with another dash pattern, so every series stays distinct.
const char* const k_colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                 "#E69F00", "#56B4E9", "#000000"};
const char* const k_dashes[] = {"", "7 4", "2 3", "9 3 2 3"};
constexpr size_t k_colour_count = sizeof k_colours / sizeof *k_colours;
constexpr size_t k_dash_count = sizeof k_dashes / sizeof *k_dashes;

// Width of a legend text at font-size 12 (sans-serif: ~7 px a character, generous so it never
// overflows; UTF-8 continuation bytes not counted).
double text_width(const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return 7.0 * static_cast<double>(n);
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string coord(double v) {
    return fmt("%.2f", v);
}

std::string escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&':
            o += "&amp;";
            break;
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '"':
            o += "&quot;";
            break;
        default:
            o += c;
        }
    }
    return o;
}

std::string tick_text(double v) {
    if (v == 0)
        return "0";
    return fmt("%g", v);
}

} // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
    if (!(hi > lo))
        hi = lo + (lo == 0 ? 1 : std::fabs(lo));
    const double raw = (hi - lo) / std::max(1, target);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    std::vector<double> t;
    const double start = std::floor(lo / step) * step;
    for (int i = 0; i < 100; ++i) {
        const double v = start + i * step;
        t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
        if (v >= hi - step * 1e-9)
            break;
    }
    return t;
}

std::string render_svg(const line_plot& p) {
    // The plot area is fixed; the legend on its right is as wide as its longest text and the
    // picture as tall as the legend, so no text is clipped.
    double legend_text = 0;
    size_t entries = 0;
    for (const auto& s : p.series)
        if (!s.label.empty()) {
            legend_text = std::max(legend_text, text_width(s.label));
            ++entries;
        }
    const double left = 80, top = 40, bottom = 60, pw = entries ? 480 : 640;
    const double right = entries ? std::max(200.0, 46 + legend_text + 14) : 40;
    const double W = left + pw + right;
    const double H = std::max(440.0, top + 10 + 20 * static_cast<double>(entries) + bottom);
    const double ph = H - top - bottom;

    double ymin = 0, ymax = 0;
    bool any = false;
    for (const auto& s : p.series)
        for (const auto& v : s.y)
            if (v) {
                ymin = any ? std::min(ymin, *v) : std::min(0.0, *v);
                ymax = any ? std::max(ymax, *v) : std::max(0.0, *v);
                any = true;
            }
    const std::vector<double> yt = nice_ticks(ymin, ymax);
    const double y0 = yt.front(), y1 = yt.back();

    double x0 = 0, x1 = 1;
    if (!p.x.empty()) {
        x0 = *std::min_element(p.x.begin(), p.x.end());
        x1 = *std::max_element(p.x.begin(), p.x.end());
    }
    const double xpad = x1 > x0 ? (x1 - x0) * 0.05 : 1;
    x0 -= xpad;
    x1 += xpad;
    auto X = [&](double v) { return left + (v - x0) / (x1 - x0) * pw; };
    auto Y = [&](double v) { return top + ph - (v - y0) / (y1 - y0) * ph; };

    std::string o;
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + coord(W) + "\" height=\"" +
         coord(H) + "\" viewBox=\"0 0 " + coord(W) + " " + coord(H) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    o += "<rect x=\"0\" y=\"0\" width=\"" + coord(W) + "\" height=\"" + coord(H) +
         "\" fill=\"white\"/>\n";
    o += "<text x=\"" + coord(W / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         escape(p.title) + "</text>\n";
    // Grid and y ticks.
    o += "<g class=\"y-axis\">\n";
    for (double t : yt) {
        o += "<line x1=\"" + coord(left) + "\" y1=\"" + coord(Y(t)) + "\" x2=\"" +
             coord(left + pw) + "\" y2=\"" + coord(Y(t)) + "\" stroke=\"#dddddd\"/>\n";
        o += "<text x=\"" + coord(left - 6) + "\" y=\"" + coord(Y(t) + 4) +
             "\" text-anchor=\"end\">" + escape(tick_text(t)) + "</text>\n";
    }
    o += "</g>\n<g class=\"x-axis\">\n";
    for (size_t i = 0; i < p.x.size() && i < p.x_ticks.size(); ++i) {
        o += "<line x1=\"" + coord(X(p.x[i])) + "\" y1=\"" + coord(top + ph) + "\" x2=\"" +
             coord(X(p.x[i])) + "\" y2=\"" + coord(top + ph + 5) + "\" stroke=\"black\"/>\n";
        o += "<text x=\"" + coord(X(p.x[i])) + "\" y=\"" + coord(top + ph + 19) +
             "\" text-anchor=\"middle\">" + escape(p.x_ticks[i]) + "</text>\n";
    }
    o += "</g>\n";
    // Axes frame and labels.
    o += "<rect x=\"" + coord(left) + "\" y=\"" + coord(top) + "\" width=\"" + coord(pw) +
         "\" height=\"" + coord(ph) + "\" fill=\"none\" stroke=\"black\"/>\n";
    o += "<text x=\"" + coord(left + pw / 2) + "\" y=\"" + coord(H - 16) +
         "\" text-anchor=\"middle\">" + escape(p.x_label) + "</text>\n";
    o += "<text x=\"18\" y=\"" + coord(top + ph / 2) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " + coord(top + ph / 2) + ")\">" +
         escape(p.y_label) + "</text>\n";
    // Series.
    for (size_t s = 0; s < p.series.size(); ++s) {
        const auto& ser = p.series[s];
        const char* colour = k_colours[s % k_colour_count];
        const std::string dash = k_dashes[(s / k_colour_count) % k_dash_count];
        const std::string dash_attr =
            dash.empty() ? std::string() : " stroke-dasharray=\"" + dash + "\"";
        std::string pts;
        for (size_t i = 0; i < ser.y.size() && i < p.x.size(); ++i)
            if (ser.y[i])
                pts += (pts.empty() ? "" : " ") + coord(X(p.x[i])) + "," + coord(Y(*ser.y[i]));
        o += "<g class=\"series\">\n";
        o += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"2\"" +
             dash_attr + " points=\"" + pts + "\"/>\n";
        for (size_t i = 0; i < ser.y.size() && i < p.x.size(); ++i)
            if (ser.y[i])
                o += "<circle cx=\"" + coord(X(p.x[i])) + "\" cy=\"" + coord(Y(*ser.y[i])) +
                     "\" r=\"3.5\" fill=\"" + colour + "\"/>\n";
        if (!ser.label.empty()) {
            const double ly = top + 10 + 20 * static_cast<double>(s);
            o += "<line x1=\"" + coord(left + pw + 15) + "\" y1=\"" + coord(ly) + "\" x2=\"" +
                 coord(left + pw + 40) + "\" y2=\"" + coord(ly) + "\" stroke=\"" + colour +
                 "\" stroke-width=\"2\"" + dash_attr + "/>\n";
            o += "<text x=\"" + coord(left + pw + 46) + "\" y=\"" + coord(ly + 4) + "\">" +
                 escape(ser.label) + "</text>\n";
        }
        o += "</g>\n";
    }
    o += "</svg>\n";
    return o;
}

} // namespace nicsim::sweep

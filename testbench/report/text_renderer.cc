// SPDX-License-Identifier: MIT
#include "testbench/report/text_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "testbench/report/verdict.h"

namespace nicsim::report {
namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string freq(double hz) {
    if (hz >= 1e6)
        return fixed(hz / 1e6, std::fmod(hz, 1e6) == 0 ? 0 : 3) + " MHz";
    if (hz >= 1e3)
        return fixed(hz / 1e3, 3) + " kHz";
    return fixed(hz, 0) + " Hz";
}

std::string percent(double share) {
    return fixed(share * 100.0, 1) + " %";
}

std::string pad_right(const std::string& s, size_t w) {
    return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}
std::string pad_left(const std::string& s, size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

} // namespace

std::string format_kbps(double bps) {
    return fixed(bps / 8.0 / 1024.0, 1) + " KB/s";
}
std::string format_mbitps(double bps) {
    return fixed(bps / 1e6, 3) + " Mbit/s";
}

std::vector<std::pair<std::string, std::string>> summary_rows(const report& r) {
    std::vector<std::pair<std::string, std::string>> rows;
    auto add = [&rows](std::string k, std::string v) {
        rows.emplace_back(std::move(k), std::move(v));
    };

    add("scenario", r.run.scenario);
    add("platform", r.run.platform);
    add("device", r.run.device + " on " + r.run.bus +
                      (r.run.bus_clock_hz > 0 ? " at " + freq(r.run.bus_clock_hz) : std::string()));
    add("driver", r.run.driver_variant + ", power save " + (r.run.power_save ? "on" : "off"));
    add("kernel", r.run.kernel_version);
    add("simulated time", fixed(r.sim_time_s, 6) + " s" +
                              (r.end_reason.empty() ? std::string() : " (" + r.end_reason + ")"));

    for (const auto& f : r.flows) {
        const std::string p = "flow " + f.name + " ";
        add(p + "kind", f.kind + " (" + f.direction + ")");
        add(p + "payload", std::to_string(f.bytes) + " B");
        add(p + "frames", std::to_string(f.frames));
        add(p + "active time", fixed(f.active_time_s, 6) + " s");
        add(p + "goodput", format_kbps(f.goodput_bps) + "  " + format_mbitps(f.goodput_bps));
        if (const std::string loss = loss_summary(f); !loss.empty())
            add(p + "packets", loss);
        if (f.rtt)
            add(p + "rtt min/avg/max/mdev",
                fixed(f.rtt->min_ms, 3) + "/" + fixed(f.rtt->avg_ms, 3) + "/" +
                    fixed(f.rtt->max_ms, 3) + "/" + fixed(f.rtt->mdev_ms, 3) + " ms");
    }
    const totals t = compute_totals(r);
    add("total goodput", format_kbps(t.goodput_bps) + "  " + format_mbitps(t.goodput_bps));

    for (const auto& d : r.devices) {
        const std::string p = d.name + " ";
        add(p + "frames tx / rx",
            std::to_string(d.frames_tx) + " / " + std::to_string(d.frames_rx));
        if (d.irqs > 0) {
            const auto fpi = frames_per_irq(d);
            add(p + "interrupts",
                std::to_string(d.irqs) + " (" + fixed(*fpi, 2) + " frames per interrupt)");
        }
        add(p + "wake-ups", std::to_string(d.wakeups));
        add(p + "time waking", fixed(d.wake_time_s, 6) + " s");
        const auto tpf = bus_transactions_per_frame(d);
        add(p + d.bus + " transactions", std::to_string(d.bus_transactions) +
                                             (tpf ? " (" + fixed(*tpf, 2) + " per frame)" : ""));
        for (const auto& [kind, count] : d.bus_commands) {
            const double n = double(frames(d));
            add(p + d.bus + " " + kind,
                std::to_string(count) +
                    (n > 0 ? " (" + fixed(double(count) / n, 2) + " per frame)" : ""));
        }
        const auto bpf = bus_bytes_per_frame(d);
        add(p + d.bus + " bytes",
            std::to_string(d.bus_bytes) + (bpf ? " (" + fixed(*bpf, 1) + " per frame)" : ""));
        add(p + d.bus + " utilisation", percent(bus_utilisation(d, r.sim_time_s)));
        for (const auto& s : d.power_states)
            add(p + "time " + s.state,
                fixed(s.time_s, 6) + " s (" +
                    percent(r.sim_time_s > 0 ? s.time_s / r.sim_time_s : 0.0) + ") at " +
                    fixed(s.current_a * 1e3, 2) + " mA");
        add(p + "energy", fixed(energy_j(d), 4) + " J");
        add(p + "average power", fixed(avg_power_w(d, r.sim_time_s), 4) + " W");
        add(p + "currents",
            std::string(d.power_is_proxy ? "proxy: " : "") + d.power_source +
                (d.supply_voltage_v > 0 ? " at " + fixed(d.supply_voltage_v, 2) + " V"
                                        : std::string()));
    }
    add("host CPU busy", percent(host_cpu_busy_share(r)) + " of " +
                             std::to_string(r.host_cpu_cores) +
                             (r.host_cpu_cores == 1 ? " core" : " cores"));
    add("findings", std::to_string(r.findings.size()));
    add("wall time (host)", fixed(r.host.wall_time_s, 3) + " s");
    add("peak RSS (host)", fixed(r.host.peak_rss_mb, 1) + " MB");
    return rows;
}

std::string render_text(const report& r) {
    const auto rows = summary_rows(r);
    size_t w = 0;
    for (const auto& [k, v] : rows)
        w = std::max(w, k.size());
    std::string out;
    for (const auto& [k, v] : rows)
        out += "  " + pad_right(k, w) + "  " + v + "\n";
    if (!r.findings.empty()) {
        out += "findings:\n";
        for (const auto& f : r.findings)
            out += "  " + fixed(f.time_s, 9) + " s  " + f.severity + "  " + f.source + ": " +
                   f.message + "\n";
    }
    return out;
}

std::string render_side_by_side(const std::vector<report>& reports,
                                const std::vector<std::string>& labels_in) {
    std::vector<std::string> labels = labels_in;
    if (labels.size() != reports.size()) {
        // Name each column by the run settings that differ between the reports.
        labels.assign(reports.size(), "");
        using getter = std::string (*)(const report&);
        const std::vector<std::pair<const char*, getter>> keys = {
            {"scenario", [](const report& r) { return r.run.scenario; }},
            {"platform", [](const report& r) { return r.run.platform; }},
            {"device", [](const report& r) { return r.run.device; }},
            {"bus", [](const report& r) { return r.run.bus; }},
            {"bus_clock", [](const report& r) { return freq(r.run.bus_clock_hz); }},
            {"variant", [](const report& r) { return r.run.driver_variant; }},
            {"power_save",
             [](const report& r) { return std::string(r.run.power_save ? "on" : "off"); }},
            {"traffic", [](const report& r) { return r.run.traffic; }},
            {"seed", [](const report& r) { return std::to_string(r.run.seed); }},
        };
        for (const auto& [name, get] : keys) {
            bool differs = false;
            for (const auto& r : reports)
                differs |= get(r) != get(reports.front());
            if (!differs)
                continue;
            for (size_t i = 0; i < reports.size(); ++i)
                labels[i] +=
                    (labels[i].empty() ? "" : " ") + std::string(name) + "=" + get(reports[i]);
        }
        for (size_t i = 0; i < reports.size(); ++i)
            if (labels[i].empty())
                labels[i] = "#" + std::to_string(i + 1);
    }

    // Union of the row labels in first-seen order; a report without a row shows "-".
    std::vector<std::string> order;
    std::vector<std::map<std::string, std::string>> values(reports.size());
    for (size_t i = 0; i < reports.size(); ++i)
        for (auto& [k, v] : summary_rows(reports[i])) {
            if (std::find(order.begin(), order.end(), k) == order.end())
                order.push_back(k);
            values[i][k] = v;
        }
    size_t kw = 0;
    for (const auto& k : order)
        kw = std::max(kw, k.size());
    std::vector<size_t> cw(reports.size());
    for (size_t i = 0; i < reports.size(); ++i) {
        cw[i] = labels[i].size();
        for (const auto& [k, v] : values[i])
            cw[i] = std::max(cw[i], v.size());
    }
    std::string out = "  " + pad_right("", kw);
    for (size_t i = 0; i < reports.size(); ++i)
        out += "  " + pad_left(labels[i], cw[i]);
    out += "\n";
    for (const auto& k : order) {
        out += "  " + pad_right(k, kw);
        for (size_t i = 0; i < reports.size(); ++i) {
            auto it = values[i].find(k);
            out += "  " + pad_left(it == values[i].end() ? "-" : it->second, cw[i]);
        }
        out += "\n";
    }
    return out;
}

} // namespace nicsim::report

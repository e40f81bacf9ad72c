// SPDX-License-Identifier: MIT
#include "tools/report/text_renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "tools/report/text_layout.h"
#include "tools/report/verdict.h"

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

// " at 48 MHz (41.500 MHz actual)": the requested clock and, when the controller's divider
// changes it, the clock the bus really ran at.
std::string bus_clock_text(const run_info& run) {
    if (run.bus_clock_hz <= 0)
        return {};
    std::string s = " at " + freq(run.bus_clock_hz);
    if (run.bus_clock_actual_hz > 0 && run.bus_clock_actual_hz != run.bus_clock_hz)
        s += " (" + freq(run.bus_clock_actual_hz) + " actual)";
    return s;
}

std::string percent(double share) {
    return fixed(share * 100.0, 1) + " %";
}

std::string bucket_text(const histogram_bucket& b, const char* unit) {
    // Integer buckets holding one value ([0, 1), [1, 2)) print as that value.
    if (b.below - b.from <= 1)
        return fixed(b.from, 0) + unit;
    return fixed(b.from, 0) + "-" + fixed(b.below, 0) + unit;
}

// The buckets holding the median and the largest value of a log2 histogram.
std::string histogram_summary(const std::vector<histogram_bucket>& h, const char* unit) {
    std::uint64_t n = 0;
    for (const auto& b : h)
        n += b.count;
    std::uint64_t seen = 0;
    const histogram_bucket* median = &h.front();
    for (const auto& b : h) {
        seen += b.count;
        if (2 * seen >= n) {
            median = &b;
            break;
        }
    }
    return "median " + bucket_text(*median, unit) + ", largest " + bucket_text(h.back(), unit) +
           " (" + std::to_string(n) + " wake-ups)";
}

bool is_ping(const flow_report& f) {
    return f.kind == "ping" || f.rtt.has_value();
}

} // namespace

std::string format_kbps(double bps) {
    return fixed(bps / 8.0 / 1024.0, 1) + " KB/s";
}
std::string format_mbitps(double bps) {
    return fixed(bps / 1e6, 3) + " Mbit/s";
}
std::string format_ratio(double a, double b) {
    if (a == 0)
        return "";
    const double r = b / a;
    return fixed(r, r >= 100 ? 0 : r >= 10 ? 1 : 2) + "×";
}
std::string format_change(double a, double b) {
    if (a == 0)
        return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1f %%", (b - a) / a * 100.0);
    return buf;
}

std::vector<metric_row> metric_rows(const report& r) {
    std::vector<metric_row> rows;
    auto add = [&rows](std::string k, std::string v, std::optional<double> n = std::nullopt) {
        rows.push_back({std::move(k), std::move(v), n});
    };

    add("scenario", r.run.scenario);
    add("platform", r.run.platform);
    add("device", r.run.device + " on " + r.run.bus + bus_clock_text(r.run));
    add("driver", r.run.driver_variant + ", power save " + (r.run.power_save ? "on" : "off"));
    add("kernel", r.run.kernel_version);
    if (!r.run.driver_source.empty())
        add("driver source",
            r.run.driver_source + " (sha256 " + r.run.driver_source_sha256.substr(0, 12) + ")");
    add("simulated time",
        fixed(r.sim_time_s, 6) + " s" +
            (r.end_reason.empty() ? std::string() : " (" + r.end_reason + ")"),
        r.sim_time_s);

    std::size_t bulk_flows = 0;
    for (const auto& f : r.flows) {
        const std::string p = "flow " + f.name + " ";
        add(p + "kind", f.kind + " (" + f.direction + ")");
        if (is_ping(f)) { // a ping moves no payload worth a rate: its frames and round trips
            add(p + "frames", std::to_string(f.frames), double(f.frames));
            if (const std::string loss = loss_summary(f); !loss.empty())
                add(p + "packets", loss);
            if (f.rtt)
                add(p + "rtt min/avg/max/mdev",
                    fixed(f.rtt->min_ms, 3) + "/" + fixed(f.rtt->avg_ms, 3) + "/" +
                        fixed(f.rtt->max_ms, 3) + "/" + fixed(f.rtt->mdev_ms, 3) + " ms",
                    f.rtt->avg_ms);
            continue;
        }
        ++bulk_flows;
        add(p + "payload", std::to_string(f.bytes) + " B", double(f.bytes));
        add(p + "frames", std::to_string(f.frames), double(f.frames));
        add(p + "active time", fixed(f.active_time_s, 6) + " s", f.active_time_s);
        add(p + "goodput", format_kbps(f.goodput_bps) + "  " + format_mbitps(f.goodput_bps),
            f.goodput_bps);
        if (const std::string loss = loss_summary(f); !loss.empty())
            add(p + "packets", loss);
        if (f.tcp && f.tcp->retransmits > 0) // losses and how TCP repaired them
            add(p + "retransmits",
                std::to_string(f.tcp->retransmits) + " (" + std::to_string(f.tcp->fast_recoveries) +
                    " fast recoveries, " + std::to_string(f.tcp->tail_loss_probes) +
                    " tail loss probes, " + std::to_string(f.tcp->timeouts) + " timeouts" +
                    (f.tcp->sack ? ", SACK" : ", no SACK") + ")",
                double(f.tcp->retransmits));
        if (f.udp && f.udp->rcvbuf_errors + f.udp->backlog_drops > 0) // where the receiver dropped
            add(p + "receiver drops",
                std::to_string(f.udp->rcvbuf_errors) + " socket buffer full, " +
                    std::to_string(f.udp->backlog_drops) + " backlog full",
                double(f.udp->rcvbuf_errors + f.udp->backlog_drops));
    }
    if (bulk_flows > 1) { // with one flow the total repeats its goodput
        const totals t = compute_totals(r);
        add("total goodput", format_kbps(t.goodput_bps) + "  " + format_mbitps(t.goodput_bps),
            t.goodput_bps);
    }

    for (const auto& d : r.devices) {
        const std::string p = d.name + " ";
        add(p + "frames tx / rx", std::to_string(d.frames_tx) + " / " + std::to_string(d.frames_rx),
            double(frames(d)));
        if (d.irqs > 0) {
            const auto fpi = frames_per_irq(d);
            add(p + "interrupts",
                std::to_string(d.irqs) + " (" + fixed(*fpi, 2) + " frames per interrupt)",
                double(d.irqs));
        }
        // Wake-ups are the host interface's (a chip without one, e.g. an Ethernet controller,
        // cannot wake).
        const bool wakes =
            d.wakeups > 0 || std::any_of(d.meters.begin(), d.meters.end(),
                                         [](const auto& m) { return m.name == "host_interface"; });
        if (wakes) {
            add(p + "wake-ups", std::to_string(d.wakeups), double(d.wakeups));
            add(p + "time waking", fixed(d.wake_time_s, 6) + " s", d.wake_time_s);
        }
        if (d.wake && d.wake->requests > 0) {
            const auto& w = *d.wake;
            add(p + "wake-ups found",
                std::to_string(w.found_running) + " clock running, " +
                    std::to_string(w.found_waking) + " waking, " + std::to_string(w.found_asleep) +
                    " asleep" +
                    (w.found_deep ? " (" + std::to_string(w.found_deep) + " deep)" : std::string()),
                double(w.found_asleep));
            if (!w.asleep_us.empty())
                add(p + "asleep before wake", histogram_summary(w.asleep_us, " us"));
            if (!w.clk_status_polls.empty())
                add(p + "polls per wake-up", histogram_summary(w.clk_status_polls, ""));
        }
        if (d.power_save && d.power_save->dozes > 0) {
            const auto& ps = *d.power_save;
            add(p + "802.11 power save",
                std::to_string(ps.dozes) + " dozes, " + std::to_string(ps.beacon_wakeups) +
                    " beacon wake-ups, " + std::to_string(ps.tim_wakeups) + " TIM wake-ups, " +
                    std::to_string(ps.uplink_wakeups) + " uplink wake-ups",
                double(ps.dozes));
        }
        if (const auto fpb = frames_per_tx_batch(d))
            add(p + "tx batches",
                std::to_string(*d.tx_batches) + " (" + fixed(*fpb, 2) + " frames per batch)",
                double(*d.tx_batches));
        if (d.tcp_ack_filter)
            add(p + "tcp ack filter", *d.tcp_ack_filter ? "on" : "off");
        const auto tpf = bus_transactions_per_frame(d);
        add(p + d.bus + " transactions",
            std::to_string(d.bus_transactions) + (tpf ? " (" + fixed(*tpf, 2) + " per frame)" : ""),
            double(d.bus_transactions));
        for (const auto& [kind, count] : d.bus_commands) {
            const double n = double(frames(d));
            add(p + d.bus + " " + kind,
                std::to_string(count) +
                    (n > 0 ? " (" + fixed(double(count) / n, 2) + " per frame)" : ""),
                double(count));
        }
        const auto bpf = bus_bytes_per_frame(d);
        add(p + d.bus + " bytes",
            std::to_string(d.bus_bytes) + (bpf ? " (" + fixed(*bpf, 1) + " per frame)" : ""),
            double(d.bus_bytes));
        const double util = bus_utilisation(d, r.sim_time_s);
        add(p + d.bus + " utilisation", percent(util), util);
        // One line per meter: its power, then the share of time in each state it used (the
        // JSON report has the times and currents).
        for (const auto& m : d.meters) {
            std::string shares;
            for (const auto& s : m.states)
                if (s.time_s > 0)
                    shares += (shares.empty() ? "" : ", ") + s.state + " " +
                              percent(r.sim_time_s > 0 ? s.time_s / r.sim_time_s : 0.0);
            std::string name = m.name;
            std::replace(name.begin(), name.end(), '_', ' ');
            const auto w = avg_power_w(m, r.sim_time_s);
            add(p + name,
                (w ? fixed(*w, 4) + " W" : std::string("power not modelled")) +
                    (shares.empty() ? std::string() : " (" + shares + ")"),
                w);
        }
        if (!d.meters.empty() || d.wakeups > 0) {
            // Energy and average power, or one line saying they are not modelled.
            if (const auto e = energy_j(d)) {
                const auto w = avg_power_w(d, r.sim_time_s);
                add(p + "energy", fixed(*e, 4) + " J", e);
                add(p + "average power", fixed(*w, 4) + " W", w);
            } else {
                add(p + "energy", "not modelled");
            }
        }
        add(p + "currents",
            std::string(d.power_is_proxy ? "proxy: " : "") + d.power_source +
                (d.supply_voltage_v > 0 ? " at " + fixed(d.supply_voltage_v, 2) + " V"
                                        : std::string()));
    }
    const double cpu = host_cpu_busy_share(r);
    add("host CPU busy",
        percent(cpu) + " of " + std::to_string(r.host_cpu_cores) +
            (r.host_cpu_cores == 1 ? " core" : " cores"),
        cpu);
    if (r.host_cpu_driver_code_s + r.host_cpu_context_switch_s + r.host_cpu_hardirq_s > 0) {
        // The kernel's own parts of that, as shares of the same capacity.
        const double cap = r.sim_time_s * r.host_cpu_cores;
        const auto share = [cap](double s) { return cap > 0 ? s / cap : 0.0; };
        add("host CPU driver code", percent(share(r.host_cpu_driver_code_s)),
            share(r.host_cpu_driver_code_s));
        add("host CPU context switches",
            percent(share(r.host_cpu_context_switch_s)) + " (" +
                std::to_string(r.host_cpu_context_switches) + ")",
            share(r.host_cpu_context_switch_s));
        add("host CPU hard IRQs",
            percent(share(r.host_cpu_hardirq_s)) + " (" + std::to_string(r.host_cpu_hardirqs) + ")",
            share(r.host_cpu_hardirq_s));
    }
    if (r.host_cpu_spi_controller) {
        // The SPI controller driver: its software path, interrupts and the caller's switches.
        const auto& c = *r.host_cpu_spi_controller;
        const double cap = r.sim_time_s * r.host_cpu_cores;
        const double sh = cap > 0 ? c.cpu_s / cap : 0.0;
        add("host CPU spi controller",
            percent(sh) + " (" + std::to_string(c.messages) + " messages, " +
                std::to_string(c.irqs) + " IRQs, " + std::to_string(c.sleeps) + " sleeps)",
            sh);
    }
    add("skbs in flight", std::to_string(r.skbs_in_flight), double(r.skbs_in_flight));
    if (r.skbs_leaked)
        add("skbs leaked (ifdown)", std::to_string(*r.skbs_leaked), double(*r.skbs_leaked));
    add("findings", std::to_string(r.findings.size()), double(r.findings.size()));
    add("wall time (host)", fixed(r.host.wall_time_s, 3) + " s", r.host.wall_time_s);
    add("peak RSS (host)", fixed(r.host.peak_rss_mb, 1) + " MB", r.host.peak_rss_mb);
    return rows;
}

std::vector<std::pair<std::string, std::string>> summary_rows(const report& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& m : metric_rows(r))
        out.emplace_back(std::move(m.label), std::move(m.text));
    return out;
}

std::string render_text(const report& r, std::size_t width) {
    const auto rows = metric_rows(r);
    std::size_t kw = 0;
    for (const auto& m : rows)
        kw = std::max(kw, display_width(m.label));
    // Below ~24 columns for the value the table is unreadable: values go under their label.
    const bool under = width < 4 + kw + 24;
    const std::size_t vw = under ? width - 4 : width - 4 - kw;
    std::string out;
    for (const auto& m : rows) {
        const auto lines = wrap(m.text, vw);
        if (under) {
            out += "  " + m.label + "\n";
            for (const auto& l : lines)
                out += "    " + l + "\n";
            continue;
        }
        for (std::size_t i = 0; i < lines.size(); ++i)
            out += "  " + pad_right(i == 0 ? m.label : "", kw) + "  " + lines[i] + "\n";
    }
    if (!r.faults.empty()) {
        out += "faults:\n";
        auto put = [&](const std::string& text, bool first) {
            const auto lines = wrap(text, width - (first ? 4 : 6));
            for (std::size_t i = 0; i < lines.size(); ++i)
                out += (first && i == 0 ? "  " : "      ") + lines[i] + "\n";
        };
        for (const auto& f : r.faults) {
            std::string head = f.kind + " (" + f.trigger + "): " + f.outcome + ", injected " +
                               std::to_string(f.injected);
            if (!f.unit.empty())
                head += " of " + std::to_string(f.opportunities) + " " + f.unit;
            if (f.first_s)
                head += ", first at " + fixed(*f.first_s, 6) + " s";
            put(head, true);
            for (const auto& [what, n] : f.effects)
                put(what + " (" + std::to_string(n) + ")", false);
            put("driver: " + f.reaction, false);
        }
    }
    if (!r.findings.empty()) {
        out += "findings:\n";
        for (const auto& f : r.findings) {
            const auto lines =
                wrap(fixed(f.time_s, 9) + " s  " + f.severity + "  " + f.source + ": " + f.message,
                     width - 4);
            for (std::size_t i = 0; i < lines.size(); ++i)
                out += (i == 0 ? "  " : "    ") + lines[i] + "\n";
        }
    }
    return out;
}

namespace {

std::vector<std::string> column_labels(const std::vector<report>& reports,
                                       const std::vector<std::string>& labels_in) {
    std::vector<std::string> labels = labels_in;
    if (labels.size() == reports.size())
        return labels;
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
        {"kernel", [](const report& r) { return r.run.kernel_version; }},
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
        for (std::size_t i = 0; i < reports.size(); ++i)
            labels[i] += (labels[i].empty() ? "" : " ") + std::string(name) + "=" + get(reports[i]);
    }
    for (std::size_t i = 0; i < reports.size(); ++i)
        if (labels[i].empty())
            labels[i] = "#" + std::to_string(i + 1);
    return labels;
}

// A table of cells: column 0 left-aligned (the metric), the others right-aligned; each cell
// wraps inside its column's width, a row is as tall as its tallest cell.
std::string table(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<std::size_t>& widths) {
    std::string out;
    for (const auto& row : rows) {
        std::vector<std::vector<std::string>> cells;
        std::size_t height = 1;
        for (std::size_t c = 0; c < row.size(); ++c) {
            cells.push_back(row[c].empty() ? std::vector<std::string>{""}
                                           : wrap(row[c], widths[c]));
            height = std::max(height, cells.back().size());
        }
        for (std::size_t l = 0; l < height; ++l) {
            std::string line = " ";
            for (std::size_t c = 0; c < row.size(); ++c) {
                const std::string& s = l < cells[c].size() ? cells[c][l] : std::string();
                line += " " + (c == 0 ? pad_right(s, widths[c]) : pad_left(s, widths[c]));
                if (c + 1 < row.size())
                    line += " ";
            }
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            out += line + "\n";
        }
    }
    return out;
}

} // namespace

std::string render_side_by_side(const std::vector<report>& reports,
                                const std::vector<std::string>& labels_in, std::size_t width) {
    std::vector<std::string> labels = column_labels(reports, labels_in);
    const std::size_t n = reports.size();
    // Long labels (several settings differ) would make every column wide: name the columns
    // #1, #2… and say above the table what each is.
    std::string legend;
    for (const auto& l : labels)
        if (display_width(l) > 20) {
            for (std::size_t i = 0; i < n; ++i) {
                const auto lines = wrap(labels[i], width > 10 ? width - 8 : 40);
                for (std::size_t k = 0; k < lines.size(); ++k)
                    legend += (k == 0 ? pad_right("  #" + std::to_string(i + 1), 6) + "  "
                                      : std::string(8, ' ')) +
                              lines[k] + "\n";
                labels[i] = "#" + std::to_string(i + 1);
            }
            legend += "\n";
            break;
        }

    // Union of the row labels in first-seen order; a report without a row shows "-".
    std::vector<std::string> order;
    std::vector<std::map<std::string, metric_row>> values(n);
    for (std::size_t i = 0; i < n; ++i)
        for (auto& m : metric_rows(reports[i])) {
            if (std::find(order.begin(), order.end(), m.label) == order.end())
                order.push_back(m.label);
            values[i][m.label] = m;
        }

    // Cells: metric, then per report its value and, after the first, ratio and Δ against it.
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{""};
    for (std::size_t i = 0; i < n; ++i) {
        head.push_back(labels[i]);
        if (i > 0) {
            head.push_back("ratio");
            head.push_back("Δ");
        }
    }
    rows.push_back(head);
    for (const auto& k : order) {
        std::vector<std::string> row{k};
        const auto base = values[0].find(k);
        for (std::size_t i = 0; i < n; ++i) {
            const auto it = values[i].find(k);
            row.push_back(it == values[i].end() ? "-" : it->second.text);
            if (i == 0)
                continue;
            std::string ratio, change;
            if (base != values[0].end() && it != values[i].end() && base->second.value &&
                it->second.value) {
                ratio = format_ratio(*base->second.value, *it->second.value);
                change = format_change(*base->second.value, *it->second.value);
            }
            row.push_back(ratio);
            row.push_back(change);
        }
        rows.push_back(row);
    }

    // Natural widths; if the table is too wide, the metric column is capped and the value
    // columns share what is left (their text wraps); ratio and Δ keep their width.
    std::vector<std::size_t> w(rows.front().size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            w[c] = std::max(w[c], display_width(row[c]));
    auto total = [&w] {
        std::size_t t = 1;
        for (auto x : w)
            t += 2 + x;
        return t - 1;
    };
    if (total() <= width)
        return legend + table(rows, w);
    std::vector<std::size_t> value_cols;
    const std::size_t key_cap = std::max<std::size_t>(16, width / 4);
    std::size_t fixed_w = 1 + 2 + std::min(w[0], key_cap);
    for (std::size_t c = 1; c < w.size(); ++c) {
        const bool is_value = c == 1 || (c >= 2 && (c - 2) % 3 == 0);
        if (is_value)
            value_cols.push_back(c);
        else
            fixed_w += 2 + w[c];
    }
    const std::size_t avail =
        width > fixed_w + 2 * value_cols.size() ? width - fixed_w - 2 * value_cols.size() : 0;
    const std::size_t share = avail / value_cols.size();
    if (share >= 12) {
        w[0] = std::min(w[0], key_cap);
        // Columns narrower than the share give the rest to the others.
        std::size_t left = avail, wide = 0;
        for (auto c : value_cols)
            if (w[c] <= share)
                left -= w[c];
            else
                ++wide;
        for (auto c : value_cols)
            if (w[c] > share)
                w[c] = left / wide;
        return legend + table(rows, w);
    }

    // Too many runs for columns: one block per metric, one line per run.
    std::size_t lw = 0;
    for (const auto& l : labels)
        lw = std::min<std::size_t>(std::max(lw, display_width(l)), width / 3);
    std::string out = legend;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        out += "  " + rows[r][0] + "\n";
        for (std::size_t i = 0; i < n; ++i) {
            std::string v = rows[r][1 + (i == 0 ? 0 : 3 * i - 2)];
            if (i > 0) {
                const std::string& ratio = rows[r][3 * i];
                const std::string& change = rows[r][3 * i + 1];
                if (!ratio.empty())
                    v += "  (" + ratio + ", " + change + ")";
            }
            const auto label_lines = wrap(labels[i], lw);
            const auto value_lines = wrap(v, width > 8 + lw ? width - 8 - lw : 20);
            for (std::size_t l = 0; l < std::max(label_lines.size(), value_lines.size()); ++l)
                out += "    " + pad_right(l < label_lines.size() ? label_lines[l] : "", lw) + "  " +
                       (l < value_lines.size() ? value_lines[l] : "") + "\n";
        }
    }
    return out;
}

} // namespace nicsim::report

// SPDX-License-Identifier: MIT
#include "core/report/report.h"

#include <algorithm>

namespace nicsim::report {

const std::vector<std::string>& finding_sources() {
    static const std::vector<std::string> sources = {"driver", "verdict", "fault",
                                                     "nicsim", "lx_emul", "trace"};
    return sources;
}

totals compute_totals(const report& r) {
    totals t;
    for (const auto& f : r.flows) {
        t.bytes += f.bytes;
        t.frames += f.frames;
        t.goodput_bps += f.goodput_bps;
    }
    // Several flows are the streams of one iperf -P transfer, started together: a sum of
    // per-stream rates would count a stream that finished early at its own, shorter, time.
    if (r.flows.size() > 1)
        t.goodput_bps = combine_streams(r.flows).goodput_bps;
    return t;
}

flow_report combine_streams(const std::vector<flow_report>& streams) {
    flow_report sum;
    if (streams.empty())
        return sum;
    sum.name = streams.front().name;
    sum.kind = streams.front().kind;
    sum.direction = streams.front().direction;
    for (const auto& f : streams) {
        sum.bytes += f.bytes;
        sum.frames += f.frames;
        sum.active_time_s = std::max(sum.active_time_s, f.active_time_s);
        if (f.last_progress_s)
            sum.last_progress_s = std::max(sum.last_progress_s.value_or(0.0), *f.last_progress_s);
    }
    if (sum.active_time_s > 0)
        sum.goodput_bps = static_cast<double>(sum.bytes) * 8.0 / sum.active_time_s;
    return sum;
}

std::uint64_t frames(const device_report& d) {
    return d.frames_tx + d.frames_rx;
}

std::optional<double> bus_transactions_per_frame(const device_report& d) {
    if (frames(d) == 0)
        return std::nullopt;
    return static_cast<double>(d.bus_transactions) / static_cast<double>(frames(d));
}

std::optional<double> bus_bytes_per_frame(const device_report& d) {
    if (frames(d) == 0)
        return std::nullopt;
    return static_cast<double>(d.bus_bytes) / static_cast<double>(frames(d));
}

std::optional<double> frames_per_irq(const device_report& d) {
    if (d.irqs == 0)
        return std::nullopt;
    return static_cast<double>(frames(d)) / static_cast<double>(d.irqs);
}

std::optional<double> frames_per_tx_batch(const device_report& d) {
    if (!d.tx_batches || *d.tx_batches == 0)
        return std::nullopt;
    return static_cast<double>(d.frames_tx) / static_cast<double>(*d.tx_batches);
}

double bus_utilisation(const device_report& d, double sim_time_s) {
    return sim_time_s > 0 ? d.bus_busy_s / sim_time_s : 0.0;
}

std::optional<double> energy_j(const meter_report& m) {
    double e = 0;
    for (const auto& s : m.states) {
        if (s.energy_j)
            e += *s.energy_j;
        else if (s.time_s > 0)
            return std::nullopt; // time in a state whose current is not modelled
    }
    return e;
}

std::optional<double> avg_power_w(const meter_report& m, double sim_time_s) {
    const auto e = energy_j(m);
    if (!e)
        return std::nullopt;
    return sim_time_s > 0 ? *e / sim_time_s : 0.0;
}

std::optional<double> energy_j(const device_report& d) {
    if (d.meters.empty())
        return std::nullopt;
    double e = 0;
    for (const auto& m : d.meters) {
        const auto em = energy_j(m);
        if (!em)
            return std::nullopt;
        e += *em;
    }
    return e;
}

std::vector<std::pair<std::string, power_state_report>> power_states(const device_report& d) {
    std::vector<std::pair<std::string, power_state_report>> out;
    for (const auto& m : d.meters)
        for (const auto& s : m.states)
            out.emplace_back(m.name, s);
    return out;
}

std::optional<double> avg_power_w(const device_report& d, double sim_time_s) {
    const auto e = energy_j(d);
    if (!e)
        return std::nullopt;
    return sim_time_s > 0 ? *e / sim_time_s : 0.0;
}

double host_cpu_busy_share(const report& r) {
    const double cap = static_cast<double>(r.host_cpu_cores) * r.sim_time_s;
    return cap > 0 ? r.host_cpu_busy_s / cap : 0.0;
}

} // namespace nicsim::report

// SPDX-License-Identifier: MIT
#include "testbench/report/report.h"

namespace nicsim::report {

totals compute_totals(const report& r) {
    totals t;
    for (const auto& f : r.flows) {
        t.bytes += f.bytes;
        t.frames += f.frames;
        t.goodput_bps += f.goodput_bps;
    }
    return t;
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

double energy_j(const meter_report& m) {
    double e = 0;
    for (const auto& s : m.states)
        e += s.energy_j;
    return e;
}

double avg_power_w(const meter_report& m, double sim_time_s) {
    return sim_time_s > 0 ? energy_j(m) / sim_time_s : 0.0;
}

double energy_j(const device_report& d) {
    double e = 0;
    for (const auto& m : d.meters)
        e += energy_j(m);
    return e;
}

std::vector<std::pair<std::string, power_state_report>> power_states(const device_report& d) {
    std::vector<std::pair<std::string, power_state_report>> out;
    for (const auto& m : d.meters)
        for (const auto& s : m.states)
            out.emplace_back(m.name, s);
    return out;
}

double avg_power_w(const device_report& d, double sim_time_s) {
    return sim_time_s > 0 ? energy_j(d) / sim_time_s : 0.0;
}

double host_cpu_busy_share(const report& r) {
    const double cap = static_cast<double>(r.host_cpu_cores) * r.sim_time_s;
    return cap > 0 ? r.host_cpu_busy_s / cap : 0.0;
}

} // namespace nicsim::report

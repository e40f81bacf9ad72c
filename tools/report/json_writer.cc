// SPDX-License-Identifier: MIT
#include "tools/report/json_writer.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "tools/io/input_file.h"

namespace nicsim::report {
namespace {

using json = nlohmann::ordered_json;

json optional_number(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

json optional_count(const std::optional<std::uint64_t>& v) {
    return v ? json(*v) : json(nullptr);
}

// The fields of devices[].power_save, for the writer and the reader alike.
constexpr std::pair<const char*, std::uint64_t power_save_part::*> power_save_fields[] = {
    {"dozes", &power_save_part::dozes},
    {"beacon_wakeups", &power_save_part::beacon_wakeups},
    {"tim_wakeups", &power_save_part::tim_wakeups},
    {"uplink_wakeups", &power_save_part::uplink_wakeups},
    {"beacons_missed", &power_save_part::beacons_missed},
    {"frames_missed", &power_save_part::frames_missed},
    {"null_frames", &power_save_part::null_frames}};

// The fields of devices[].wake, for the writer and the reader alike.
constexpr std::pair<const char*, std::uint64_t wake_part::*> wake_fields[] = {
    {"requests", &wake_part::requests},
    {"found_clock_running", &wake_part::found_running},
    {"found_waking", &wake_part::found_waking},
    {"found_asleep", &wake_part::found_asleep},
    {"found_deep_sleep", &wake_part::found_deep}};
constexpr std::pair<const char*, std::vector<histogram_bucket> wake_part::*> wake_histograms[] = {
    {"asleep_us", &wake_part::asleep_us}, {"clk_status_polls", &wake_part::clk_status_polls}};

json wake_json(const wake_part& w) {
    json j;
    for (const auto& [key, field] : wake_fields)
        j[key] = w.*field;
    for (const auto& [key, field] : wake_histograms) {
        json h = json::array();
        for (const histogram_bucket& b : w.*field)
            h.push_back({{"from", b.from}, {"below", b.below}, {"count", b.count}});
        j[key] = h;
    }
    return j;
}

json device_json(const device_report& d, double sim_time_s) {
    json j;
    j["name"] = d.name;
    j["type"] = d.type;
    j["bus"] = d.bus;
    j["bus_clock_hz"] = d.bus_clock_hz;
    j["frames"] = frames(d);
    j["frames_tx"] = d.frames_tx;
    j["frames_rx"] = d.frames_rx;
    j["irqs"] = d.irqs;
    j["frames_per_irq"] = optional_number(frames_per_irq(d));
    j["wakeups"] = d.wakeups;
    j["wake_time_s"] = d.wake_time_s;
    j["tx_batches"] = d.tx_batches ? json(*d.tx_batches) : json(nullptr);
    j["frames_per_tx_batch"] = optional_number(frames_per_tx_batch(d));
    j["tcp_ack_filter"] = d.tcp_ack_filter ? json(*d.tcp_ack_filter) : json(nullptr);
    j["association"] = nullptr;
    if (d.association)
        j["association"] = {{"state", d.association->state},
                            {"associated_at_s", optional_number(d.association->associated_at_s)},
                            {"join_requests", d.association->join_requests}};
    j["power_save"] = nullptr;
    if (d.power_save)
        for (const auto& [key, field] : power_save_fields)
            j["power_save"][key] = (*d.power_save).*field;
    j["wake"] = d.wake ? wake_json(*d.wake) : json(nullptr);
    const auto state_json = [](const power_state_report& s) {
        json js;
        js["state"] = s.state;
        js["time_s"] = s.time_s;
        js["current_a"] = optional_number(s.current_a); // null: not modelled
        js["energy_j"] = optional_number(s.energy_j);
        return js;
    };
    json meters = json::array();
    for (const auto& m : d.meters) {
        json jm;
        jm["name"] = m.name;
        jm["supply_voltage_v"] = m.supply_voltage_v;
        json states = json::array();
        for (const auto& s : m.states)
            states.push_back(state_json(s));
        jm["states"] = states;
        jm["energy_j"] = optional_number(energy_j(m));
        jm["avg_power_w"] = optional_number(avg_power_w(m, sim_time_s));
        meters.push_back(jm);
    }
    j["meters"] = meters;
    // Derived: every meter's states in one list, so a state is one path away
    // (devices[wlan0].power_states[listen].time_s).
    json states = json::array();
    for (const auto& [meter, s] : power_states(d)) {
        json js;
        js["meter"] = meter;
        js.update(state_json(s));
        states.push_back(js);
    }
    j["power_states"] = states;
    // A chip without a power model, or with a state whose current is not modelled, has no
    // energy figures: null, not a zero that reads as "free".
    const bool metered = !d.meters.empty();
    j["supply_voltage_v"] = metered ? json(d.supply_voltage_v) : json(nullptr);
    j["power_is_proxy"] = d.power_is_proxy;
    j["power_source"] = d.power_source;
    j["energy_j"] = optional_number(energy_j(d));
    j["avg_power_w"] = optional_number(avg_power_w(d, sim_time_s));
    json bus;
    bus["transactions"] = d.bus_transactions;
    bus["bytes"] = d.bus_bytes;
    bus["busy_s"] = d.bus_busy_s;
    bus["utilisation"] = bus_utilisation(d, sim_time_s);
    bus["transactions_per_frame"] = optional_number(bus_transactions_per_frame(d));
    bus["bytes_per_frame"] = optional_number(bus_bytes_per_frame(d));
    if (!d.bus_commands.empty()) {
        // {"cmd52": {"count": n, "per_frame": x|null}, ...} in the report's fixed order.
        json cmds = json::object();
        for (const auto& [kind, count] : d.bus_commands) {
            json c;
            c["count"] = count;
            c["per_frame"] =
                optional_number(frames(d) ? std::optional<double>(double(count) / double(frames(d)))
                                          : std::nullopt);
            cmds[kind] = c;
        }
        bus["commands"] = cmds;
    }
    j["bus_stats"] = bus;
    return j;
}

} // namespace

nlohmann::ordered_json to_json(const report& r) {
    json j;
    j["schema_version"] = json_schema_version;

    json run;
    run["scenario"] = r.run.scenario;
    run["scenario_file"] = r.run.scenario_file;
    run["platform"] = r.run.platform;
    run["device"] = r.run.device;
    run["bus"] = r.run.bus;
    run["bus_clock_hz"] = r.run.bus_clock_hz;
    run["bus_clock_actual_hz"] = r.run.bus_clock_actual_hz;
    run["driver_variant"] = r.run.driver_variant;
    run["power_save"] = r.run.power_save;
    run["traffic"] = r.run.traffic;
    run["seed"] = r.run.seed;
    run["overrides"] = r.run.overrides;
    run["nicsim_version"] = r.run.nicsim_version;
    run["kernel_version"] = r.run.kernel_version;
    if (!r.run.driver_source.empty()) { // driver.source runs only: other reports unchanged
        run["driver_source"] = r.run.driver_source;
        run["driver_source_sha256"] = r.run.driver_source_sha256;
    }
    j["run"] = run;

    j["sim_time_s"] = r.sim_time_s;
    j["end_reason"] = r.end_reason;

    json flows = json::array();
    for (const auto& f : r.flows) {
        json jf;
        jf["name"] = f.name;
        jf["kind"] = f.kind;
        jf["direction"] = f.direction;
        jf["bytes"] = f.bytes;
        jf["frames"] = f.frames;
        jf["active_time_s"] = f.active_time_s;
        jf["goodput_bps"] = f.goodput_bps;
        if (f.rtt) {
            json rtt;
            rtt["min"] = f.rtt->min_ms;
            rtt["avg"] = f.rtt->avg_ms;
            rtt["max"] = f.rtt->max_ms;
            rtt["mdev"] = f.rtt->mdev_ms;
            jf["rtt_ms"] = rtt;
        } else {
            jf["rtt_ms"] = nullptr;
        }
        jf["packets_sent"] = optional_count(f.packets_sent);
        jf["packets_received"] = optional_count(f.packets_received);
        jf["last_progress_s"] = optional_number(f.last_progress_s);
        if (f.tcp) {
            jf["tcp"] = {{"sack", f.tcp->sack},
                         {"retransmits", f.tcp->retransmits},
                         {"fast_recoveries", f.tcp->fast_recoveries},
                         {"timeouts", f.tcp->timeouts},
                         {"sacked_segments", f.tcp->sacked_segments},
                         {"cwnd", f.tcp->cwnd},
                         {"slow_start_exit_cwnd", f.tcp->slow_start_exit_cwnd
                                                      ? json(f.tcp->slow_start_exit_cwnd)
                                                      : json(nullptr)},
                         {"tsq_limit_bytes", f.tcp->tsq_limit_bytes},
                         {"tail_loss_probes", f.tcp->tail_loss_probes}};
        } else {
            jf["tcp"] = nullptr;
        }
        if (f.udp)
            jf["udp"] = {{"rcvbuf_errors", f.udp->rcvbuf_errors},
                         {"backlog_drops", f.udp->backlog_drops}};
        else
            jf["udp"] = nullptr;
        flows.push_back(jf);
    }
    j["flows"] = flows;
    const totals t = compute_totals(r);
    json jt;
    jt["bytes"] = t.bytes;
    jt["frames"] = t.frames;
    jt["goodput_bps"] = t.goodput_bps;
    j["totals"] = jt;

    json devices = json::array();
    for (const auto& d : r.devices)
        devices.push_back(device_json(d, r.sim_time_s));
    j["devices"] = devices;

    json cpu;
    cpu["cores"] = r.host_cpu_cores;
    cpu["busy_s"] = r.host_cpu_busy_s;
    cpu["busy_share"] = host_cpu_busy_share(r);
    cpu["driver_blocks"] = r.host_cpu_driver_blocks;
    cpu["driver_code_s"] = r.host_cpu_driver_code_s;
    cpu["context_switches"] = r.host_cpu_context_switches;
    cpu["context_switch_s"] = r.host_cpu_context_switch_s;
    cpu["hardirqs"] = r.host_cpu_hardirqs;
    cpu["hardirq_s"] = r.host_cpu_hardirq_s;
    if (r.host_cpu_spi_controller) {
        const auto& c = *r.host_cpu_spi_controller;
        json sc;
        sc["messages"] = c.messages;
        sc["irqs"] = c.irqs;
        sc["sleeps"] = c.sleeps;
        sc["cpu_s"] = c.cpu_s;
        cpu["spi_controller"] = sc;
    } else {
        cpu["spi_controller"] = nullptr;
    }
    j["host_cpu"] = cpu;
    j["skbs_in_flight"] = r.skbs_in_flight;
    if (r.skbs_leaked)
        j["skbs_leaked"] = *r.skbs_leaked;
    else
        j["skbs_leaked"] = nullptr;

    json findings = json::array();
    for (const auto& f : r.findings) {
        json jf;
        jf["time_s"] = f.time_s;
        jf["source"] = f.source;
        jf["severity"] = f.severity;
        jf["message"] = f.message;
        findings.push_back(jf);
    }
    j["findings"] = findings;

    // Only with faults configured: reports of runs without faults keep their exact shape.
    if (!r.faults.empty()) {
        json faults = json::array();
        for (const auto& f : r.faults) {
            json jf;
            jf["kind"] = f.kind;
            jf["trigger"] = f.trigger;
            jf["unit"] = f.unit.empty() ? json(nullptr) : json(f.unit);
            jf["opportunities"] = f.unit.empty() ? json(nullptr) : json(f.opportunities);
            jf["injected"] = f.injected;
            jf["first_s"] = optional_number(f.first_s);
            jf["last_s"] = optional_number(f.last_s);
            json effects = json::array();
            for (const auto& [what, n] : f.effects)
                effects.push_back({{"effect", what}, {"count", n}});
            jf["effects"] = effects;
            jf["driver_errors"] = f.driver_errors;
            json lines = json::array();
            for (const auto& [text, n] : f.driver_lines)
                lines.push_back({{"line", text}, {"count", n}});
            jf["driver_lines"] = lines;
            jf["outcome"] = f.outcome;
            jf["reaction"] = f.reaction;
            faults.push_back(jf);
        }
        j["faults"] = faults;
    }

    // Last, so everything above it is deterministic and comparable byte for byte.
    json host;
    host["wall_time_s"] = r.host.wall_time_s;
    host["peak_rss_mb"] = r.host.peak_rss_mb;
    host["delta_cycles"] = r.host.delta_cycles;
    host["local_time_steps"] = r.host.local_time_steps;
    host["local_time_waits"] = r.host.local_time_waits;
    j["host"] = host;
    return j;
}

std::string write_json(const report& r) {
    return to_json(r).dump(2) + "\n";
}

void write_json_file(const report& r, const std::string& file) {
    const std::string text = write_json(r);
    if (file == "-") {
        // A full disk or a closed pipe on stdout is an error like any other write error.
        errno = 0;
        std::cout << text << std::flush;
        if (!std::cout)
            throw std::runtime_error(std::string("cannot write the JSON report to stdout") +
                                     (errno ? std::string(": ") + std::strerror(errno) : ""));
        return;
    }
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out)
        throw std::runtime_error(file + ": cannot write JSON report: " + std::strerror(errno));
    out << text;
    out.close();
    if (!out)
        throw std::runtime_error(file + ": error while writing JSON report");
}

namespace {

template <class T> T get(const nlohmann::json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end())
        throw std::runtime_error(where + ": missing key '" + key + "'");
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(where + ": key '" + key + "': " + e.what());
    }
}

const nlohmann::json& sub(const nlohmann::json& j, const char* key, const std::string& where) {
    const auto it = j.find(key);
    if (it == j.end())
        throw std::runtime_error(where + ": missing key '" + key + "'");
    return *it;
}

} // namespace

report read_json(const std::string& text, const std::string& name) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for a number beyond double's range (1e999)
        throw std::runtime_error(name + ": not valid JSON: " + e.what());
    }
    const int version = get<int>(j, "schema_version", name);
    if (version != json_schema_version)
        throw std::runtime_error(name + ": schema_version " + std::to_string(version) +
                                 " (this nicsim reads " + std::to_string(json_schema_version) +
                                 ")");
    report r;
    const auto& run = sub(j, "run", name);
    const std::string rw = name + ": run";
    r.run.scenario = get<std::string>(run, "scenario", rw);
    r.run.scenario_file = get<std::string>(run, "scenario_file", rw);
    r.run.platform = get<std::string>(run, "platform", rw);
    r.run.device = get<std::string>(run, "device", rw);
    r.run.bus = get<std::string>(run, "bus", rw);
    r.run.bus_clock_hz = get<double>(run, "bus_clock_hz", rw);
    // bus_clock_actual_hz was added within schema 2: absent (older files) reads as requested.
    r.run.bus_clock_actual_hz = run.contains("bus_clock_actual_hz")
                                    ? get<double>(run, "bus_clock_actual_hz", rw)
                                    : r.run.bus_clock_hz;
    r.run.driver_variant = get<std::string>(run, "driver_variant", rw);
    r.run.power_save = get<bool>(run, "power_save", rw);
    r.run.traffic = get<std::string>(run, "traffic", rw);
    r.run.seed = get<std::uint64_t>(run, "seed", rw);
    // overrides was added within schema 1: absent (older files) reads as none.
    if (run.contains("overrides"))
        r.run.overrides = get<std::vector<std::string>>(run, "overrides", rw);
    r.run.nicsim_version = get<std::string>(run, "nicsim_version", rw);
    r.run.kernel_version = get<std::string>(run, "kernel_version", rw);
    if (run.contains("driver_source")) {
        r.run.driver_source = get<std::string>(run, "driver_source", rw);
        r.run.driver_source_sha256 = get<std::string>(run, "driver_source_sha256", rw);
    }
    r.sim_time_s = get<double>(j, "sim_time_s", name);
    r.end_reason = get<std::string>(j, "end_reason", name);
    for (const auto& f : sub(j, "flows", name)) {
        const std::string w = name + ": flows[]";
        flow_report fr;
        fr.name = get<std::string>(f, "name", w);
        fr.kind = get<std::string>(f, "kind", w);
        fr.direction = get<std::string>(f, "direction", w);
        fr.bytes = get<std::uint64_t>(f, "bytes", w);
        fr.frames = get<std::uint64_t>(f, "frames", w);
        fr.active_time_s = get<double>(f, "active_time_s", w);
        fr.goodput_bps = get<double>(f, "goodput_bps", w);
        // rtt_ms was added within schema 1: absent (older files) reads as null.
        if (const auto it = f.find("rtt_ms"); it != f.end() && !it->is_null()) {
            rtt_report rt;
            rt.min_ms = get<double>(*it, "min", w + ".rtt_ms");
            rt.avg_ms = get<double>(*it, "avg", w + ".rtt_ms");
            rt.max_ms = get<double>(*it, "max", w + ".rtt_ms");
            rt.mdev_ms = get<double>(*it, "mdev", w + ".rtt_ms");
            fr.rtt = rt;
        }
        // packets_*, last_progress_s were added within schema 1: absent reads as null.
        for (const auto& [key, field] : {std::pair{"packets_sent", &fr.packets_sent},
                                         std::pair{"packets_received", &fr.packets_received}})
            if (const auto it = f.find(key); it != f.end() && !it->is_null())
                *field = get<std::uint64_t>(f, key, w);
        if (const auto it = f.find("last_progress_s"); it != f.end() && !it->is_null())
            fr.last_progress_s = get<double>(f, "last_progress_s", w);
        // tcp was added within schema 2: absent (older files) reads as null.
        if (const auto it = f.find("tcp"); it != f.end() && !it->is_null()) {
            tcp_report t;
            const std::string wt = w + ".tcp";
            t.sack = get<bool>(*it, "sack", wt);
            t.retransmits = get<std::uint64_t>(*it, "retransmits", wt);
            t.fast_recoveries = get<std::uint64_t>(*it, "fast_recoveries", wt);
            t.timeouts = get<std::uint64_t>(*it, "timeouts", wt);
            t.sacked_segments = get<std::uint64_t>(*it, "sacked_segments", wt);
            // Added later within schema 2: older files do not have them.
            const auto opt = [&](const char* k) -> std::uint64_t {
                const auto v = it->find(k);
                return v == it->end() || v->is_null() ? 0 : get<std::uint64_t>(*it, k, wt);
            };
            t.cwnd = static_cast<std::uint32_t>(opt("cwnd"));
            t.slow_start_exit_cwnd = static_cast<std::uint32_t>(opt("slow_start_exit_cwnd"));
            t.tail_loss_probes = opt("tail_loss_probes");
            t.tsq_limit_bytes = opt("tsq_limit_bytes");
            fr.tcp = t;
        }
        // udp was added within schema 2: absent (older files) reads as null.
        if (const auto it = f.find("udp"); it != f.end() && !it->is_null()) {
            const std::string wu = w + ".udp";
            fr.udp = udp_report{get<std::uint64_t>(*it, "rcvbuf_errors", wu),
                                get<std::uint64_t>(*it, "backlog_drops", wu)};
        }
        r.flows.push_back(fr);
    }
    for (const auto& d : sub(j, "devices", name)) {
        const std::string w = name + ": devices[]";
        device_report dr;
        dr.name = get<std::string>(d, "name", w);
        dr.type = get<std::string>(d, "type", w);
        dr.bus = get<std::string>(d, "bus", w);
        dr.bus_clock_hz = get<double>(d, "bus_clock_hz", w);
        dr.frames_tx = get<std::uint64_t>(d, "frames_tx", w);
        dr.frames_rx = get<std::uint64_t>(d, "frames_rx", w);
        // irqs was added within schema 1: absent (older files) reads as 0.
        if (d.contains("irqs"))
            dr.irqs = get<std::uint64_t>(d, "irqs", w);
        dr.wakeups = get<std::uint64_t>(d, "wakeups", w);
        dr.wake_time_s = get<double>(d, "wake_time_s", w);
        // tx_batches was added within schema 1: absent or null reads as none.
        if (d.contains("tx_batches") && !d["tx_batches"].is_null())
            dr.tx_batches = get<std::uint64_t>(d, "tx_batches", w);
        // tcp_ack_filter was added within schema 2: absent or null reads as none.
        if (d.contains("tcp_ack_filter") && !d["tcp_ack_filter"].is_null())
            dr.tcp_ack_filter = get<bool>(d, "tcp_ack_filter", w);
        // association was added within schema 2: absent or null reads as none.
        if (d.contains("association") && !d["association"].is_null()) {
            const json& a = d["association"];
            association_part ap;
            ap.state = get<std::string>(a, "state", w + ".association");
            if (a.contains("associated_at_s") && !a["associated_at_s"].is_null())
                ap.associated_at_s = get<double>(a, "associated_at_s", w + ".association");
            ap.join_requests = get<std::uint64_t>(a, "join_requests", w + ".association");
            dr.association = ap;
        }
        // power_save was added within schema 2: absent or null reads as none.
        if (d.contains("power_save") && !d["power_save"].is_null()) {
            power_save_part ps;
            for (const auto& [key, field] : power_save_fields)
                ps.*field = get<std::uint64_t>(d["power_save"], key, w + ".power_save");
            dr.power_save = ps;
        }
        // wake was added within schema 2: absent or null reads as none.
        if (d.contains("wake") && !d["wake"].is_null()) {
            const std::string ww = w + ".wake";
            wake_part wp;
            for (const auto& [key, field] : wake_fields)
                wp.*field = get<std::uint64_t>(d["wake"], key, ww);
            for (const auto& [key, field] : wake_histograms)
                for (const auto& b : sub(d["wake"], key, ww))
                    (wp.*field).push_back({get<double>(b, "from", ww + "." + key + "[]"),
                                           get<double>(b, "below", ww + "." + key + "[]"),
                                           get<std::uint64_t>(b, "count", ww + "." + key + "[]")});
            dr.wake = wp;
        }
        // power_states[] is derived from the meters.
        for (const auto& m : sub(d, "meters", w)) {
            const std::string wm = w + ".meters[]";
            meter_report mr;
            mr.name = get<std::string>(m, "name", wm);
            mr.supply_voltage_v = get<double>(m, "supply_voltage_v", wm);
            for (const auto& s : sub(m, "states", wm)) {
                power_state_report ps;
                ps.state = get<std::string>(s, "state", wm + ".states[]");
                ps.time_s = get<double>(s, "time_s", wm + ".states[]");
                // null: not modelled (absent is an error, as before)
                for (auto [key, field] : {std::pair{"current_a", &power_state_report::current_a},
                                          std::pair{"energy_j", &power_state_report::energy_j}})
                    if (!s.contains(key) || !s[key].is_null())
                        ps.*field = get<double>(s, key, wm + ".states[]");
                mr.states.push_back(ps);
            }
            dr.meters.push_back(mr);
        }
        // null without a power model (meters[] empty).
        if (!d.contains("supply_voltage_v") || !d["supply_voltage_v"].is_null())
            dr.supply_voltage_v = get<double>(d, "supply_voltage_v", w);
        dr.power_is_proxy = get<bool>(d, "power_is_proxy", w);
        dr.power_source = get<std::string>(d, "power_source", w);
        const auto& bus = sub(d, "bus_stats", w);
        dr.bus_transactions = get<std::uint64_t>(bus, "transactions", w + ".bus_stats");
        dr.bus_bytes = get<std::uint64_t>(bus, "bytes", w + ".bus_stats");
        dr.bus_busy_s = get<double>(bus, "busy_s", w + ".bus_stats");
        if (bus.contains("commands"))
            for (const auto& [kind, c] : bus["commands"].items())
                dr.bus_commands.emplace_back(
                    kind, get<std::uint64_t>(c, "count", w + ".bus_stats.commands." + kind));
        r.devices.push_back(dr);
    }
    const auto& cpu = sub(j, "host_cpu", name);
    r.host_cpu_cores = get<unsigned>(cpu, "cores", name + ": host_cpu");
    r.host_cpu_busy_s = get<double>(cpu, "busy_s", name + ": host_cpu");
    // The kernel parts were added within schema 1: absent (older files) reads as 0.
    if (cpu.contains("driver_code_s")) {
        const std::string where = name + ": host_cpu";
        r.host_cpu_driver_blocks = get<std::uint64_t>(cpu, "driver_blocks", where);
        r.host_cpu_driver_code_s = get<double>(cpu, "driver_code_s", where);
        r.host_cpu_context_switches = get<std::uint64_t>(cpu, "context_switches", where);
        r.host_cpu_context_switch_s = get<double>(cpu, "context_switch_s", where);
        r.host_cpu_hardirqs = get<std::uint64_t>(cpu, "hardirqs", where);
        r.host_cpu_hardirq_s = get<double>(cpu, "hardirq_s", where);
    }
    // spi_controller was added within schema 2: absent or null reads as not modelled.
    if (cpu.contains("spi_controller") && !cpu["spi_controller"].is_null()) {
        const auto& sc = cpu["spi_controller"];
        const std::string where = name + ": host_cpu.spi_controller";
        spi_controller_part c;
        c.messages = get<std::uint64_t>(sc, "messages", where);
        c.irqs = get<std::uint64_t>(sc, "irqs", where);
        c.sleeps = get<std::uint64_t>(sc, "sleeps", where);
        c.cpu_s = get<double>(sc, "cpu_s", where);
        r.host_cpu_spi_controller = c;
    }
    // skbs_in_flight was added within schema 1: absent (older files) reads as 0.
    if (j.contains("skbs_in_flight"))
        r.skbs_in_flight = get<std::uint64_t>(j, "skbs_in_flight", name);
    // skbs_leaked likewise (absent or null: no ifdown ran).
    if (j.contains("skbs_leaked") && !j.at("skbs_leaked").is_null())
        r.skbs_leaked = get<std::uint64_t>(j, "skbs_leaked", name);
    for (const auto& f : sub(j, "findings", name)) {
        finding fi;
        fi.time_s = get<double>(f, "time_s", name + ": findings[]");
        fi.source = get<std::string>(f, "source", name + ": findings[]");
        fi.severity = get<std::string>(f, "severity", name + ": findings[]");
        fi.message = get<std::string>(f, "message", name + ": findings[]");
        r.findings.push_back(fi);
    }
    if (j.contains("faults"))
        for (const auto& f : sub(j, "faults", name)) {
            const std::string w = name + ": faults[]";
            fault_report fr;
            fr.kind = get<std::string>(f, "kind", w);
            fr.trigger = get<std::string>(f, "trigger", w);
            if (!f["unit"].is_null()) {
                fr.unit = get<std::string>(f, "unit", w);
                fr.opportunities = get<std::uint64_t>(f, "opportunities", w);
            }
            fr.injected = get<std::uint64_t>(f, "injected", w);
            if (!f["first_s"].is_null())
                fr.first_s = get<double>(f, "first_s", w);
            if (!f["last_s"].is_null())
                fr.last_s = get<double>(f, "last_s", w);
            for (const auto& e : sub(f, "effects", w))
                fr.effects.emplace_back(get<std::string>(e, "effect", w),
                                        get<std::uint64_t>(e, "count", w));
            fr.driver_errors = get<std::uint64_t>(f, "driver_errors", w);
            for (const auto& e : sub(f, "driver_lines", w))
                fr.driver_lines.emplace_back(get<std::string>(e, "line", w),
                                             get<std::uint64_t>(e, "count", w));
            fr.outcome = get<std::string>(f, "outcome", w);
            fr.reaction = get<std::string>(f, "reaction", w);
            r.faults.push_back(fr);
        }
    const auto& host = sub(j, "host", name);
    r.host.wall_time_s = get<double>(host, "wall_time_s", name + ": host");
    r.host.peak_rss_mb = get<double>(host, "peak_rss_mb", name + ": host");
    if (host.contains("delta_cycles")) // older reports have none of the three
        r.host.delta_cycles = get<std::uint64_t>(host, "delta_cycles", name + ": host");
    if (host.contains("local_time_steps"))
        r.host.local_time_steps = get<std::uint64_t>(host, "local_time_steps", name + ": host");
    if (host.contains("local_time_waits"))
        r.host.local_time_waits = get<std::uint64_t>(host, "local_time_waits", name + ": host");
    return r;
}

report read_json_file(const std::string& file) {
    return read_json(io::read_input_file(file, io::max_report_bytes, "a JSON report"), file);
}

} // namespace nicsim::report

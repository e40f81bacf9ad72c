// SPDX-License-Identifier: MIT
#include "tools/report/verdict.h"

#include <cstdio>

namespace nicsim::report {
namespace {

constexpr const char* source = "verdict";

std::string num(const char* fmt, double v) {
    char b[64];
    std::snprintf(b, sizeof b, fmt, v);
    return b;
}

std::string seconds(double s) {
    return num("%.6f", s) + " s";
}

// ", last data at t s; run ended at T s (reason)": when the receiver stopped seeing progress
// tells a stall (early last data) from a slow path (last data just before the end).
std::string timing(const flow_report& f, const report& r) {
    std::string s = f.last_progress_s
                        ? "; last data reached the receiver at " + seconds(*f.last_progress_s)
                        : "; no data ever reached the receiver";
    s += "; run ended at " + seconds(r.sim_time_s);
    if (!r.end_reason.empty())
        s += " (" + r.end_reason + ")";
    return s;
}

void add(report& r, const std::string& severity, const std::string& message) {
    r.findings.push_back({r.sim_time_s, source, severity, message});
}

// An until-duration flow whose receiver got nothing for the last stall_limit_s of the run has
// stopped, not slowed: four RTO back-offs from Linux's 200 ms minimum take 0.2 + 0.4 + 0.8 +
// 1.6 s, so a TCP flow that still recovers delivers within 3 s, and a UDP flood sends without
// pause.
constexpr double stall_limit_s = 3.0;

bool stalled(const flow_report& f, const report& r) {
    return f.last_progress_s && r.sim_time_s - *f.last_progress_s > stall_limit_s;
}

std::string stall_text(const flow_report& f, const report& r) {
    return "until-duration flow stopped: nothing reached the receiver in the last " +
           seconds(r.sim_time_s - *f.last_progress_s) + " of the run (more than " +
           seconds(stall_limit_s) + ")";
}

double loss_share(std::uint64_t sent, std::uint64_t received) {
    return sent > received ? double(sent - received) / double(sent) : 0.0;
}

bool judge_tcp(const config::traffic_config& asked, const flow_report& f, report& r) {
    const std::uint64_t want = asked.bytes.bytes;
    if (want > 0 && f.bytes < want) {
        add(r, "error",
            f.name + ": delivered " + std::to_string(f.bytes) + " of " + std::to_string(want) +
                " bytes asked (" + num("%.1f", 100.0 * double(f.bytes) / double(want)) + " %)" +
                timing(f, r));
        return false;
    }
    if (want == 0 && f.bytes == 0) {
        add(r, "error",
            f.name + ": traffic.bytes is 0 (until duration) and no byte was delivered" +
                timing(f, r));
        return false;
    }
    if (want == 0 && stalled(f, r)) {
        add(r, "error", f.name + ": " + stall_text(f, r) + timing(f, r));
        return false;
    }
    return true;
}

bool judge_packets(const config::traffic_config& asked, const flow_report& f, report& r) {
    const std::uint64_t sent = f.packets_sent.value_or(0);
    const std::uint64_t received = f.packets_received.value_or(0);
    std::uint64_t want = 0; // 0: until duration
    if (asked.kind == config::traffic_kind::ping)
        want = asked.count;
    else if (asked.bytes.bytes > 0 && asked.datagram_size.bytes > 0)
        want = (asked.bytes.bytes + asked.datagram_size.bytes - 1) / asked.datagram_size.bytes;

    const bool stopped = want == 0 && received > 0 && stalled(f, r);
    // An until-duration UDP flood is judged by its loss against the stated tolerance.
    const bool udp = asked.kind != config::traffic_kind::ping;
    const bool too_lossy = udp && want == 0 && loss_share(sent, received) > asked.max_loss;
    const bool ok = want > 0 ? received >= want : received > 0 && !stopped && !too_lossy;
    std::string msg = f.name + ": " + loss_summary(f);
    if (stopped)
        msg += "; " + stall_text(f, r);
    if (too_lossy)
        msg += "; more than traffic.max_loss " + num("%g", 100.0 * asked.max_loss) + "%";
    if (want > 0 && sent < want)
        msg += " (" + std::to_string(want) + " asked)";
    if (!ok || received < sent)
        msg += timing(f, r);
    if (want == 0 && received < sent && !stopped)
        msg += "; until-duration flow: datagrams in flight at the end count as lost";
    add(r, !ok ? "error" : received < sent ? "warning" : "info", msg);
    return ok;
}

} // namespace

std::string loss_summary(const flow_report& f) {
    if (!f.packets_sent || !f.packets_received)
        return {};
    const std::uint64_t sent = *f.packets_sent, received = *f.packets_received;
    const std::string loss = num("%g", 100.0 * loss_share(sent, received)) + "%";
    if (f.kind == "ping")
        return std::to_string(sent) + " packets transmitted, " + std::to_string(received) +
               " received, " + loss + " packet loss";
    return std::to_string(sent) + " datagrams sent, " + std::to_string(received) + " received, " +
           loss + " datagram loss";
}

bool judge(const config::traffic_config& asked, report& r) {
    bool ok = true;
    // Copies: judging appends to r.findings, never to the flows.
    const std::vector<flow_report> flows = r.flows;
    // The streams of an iperf -P run share traffic.bytes: their sum is judged.
    std::vector<flow_report> tcp;
    for (const auto& f : flows) {
        if (f.packets_sent)
            ok = judge_packets(asked, f, r) && ok;
        else
            tcp.push_back(f);
    }
    if (tcp.size() == 1) {
        ok = judge_tcp(asked, tcp.front(), r) && ok;
    } else if (!tcp.empty()) {
        flow_report sum = combine_streams(tcp);
        sum.name = "tcp (" + std::to_string(tcp.size()) + " streams)";
        ok = judge_tcp(asked, sum, r) && ok;
    }
    return judge_faults(ok, r) && ok;
}

bool judge_faults(bool delivered, report& r) {
    bool ok = true;
    for (auto& f : r.faults) {
        std::string driver;
        if (f.driver_errors == 0) {
            driver = "the driver logged no error or warning after it";
        } else {
            driver = "the driver logged " + std::to_string(f.driver_errors) +
                     " error/warning line" + (f.driver_errors == 1 ? "" : "s") + " after it";
            const auto& [line, n] = f.driver_lines.front();
            driver +=
                ", first '" + line + "'" + (n > 1 ? " (" + std::to_string(n) + " times)" : "");
        }
        const std::string name = "fault " + f.kind + " (" + f.trigger + ")";
        if (f.injected == 0) {
            f.outcome = "not injected";
            f.reaction = "none: the fault never hit";
            r.findings.push_back(
                {r.sim_time_s, "fault", "error",
                 name + " never hit" +
                     (f.unit.empty() ? std::string()
                                     : " in " + std::to_string(f.opportunities) + " " + f.unit) +
                     ": the run tested nothing; move the trigger into the run"});
            ok = false;
            continue;
        }
        const std::string hits = std::to_string(f.injected) + " time" +
                                 (f.injected == 1 ? "" : "s") + " from " + seconds(*f.first_s);
        if (delivered) {
            f.outcome = "recovered";
            f.reaction = driver + "; the traffic still delivered everything it asked for";
            r.findings.push_back({*f.first_s, "fault", "info",
                                  name + " injected " + hits + ": recovered; " + f.reaction});
        } else {
            f.outcome = "not recovered";
            f.reaction = driver + "; the traffic did not deliver what it asked for";
            r.findings.push_back({*f.first_s, "fault", "error",
                                  name + " injected " + hits + ": not recovered; " + f.reaction});
        }
    }
    return ok;
}

} // namespace nicsim::report

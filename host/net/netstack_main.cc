// SPDX-License-Identifier: MIT
//
// nicsim-netstack: one bulk TCP flow between two modelled Linux hosts over a shaped veth-like
// link; prints the JSON of netstack_harness::to_json on stdout. Usage:
//   nicsim-netstack --rate 12mbit --delay 1ms --duration 10s [--cc cubic|reno]
//       [--tcp-limit-output-bytes N] [--sk-pacing-shift N] [--txqueuelen N]
//       [--shaper tbf|netem] [--delay-on ack|data] [--seed N] [--warmup 1s]
//       [--sample-interval 100ms] [--set key=value]... (sender host net setting)
//       [--jitter median,p99] (irq-to-thread and wake-up latency on both hosts)
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include <systemc>

#include "host/net/netstack_harness.h"

namespace {

using nicsim::net::harness_config;

double parse_rate(const std::string& v) {
    // tc units: bit, kbit, mbit, gbit (powers of 1000); a bare number is bit/s.
    char* end = nullptr;
    const double n = std::strtod(v.c_str(), &end);
    const std::string u = end ? end : "";
    if (end == v.c_str() || n < 0)
        throw std::invalid_argument("--rate: expected e.g. 12mbit, got '" + v + "'");
    if (u.empty() || u == "bit")
        return n;
    if (u == "kbit")
        return n * 1e3;
    if (u == "mbit")
        return n * 1e6;
    if (u == "gbit")
        return n * 1e9;
    throw std::invalid_argument("--rate: unit must be bit, kbit, mbit or gbit, got '" + u + "'");
}

sc_core::sc_time parse_time(const std::string& opt, const std::string& v) {
    char* end = nullptr;
    const double n = std::strtod(v.c_str(), &end);
    const std::string u = end ? end : "";
    if (end == v.c_str() || n < 0)
        throw std::invalid_argument(opt + ": expected a time like 1ms, got '" + v + "'");
    if (u == "s")
        return sc_core::sc_time(n, sc_core::SC_SEC);
    if (u == "ms")
        return sc_core::sc_time(n, sc_core::SC_MS);
    if (u == "us")
        return sc_core::sc_time(n, sc_core::SC_US);
    throw std::invalid_argument(opt + ": unit must be s, ms or us, got '" + v + "'");
}

void both(harness_config& c, const std::string& key, const std::string& v) {
    c.sender.net.set(key, v);
    c.receiver.net.set(key, v);
}

} // namespace

extern "C" int sc_main(int argc, char** argv) {
    try {
        harness_config c;
        sc_core::sc_time duration(10, sc_core::SC_SEC);
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            const auto val = [&]() -> std::string {
                if (i + 1 >= argc)
                    throw std::invalid_argument(a + ": missing value");
                return argv[++i];
            };
            if (a == "--rate")
                c.rate_bps = parse_rate(val());
            else if (a == "--delay")
                c.delay = parse_time(a, val());
            else if (a == "--duration")
                duration = parse_time(a, val());
            else if (a == "--warmup")
                c.warmup = parse_time(a, val());
            else if (a == "--sample-interval")
                c.sample_interval = parse_time(a, val());
            else if (a == "--cc")
                both(c, "tcp_congestion_control", val());
            else if (a == "--tcp-limit-output-bytes")
                both(c, "tcp_limit_output_bytes", val());
            else if (a == "--sk-pacing-shift")
                c.sender.net.set("sk_pacing_shift", val());
            else if (a == "--txqueuelen")
                c.sender.net.set("txqueuelen", val());
            else if (a == "--shaper")
                c.shaper = val();
            else if (a == "--delay-on")
                c.delay_on = val();
            else if (a == "--seed")
                c.seed = std::stoull(val());
            else if (a == "--set") {
                const std::string kv = val();
                const auto eq = kv.find('=');
                if (eq == std::string::npos)
                    throw std::invalid_argument("--set: expected key=value, got '" + kv + "'");
                both(c, kv.substr(0, eq), kv.substr(eq + 1));
            } else if (a == "--jitter") {
                const std::string v = val();
                const auto comma = v.find(',');
                if (comma == std::string::npos)
                    throw std::invalid_argument("--jitter: expected median,p99 e.g. 20us,80us");
                nicsim::net::latency_spec l;
                l.median = parse_time(a, v.substr(0, comma));
                l.p99 = parse_time(a, v.substr(comma + 1));
                c.sender.irq_to_thread = c.sender.sched_wakeup = l;
                c.receiver.irq_to_thread = c.receiver.sched_wakeup = l;
            } else if (a == "--help" || a == "-h") {
                std::cout << "nicsim-netstack --rate 12mbit --delay 1ms --duration 10s "
                             "[--cc cubic|reno] [--tcp-limit-output-bytes N] "
                             "[--sk-pacing-shift N] [--txqueuelen N] [--shaper tbf|netem] "
                             "[--delay-on ack|data] [--seed N] [--warmup T] "
                             "[--sample-interval T] [--set key=value] [--jitter median,p99]\n";
                return 0;
            } else {
                throw std::invalid_argument("unknown option '" + a + "' (see --help)");
            }
        }
        nicsim::net::netstack_harness h("harness", c);
        sc_core::sc_start(duration);
        const auto r = h.result();
        std::cout << nicsim::net::netstack_harness::to_json(r, c) << "\n";
        return r.error.empty() ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "nicsim-netstack: " << e.what() << "\n";
        return 2;
    }
}

// SPDX-License-Identifier: MIT
//
// Seeded timing variation: interrupt-to-thread and scheduler wake-up latencies as log-normal
// distributions given by their median and 99th percentile (the two numbers one reads off a
// cyclictest or `perf sched latency` histogram). Each stream has its own std::mt19937_64 seeded
// from (scenario seed, stream name), so adding a stream, or drawing more from one, does not change
// any other stream's samples; the same seed gives the same samples, a different seed different
// ones.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include <systemc>

namespace nicsim::net {

// 64-bit FNV-1a of the name mixed with the seed through splitmix64: a stable stream seed.
std::uint64_t stream_seed(std::uint64_t seed, const std::string& stream);

struct latency_spec {
    sc_core::sc_time median = sc_core::SC_ZERO_TIME; // zero median: the stream is off (always 0)
    sc_core::sc_time p99 = sc_core::SC_ZERO_TIME;    // >= median
    sc_core::sc_time floor = sc_core::SC_ZERO_TIME;  // added to every sample (shift)
    // Preemption by higher-priority work that holds the CPU a share of the time in bursts of
    // preempt_burst: with probability preempt_share a sample also waits the rest of a burst,
    // uniform in [0, preempt_burst]. Drawn from a generator of its own, so the log-normal part
    // is the same with and without it. Off when either is zero.
    double preempt_share = 0;
    sc_core::sc_time preempt_burst = sc_core::SC_ZERO_TIME;

    bool enabled() const { return median > sc_core::SC_ZERO_TIME; }
    bool preempts() const { return preempt_share > 0 && preempt_burst > sc_core::SC_ZERO_TIME; }
};

class latency_stream {
  public:
    // Throws std::invalid_argument naming the stream if p99 < median or preempt_share is
    // outside [0, 1).
    latency_stream(std::uint64_t seed, const std::string& name, const latency_spec& spec);

    // floor + exp(N(mu, sigma)) with exp(mu) = median and exp(mu + 2.326 sigma) = p99, plus the
    // preemption wait when it preempts, rounded to 1 ns. SC_ZERO_TIME when the spec is off.
    sc_core::sc_time sample();
    const std::string& name() const { return m_name; }

  private:
    std::string m_name;
    latency_spec m_spec;
    std::mt19937_64 m_rng;
    std::mt19937_64 m_preempt_rng; // seeded from the name + "/preempt"
    double m_mu = 0, m_sigma = 0;

    sc_core::sc_time preemption_wait();
};

} // namespace nicsim::net

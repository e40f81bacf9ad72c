// SPDX-License-Identifier: MIT
#include "host/net/jitter.h"

#include <cmath>
#include <stdexcept>

namespace nicsim::net {

std::uint64_t stream_seed(std::uint64_t seed, const std::string& stream) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : stream) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    std::uint64_t z = seed ^ h;
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

latency_stream::latency_stream(std::uint64_t seed, const std::string& name,
                               const latency_spec& spec)
    : m_name(name), m_spec(spec), m_rng(stream_seed(seed, name)),
      m_preempt_rng(stream_seed(seed, name + "/preempt")) {
    if (!(spec.preempt_share >= 0 && spec.preempt_share < 1))
        throw std::invalid_argument("latency stream '" + name + "': preempt_share not in [0, 1)");
    if (spec.enabled()) {
        if (spec.p99 < spec.median)
            throw std::invalid_argument("latency stream '" + name + "': p99 below median");
        // z(0.99) = 2.3263: the 99th percentile of the standard normal.
        m_mu = std::log(spec.median.to_seconds());
        m_sigma = (std::log(spec.p99.to_seconds()) - m_mu) / 2.3263478740408408;
    }
}

namespace {

// A uniform in (0, 1) from the engine's top 53 bits: unlike std::uniform_real_distribution its
// output is the same with every standard library.
double unit_uniform(std::mt19937_64& rng) {
    return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
}

// Rounded to whole nanoseconds so reports do not depend on the time resolution: the same value
// as sc_time(std::round(seconds * 1e9), SC_NS), without the unit conversion.
sc_core::sc_time whole_ns(double seconds) {
    static const sc_core::sc_time ns(1, sc_core::SC_NS);
    return sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(std::round(seconds * 1e9)) *
                                        ns.value());
}

} // namespace

// A wake-up at a random instant finds a burst of higher-priority work running with probability
// share, at a uniformly distributed point of it, so it waits the rest: uniform in [0, burst].
sc_core::sc_time latency_stream::preemption_wait() {
    if (!m_spec.preempts())
        return sc_core::SC_ZERO_TIME;
    const double hit = unit_uniform(m_preempt_rng), rest = unit_uniform(m_preempt_rng);
    if (hit >= m_spec.preempt_share)
        return sc_core::SC_ZERO_TIME;
    return whole_ns(rest * m_spec.preempt_burst.to_seconds());
}

sc_core::sc_time latency_stream::sample() {
    if (!m_spec.enabled())
        return sc_core::SC_ZERO_TIME;
    // Box-Muller on two 53-bit uniforms drawn straight from the engine: unlike
    // std::normal_distribution its output is the same with every standard library.
    const double u1 = unit_uniform(m_rng), u2 = unit_uniform(m_rng);
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double s = std::exp(m_mu + m_sigma * z);
    return m_spec.floor + whole_ns(s) + preemption_wait();
}

} // namespace nicsim::net

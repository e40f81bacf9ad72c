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
    : m_name(name), m_spec(spec), m_rng(stream_seed(seed, name)) {
    if (spec.enabled()) {
        if (spec.p99 < spec.median)
            throw std::invalid_argument("latency stream '" + name + "': p99 below median");
        // z(0.99) = 2.3263: the 99th percentile of the standard normal.
        m_mu = std::log(spec.median.to_seconds());
        m_sigma = (std::log(spec.p99.to_seconds()) - m_mu) / 2.3263478740408408;
    }
}

sc_core::sc_time latency_stream::sample() {
    if (!m_spec.enabled())
        return sc_core::SC_ZERO_TIME;
    // Box-Muller on two 53-bit uniforms drawn straight from the engine: unlike
    // std::normal_distribution its output is the same with every standard library.
    const auto uni = [this] { return (static_cast<double>(m_rng() >> 11) + 0.5) * 0x1.0p-53; };
    const double u1 = uni(), u2 = uni();
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    const double s = std::exp(m_mu + m_sigma * z);
    // Round to whole nanoseconds so reports do not depend on the time resolution.
    // The same value as sc_time(std::round(s * 1e9), SC_NS), without the unit conversion.
    static const sc_core::sc_time ns(1, sc_core::SC_NS);
    return m_spec.floor + sc_core::sc_time::from_value(
                              static_cast<sc_dt::uint64>(std::round(s * 1e9)) * ns.value());
}

} // namespace nicsim::net

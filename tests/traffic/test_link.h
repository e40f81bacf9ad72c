// SPDX-License-Identifier: MIT
//
// Test-only links for the traffic layer: a one-way delay line with a FIFO serialiser at a fixed
// bandwidth followed by a fixed (or per-frame) latency, plus a hook to drop or corrupt frames.
// Deliberately simple so the analytical expectations in the tests can be derived by hand:
// a frame of n bytes handed over at time t leaves the serialiser at max(t, previous leave) +
// n*8/bandwidth and reaches the sink latency later.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim::traffic::test {

class delay_line : public sc_core::sc_module {
  public:
    using sink_fn = std::function<void(const std::uint8_t*, std::size_t)>;
    // Called for frame number `index` (0-based, in send order); return false to drop the frame.
    using tamper_fn = std::function<bool(std::uint64_t index, std::vector<std::uint8_t>&)>;
    using latency_fn = std::function<sc_core::sc_time(std::uint64_t index)>;

    delay_line(const sc_core::sc_module_name& nm, double bandwidth_bps, sc_core::sc_time latency)
        : sc_core::sc_module(nm), m_bw(bandwidth_bps), m_latency(latency) {
        SC_HAS_PROCESS(delay_line);
        SC_THREAD(serialise);
        SC_THREAD(deliver);
    }

    sink_fn sink;
    tamper_fn tamper;
    latency_fn latency_of; // overrides the fixed latency when set

    // The port.send side. Never blocks (the queue is unbounded).
    void send(std::vector<std::uint8_t> f) {
        const std::uint64_t index = m_sent++;
        if (tamper && !tamper(index, f)) {
            ++m_dropped;
            return;
        }
        m_queue.emplace_back(index, std::move(f));
        m_kick.notify(sc_core::SC_ZERO_TIME);
    }

    sc_core::sc_time serialisation(std::size_t bytes) const {
        return m_bw > 0 ? sc_core::sc_time(static_cast<double>(bytes) * 8.0 / m_bw, sc_core::SC_SEC)
                        : sc_core::SC_ZERO_TIME;
    }
    std::uint64_t sent() const { return m_sent; }
    std::uint64_t dropped() const { return m_dropped; }

  private:
    void serialise() {
        for (;;) {
            while (m_queue.empty())
                wait(m_kick);
            auto [index, f] = std::move(m_queue.front());
            m_queue.pop_front();
            const auto t = serialisation(f.size());
            if (t > sc_core::SC_ZERO_TIME)
                wait(t);
            const auto lat = latency_of ? latency_of(index) : m_latency;
            const auto due = sc_core::sc_time_stamp() + lat;
            if (!m_flight.empty() && due < m_flight.back().first)
                throw std::logic_error("delay_line: per-frame latency would reorder frames");
            m_flight.emplace_back(due, std::move(f));
            m_landed.notify(sc_core::SC_ZERO_TIME);
        }
    }
    void deliver() {
        for (;;) {
            while (m_flight.empty())
                wait(m_landed);
            const auto due = m_flight.front().first;
            if (due > sc_core::sc_time_stamp())
                wait(due - sc_core::sc_time_stamp());
            auto f = std::move(m_flight.front().second);
            m_flight.pop_front();
            if (sink)
                sink(f.data(), f.size());
        }
    }

    double m_bw;
    sc_core::sc_time m_latency;
    std::deque<std::pair<std::uint64_t, std::vector<std::uint8_t>>> m_queue;
    std::deque<std::pair<sc_core::sc_time, std::vector<std::uint8_t>>> m_flight;
    sc_core::sc_event m_kick, m_landed;
    std::uint64_t m_sent = 0, m_dropped = 0;
};

} // namespace nicsim::traffic::test

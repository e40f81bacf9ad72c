// SPDX-License-Identifier: MIT
// Helpers for the lx_emul core tests: run scenario tasks and read recorded events.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include <lx_kit/lx_kit.h>
#include <lx_kit/runtime.h>

#include "lx_scenarios.h"

namespace lx_test {

inline constexpr uint64_t us = 1000;
inline constexpr uint64_t ms = 1000000;

// (time ns, value) pairs recorded by the C scenarios.
inline std::vector<std::pair<uint64_t, long>> events() {
    std::vector<std::pair<uint64_t, long>> e;
    for (unsigned i = 0; i < lx_test_ev.n; i++)
        e.emplace_back(lx_test_ev.t[i], lx_test_ev.v[i]);
    return e;
}

using ev = std::pair<uint64_t, long>;

inline void run_for(uint64_t ns) {
    sc_core::sc_start(sc_core::sc_time(double(ns), sc_core::SC_NS));
}

} // namespace lx_test

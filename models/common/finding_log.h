// SPDX-License-Identifier: MIT
// Findings of a chip model: things the host did that the real chip would not accept (protocol
// violations, bad CRCs, unmapped addresses, ...). The chip answers as it would and records the
// finding with its simulated time; tests and reports read the list. Each chip defines its own
// finding kinds (an enum with a to_string) and instantiates these templates with them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim {

template <class Kind>
struct chip_finding {
    sc_core::sc_time time;
    Kind kind;
    std::string text;
};

template <class Kind>
class chip_finding_log {
  public:
    void add(sc_core::sc_time t, Kind k, std::string text) {
        m_list.push_back({t, k, std::move(text)});
    }
    // At the current simulated time.
    void add(Kind k, std::string text) { add(sc_core::sc_time_stamp(), k, std::move(text)); }
    const std::vector<chip_finding<Kind>>& list() const { return m_list; }
    size_t count(Kind k) const {
        size_t n = 0;
        for (const auto& f : m_list)
            n += f.kind == k;
        return n;
    }
    void clear() { m_list.clear(); }

  private:
    std::vector<chip_finding<Kind>> m_list;
};

} // namespace nicsim

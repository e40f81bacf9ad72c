// SPDX-License-Identifier: MIT
// Findings of a chip model: things the host did that the real chip would not accept (protocol
// violations, bad CRCs, unmapped addresses, ...). The chip answers as it would and records the
// finding with its simulated time; tests and reports read the list. Each chip defines its own
// finding kinds (an enum with a to_string) and instantiates these templates with them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "bus/common/local_time.h"

namespace nicsim {

template <class Kind> struct chip_finding {
    sc_core::sc_time time;
    Kind kind;
    std::string text;
};

// The first `per_kind_cap` findings of each kind are stored with their text; later ones are only
// counted. A driver that clocks garbage at a chip for minutes produces the same few findings
// over and over: storing each (tens per frame) would grow without bound.
template <class Kind> class chip_finding_log {
  public:
    static constexpr size_t default_per_kind_cap = 100;
    explicit chip_finding_log(size_t per_kind_cap = default_per_kind_cap) : m_cap(per_kind_cap) {}

    void add(sc_core::sc_time t, Kind k, std::string text) {
        if (++m_counts[k] <= m_cap)
            m_list.push_back({t, k, std::move(text)});
    }
    // At the current simulated time (the caller's local time when it runs decoupled).
    void add(Kind k, std::string text) { add(local_time::now(), k, std::move(text)); }
    // The stored findings, in the order they happened.
    const std::vector<chip_finding<Kind>>& list() const { return m_list; }
    // Every finding of kind k, stored or not.
    size_t count(Kind k) const {
        const auto it = m_counts.find(k);
        return it == m_counts.end() ? 0 : it->second;
    }
    size_t per_kind_cap() const { return m_cap; }
    // The kinds that went past the cap, with how many findings were not stored.
    std::vector<std::pair<Kind, size_t>> overflow() const {
        std::vector<std::pair<Kind, size_t>> o;
        for (const auto& [k, n] : m_counts)
            if (n > m_cap)
                o.emplace_back(k, n - m_cap);
        return o;
    }
    void clear() {
        m_list.clear();
        m_counts.clear();
    }

  private:
    size_t m_cap;
    std::vector<chip_finding<Kind>> m_list;
    std::map<Kind, size_t> m_counts;
};

} // namespace nicsim

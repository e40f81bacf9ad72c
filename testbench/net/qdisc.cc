// SPDX-License-Identifier: MIT
#include "testbench/net/qdisc.h"

namespace nicsim::net {

unsigned pfifo_fast::band_of(std::uint32_t priority) {
    // sch_generic.c prio2band[TC_PRIO_MAX + 1]; TC_PRIO_BESTEFFORT (0) -> band 1.
    static constexpr unsigned prio2band[16] = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    return prio2band[priority & 15u];
}

bool pfifo_fast::enqueue(skb_ptr s) {
    auto& band = m_bands[band_of(s->priority)];
    if (band.size() >= m_limit) {
        ++m_drops;
        return false; // s is destroyed here: kfree_skb runs the destructor
    }
    ++m_packets;
    m_frames += s->segs();
    m_bytes += s->len();
    band.push_back(std::move(s));
    return true;
}

skb_ptr pfifo_fast::dequeue() {
    skb_ptr s;
    if (!m_requeued.empty()) {
        s = std::move(m_requeued.front());
        m_requeued.pop_front();
    } else {
        for (auto& band : m_bands) {
            if (!band.empty()) {
                s = std::move(band.front());
                band.pop_front();
                break;
            }
        }
    }
    if (s) {
        --m_packets;
        m_frames -= s->segs();
        m_bytes -= s->len();
    }
    return s;
}

void pfifo_fast::requeue(skb_ptr s) {
    ++m_requeues;
    ++m_packets;
    m_frames += s->segs();
    m_bytes += s->len();
    m_requeued.push_front(std::move(s));
}

} // namespace nicsim::net

// SPDX-License-Identifier: MIT
#include "host/net/qdisc.h"

#include "bus/common/local_time.h"
#include "host/net/fq_codel.h"
#include "host/net/net_settings.h"

namespace nicsim::net {

unsigned pfifo_fast::band_of(std::uint32_t priority) {
    // sch_generic.c prio2band[TC_PRIO_MAX + 1]; TC_PRIO_BESTEFFORT (0) -> band 1.
    static constexpr unsigned prio2band[16] = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    return prio2band[priority & 15u];
}

bool pfifo_fast::enqueue(skb_ptr s) {
    auto& band = m_bands[band_of(s->priority)];
    if (band.size() >= m_limit) {
        count_drop();
        return false; // s is destroyed here: kfree_skb runs the destructor
    }
    count_in(*s);
    band.push_back(std::move(s));
    return true;
}

skb_ptr pfifo_fast::dequeue_own() {
    for (auto& band : m_bands) {
        if (!band.empty()) {
            skb_ptr s = std::move(band.front());
            band.pop_front();
            return s;
        }
    }
    return nullptr;
}

skb_ptr qdisc::dequeue() {
    skb_ptr s;
    if (!m_requeued.empty()) {
        s = std::move(m_requeued.front());
        m_requeued.pop_front();
    } else {
        s = dequeue_own();
    }
    if (s)
        count_out(*s);
    return s;
}

void qdisc::requeue(skb_ptr s) {
    ++m_requeues;
    count_in(*s);
    m_requeued.push_front(std::move(s));
}

std::unique_ptr<qdisc> make_qdisc(const net_settings& n) {
    if (n.qdisc == "fq_codel") {
        fq_codel::params p;
        p.quantum = p.mtu = n.mtu + 14; // psched_mtu: MTU + the Ethernet header
        return std::make_unique<fq_codel>(p, [] { return local_time::now(); });
    }
    return std::make_unique<pfifo_fast>(n.txqueuelen);
}

} // namespace nicsim::net

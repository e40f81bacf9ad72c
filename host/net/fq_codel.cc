// SPDX-License-Identifier: MIT
#include "host/net/fq_codel.h"

#include <stdexcept>

namespace nicsim::net {

namespace {
constexpr unsigned codel_shift = 10;             // CODEL_SHIFT
constexpr unsigned rec_inv_sqrt_shift = 32 - 16; // REC_INV_SQRT_SHIFT (u16 rec_inv_sqrt)

// codel_time_before/after(_eq): wrap-around comparisons of 32-bit times.
bool before(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a - b) < 0;
}
bool after(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a - b) > 0;
}
bool after_eq(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::int32_t>(a - b) >= 0;
}
std::uint32_t reciprocal_scale(std::uint32_t val, std::uint32_t ep_ro) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(val) * ep_ro) >> 32);
}
std::uint32_t to_codel(const sc_core::sc_time& t) {
    static const sc_core::sc_time ns(1, sc_core::SC_NS);
    return static_cast<std::uint32_t>((t.value() / ns.value()) >> codel_shift);
}
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
} // namespace

fq_codel::fq_codel(const params& p, clock_fn now)
    : m_p(p), m_now(std::move(now)), m_target(to_codel(p.target)), m_interval(to_codel(p.interval)),
      m_flows(p.flows) {
    if (p.flows == 0 || p.limit == 0 || p.quantum == 0)
        throw std::invalid_argument("fq_codel: flows, limit and quantum must be > 0");
}

fq_codel::codel_time fq_codel::codel_now() const {
    return to_codel(m_now());
}

std::uint32_t fq_codel::flow_of(const skb& s) const {
    // The flow dissector's keys: addresses and protocol, and the ports of TCP and UDP.
    const auto& f = s.is_gso() ? s.gso_frames.front() : s.data;
    std::uint64_t h = 0x6a09e667f3bcc908ull; // fixed key (see the header)
    if (f.size() >= 14 + 20 && f[12] == 0x08 && f[13] == 0x00) {
        const std::size_t ihl = 4u * (f[14] & 0x0fu);
        const std::uint8_t proto = f[14 + 9];
        for (std::size_t i = 14 + 12; i < 14 + 20; ++i)
            h = mix(h ^ f[i]);
        h = mix(h ^ proto);
        if ((proto == 6 || proto == 17) && f.size() >= 14 + ihl + 4)
            for (std::size_t i = 14 + ihl; i < 14 + ihl + 4; ++i)
                h = mix(h ^ f[i]);
    } else if (f.size() >= 14) {
        h = mix(h ^ ((std::uint64_t(f[12]) << 8) | f[13])); // non-IP: one flow per EtherType
    }
    // reciprocal_scale(skb_get_hash(skb), flows_cnt)
    return reciprocal_scale(static_cast<std::uint32_t>(h), m_p.flows);
}

bool fq_codel::enqueue(skb_ptr s) {
    const std::uint32_t idx = flow_of(*s);
    flow& f = m_flows[idx];
    const std::uint32_t len = static_cast<std::uint32_t>(s->len());
    m_memory += s->truesize;
    count_in(*s);
    f.backlog += len;
    f.q.push_back({std::move(s), codel_now()});
    if (!f.listed) {
        m_new_flows.push_back(idx);
        f.listed = true;
        ++m_new_flow_count;
        f.deficit = static_cast<std::int32_t>(m_p.quantum);
    }
    const bool memory_limited = m_memory > m_p.memory_limit;
    if (++m_qlen <= m_p.limit && !memory_limited)
        return true;
    // Over the limit: drop half of the fattest flow's backlog. The caller gets NET_XMIT_CN even
    // if its own skb went too, which net_xmit_eval turns into success for TCP, and the qdisc
    // runs as after any enqueue: a lost skb is found by TCP's loss detection.
    drop_fattest();
    return true;
}

void fq_codel::drop_fattest() {
    std::uint32_t maxbacklog = 0, idx = 0;
    for (std::uint32_t i = 0; i < m_flows.size(); ++i)
        if (m_flows[i].backlog > maxbacklog) {
            maxbacklog = m_flows[i].backlog;
            idx = i;
        }
    const std::uint32_t threshold = maxbacklog >> 1;
    flow& f = m_flows[idx];
    std::uint32_t len = 0, i = 0;
    do {
        queued e = flow_dequeue(f); // from the head, as fq_codel_drop's dequeue_head
        len += static_cast<std::uint32_t>(e.s->len());
        ++m_overlimit_drops;
        drop(std::move(e.s));
    } while (++i < m_p.drop_batch && len < threshold && !f.q.empty());
    f.cv.count += i; // "Tell codel to increase its signal strength also"
}

void fq_codel::drop(skb_ptr s) {
    count_out(*s);
    count_drop();
    // s is freed here: kfree_skb runs its destructor (the TSQ budget returns).
}

fq_codel::queued fq_codel::flow_dequeue(flow& f) {
    if (f.q.empty())
        return {};
    queued e = std::move(f.q.front());
    f.q.pop_front();
    f.backlog -= static_cast<std::uint32_t>(e.s->len());
    m_memory -= e.s->truesize;
    --m_qlen;
    return e;
}

bool fq_codel::should_drop(const queued& e, codel_vars& v, codel_time now) {
    const skb* s = e.s.get();
    if (!s) {
        v.first_above_time = 0;
        return false;
    }
    v.ldelay = now - e.enqueued;
    // The backlog is the whole qdisc's (sch->qstats.backlog) after this skb left it.
    if (before(v.ldelay, m_target) || backlog_bytes() - s->len() <= m_p.mtu) {
        v.first_above_time = 0; // went below: stay below for at least interval
        return false;
    }
    bool ok_to_drop = false;
    if (v.first_above_time == 0)
        v.first_above_time = now + m_interval;
    else if (after(now, v.first_above_time))
        ok_to_drop = true;
    return ok_to_drop;
}

void fq_codel::newton_step(codel_vars& v) {
    const std::uint32_t invsqrt = static_cast<std::uint32_t>(v.rec_inv_sqrt) << rec_inv_sqrt_shift;
    const std::uint32_t invsqrt2 =
        static_cast<std::uint32_t>((static_cast<std::uint64_t>(invsqrt) * invsqrt) >> 32);
    std::uint64_t val = (3ull << 32) - static_cast<std::uint64_t>(v.count) * invsqrt2;
    val >>= 2; // avoid overflow in the multiply below
    val = (val * invsqrt) >> (32 - 2 + 1);
    v.rec_inv_sqrt = static_cast<std::uint16_t>(val >> rec_inv_sqrt_shift);
}

fq_codel::codel_time fq_codel::control_law(codel_time t, std::uint32_t rec_inv_sqrt) const {
    return t + reciprocal_scale(m_interval, rec_inv_sqrt << rec_inv_sqrt_shift);
}

skb_ptr fq_codel::codel_dequeue(flow& f, codel_time now) {
    codel_vars& v = f.cv;
    queued e = flow_dequeue(f);
    if (!e.s) {
        v.first_above_time = 0;
        v.dropping = false;
        return nullptr;
    }
    // The skb is out of the flow but still in the qdisc's backlog until this returns: the
    // base counts it out afterwards, so should_drop subtracts it (see there).
    const bool drop_now = should_drop(e, v, now);
    if (v.dropping) {
        if (!drop_now) {
            v.dropping = false; // sojourn time below target: leave the dropping state
        } else if (after_eq(now, v.drop_next)) {
            // Time for the next drop; a large backlog may need several at once.
            while (v.dropping && after_eq(now, v.drop_next)) {
                ++v.count;
                newton_step(v);
                ++m_codel_drops;
                drop(std::move(e.s));
                e = flow_dequeue(f);
                if (!should_drop(e, v, now))
                    v.dropping = false;
                else
                    v.drop_next = control_law(v.drop_next, v.rec_inv_sqrt);
            }
        }
    } else if (drop_now) {
        ++m_codel_drops;
        drop(std::move(e.s));
        e = flow_dequeue(f);
        should_drop(e, v, now);
        v.dropping = true;
        // If the queue went above target soon after it last went below, start from the drop
        // rate that controlled it last time.
        const std::uint32_t delta = v.count - v.lastcount;
        if (delta > 1 && before(now - v.drop_next, 16 * m_interval)) {
            v.count = delta;
            newton_step(v);
        } else {
            v.count = 1;
            v.rec_inv_sqrt = static_cast<std::uint16_t>(~0u >> rec_inv_sqrt_shift);
        }
        v.lastcount = v.count;
        v.drop_next = control_law(now, v.rec_inv_sqrt);
    }
    return std::move(e.s);
}

skb_ptr fq_codel::dequeue_own() {
    const codel_time now = codel_now();
    for (;;) {
        std::deque<std::uint32_t>* head = &m_new_flows;
        if (head->empty()) {
            head = &m_old_flows;
            if (head->empty())
                return nullptr;
        }
        const std::uint32_t idx = head->front();
        flow& f = m_flows[idx];
        if (f.deficit <= 0) {
            f.deficit += static_cast<std::int32_t>(m_p.quantum);
            head->pop_front();
            m_old_flows.push_back(idx);
            continue;
        }
        skb_ptr s = codel_dequeue(f, now);
        if (!s) {
            head->pop_front();
            // Force a pass through old_flows to prevent starvation.
            if (head == &m_new_flows && !m_old_flows.empty())
                m_old_flows.push_back(idx);
            else
                f.listed = false;
            continue;
        }
        f.deficit -= static_cast<std::int32_t>(s->len());
        return s;
    }
}

} // namespace nicsim::net

// SPDX-License-Identifier: MIT
// fq_codel (host/net/fq_codel.h) against Linux 6.1's sch_fq_codel.c and codel_impl.h:
// flow queues served new-before-old by deficit round robin, CoDel's drop schedule, and the
// overlimit drop of half the fattest flow.
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "host/net/fq_codel.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {

// An Ethernet/IPv4/TCP frame of `len` bytes from source port `port` (the flow), its id `id`.
skb_ptr frame(std::uint16_t port, std::size_t len, std::uint64_t id, int* freed) {
    auto s = std::make_unique<skb>();
    s->data.assign(len, 0);
    auto& d = s->data;
    d[12] = 0x08; // IPv4
    d[14] = 0x45; // version 4, 20-byte header
    d[14 + 9] = 6;
    d[14 + 12] = 192, d[14 + 13] = 168, d[14 + 15] = 2; // 192.168.0.2
    d[14 + 16] = 192, d[14 + 17] = 168, d[14 + 19] = 1; // 192.168.0.1
    d[34] = static_cast<std::uint8_t>(port >> 8), d[35] = static_cast<std::uint8_t>(port);
    d[36] = 0x13, d[37] = 0x89; // 5001
    s->id = id;
    s->truesize = static_cast<std::uint32_t>(len + 768);
    s->sk = std::shared_ptr<int>(freed, [](int*) {}); // the test's counter, not owned
    s->destructor = [](skb& b) { ++*static_cast<int*>(b.sk.get()); };
    return s;
}

struct clocked {
    sc_time now = sc_core::SC_ZERO_TIME;
    fq_codel q;
    explicit clocked(const fq_codel::params& p = {}) : q(p, [this] { return now; }) {}
};

} // namespace

TEST(FqCodel, ANewFlowIsServedBeforeABackloggedOneThenTheyAlternateByQuantum) {
    int freed = 0;
    clocked c;
    for (int i = 0; i < 6; ++i)
        c.q.enqueue(frame(1000, 1514, 100 + i, &freed)); // bulk flow A
    ASSERT_NE(c.q.flow_of(*frame(1000, 60, 0, &freed)), c.q.flow_of(*frame(2000, 60, 0, &freed)));
    EXPECT_EQ(c.q.dequeue()->id, 100u); // A spends its quantum
    for (int i = 0; i < 3; ++i)
        c.q.enqueue(frame(2000, 66, 200 + i, &freed)); // flow B (ACK-sized) arrives
    // A's deficit is used up: it moves to old_flows, and B (new) goes first; B's 66-byte
    // frames fit its quantum three times over, so it is emptied before A is served again.
    std::vector<std::uint64_t> order;
    while (!c.q.empty())
        order.push_back(c.q.dequeue()->id);
    EXPECT_EQ(order, (std::vector<std::uint64_t>{200, 201, 202, 101, 102, 103, 104, 105}));
    EXPECT_EQ(c.q.new_flow_count(), 2u);
    EXPECT_EQ(c.q.drops(), 0u);
    EXPECT_EQ(c.q.backlog_bytes(), 0u);
}

TEST(FqCodel, TwoBackloggedFlowsShareBytesNotPackets) {
    int freed = 0;
    clocked c;
    for (int i = 0; i < 40; ++i) {
        c.q.enqueue(frame(1000, 1514, 1, &freed)); // A: full frames
        c.q.enqueue(frame(2000, 151, 2, &freed));  // B: tenth-size frames
    }
    // Once both are old flows, each round gives each a quantum (1514 B): one A frame per ten B.
    std::uint64_t a = 0, b = 0;
    for (int i = 0; i < 33; ++i)
        (c.q.dequeue()->id == 1 ? a : b) += 1;
    EXPECT_EQ(a, 3u);
    EXPECT_EQ(b, 30u);
}

TEST(FqCodel, CodelDropsAfterAnIntervalAboveTargetOnTheKernelsControlLaw) {
    int freed = 0;
    clocked c;
    for (int i = 0; i < 1000; ++i)
        c.q.enqueue(frame(1000, 1514, static_cast<std::uint64_t>(i), &freed));
    // One dequeue per millisecond: the sojourn time is k ms at the k-th, at the 5 ms target
    // from k = 5, so dropping may start an interval (100 ms) later.
    std::vector<int> drops_at;
    std::uint64_t expect_id = 0;
    for (int k = 1; k <= 400; ++k) {
        c.now = sc_time(k, SC_MS);
        const std::uint64_t before = c.q.drops();
        auto s = c.q.dequeue();
        ASSERT_TRUE(s);
        ASSERT_LE(c.q.drops() - before, 1u); // the drop intervals here are all above 1 ms
        if (c.q.drops() > before) {
            drops_at.push_back(k);
            ++expect_id; // the head was dropped, the next one is sent
        }
        EXPECT_EQ(s->id, expect_id);
        ++expect_id;
    }
    // The control law: drop n + 1 is scheduled interval * rec_inv_sqrt after drop n, where
    // rec_inv_sqrt starts at 1 and takes one Newton step towards 1/sqrt(count) per drop
    // (codel_Newton_step): 1, 0.5, 0.5625, 0.4878, ... - not 1/sqrt(count) itself.
    ASSERT_GE(drops_at.size(), 5u);
    EXPECT_EQ(drops_at[0], 105);
    double sched = 105.0, y = 1.0;
    for (std::size_t n = 1; n < drops_at.size(); ++n) {
        sched += 100.0 * y;
        EXPECT_NEAR(drops_at[n], sched, 1.0) << "drop " << n + 1;
        const double count = static_cast<double>(n + 1);
        y = y * (3.0 - count * y * y) / 2.0;
    }
    EXPECT_EQ(drops_at[2], 255); // 205 + 100 ms * 0.5: the first Newton step from 1
    EXPECT_EQ(c.q.codel_drops(), drops_at.size());
    EXPECT_EQ(freed, static_cast<int>(400 + drops_at.size())); // dropped ones are freed at once
}

TEST(FqCodel, NoDropWhileTheSojournStaysBelowTarget) {
    int freed = 0;
    clocked c;
    // A standing queue of 3 frames, each waiting 3 ms (< 5 ms), for a second.
    std::uint64_t id = 0;
    for (int i = 0; i < 3; ++i)
        c.q.enqueue(frame(1000, 1514, id++, &freed));
    for (int k = 1; k <= 1000; ++k) {
        c.now = sc_time(k, SC_MS);
        c.q.enqueue(frame(1000, 1514, id++, &freed));
        ASSERT_TRUE(c.q.dequeue());
    }
    EXPECT_EQ(c.q.backlog_packets(), 3u);
    EXPECT_EQ(c.q.drops(), 0u);
}

TEST(FqCodel, OverTheLimitHalfOfTheFattestFlowIsDroppedFromItsHead) {
    int freed = 0;
    fq_codel::params p;
    p.limit = 10;
    clocked c(p);
    for (int i = 0; i < 8; ++i)
        c.q.enqueue(frame(1000, 1514, static_cast<std::uint64_t>(i), &freed)); // fat flow A
    for (int i = 0; i < 2; ++i)
        c.q.enqueue(frame(2000, 1514, 100 + static_cast<std::uint64_t>(i), &freed));
    EXPECT_EQ(c.q.drops(), 0u);
    // The 11th packet: A holds 8 x 1514 B; dropping from its head until half of that (6056 B)
    // is gone takes 4 packets.
    EXPECT_TRUE(c.q.enqueue(frame(2000, 1514, 102, &freed)));
    EXPECT_EQ(c.q.overlimit_drops(), 4u);
    EXPECT_EQ(c.q.drops(), 4u);
    EXPECT_EQ(freed, 4);
    EXPECT_EQ(c.q.backlog_packets(), 7u);
    EXPECT_EQ(c.q.backlog_bytes(), 7u * 1514u);
    std::vector<std::uint64_t> a;
    while (!c.q.empty()) {
        auto s = c.q.dequeue();
        if (s->id < 100)
            a.push_back(s->id);
    }
    EXPECT_EQ(a, (std::vector<std::uint64_t>{4, 5, 6, 7}));
}

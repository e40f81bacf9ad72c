// SPDX-License-Identifier: MIT
#include <memory>

#include <gtest/gtest.h>

#include "host/net/qdisc.h"
#include "test_driver.h"

using namespace nicsim::net;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

skb_ptr make(std::uint32_t prio, std::size_t len, int* freed) {
    auto s = std::make_unique<skb>();
    s->data.resize(len);
    s->priority = prio;
    s->truesize = static_cast<std::uint32_t>(len + 768);
    s->sk = std::shared_ptr<int>(freed, [](int*) {}); // the test's counter, not owned
    s->destructor = [](skb& b) { ++*static_cast<int*>(b.sk.get()); };
    return s;
}

} // namespace

TEST(PfifoFast, BandsLimitDropAndRequeue) {
    int freed = 0;
    pfifo_fast q(2);
    EXPECT_TRUE(q.enqueue(make(0, 100, &freed))); // band 1
    EXPECT_TRUE(q.enqueue(make(0, 101, &freed)));
    EXPECT_FALSE(q.enqueue(make(0, 102, &freed))); // band 1 full: dropped and freed at once
    EXPECT_EQ(freed, 1);
    EXPECT_EQ(q.drops(), 1u);
    EXPECT_TRUE(q.enqueue(make(6, 50, &freed))); // TC_PRIO_INTERACTIVE -> band 0
    EXPECT_EQ(q.backlog_packets(), 3u);
    EXPECT_EQ(q.backlog_bytes(), 251u);
    auto a = q.dequeue();
    EXPECT_EQ(a->len(), 50u); // band 0 first
    auto b = q.dequeue();
    EXPECT_EQ(b->len(), 100u);
    q.requeue(std::move(b)); // NETDEV_TX_BUSY: back at the head
    EXPECT_EQ(q.requeues(), 1u);
    EXPECT_EQ(q.dequeue()->len(), 100u);
    EXPECT_EQ(freed, 2); // the dequeued-and-dropped temporaries
    EXPECT_EQ(q.dequeue()->len(), 101u);
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.backlog_bytes(), 0u);
}

TEST(HostQdisc, DriverStopAndWakeThresholdsMoveTheBacklogIntoTheQdisc) {
    host_stack_config c;
    c.net.gso = false; // one skb per segment: the counts below are skbs
    host_stack h("h", c);
    test::holding_driver d;
    d.stop_at = 4;
    d.wake_below = 2;
    d.stack = &h;
    h.attach(d.port());
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    sc_core::sc_spawn([&] { h.write(s, 100000); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        // Initial cwnd 10, no ACKs: 10 segments left TCP; the driver stopped its queue at 4.
        EXPECT_EQ(s.stats().segments_sent, 10u);
        EXPECT_EQ(d.held.size(), 4u);
        EXPECT_TRUE(d.stopped);
        EXPECT_EQ(h.qdisc().backlog_packets(), 6u);
        d.complete_one();
        d.complete_one();
        sc_core::wait(sc_time(1, SC_US));
        EXPECT_EQ(h.qdisc().backlog_packets(), 6u); // 2 held, not below 2: still stopped
        d.complete_one();                           // 1 held < 2: netif_wake_queue
        sc_core::wait(sc_time(1, SC_US));
        EXPECT_EQ(d.held.size(), 4u);
        EXPECT_EQ(h.qdisc().backlog_packets(), 3u);
        EXPECT_EQ(h.xmit_busy(), 0u);
    });
    sc_core::sc_start(sc_time(5, SC_MS));
}

TEST(HostQdisc, TxBusyRequeuesTheSkbAndKeepsOrder) {
    host_stack_config c;
    c.net.gso = false; // one skb per segment: the counts below are skbs
    host_stack h("h", c);
    test::holding_driver d;
    d.stop_at = 4;
    d.busy_when_full = true;
    d.stack = &h;
    h.attach(d.port());
    auto& s = h.open_tcp({test::addr_a(), test::addr_b(), 1, 0, 0, true, -1});
    sc_core::sc_spawn([&] { h.write(s, 100000); });
    sc_core::sc_spawn([&] {
        sc_core::wait(sc_time(1, SC_MS));
        EXPECT_EQ(d.held.size(), 4u);
        // Each later dev_queue_xmit ran the qdisc again and the head skb bounced again (a driver
        // that returns BUSY without stopping its queue - Linux logs "BUG! Tx Ring full").
        // __netif_schedule: net_tx_action retried the head skb every busy_retry (1 us).
        EXPECT_GE(d.busy, 900u);
        EXPECT_EQ(h.xmit_busy(), d.busy);
        EXPECT_EQ(h.qdisc().requeues(), d.busy);
        EXPECT_EQ(h.qdisc().backlog_packets(), 6u); // the requeued skb counts
        for (int i = 0; i < 10; ++i) {
            d.complete_one(); // frees TX space without netif_wake_queue
            sc_core::wait(sc_time(2, SC_US));
        }
        EXPECT_TRUE(h.qdisc().empty()) << "the retries alone drained the qdisc";
        ASSERT_EQ(d.seqs.size(), 10u); // nothing lost or duplicated by the requeues ...
        for (std::size_t i = 1; i < d.seqs.size(); ++i)
            EXPECT_EQ(d.seqs[i] - d.seqs[i - 1], s.mss()); // ... and in order
        EXPECT_EQ(s.wmem_alloc(), 0u);                     // every destructor ran
    });
    sc_core::sc_start(sc_time(5, SC_MS));
}

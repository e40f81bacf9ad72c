// SPDX-License-Identifier: MIT
// Ethernet wire: frame timing at 100 Mb/s (hand-computed), IFG between back-to-back frames,
// peer padding + FCS, full duplex, link down, propagation delay, 10 Mb/s.
#include <gtest/gtest.h>

#include "models/ethernet/eth_crc.h"
#include "models/ethernet/eth_wire.h"

using namespace nicsim;
using namespace nicsim::eth;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

uint64_t ns(const sc_time& t) {
    return uint64_t(t.to_seconds() * 1e9 + 0.5);
}

struct station : sc_core::sc_module, eth_station_if {
    eth_wire* wire = nullptr;
    std::vector<eth_frame> rx, tx_done;
    std::vector<bool> links;
    std::function<void(station&)> body;
    SC_HAS_PROCESS(station);
    station(sc_core::sc_module_name n, std::function<void(station&)> b)
        : sc_module(n), body(std::move(b)) {
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
    void eth_tx_done(const eth_frame& f) override { tx_done.push_back(f); }
    void eth_rx_frame(eth_frame f) override { rx.push_back(std::move(f)); }
    void eth_link_changed(bool up) override { links.push_back(up); }
};

void run(const eth_wire_params& wp, std::function<void(station&, eth_wire&)> body) {
    eth_wire w("wire", wp);
    station s("station", [&](station& st) { body(st, w); });
    s.wire = &w;
    w.attach_station(s);
    sc_core::sc_start();
}

std::vector<uint8_t> frame_with_fcs(size_t len_no_fcs, uint8_t seed) {
    std::vector<uint8_t> f(len_no_fcs);
    for (size_t i = 0; i < f.size(); ++i)
        f[i] = uint8_t(seed + i);
    append_fcs(f);
    return f;
}

} // namespace

// 64-byte frame: (7 + 1 + 64) bytes * 80 ns = 5760 ns. 1514 + FCS = 1518 bytes:
// (8 + 1518) * 80 ns = 122080 ns. The second frame starts 12 * 80 = 960 ns after the first ends.
TEST(EthWire, FrameTimingAt100Mbps) {
    run({}, [](station& s, eth_wire& w) {
        EXPECT_EQ(ns(w.frame_time(64)), 5760u);
        EXPECT_EQ(ns(w.frame_time(1518)), 122080u);
        EXPECT_EQ(ns(w.ifg_time()), 960u);
        wait(sc_time(1, SC_US));
        w.station_send(frame_with_fcs(60, 1));
        w.station_send(frame_with_fcs(1514, 2));
        wait(sc_time(200, SC_US));
        ASSERT_EQ(w.peer_received().size(), 2u);
        const auto& a = w.peer_received()[0];
        const auto& b = w.peer_received()[1];
        EXPECT_EQ(ns(a.t_start), 1000u);
        EXPECT_EQ(ns(a.t_end), 1000u + 5760u);
        EXPECT_EQ(ns(b.t_start), 1000u + 5760u + 960u);
        EXPECT_EQ(ns(b.t_end), 1000u + 5760u + 960u + 122080u);
        ASSERT_EQ(s.tx_done.size(), 2u);
        EXPECT_EQ(ns(s.tx_done[1].t_end), ns(b.t_end));
        EXPECT_EQ(a.bytes, frame_with_fcs(60, 1));
        EXPECT_EQ(w.stats().station_runts, 0u);
    });
}

// Peer frames are padded to 60 bytes and get a correct FCS; both directions run at once.
// station_transmit: the same frame timing as station_send, in the caller's thread, which it
// returns to when the last bit has left (after eth_tx_done); the IFG holds across calls. It
// refuses while station_send frames are queued, and an empty frame.
TEST(EthWire, StationTransmitSendsInTheCallersThread) {
    run({}, [](station& s, eth_wire& w) {
        wait(sc_time(1, SC_US));
        w.station_transmit(frame_with_fcs(60, 1));
        EXPECT_EQ(ns(sc_core::sc_time_stamp()), 1000u + 5760u);
        EXPECT_EQ(s.tx_done.size(), 1u);
        w.station_transmit(frame_with_fcs(1514, 2));
        EXPECT_EQ(ns(sc_core::sc_time_stamp()), 1000u + 5760u + 960u + 122080u);
        ASSERT_EQ(w.peer_received().size(), 2u);
        EXPECT_EQ(ns(w.peer_received()[1].t_start), 1000u + 5760u + 960u);
        EXPECT_EQ(w.peer_received()[0].bytes, frame_with_fcs(60, 1));
        w.station_send(frame_with_fcs(60, 3));
        EXPECT_THROW(w.station_transmit(frame_with_fcs(60, 4)), std::logic_error);
        wait(sc_time(20, SC_US));
        EXPECT_THROW(w.station_transmit({}), std::invalid_argument);
        EXPECT_EQ(w.peer_received().size(), 3u);
    });
}

TEST(EthWire, PeerPadsAndFullDuplex) {
    run({}, [](station& s, eth_wire& w) {
        std::vector<uint8_t> small(42, 0x77);
        w.peer_send(small);
        w.station_send(frame_with_fcs(1514, 3));
        wait(sc_time(130, SC_US));
        ASSERT_EQ(s.rx.size(), 1u);
        EXPECT_EQ(s.rx[0].bytes.size(), 64u);
        EXPECT_TRUE(fcs_ok(s.rx[0].bytes));
        auto padded = small;
        padded.resize(60, 0);
        EXPECT_EQ(s.rx[0].payload(), padded);
        EXPECT_EQ(ns(s.rx[0].t_end), 5760u); // not delayed by the station's long frame
        ASSERT_EQ(w.peer_received().size(), 1u);
        EXPECT_EQ(ns(w.peer_received()[0].t_end), 122080u);
    });
}

// A release time in the future is honoured; frames queued with the same time go back to back.
TEST(EthWire, PeerReleaseTimesAndIfg) {
    run({}, [](station& s, eth_wire& w) {
        w.peer_send(std::vector<uint8_t>(1514, 1), sc_time(10, SC_US));
        w.peer_send(std::vector<uint8_t>(1514, 2), sc_time(10, SC_US));
        wait(sc_time(300, SC_US));
        ASSERT_EQ(s.rx.size(), 2u);
        EXPECT_EQ(ns(s.rx[0].t_start), 10000u);
        EXPECT_EQ(ns(s.rx[1].t_start), 10000u + 122080u + 960u);
    });
}

// Link down: the station is told, frames in either direction are lost and counted.
TEST(EthWire, LinkDownDropsFrames) {
    run({}, [](station& s, eth_wire& w) {
        w.set_link(false);
        w.set_link(false); // no change, no callback
        w.peer_send(std::vector<uint8_t>(100, 1));
        w.station_send(frame_with_fcs(100, 1));
        wait(sc_time(20, SC_US));
        EXPECT_TRUE(s.rx.empty());
        EXPECT_TRUE(w.peer_received().empty());
        EXPECT_EQ(s.tx_done.size(), 1u); // the MAC still finishes its transmission
        EXPECT_EQ(w.stats().dropped_link_down, 2u);
        w.set_link(true);
        EXPECT_EQ(s.links, (std::vector<bool>{false, true}));
    });
}

// 10 Mb/s and a propagation delay: 64 bytes -> 57.6 us + 0.5 us.
TEST(EthWire, TenMegabitWithPropagation) {
    eth_wire_params p;
    p.rate_bps = 10e6;
    p.propagation_delay = sc_time(500, SC_NS);
    run(p, [](station& s, eth_wire& w) {
        w.peer_send(std::vector<uint8_t>(60, 5));
        w.peer_send(std::vector<uint8_t>(60, 6));
        wait(sc_time(200, SC_US));
        ASSERT_EQ(s.rx.size(), 2u);
        EXPECT_EQ(ns(s.rx[0].t_end), 57600u + 500u);
        // The second frame is not held back by the first one's propagation: IFG 9.6 us.
        EXPECT_EQ(ns(s.rx[1].t_start), 57600u + 9600u);
        EXPECT_EQ(ns(s.rx[1].t_end), 2 * 57600u + 9600u + 500u);
    });
}

// Bad parameters are rejected with a message naming the field.
TEST(EthWire, RejectsBadParams) {
    eth_wire_params p;
    p.rate_bps = 0;
    try {
        eth_wire w("wire", p);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("rate_bps"), std::string::npos);
    }
}

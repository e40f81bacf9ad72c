// SPDX-License-Identifier: MIT
// Air link: airtime formula, half-duplex sharing, saturating sources in both directions,
// backpressure; the access point's beacons, TIM/DTIM and power-save buffering against
// hand-computed schedules.
#include <gtest/gtest.h>

#include "models/air/air_link.h"

using namespace nicsim;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::sc_time;

namespace {
struct station : sc_core::sc_module, air_station_if {
    air_link* link = nullptr;
    size_t capacity = 1u << 30, used = 0;
    std::vector<air_frame> rx;
    uint64_t tx_started = 0, tx_done = 0, rx_started = 0;
    size_t tx_backlog = 0; // frames to keep queued (saturating station source)
    SC_HAS_PROCESS(station);
    explicit station(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(feed); }
    void feed() {
        for (;;) {
            while (link && tx_backlog && link->station_queue_depth() < 2) {
                link->station_send(std::vector<uint8_t>(1500, 0x11));
                --tx_backlog;
            }
            wait(sc_time(10, sc_core::SC_US));
        }
    }
    bool air_can_receive(size_t b) const override { return used + b <= capacity; }
    void air_tx_started(const air_frame&) override { ++tx_started; }
    void air_tx_done(const air_frame&) override { ++tx_done; }
    void air_rx_started(const air_frame&) override { ++rx_started; }
    void air_rx_done(air_frame f) override {
        used += f.bytes.size();
        rx.push_back(std::move(f));
    }
};
} // namespace

TEST(AirLink, AirtimeFormulaAndValidation) {
    air_link_params p;
    p.phy_rate_bps = 54e6;
    p.mac_efficiency = 0.5;
    p.per_frame_overhead = sc_time(10, sc_core::SC_US);
    air_link l("l", p);
    EXPECT_EQ(l.airtime(1350), sc_time(8.0 * 1350 / 27e6, SC_SEC) + sc_time(10, sc_core::SC_US));
    air_link_params bad;
    bad.mac_efficiency = 1.5;
    EXPECT_THROW(air_link("bad", bad), std::invalid_argument);
}

namespace {
// The medium alone: no beacons in the way of the counts below.
air_link_params no_beacons() {
    air_link_params p;
    p.beacon_interval = sc_core::SC_ZERO_TIME;
    return p;
}
} // namespace

TEST(AirLink, BothDirectionsSaturateAndShareTheMedium) {
    air_link_params p = no_beacons();
    p.phy_rate_bps = 10e6;
    p.mac_efficiency = 0.8; // 8 Mbit/s of payload in total
    air_link l("l", p);
    station st("st");
    st.link = &l;
    st.tx_backlog = 1u << 20;
    l.attach_station(st);
    uint64_t peer_bytes = 0;
    l.set_peer_sink([&](const air_frame& f) { peer_bytes += f.bytes.size(); });
    l.set_peer_source([](std::vector<uint8_t>& b) {
        b.assign(1000, 0x22);
        return true;
    });
    sc_core::sc_start(sc_time(1, SC_SEC));
    const auto& s = l.stats();
    const double total_bits = 8.0 * double(s.station_bytes + s.peer_bytes);
    EXPECT_NEAR(total_bits, 8e6, 8e6 * 0.01); // the medium is saturated
    // Round robin: equal frame counts up to the frame in progress.
    EXPECT_LE(std::max(s.station_frames, s.peer_frames) - std::min(s.station_frames, s.peer_frames),
              1u);
    EXPECT_EQ(peer_bytes, s.station_bytes);
    EXPECT_EQ(st.rx.size(), s.peer_frames);
    EXPECT_EQ(st.tx_done, s.station_frames);
    EXPECT_GT(s.busy, sc_time(0.99, SC_SEC));
}

TEST(AirLink, PeerFramesReleasedAtTheirTimeAndHeldByBackpressure) {
    air_link l("l", no_beacons());
    station st("st");
    st.capacity = 2500; // two 1000-byte frames fit
    l.attach_station(st);
    for (int i = 0; i < 3; ++i)
        l.peer_send(std::vector<uint8_t>(1000, uint8_t(i)), sc_time(1 + i, SC_MS));
    sc_core::sc_start(sc_time(10, SC_MS));
    ASSERT_EQ(st.rx.size(), 2u);
    EXPECT_EQ(st.rx[0].t_start, sc_time(1, SC_MS));
    EXPECT_EQ(st.rx[1].t_start, sc_time(2, SC_MS));
    EXPECT_EQ(l.peer_queue_depth(), 1u);
    EXPECT_EQ(l.stats().peer_frames_lost, 0u);
    st.used = 0; // station drains its buffer
    l.station_ready();
    sc_core::sc_start(sc_time(1, SC_MS));
    ASSERT_EQ(st.rx.size(), 3u);
    EXPECT_EQ(st.rx[2].t_start, sc_time(10, SC_MS));
    EXPECT_EQ(st.rx[2].bytes, std::vector<uint8_t>(1000, 2));
}

namespace {
// 100 TU, DTIM 3, 200-byte beacons at 1 Mbit/s behind a 192 us preamble: 1.792 ms on the air.
air_link_params ap_params() {
    air_link_params p;
    p.beacon_interval = sc_time(102.4, SC_MS);
    p.dtim_period = 3;
    p.beacon_bytes = 200;
    p.beacon_rate_bps = 1e6;
    p.beacon_preamble = sc_time(192, sc_core::SC_US);
    return p;
}
std::vector<air_frame> of_kind(const std::vector<air_frame>& rx, air_kind k) {
    std::vector<air_frame> out;
    for (const auto& f : rx)
        if (f.kind == k)
            out.push_back(f);
    return out;
}
std::vector<air_frame> beacons(const std::vector<air_frame>& rx) {
    return of_kind(rx, air_kind::beacon);
}
std::vector<air_frame> data_frames(const std::vector<air_frame>& rx) {
    return of_kind(rx, air_kind::data);
}
} // namespace

TEST(AirLinkAccessPoint, BeaconsAtEveryTbttWithEveryThirdADtim) {
    air_link l("l", ap_params());
    station st("st");
    l.attach_station(st);
    EXPECT_EQ(l.beacon_airtime(), sc_time(1792, sc_core::SC_US));
    sc_core::sc_start(sc_time(1, SC_SEC));
    const auto b = beacons(st.rx);
    ASSERT_EQ(b.size(), 9u); // TBTTs 102.4 ms ... 921.6 ms
    for (size_t i = 0; i < b.size(); ++i) {
        const uint64_t k = i + 1;
        EXPECT_EQ(b[i].t_start, sc_time(102.4 * double(k), SC_MS)) << k;
        EXPECT_EQ(b[i].t_end, b[i].t_start + sc_time(1792, sc_core::SC_US)) << k;
        EXPECT_EQ(b[i].dtim, k % 3 == 0) << k;
        EXPECT_FALSE(b[i].tim) << k; // the station is awake: nothing is buffered
    }
    EXPECT_EQ(l.stats().beacons, 9u);
    EXPECT_EQ(l.stats().dtim_beacons, 3u);
    EXPECT_EQ(l.next_beacon_at_or_after(sc_time(102.4, SC_MS)), 1u);
    EXPECT_EQ(l.next_beacon_at_or_after(sc_time(102.5, SC_MS)), 2u);
    EXPECT_EQ(l.next_beacon_at_or_after(sc_core::SC_ZERO_TIME), 1u);
}

TEST(AirLinkAccessPoint, BeaconWaitsForTheFrameOnTheAir) {
    air_link_params p = ap_params();
    p.phy_rate_bps = 1e6;
    p.mac_efficiency = 1.0; // 1000 bytes = 8 ms
    air_link l("l", p);
    station st("st");
    l.attach_station(st);
    l.peer_send(std::vector<uint8_t>(1000, 1), sc_time(100, SC_MS)); // on the air at the TBTT
    l.peer_send(std::vector<uint8_t>(1000, 2), sc_time(101, SC_MS)); // queued behind the beacon
    sc_core::sc_start(sc_time(150, SC_MS));
    ASSERT_EQ(st.rx.size(), 3u);
    EXPECT_EQ(st.rx[0].kind, air_kind::data);
    EXPECT_EQ(st.rx[1].kind, air_kind::beacon); // before the frame that waited: priority
    EXPECT_EQ(st.rx[1].t_start, sc_time(108, SC_MS));
    EXPECT_EQ(st.rx[2].t_start, sc_time(108, SC_MS) + l.beacon_airtime());
}

TEST(AirLinkAccessPoint, UnicastBufferedForADozingStationUntilItSendsPmZero) {
    air_link l("l", ap_params());
    station st("st");
    l.attach_station(st);
    // The station announces power save (null-data, PM=1) at 10 ms.
    sc_core::sc_start(sc_time(10, SC_MS));
    l.station_send(std::vector<uint8_t>(28, 0), air_kind::null_data, true);
    sc_core::sc_start(sc_time(1, SC_MS));
    EXPECT_TRUE(l.station_in_power_save());
    EXPECT_EQ(l.stats().station_null_frames, 1u);
    l.peer_send(std::vector<uint8_t>(500, 6), sc_time(50, SC_MS)); // 06:06:...: unicast
    sc_core::sc_start(sc_time(300, SC_MS));                        // to 311 ms: beacons 1, 2, 3
    ASSERT_TRUE(data_frames(st.rx).empty()) << "delivered to a station in power save";
    auto b = beacons(st.rx);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_TRUE(b[0].tim && b[1].tim && b[2].tim); // announced in every beacon's TIM
    // PM=0 at 311 ms: the AP sends the buffered frame as soon as it has the null frame.
    const sc_time t_null = sc_core::sc_time_stamp();
    l.station_send(std::vector<uint8_t>(28, 0), air_kind::null_data, false);
    sc_core::sc_start(sc_time(10, SC_MS));
    const auto d = data_frames(st.rx);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].t_start, t_null + l.airtime(28));
    EXPECT_FALSE(l.station_in_power_save());
}

TEST(AirLinkAccessPoint, GroupFramesHeldUntilTheNextDtimBeaconWithMoreData) {
    air_link l("l", ap_params());
    station st("st");
    l.attach_station(st);
    l.station_send(std::vector<uint8_t>(28, 0), air_kind::null_data, true);
    sc_core::sc_start(sc_time(1, SC_MS));
    std::vector<uint8_t> group(300, 0);
    group[0] = 0xff; // broadcast destination
    l.peer_send(group, sc_time(20, SC_MS));
    l.peer_send(group, sc_time(21, SC_MS));
    sc_core::sc_start(sc_time(400, SC_MS));
    const auto b = beacons(st.rx);
    ASSERT_GE(b.size(), 3u);
    EXPECT_FALSE(b[0].bcmc); // not a DTIM beacon
    EXPECT_FALSE(b[1].bcmc);
    EXPECT_TRUE(b[2].dtim && b[2].bcmc); // 307.2 ms
    const auto d = data_frames(st.rx);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].t_start, b[2].t_end); // right after the DTIM beacon
    EXPECT_TRUE(d[0].more_data);
    EXPECT_FALSE(d[1].more_data);
}

TEST(AirLinkAccessPoint, UnassociatedStationExchangesNoDataButHearsBeacons) {
    air_link_params p = ap_params();
    p.associated = false;
    air_link l("l", p);
    station st("st");
    l.attach_station(st);
    uint64_t at_peer = 0;
    l.set_peer_sink([&](const air_frame&) { ++at_peer; });
    l.peer_send(std::vector<uint8_t>(500, 2), sc_time(1, SC_MS));
    l.station_send(std::vector<uint8_t>(500, 4));
    sc_core::sc_start(sc_time(250, SC_MS));
    EXPECT_TRUE(data_frames(st.rx).empty());
    EXPECT_EQ(at_peer, 0u);
    EXPECT_EQ(l.stats().frames_unassociated, 2u);
    EXPECT_EQ(beacons(st.rx).size(), 2u);
}

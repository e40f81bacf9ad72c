// SPDX-License-Identifier: MIT
// Air link: airtime formula, half-duplex sharing, saturating sources in both directions,
// backpressure.
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

TEST(AirLink, BothDirectionsSaturateAndShareTheMedium) {
    air_link_params p;
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
    air_link l("l", {});
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

// SPDX-License-Identifier: MIT
// The WILC1000 firmware's 802.11 power save (models/wilc1000/wilc1000_station_ps.h) on the air
// link's access point: doze after the dynamic timeout, wake only for DTIM beacons, a buffered
// downlink frame never before the next DTIM beacon plus its retrieval, the radio woken for an
// uplink frame, and no doze without an association. Times are checked against schedules computed
// here from the beacon interval, DTIM period and airtimes.
#include <vector>

#include <gtest/gtest.h>

#include "tests/models/wilc1000_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
using wilc::ps_state;
using wilc::radio_state;

namespace {

air_link_params ap(unsigned dtim) {
    air_link_params p;
    p.beacon_interval = sc_time(102.4, SC_MS);
    p.dtim_period = dtim;
    return p;
}

// Radio meter transitions, in time order.
struct radio_log : wilc::power_observer {
    std::vector<std::pair<sc_time, radio_state>> changes;
    void on_power_state(sc_time, wilc::power_state) override {}
    void on_radio_state(sc_time t, radio_state s) override { changes.emplace_back(t, s); }
    // Times the radio entered `s` after `from`.
    std::vector<sc_time> entries(radio_state s, sc_time from) const {
        std::vector<sc_time> out;
        for (const auto& [t, r] : changes)
            if (r == s && t > from)
                out.push_back(t);
        return out;
    }
};

// The first DTIM beacon the station wakes for when it dozes at t.
uint64_t dtim_after(const air_link& l, sc_time t, sc_time wake_ahead) {
    uint64_t k = l.next_beacon_at_or_after(t + wake_ahead + sc_time::from_value(1));
    while (!l.is_dtim(k))
        ++k;
    return k;
}

// Boot with power save on and wait until the radio dozes (after the dynamic timeout).
bool boot_and_doze(wilc_bench& b) {
    if (!b.boot_with_ps())
        return false;
    wait(sc_time(450, SC_MS));
    return b.core().power_save().state() == ps_state::doze && b.air->station_in_power_save();
}

} // namespace

TEST(Wilc1000StationPs, DozesAfterTheDynamicTimeoutAndWakesOnlyForDtimBeacons) {
    wilc::params p;
    radio_log log;
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            b.chip.power().set_observer(&log);
            ASSERT_TRUE(b.boot_with_ps());
            const sc_time t_on = sc_core::sc_time_stamp();
            EXPECT_EQ(b.core().power_save().state(), ps_state::active);
            wait(sc_time(1200, SC_MS));
            const air_link& l = *b.air;
            // The first doze: one dynamic timeout after power save came on (during the reply
            // fetch that ended at t_on), plus the null-data frame (PM=1) on the air.
            const auto dozes = log.entries(radio_state::doze, t_on);
            ASSERT_FALSE(dozes.empty());
            const sc_time first = dozes.front();
            EXPECT_GE(first, t_on + p.ps_dynamic_timeout - sc_time(1, SC_MS));
            EXPECT_LE(first, t_on + p.ps_dynamic_timeout + l.airtime(28));
            // Every wake is ps_wake_ahead before a DTIM beacon (DTIM 3: every third TBTT), and
            // the radio dozes again when that beacon (TIM empty) has been received.
            const auto wakes = log.entries(radio_state::listen, first);
            uint64_t k = dtim_after(l, first, p.ps_wake_ahead);
            size_t n = 0;
            for (; l.tbtt(k) - p.ps_wake_ahead < sc_time(1200, SC_MS) + t_on; k += 3, ++n) {
                ASSERT_LT(n, wakes.size());
                EXPECT_EQ(wakes[n], l.tbtt(k) - p.ps_wake_ahead) << "beacon " << k;
                EXPECT_TRUE(l.is_dtim(k));
            }
            EXPECT_EQ(wakes.size(), n);
            EXPECT_GE(n, 3u);
            for (size_t i = 1; i < dozes.size(); ++i) {
                const uint64_t kb = dtim_after(l, first, p.ps_wake_ahead) + 3 * (i - 1);
                EXPECT_EQ(dozes[i], l.tbtt(kb) + l.beacon_airtime()) << "after beacon " << kb;
            }
            const auto& st = b.core().power_save().stats();
            EXPECT_EQ(st.beacon_wakeups, n);
            EXPECT_EQ(st.tim_wakeups, 0u);
            EXPECT_EQ(st.beacons_missed, 0u);
            EXPECT_TRUE(l.station_in_power_save());
            b.chip.power().set_observer(nullptr);
        },
        true, ap(3));
    sc_core::sc_start();
}

TEST(Wilc1000StationPs, BufferedDownlinkArrivesAfterTheNextDtimBeaconAndRetrievalNeverEarlier) {
    wilc::params p;
    p.wake_latency = sc_time(300, SC_US);
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            ASSERT_TRUE(boot_and_doze(b));
            air_link& l = *b.air;
            const sc_time t0 = sc_core::sc_time_stamp();
            const std::vector<uint8_t> frame(200, 0x42);
            l.peer_send(frame);
            // The AP buffers it; the station hears the TIM in the next DTIM beacon it wakes for,
            // sends null-data PM=0, and only then does the frame go on the air.
            const uint64_t k = dtim_after(l, t0 - p.ps_wake_ahead, p.ps_wake_ahead);
            const sc_time on_air = l.tbtt(k) + l.beacon_airtime() + l.airtime(28);
            const sc_time in_buffer = on_air + l.airtime(frame.size());
            ASSERT_TRUE(b.wait_irq(sc_time(1, sc_core::SC_SEC)));
            const sc_time t_irq = b.line.last_change();
            EXPECT_GE(t_irq, in_buffer);
            // ... plus the host interface's wake-up (chip sleep is on too) and irq_delay.
            EXPECT_LE(t_irq, in_buffer + p.wake_latency + p.irq_delay + sc_time(1, SC_US));
            const auto& st = b.core().power_save().stats();
            EXPECT_EQ(st.tim_wakeups, 1u);
            EXPECT_EQ(st.frames_missed, 0u);
            EXPECT_EQ(b.core().power_save().state(), ps_state::active);
            ASSERT_GE(b.host.wake(), 1); // the ISR wakes the (sleeping) host interface first
            const auto pkts = b.isr();
            ASSERT_EQ(pkts.size(), 1u);
        },
        true, ap(2));
    sc_core::sc_start();
}

TEST(Wilc1000StationPs, UplinkFrameWakesTheRadioAndLeavesPowerSave) {
    wilc::params p;
    p.ps_radio_wake_time = sc_time(1, SC_MS);
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            ASSERT_TRUE(boot_and_doze(b));
            air_link& l = *b.air;
            sc_time t_air;
            l.set_peer_sink([&](const air_frame& f) { t_air = f.t_start; });
            ASSERT_GE(b.host.wake(), 1); // chip sleep: the host wakes the interface first
            const sc_time t_before = sc_core::sc_time_stamp();
            ASSERT_EQ(b.send_tx({{false, std::vector<uint8_t>(100, 0x11)}}), 1);
            const sc_time t_after = sc_core::sc_time_stamp();
            b.host.allow_sleep();
            wait(sc_time(5, SC_MS));
            ASSERT_EQ(l.stats().station_frames, 1u);
            // Handed over while the radio dozed: on the air ps_radio_wake_time later.
            EXPECT_GE(t_air, t_before + p.ps_radio_wake_time);
            EXPECT_LE(t_air, t_after + p.ps_radio_wake_time);
            EXPECT_FALSE(l.station_in_power_save()); // the data frame carried PM=0
            EXPECT_EQ(b.core().power_save().state(), ps_state::active);
            EXPECT_EQ(b.core().power_save().stats().uplink_wakeups, 1u);
        },
        true, ap(2));
    sc_core::sc_start();
}

TEST(Wilc1000StationPs, NoDozeWithoutAnAssociation) {
    wilc::params p;
    air_link_params a = ap(1);
    a.associated = false;
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            ASSERT_TRUE(b.boot_with_ps());
            wait(sc_time(1, sc_core::SC_SEC));
            const sc_time now = sc_core::sc_time_stamp();
            EXPECT_EQ(b.core().power_save().state(), ps_state::off);
            EXPECT_EQ(b.chip.power().time_in(radio_state::doze, now), sc_core::SC_ZERO_TIME);
            EXPECT_FALSE(b.air->station_in_power_save());
            // The host interface still sleeps: chip sleep does not need an association. (The
            // listening radio hears the AP's beacons; each keeps the chip awake for its
            // reception and sleep_entry_delay after it.)
            EXPECT_GT(b.chip.power().time_in(wilc::host_if_state::sleep, now), sc_time(800, SC_MS));
        },
        true, a);
    sc_core::sc_start();
}

TEST(Wilc1000StationPs, FrameSentToADozingRadioIsLostAndCounted) {
    wilc::params p;
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            ASSERT_TRUE(boot_and_doze(b));
            air_link& l = *b.air;
            // The AP's view goes out of step (as when link_down loses the PM=1 frame): a PM=0
            // frame the firmware did not send makes it deliver while the radio dozes.
            l.station_send(std::vector<uint8_t>(28, 0), air_kind::null_data, false);
            wait(sc_time(1, SC_MS));
            ASSERT_FALSE(l.station_in_power_save());
            l.peer_send(std::vector<uint8_t>(200, 0x42));
            wait(sc_time(1, SC_MS));
            EXPECT_EQ(b.core().power_save().stats().frames_missed, 1u);
            const auto& cs = b.core().stats();
            EXPECT_EQ(cs.rx_frames_dropped, 1u);
            EXPECT_GE(cs.rx_frames_from_air, cs.rx_frames_dropped); // frames_rx cannot underflow
            EXPECT_FALSE(b.core().int0_pending());                  // nothing reached the host
        },
        true, ap(2));
    sc_core::sc_start();
}

// params::ps_wake = listen_interval: the station wakes for every listen-interval-th beacon (the
// WID_LISTEN_INTERVAL the host set, 3 here), DTIM or not, and sleeps through the other DTIMs.
TEST(Wilc1000StationPs, ListenIntervalPolicyWakesEveryThirdBeaconWhateverTheDtimPeriod) {
    wilc::params p;
    p.ps_wake = wilc::params::ps_wake_policy::listen_interval;
    radio_log log;
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            b.chip.power().set_observer(&log);
            ASSERT_TRUE(b.boot_with_ps(3));
            const sc_time t_on = sc_core::sc_time_stamp();
            EXPECT_EQ(b.core().power_save().listen_interval(), 3u);
            wait(sc_time(1500, SC_MS));
            const air_link& l = *b.air;
            const auto dozes = log.entries(radio_state::doze, t_on);
            ASSERT_FALSE(dozes.empty());
            const auto wakes = log.entries(radio_state::listen, dozes.front());
            uint64_t k =
                l.next_beacon_at_or_after(dozes.front() + p.ps_wake_ahead + sc_time::from_value(1));
            while (k % 3)
                ++k;
            size_t n = 0, not_dtim = 0;
            for (; l.tbtt(k) - p.ps_wake_ahead < sc_time(1500, SC_MS) + t_on; k += 3, ++n) {
                ASSERT_LT(n, wakes.size());
                EXPECT_EQ(wakes[n], l.tbtt(k) - p.ps_wake_ahead) << "beacon " << k;
                not_dtim += !l.is_dtim(k);
            }
            EXPECT_EQ(wakes.size(), n);
            EXPECT_GE(n, 3u);
            EXPECT_GE(not_dtim, 1u); // DTIM period 2: the odd multiples of 3 are no DTIM beacons
            EXPECT_EQ(b.core().power_save().stats().beacon_wakeups, n);
            b.chip.power().set_observer(nullptr);
        },
        true, ap(2));
    sc_core::sc_start();
}

// ... so a group frame the AP releases after a DTIM beacon the station sleeps through is lost,
// while the default (dtim) policy receives it. Returns frames_missed (one bench per test: a
// SystemC simulation elaborates once).
namespace {
uint64_t group_frame_after_a_dtim_no_multiple_of_3(wilc::params::ps_wake_policy policy) {
    wilc::params p;
    p.ps_wake = policy;
    uint64_t missed = ~0ull;
    wilc_bench b(
        p,
        [&](wilc_bench& b) {
            ASSERT_TRUE(b.boot_with_ps(3));
            wait(sc_time(450, SC_MS));
            ASSERT_EQ(b.core().power_save().state(), ps_state::doze);
            air_link& l = *b.air;
            // A broadcast frame the AP holds until the next DTIM beacon, sent just after the
            // beacon before a DTIM that is no multiple of 3 (DTIM period 2: beacons 2, 4, 8, ...).
            uint64_t k =
                l.next_beacon_at_or_after(sc_core::sc_time_stamp() + sc_time::from_value(1));
            while (!l.is_dtim(k) || k % 3 == 0)
                ++k;
            wait(l.tbtt(k - 1) - sc_core::sc_time_stamp() + sc_time(1, SC_MS));
            std::vector<uint8_t> bcast(200, 0x42);
            bcast[0] = 0xff; // group-addressed destination
            l.peer_send(bcast);
            wait(l.tbtt(k) + sc_time(50, SC_MS) - sc_core::sc_time_stamp());
            missed = b.core().power_save().stats().frames_missed;
        },
        true, ap(2));
    sc_core::sc_start();
    return missed;
}
} // namespace

TEST(Wilc1000StationPs, DtimPolicyReceivesTheGroupFramesOfEveryDtim) {
    EXPECT_EQ(group_frame_after_a_dtim_no_multiple_of_3(wilc::params::ps_wake_policy::dtim), 0u);
}

TEST(Wilc1000StationPs, ListenIntervalPolicyMissesGroupFramesOfSkippedDtims) {
    EXPECT_EQ(
        group_frame_after_a_dtim_no_multiple_of_3(wilc::params::ps_wake_policy::listen_interval),
        1u);
}

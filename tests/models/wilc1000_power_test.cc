// SPDX-License-Identifier: MIT
// WILC1000 power state machine: sleep entry after the firmware PS WID, CLK_STATUS polls during
// the wake latency, internal wake for RX, and the two energy meters (radio, host interface).
#include <memory>

#include <gtest/gtest.h>

#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/models/wilc1000_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
using wilc::host_if_state;
using wilc::power_state;
using wilc::radio_state;

TEST(Wilc1000Power, ClkStatusReadsZeroUntilExactlyWakeLatency) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(300, SC_US);
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot_with_ps());
        wait(sc_time(1, SC_MS));
        EXPECT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::asleep);
        uint32_t v = 1;
        ASSERT_TRUE(b.host.read(0x0f, v));
        EXPECT_EQ(v, 0u);
        // A clocked access while the clock is off: error status + finding.
        EXPECT_FALSE(b.host.read(wilc::regmap::CHIPID, v));
        EXPECT_EQ(b.host.error, "status 5");
        EXPECT_EQ(b.core().findings().count(wilc::finding_kind::clock_off_access), 1u);

        // chip_wakeup(): HOST_TO_FW, WAKEUP, then CLK_STATUS polls without delay.
        ASSERT_TRUE(b.host.write(0x0b, 1));
        ASSERT_TRUE(b.host.write(0x01, 2));
        const sc_time ready = b.cmd_time(2) + sc_time(300, SC_US); // INTERNAL_WRITE + 2 B
        const sc_time poll = sc_time(8.0 * 19 / 48e6, sc_core::SC_SEC) + b.host.gap;
        int zeros = 0;
        sc_time t_ok;
        for (int i = 0; i < 10000; ++i) {
            ASSERT_TRUE(b.host.read(0x0f, v));
            const sc_time t = b.cmd_time(15); // the chip samples CLK_STATUS after the command
            if (v & 4) {
                t_ok = t;
                break;
            }
            EXPECT_LT(t, ready);
            ++zeros;
        }
        EXPECT_GE(t_ok, ready);
        // The first successful poll is the first one sampled at or after the ready time, so the
        // latency costs ceil(300 us / poll period) polls that read 0.
        EXPECT_LT(t_ok - ready, poll);
        EXPECT_NEAR(zeros, sc_time(300, SC_US) / poll, 1.0);
        EXPECT_EQ(b.chip.power().wakeups(), 1u);
        ASSERT_TRUE(b.host.reset());
        ASSERT_TRUE(b.host.read(wilc::regmap::CHIPID, v));

        // Held awake while WAKEUP is set; allow_sleep lets it go again after the entry delay.
        wait(sc_time(1, SC_MS));
        EXPECT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::awake);
        b.host.allow_sleep();
        const sc_time t_allow = b.last_frame_end();
        EXPECT_EQ(b.chip.power().state(t_allow), power_state::sleep_pending);
        EXPECT_EQ(b.chip.power().state(t_allow + sc_time(100, SC_US)), power_state::asleep);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Power, WakeUpWithinEntryDelayCostsNoLatency) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(500, SC_US);
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot_with_ps());
        EXPECT_EQ(b.host.wake(), 1); // still in sleep_pending: the clock never stopped
        b.host.allow_sleep();
        EXPECT_EQ(b.host.wake(), 1);
        EXPECT_EQ(b.chip.power().wakeups(), 0u);
        EXPECT_EQ(b.chip.power().host_wake_requests(), 2u);
        // Both requests found the clock running and cost one CLK_STATUS read, no start-up.
        const auto w = b.chip.power().wakes();
        EXPECT_EQ(w.found_running, 2u);
        EXPECT_EQ(w.found_asleep + w.found_waking, 0u);
        EXPECT_EQ(w.polls[wilc::wake_stats::bucket(1)], 2u);
        EXPECT_EQ(b.chip.power().waking_time(sc_core::sc_time_stamp()), sc_core::SC_ZERO_TIME);
    });
    sc_core::sc_start();
}

// The firmware finishes what it holds before it gates its clock: a frame still on the air
// keeps the host interface awake after the host allowed sleep, and the idle time is counted
// from the end of that frame.
TEST(Wilc1000Power, FirmwareDoesNotSleepWithTxFramesInFlight) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(10, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    air_link_params ap;
    ap.phy_rate_bps = 6e6; // a slow rate: the frame is on the air for about 2 ms
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot_with_ps());
            ASSERT_GE(b.host.wake(), 1);
            const auto& bss = b.air->params().bss.bssid;
            ASSERT_EQ(b.send_tx({{false, std::vector<uint8_t>(1500, 0x5a), 2}}, bss.data()), 1);
            b.host.allow_sleep(); // sleep_entry_delay (10 us) is far shorter than the frame
            const sc_time on_air = b.air->airtime(1500);
            ASSERT_GT(on_air, sc_time(1, SC_MS));
            wait(on_air / 2);
            EXPECT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::awake)
                << "the chip gated its clock with a frame on the air";
            // Once the frame is out (after the radio left doze, at most ps_radio_wake_time), the
            // chip sleeps.
            wait(on_air + sc_time(2, SC_MS));
            EXPECT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::asleep);
        },
        true, ap);
    sc_core::sc_start();
}

// The firmware counts its idle time from the host's last access, so a host that keeps talking
// to an idle chip keeps it awake (the pre-5.17 driver relied on it: it only pulsed WAKEUP).
TEST(Wilc1000Power, HostAccessRestartsTheIdleTimeBeforeSleep) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    wilc::power_model pm(p);
    auto us = [](double v) { return sc_time(v, SC_US); };
    pm.set_ps_enabled(us(0), true); // no hold: idle from here
    EXPECT_EQ(pm.state(us(50)), power_state::sleep_pending);
    pm.host_access(us(80));
    EXPECT_EQ(pm.state(us(170)), power_state::sleep_pending); // 90 us after the access
    EXPECT_EQ(pm.state(us(180)), power_state::asleep);        // 100 us after it
    pm.host_access(us(200)); // an access the chip could not decode: nothing restarts
    EXPECT_EQ(pm.state(us(200)), power_state::asleep);
}

// The wake statistics: what each WAKEUP 0 -> 1 found, how long the chip had slept, how many
// CLK_STATUS reads the host needed.
TEST(Wilc1000Power, WakeStatisticsRecordWhatEachRequestFound) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(300, SC_US);
    wilc::power_model pm(p);
    auto us = [](double v) { return sc_time(v, SC_US); };
    pm.set_ps_enabled(us(0), true); // asleep at 100 us
    pm.set_host_bits(us(1000), true, true); // asleep for 900 us: bucket [512, 1024)
    pm.clk_status_read(us(1010), false);
    pm.clk_status_read(us(1200), false);
    pm.clk_status_read(us(1300), true); // ready at 1300: three reads
    pm.clk_status_read(us(1310), true); // not part of a wake-up
    pm.set_host_bits(us(1400), false, false);
    pm.set_host_bits(us(1450), true, true); // sleep_pending: the clock still runs
    pm.clk_status_read(us(1451), true);
    pm.set_host_bits(us(1500), false, false);
    pm.set_host_bits(us(1550), true, true); // no poll before the next request
    const auto w = pm.wakes();
    EXPECT_EQ(w.requests, 3u);
    EXPECT_EQ(w.found_asleep, 1u);
    EXPECT_EQ(w.found_running, 2u);
    EXPECT_EQ(w.asleep_us[wilc::wake_stats::bucket(900)], 1u);
    EXPECT_EQ(wilc::wake_stats::bucket(900), 10u); // [2^9, 2^10)
    EXPECT_EQ(w.polls[wilc::wake_stats::bucket(3)], 1u);
    EXPECT_EQ(w.polls[wilc::wake_stats::bucket(1)], 1u);
    EXPECT_EQ(w.polls[0], 1u); // the last request, still open, with no read yet
    uint64_t in_polls = 0; // every request is in the polls histogram once
    for (uint64_t n : w.polls)
        in_polls += n;
    EXPECT_EQ(in_polls, w.requests);
    EXPECT_EQ(pm.wakeups(), 1u);
}

TEST(Wilc1000Power, StuckClockStatusMakesWakeUpFail) {
    wilc::params p;
    p.fault_clk_status_stuck = true;
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(b.boot_with_ps());
        EXPECT_EQ(b.host.wake(50), -1);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Power, RxFrameInBufferWakesTheChipBeforeTheInterrupt) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    p.irq_delay = sc_time(2, SC_US);
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(b.boot_with_ps());
            wait(sc_time(1, SC_MS));
            ASSERT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::asleep);
            const sc_time t0 = sc_core::sc_time_stamp();
            b.air->peer_send(std::vector<uint8_t>(200, 0x42));
            ASSERT_TRUE(b.wait_irq(sc_time(10, SC_MS)));
            // Receiving is firmware work: it wakes the chip as the frame starts (t0), and the
            // clock is ready wake_latency later. The frame is complete and the interrupt due
            // before that, so the edge waits for the clock: exactly t0 + wake_latency.
            ASSERT_LT(b.air->airtime(200) + sc_time(2, SC_US), sc_time(500, SC_US));
            EXPECT_EQ(b.line.last_change(), t0 + sc_time(500, SC_US));
            EXPECT_EQ(b.chip.power().wakeups(), 1u);
        },
        true);
    sc_core::sc_start();
}

TEST(Wilc1000Energy, KnownScheduleGivesSumOfIVdtPerMeter) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    p.radio_tx_current_a = 0.250;
    p.radio_rx_current_a = 0.090;
    p.radio_listen_current_a = 0.080;
    p.radio_doze_current_a = 0.002;
    p.radio_off_current_a = 0.0001;
    p.host_if_awake_current_a = 0.004;
    p.host_if_sleep_current_a = 0.001;
    p.host_if_waking_current_a = 0.003;
    p.supply_voltage_v = 3.3;
    wilc::power_model pm(p);
    auto us = [](double v) { return sc_time(v, SC_US); };
    pm.set_radio_on(us(50), true);          // radio off 0..50, then listening
    pm.set_ps_enabled(us(50), true);        // host interface awake 0..150, then asleep
    pm.set_host_bits(us(1000), true, true); // asleep 150..1000, waking 1000..1500
    EXPECT_FALSE(pm.clock_ready(us(1499)));
    EXPECT_TRUE(pm.clock_ready(us(1500)));
    pm.set_radio(us(2000), true, false); // tx 2000..2500
    pm.set_radio(us(2500), false, false);
    pm.set_radio(us(2600), false, true); // rx 2600..2700
    pm.set_radio(us(2700), false, false);
    pm.set_radio_on(us(2900), false); // CPU halted: off 2900..3000
    const sc_time end = us(3000);
    EXPECT_EQ(pm.time_in(radio_state::off, end), us(50 + 100));
    EXPECT_EQ(pm.time_in(radio_state::tx, end), us(500));
    EXPECT_EQ(pm.time_in(radio_state::rx, end), us(100));
    EXPECT_EQ(pm.time_in(radio_state::listen, end), us(1950 + 100 + 200));
    EXPECT_EQ(pm.time_in(radio_state::doze, end), us(0)); // 802.11 power save: not modelled
    EXPECT_EQ(pm.time_in(host_if_state::awake, end), us(150 + 1500));
    EXPECT_EQ(pm.time_in(host_if_state::sleep, end), us(850));
    EXPECT_EQ(pm.time_in(host_if_state::waking, end), us(500));
    const double radio =
        3.3 * (0.0001 * 150e-6 + 0.250 * 500e-6 + 0.090 * 100e-6 + 0.080 * 2250e-6);
    const double host_if = 3.3 * (0.004 * 1650e-6 + 0.001 * 850e-6 + 0.003 * 500e-6);
    EXPECT_NEAR(pm.radio(end).energy_j(end), radio, 1e-12);
    EXPECT_NEAR(pm.host_if(end).energy_j(end), host_if, 1e-12);
    EXPECT_NEAR(pm.energy_j(end), radio + host_if, 1e-12);
    // Each meter covers the whole run exactly once.
    for (const auto* m : {&pm.radio(end), &pm.host_if(end)}) {
        sc_time sum;
        for (size_t s = 0; s < m->size(); ++s)
            sum += m->time_in(s, end);
        EXPECT_EQ(sum, end) << m->name();
    }
    EXPECT_EQ(pm.wakeups(), 1u);
    EXPECT_EQ(pm.host_wake_requests(), 1u);
}

TEST(Wilc1000Energy, HostInterfaceMeterFollowsThePowerStateMachine) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    wilc::power_model pm(p);
    auto us = [](double v) { return sc_time(v, SC_US); };
    const auto expect_at = [&](double t, power_state ps, host_if_state hs) {
        EXPECT_EQ(pm.state(us(t)), ps) << t << " us";
        EXPECT_EQ(pm.host_if(us(t)).state(), size_t(hs)) << t << " us";
    };
    pm.set_radio_on(us(0), true);
    pm.set_ps_enabled(us(0), true);
    expect_at(50, power_state::sleep_pending, host_if_state::awake); // the clock still runs
    expect_at(200, power_state::asleep, host_if_state::sleep);
    pm.set_host_bits(us(1000), true, false);
    expect_at(1200, power_state::waking, host_if_state::waking);
    expect_at(1600, power_state::awake, host_if_state::awake);
    EXPECT_EQ(pm.time_in(host_if_state::sleep, us(1600)), us(900));
    EXPECT_EQ(pm.time_in(host_if_state::waking, us(1600)), us(500));
    EXPECT_EQ(pm.waking_time(us(1600)), us(500));
}

// Chip sleep gates the host interface only: the radio keeps listening while the interface
// sleeps, so only the host-interface meter changes with it.
TEST(Wilc1000Energy, HostInterfaceSleepLeavesTheRadioListening) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(10, SC_US);
    p.wake_latency = sc_time(300, SC_US);
    auto us = [](double v) { return sc_time(v, SC_US); };
    const auto run = [&](bool ps) {
        auto pm = std::make_unique<wilc::power_model>(p);
        pm->set_radio_on(us(0), true);
        pm->set_ps_enabled(us(0), ps);
        for (int i = 1; i <= 10; ++i) { // a trickle: one host access per ms
            pm->set_host_bits(us(1000 * i), true, true);
            pm->set_host_bits(pm->ready_time(us(1000 * i)) + us(50), false, false);
        }
        return pm;
    };
    const sc_time end = us(12000);
    auto off = run(false), on = run(true);
    EXPECT_EQ(off->time_in(host_if_state::sleep, end), sc_core::SC_ZERO_TIME);
    EXPECT_GT(on->time_in(host_if_state::sleep, end), us(5000));
    EXPECT_EQ(on->time_in(host_if_state::waking, end), us(10 * 300));
    EXPECT_EQ(on->wakeups(), 10u);
    for (auto* pm : {off.get(), on.get()}) {
        EXPECT_EQ(pm->time_in(radio_state::listen, end), end);
        EXPECT_EQ(pm->time_in(radio_state::off, end), sc_core::SC_ZERO_TIME);
        EXPECT_EQ(pm->time_in(radio_state::doze, end), sc_core::SC_ZERO_TIME);
    }
    EXPECT_DOUBLE_EQ(on->radio(end).energy_j(end), off->radio(end).energy_j(end));
    // With the shipped currents the whole chip differs by the host interface's small share.
    const double e_off = off->energy_j(end), e_on = on->energy_j(end);
    EXPECT_LT(e_on, e_off);
    EXPECT_LT((e_off - e_on) / e_off, 0.02);
}

TEST(Wilc1000Energy, DeepSleepUsesItsOwnWakeLatency) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(0, SC_US);
    p.wake_latency = sc_time(100, SC_US);
    p.deep_sleep_after = sc_time(10, SC_MS);
    p.deep_wake_latency = sc_time(2, SC_MS);
    wilc::power_model pm(p);
    pm.set_ps_enabled(sc_time(0, SC_US), true);
    pm.set_host_bits(sc_time(5, SC_MS), true, false); // light sleep
    EXPECT_EQ(pm.ready_time(sc_time(5, SC_MS)), sc_time(5.1, SC_MS));
    pm.set_host_bits(sc_time(6, SC_MS), false, false); // asleep again at 6 ms
    pm.set_host_bits(sc_time(20, SC_MS), true, false); // 14 ms asleep: deep
    EXPECT_EQ(pm.ready_time(sc_time(20, SC_MS)), sc_time(22, SC_MS));
    EXPECT_EQ(pm.wakeups(), 2u);
}

// SPDX-License-Identifier: MIT
// WILC1000 power state machine: sleep entry after the firmware PS WID, CLK_STATUS polls during
// the wake latency, internal wake for RX, and the energy meter on a known schedule.
#include <gtest/gtest.h>

#include "models/wilc1000/wilc1000_regmap.h"
#include "tests/models/wilc1000_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
using wilc::energy_state;
using wilc::power_state;

namespace {
// Boot and switch firmware power save on ('W' WID_POWER_MANAGEMENT = 1), consuming the 'R'.
bool boot_with_ps(wilc_bench& b) {
    if (!b.boot())
        return false;
    auto w = wilc_bench::cfg_frame('W', 1, {0x0b, 0x00, 1, 0, 1});
    if (b.send_tx({{true, w}}) != 1 || !b.wait_irq(sc_time(100, SC_MS)))
        return false;
    return b.isr().size() == 1;
}
} // namespace

TEST(Wilc1000Power, ClkStatusReadsZeroUntilExactlyWakeLatency) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(300, SC_US);
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(boot_with_ps(b));
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
        ASSERT_TRUE(boot_with_ps(b));
        EXPECT_EQ(b.host.wake(), 1); // still in sleep_pending: the clock never stopped
        b.host.allow_sleep();
        EXPECT_EQ(b.host.wake(), 1);
        EXPECT_EQ(b.chip.power().wakeups(), 0u);
        EXPECT_EQ(b.chip.power().host_wake_requests(), 2u);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Power, StuckClockStatusMakesWakeUpFail) {
    wilc::params p;
    p.fault_clk_status_stuck = true;
    wilc_bench b(p, [](wilc_bench& b) {
        ASSERT_TRUE(boot_with_ps(b));
        EXPECT_EQ(b.host.wake(50), -1);
    });
    sc_core::sc_start();
}

TEST(Wilc1000Power, RxFrameInBufferWakesTheChipBeforeTheInterrupt) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    p.irq_delay = sc_time(2, SC_US);
    p.awake_while_rx_pending = true; // RX waiting for the host wakes the chip by itself
    wilc_bench b(
        p,
        [](wilc_bench& b) {
            ASSERT_TRUE(boot_with_ps(b));
            wait(sc_time(1, SC_MS));
            ASSERT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), power_state::asleep);
            const sc_time t0 = sc_core::sc_time_stamp();
            b.air->peer_send(std::vector<uint8_t>(200, 0x42));
            ASSERT_TRUE(b.wait_irq(sc_time(10, SC_MS)));
            // Receiving needs only the radio (air work does not wake the host interface,
            // params::air_work_keeps_host_if_awake); the complete frame in the buffer is host
            // work and wakes the chip at t0 + airtime. The clock is ready 500 us later, after
            // irq_delay, so the edge comes exactly at t0 + airtime + wake_latency.
            ASSERT_LT(sc_time(2, SC_US), sc_time(500, SC_US));
            EXPECT_EQ(b.line.last_change(), t0 + b.air->airtime(200) + sc_time(500, SC_US));
            EXPECT_EQ(b.chip.power().wakeups(), 1u);
        },
        true);
    sc_core::sc_start();
}

TEST(Wilc1000Energy, KnownScheduleGivesSumOfIVdt) {
    wilc::params p;
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(500, SC_US);
    p.sleep_current_a = 0.001;
    p.idle_current_a = 0.080;
    p.wakeup_current_a = 0.050;
    p.rx_current_a = 0.090;
    p.tx_current_a = 0.250;
    p.supply_voltage_v = 3.3;
    wilc::power_model pm(p);
    auto us = [](double v) { return sc_time(v, SC_US); };
    pm.set_ps_enabled(us(0), true);         // idle 0..100, then asleep
    pm.set_host_bits(us(1000), true, true); // asleep 100..1000, waking 1000..1500
    EXPECT_FALSE(pm.clock_ready(us(1499)));
    EXPECT_TRUE(pm.clock_ready(us(1500)));
    pm.set_radio(us(2000), true, false); // tx 2000..2500
    pm.set_radio(us(2500), false, false);
    pm.set_radio(us(2600), false, true); // rx 2600..2700
    pm.set_radio(us(2700), false, false);
    const sc_time end = us(3000);
    EXPECT_EQ(pm.time_in(energy_state::sleep, end), us(900));
    EXPECT_EQ(pm.time_in(energy_state::wakeup, end), us(500));
    EXPECT_EQ(pm.time_in(energy_state::tx, end), us(500));
    EXPECT_EQ(pm.time_in(energy_state::rx, end), us(100));
    EXPECT_EQ(pm.time_in(energy_state::idle, end), us(100 + 500 + 100 + 300));
    const double e =
        3.3 * (0.001 * 900e-6 + 0.050 * 500e-6 + 0.250 * 500e-6 + 0.090 * 100e-6 + 0.080 * 1000e-6);
    EXPECT_NEAR(pm.energy_j(end), e, 1e-12);
    EXPECT_EQ(pm.wakeups(), 1u);
    EXPECT_EQ(pm.host_wake_requests(), 1u);
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

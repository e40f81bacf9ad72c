// SPDX-License-Identifier: MIT
// KS8851 power meter (models/ks8851/ks8851_power.h): PMECR.PM writes switch the metered state at
// the write's time, the PHY's link and wire activity split normal mode into link_down / idle /
// active, the time per state sums to the run time, energy is Σ I·V·t when the currents are set
// and not modelled (nullopt, never 0) when they are not.
#include <algorithm>
#include <optional>

#include <gtest/gtest.h>

#include "tests/models/ks8851_bench.h"

using namespace nicsim;
using namespace nicsim::test;
using ks::pm_mode;
using ks::power_state;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

sc_time us(double v) {
    return sc_time(v, SC_US);
}

const power_state all_states[] = {power_state::active,          power_state::idle,
                                  power_state::link_down,       power_state::energy_detect,
                                  power_state::soft_power_down, power_state::power_saving};

sc_time total(const ks::power_model& pm, sc_time t) {
    sc_time s;
    for (auto st : all_states)
        s += pm.time_in(st, t);
    return s;
}

} // namespace

// Hand-timed inputs: each interval is charged to the state that held over it, and the mode
// (not the PHY) decides the state outside normal mode.
TEST(Ks8851Power, StateFollowsModeLinkAndWire) {
    ks::power_model pm(ks::params{});
    EXPECT_EQ(pm.state(), power_state::link_down); // no wire yet
    pm.set_link(us(0), true);
    EXPECT_EQ(pm.state(), power_state::idle);
    pm.set_wire_busy(us(10), false, true); // RX 10..30
    pm.set_wire_busy(us(20), true, true);  // TX 20..40 (full duplex: overlaps)
    pm.set_wire_busy(us(30), false, false);
    EXPECT_EQ(pm.state(), power_state::active);
    pm.set_wire_busy(us(40), true, false);
    EXPECT_EQ(pm.state(), power_state::idle);
    pm.set_mode(us(50), pm_mode::soft_power_down);
    pm.set_link(us(60), false); // the mode, not the link, decides
    EXPECT_EQ(pm.state(), power_state::soft_power_down);
    pm.set_mode(us(70), pm_mode::normal);
    EXPECT_EQ(pm.state(), power_state::link_down);
    pm.set_link(us(80), true);
    pm.set_mode(us(90), pm_mode::energy_detect);
    pm.set_mode(us(95), pm_mode::power_saving);
    const sc_time end = us(100);
    EXPECT_EQ(pm.time_in(power_state::active, end), us(30));
    EXPECT_EQ(pm.time_in(power_state::idle, end), us(10 + 10 + 10));
    EXPECT_EQ(pm.time_in(power_state::soft_power_down, end), us(20));
    EXPECT_EQ(pm.time_in(power_state::link_down, end), us(10));
    EXPECT_EQ(pm.time_in(power_state::energy_detect, end), us(5));
    EXPECT_EQ(pm.time_in(power_state::power_saving, end), us(5)); // open interval included
    EXPECT_EQ(total(pm, end), end);
    EXPECT_EQ(pm.mode_changes(), 4u);
}

// With currents set, energy = Σ I·V·t per state; with none (the default: no sourced figure)
// the meter still has the times but its energy is not modelled: nullopt, never 0.
TEST(Ks8851Power, EnergyIsSumOfCurrentTimesVoltageTimesTimeOrNotModelled) {
    ks::params p;
    EXPECT_EQ(p.supply_voltage_v, 3.3);
    {
        ks::power_model pm(p);
        pm.set_link(us(0), true);
        pm.set_wire_busy(us(100), true, true);
        pm.set_wire_busy(us(400), true, false);
        EXPECT_EQ(pm.time_in(power_state::active, us(1000)), us(300));
        EXPECT_FALSE(pm.energy_j(us(1000)).has_value());
        for (std::size_t s = 0; s < pm.meter().size(); ++s) {
            EXPECT_FALSE(pm.meter().current_a(s).has_value()) << pm.meter().state_name(s);
            EXPECT_FALSE(pm.meter().known_energy_j(s, us(1000)).has_value());
        }
        EXPECT_THROW((void)pm.meter().energy_j(us(1000)), std::logic_error);
    }
    p.active_current_a = 0.080;
    p.idle_current_a = 0.050;
    p.soft_power_down_current_a = 0.002;
    {
        ks::power_model pm(p);
        pm.set_link(us(0), true);
        pm.set_wire_busy(us(100), false, true);
        pm.set_wire_busy(us(400), false, false);
        pm.set_mode(us(600), pm_mode::soft_power_down);
        const sc_time end = us(1000);
        // link_down / energy_detect / power_saving have no current but were never entered.
        const auto e = pm.energy_j(end);
        ASSERT_TRUE(e.has_value());
        const double want = 0.080 * 3.3 * 300e-6 + 0.050 * 3.3 * 300e-6 + 0.002 * 3.3 * 400e-6;
        EXPECT_NEAR(*e, want, 1e-15);
        // A state without a current has no energy of its own, even with no time in it.
        EXPECT_FALSE(
            pm.meter().known_energy_j(static_cast<std::size_t>(power_state::link_down), end));
        // Time in a state without a current makes the whole meter's energy unknown.
        pm.set_mode(end, pm_mode::energy_detect);
        EXPECT_TRUE(pm.energy_j(end).has_value()); // no time in it yet
        EXPECT_FALSE(pm.energy_j(end + us(1)).has_value());
    }
}

// Through the register: a PMECR write (SPI) switches the state at the time the chip sees the
// write; the other PMECR bits (the driver's WKEVT writes) leave the mode alone; a global soft
// reset returns PMECR, and so the mode, to normal. Time per state sums to the run time.
TEST(Ks8851Power, PmecrWritesSwitchTheMeteredStateAtTheWriteTime) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        const auto& pm = b.core().power();
        EXPECT_EQ(pm.state(), power_state::idle); // wire link up from t = 0, PMECR = 0
        // The write reaches the chip when its frame ends, `gap` before wr16 returns.
        const auto write = [&](uint16_t v) {
            h.wr16(ks::reg::PMECR, v);
            return sc_core::sc_time_stamp() - h.gap;
        };
        wait(us(10));
        const sc_time t1 = write(0x0001); // energy-detect
        EXPECT_EQ(pm.mode(), pm_mode::energy_detect);
        wait(us(20));
        const sc_time t2 = write(0x0002); // soft power-down
        wait(us(30));
        const sc_time t3 = write(0x0003); // power-saving
        wait(us(40));
        const sc_time t4 = write(0x0008); // normal | WKEVT = link (the driver's LDI write)
        EXPECT_EQ(pm.mode(), pm_mode::normal);
        EXPECT_EQ(h.rd16(ks::reg::PMECR), 0x0008);
        wait(us(5));
        write(0x0004); // WKEVT only: still normal, no mode change
        EXPECT_EQ(pm.mode_changes(), 4u);
        wait(us(50));
        const sc_time t5 = write(0x0002);
        h.wr16(ks::reg::GRR, ks::GRR_GSR); // global soft reset: PMECR back to 0
        const sc_time t6 = sc_core::sc_time_stamp() - h.gap;
        EXPECT_EQ(pm.mode(), pm_mode::normal);
        EXPECT_EQ(h.rd16(ks::reg::PMECR), 0);
        wait(us(7));
        const sc_time end = sc_core::sc_time_stamp();
        EXPECT_EQ(pm.time_in(power_state::energy_detect, end), t2 - t1);
        EXPECT_EQ(pm.time_in(power_state::soft_power_down, end), (t3 - t2) + (t6 - t5));
        EXPECT_EQ(pm.time_in(power_state::power_saving, end), t4 - t3);
        EXPECT_EQ(pm.time_in(power_state::idle, end), t1 + (t5 - t4) + (end - t6));
        EXPECT_EQ(pm.time_in(power_state::active, end), sc_core::SC_ZERO_TIME);
        EXPECT_EQ(total(pm, end), end);
        EXPECT_FALSE(pm.energy_j(end).has_value()); // no currents by default
    });
}

// Frames on the wire in either direction make normal mode active for exactly their wire time
// (the union of the two directions); link down is its own state.
TEST(Ks8851Power, WireActivityAndLinkDownInNormalMode) {
    ks_bench::start(spi_params(), [](ks_bench& b) {
        auto& h = *b.spi;
        h.open(0xE302);
        h.set_mac(ks_mac);
        const auto& pm = b.core().power();
        const uint8_t dst[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
        h.tx(ks_make_frame(dst, 1514), false); // on the wire < 1 us after METFE, for 122.08 us
        // Peer frame 10 us later: 1514 bytes + FCS, (8 + 1518) * 80 ns = 122.08 us (overlaps the
        // chip's own frame: full duplex).
        const sc_time rx_start = sc_core::sc_time_stamp() + us(10), rx_end = rx_start + us(122.08);
        b.wire.peer_send(ks_make_frame(ks_mac, 1514), rx_start);
        wait(us(300));
        ASSERT_EQ(b.wire.peer_received().size(), 1u);
        const auto& tx = b.wire.peer_received()[0];
        EXPECT_LT(tx.t_start, rx_start);
        EXPECT_GT(tx.t_end, rx_start);
        const sc_time active = std::max(rx_end, tx.t_end) - tx.t_start; // the union
        sc_time end = sc_core::sc_time_stamp();
        EXPECT_EQ(pm.time_in(power_state::active, end), active);
        EXPECT_EQ(pm.time_in(power_state::idle, end), end - active);
        b.wire.set_link(false);
        wait(us(100));
        b.wire.set_link(true);
        wait(us(1));
        end = sc_core::sc_time_stamp();
        EXPECT_EQ(pm.state(), power_state::idle);
        EXPECT_EQ(pm.time_in(power_state::link_down, end), us(100));
        EXPECT_EQ(pm.time_in(power_state::idle, end), end - active - us(100));
        EXPECT_EQ(total(pm, end), end);
    });
}

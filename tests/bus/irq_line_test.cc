// SPDX-License-Identifier: MIT
// irq_line: level, edge events, counters, observers, driven from SC_METHOD and SC_THREAD.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "bus/irq/irq_line.h"

using nicsim::irq_line;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct recorder : nicsim::irq_observer {
    std::vector<std::pair<sc_time, bool>> changes;
    void on_irq(const irq_line&, bool level, const sc_time& t) override {
        changes.emplace_back(t, level);
    }
};

// A chip thread drives the line; a host thread waits for edges; an SC_METHOD counts changes
// via `sensitive << line`.
struct bench : sc_core::sc_module {
    irq_line irq{"irq"};
    std::vector<sc_time> rises, falls;
    std::vector<bool> level_seen_at_rise;
    int method_runs = 0;
    SC_HAS_PROCESS(bench);
    explicit bench(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
        SC_THREAD(chip);
        SC_THREAD(host);
        SC_METHOD(counter);
        sensitive << irq;
        dont_initialize();
    }
    void chip() {
        wait(10, SC_NS);
        irq.set_level(true);
        irq.set_level(true); // no edge: no event, no count
        wait(5, SC_NS);
        irq.set_level(false);
        wait(20, SC_NS);
        irq.set_level(true);
        wait(1, SC_NS);
        irq.set_level(false);
    }
    void host() {
        for (int i = 0; i < 2; ++i) {
            wait(irq.posedge_event());
            rises.push_back(sc_core::sc_time_stamp());
            level_seen_at_rise.push_back(irq.level());
            wait(irq.negedge_event());
            falls.push_back(sc_core::sc_time_stamp());
        }
    }
    void counter() { ++method_runs; }
};

} // namespace

TEST(IrqLine, ThreadDrivenEdgesWakeWaitersAndCount) {
    bench b("b");
    recorder rec;
    b.irq.add_observer(rec);
    EXPECT_FALSE(b.irq.level());
    sc_core::sc_start();
    EXPECT_EQ(b.rises, (std::vector<sc_time>{sc_time(10, SC_NS), sc_time(35, SC_NS)}));
    EXPECT_EQ(b.falls, (std::vector<sc_time>{sc_time(15, SC_NS), sc_time(36, SC_NS)}));
    EXPECT_EQ(b.level_seen_at_rise, (std::vector<bool>{true, true}));
    EXPECT_EQ(b.irq.posedges(), 2u);
    EXPECT_EQ(b.irq.negedges(), 2u);
    EXPECT_EQ(b.method_runs, 4);
    EXPECT_EQ(b.irq.last_change(), sc_time(36, SC_NS));
    ASSERT_EQ(rec.changes.size(), 4u);
    EXPECT_EQ(rec.changes[0], std::make_pair(sc_time(10, SC_NS), true));
    EXPECT_EQ(rec.changes[3], std::make_pair(sc_time(36, SC_NS), false));
}

// An SC_METHOD (a chip's register-write handler, say) drives the line; the level is visible at
// once, the events one delta later; an active-low line starting high works the same.
TEST(IrqLine, MethodDrivenAndActiveLowInitialLevel) {
    struct m : sc_core::sc_module {
        irq_line irq{"irq_n", true}; // active-low chip output idles high
        sc_core::sc_event kick;
        bool level_right_after = true;
        std::vector<sc_time> falls;
        sc_core::sc_time fall_delta_time;
        uint64_t delta_at_set = 0, delta_at_wake = 0;
        SC_HAS_PROCESS(m);
        explicit m(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
            SC_METHOD(drive);
            sensitive << kick;
            dont_initialize();
            SC_THREAD(consumer);
            SC_THREAD(stim);
        }
        void drive() {
            irq.set_level(!irq.level());
            if (!irq.level()) {
                level_right_after = irq.level();
                delta_at_set = sc_core::sc_delta_count();
            }
        }
        void consumer() {
            wait(irq.negedge_event());
            falls.push_back(sc_core::sc_time_stamp());
            delta_at_wake = sc_core::sc_delta_count();
        }
        void stim() {
            wait(7, SC_NS);
            kick.notify();
        }
    } t("t");
    sc_core::sc_start();
    EXPECT_FALSE(t.level_right_after);
    EXPECT_EQ(t.falls, (std::vector<sc_time>{sc_time(7, SC_NS)}));
    EXPECT_EQ(t.delta_at_wake, t.delta_at_set + 1);
    EXPECT_EQ(t.irq.negedges(), 1u);
    EXPECT_EQ(t.irq.posedges(), 0u);
}

// Two changes in one delta: both counted and observed, events fire once, final level wins.
TEST(IrqLine, GlitchWithinOneDelta) {
    struct g : sc_core::sc_module {
        irq_line irq{"irq"};
        int changed_wakeups = 0;
        bool level_at_wake = true;
        SC_HAS_PROCESS(g);
        explicit g(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {
            SC_THREAD(drive);
            SC_THREAD(watch);
        }
        void drive() {
            wait(3, SC_NS);
            irq.set_level(true);
            irq.set_level(false);
        }
        void watch() {
            for (;;) {
                wait(irq.changed_event());
                ++changed_wakeups;
                level_at_wake = irq.level();
            }
        }
    } t("t");
    recorder rec;
    t.irq.add_observer(rec);
    sc_core::sc_start();
    EXPECT_EQ(t.irq.posedges(), 1u);
    EXPECT_EQ(t.irq.negedges(), 1u);
    EXPECT_EQ(rec.changes.size(), 2u);
    EXPECT_EQ(t.changed_wakeups, 1);
    EXPECT_FALSE(t.level_at_wake);
}

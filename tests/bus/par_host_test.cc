// SPDX-License-Identifier: MIT
// 16-bit parallel bus host: strobe timing from parameters (hand-computed), recovery between
// accesses, serialisation of concurrent callers, window and error checks.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "bus/par/par_host.h"

using namespace nicsim::par;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

uint64_t ps(const sc_time& t) {
    return uint64_t(t.to_seconds() * 1e12 + 0.5);
}

// A 256-word register file that logs when each access reached it.
struct dev : par_slave_if {
    std::vector<uint16_t> mem = std::vector<uint16_t>(256, 0);
    std::vector<std::pair<uint64_t, par_payload>> log; // (time ps, payload)
    sc_time wait_states = sc_core::SC_ZERO_TIME;
    bool reject = false;
    void par_transport(par_payload& p, sc_time& delay) override {
        log.emplace_back(ps(sc_core::sc_time_stamp()), p);
        if (reject) {
            p.response = par_response::protocol_error;
            p.error = "test device says no";
            return;
        }
        delay += wait_states;
        const size_t i = (p.addr / 2) % mem.size();
        if (p.is_read())
            p.data = mem[i];
        else
            mem[i] = uint16_t((mem[i] & ~(p.lanes & 1 ? 0x00FF : 0) & ~(p.lanes & 2 ? 0xFF00 : 0)) |
                              (p.data & ((p.lanes & 1 ? 0x00FF : 0) | (p.lanes & 2 ? 0xFF00 : 0))));
    }
};

struct bench : sc_core::sc_module {
    dev d;
    par_target_socket in{"in", d};
    par_host host;
    std::function<void(bench&)> body;
    SC_HAS_PROCESS(bench);
    bench(const par_timing& t, std::function<void(bench&)> b, uint64_t base = 0x1000)
        : sc_module("bench"), host("host", t, base, 0x100), body(std::move(b)) {
        host.par_out.bind(in);
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
};

// 100 MHz bus clock (10 ns) so the arithmetic is easy to check by hand.
par_timing t100() {
    par_timing t;
    t.bus_clock_hz = 100e6;
    t.addr_setup_cycles = 1;
    t.read_strobe_cycles = 6;
    t.write_strobe_cycles = 5;
    t.hold_cycles = 1;
    t.recovery_cycles = 2;
    return t;
}

} // namespace

// read: setup 10 + strobe 60 -> sampled at 70 ns, returns at 80 ns. The write that follows
// waits out recovery (20 ns) -> starts at 100, latched at 100 + 10 + 50 = 160, returns at 170.
TEST(ParHost, StrobeTimingHandComputed) {
    bench b(t100(), [](bench& b) {
        b.d.mem[2] = 0xBEEF;
        EXPECT_EQ(b.host.read16(0x1004), 0xBEEF);
        EXPECT_EQ(ps(sc_core::sc_time_stamp()), 80000u);
        b.host.write16(0x1006, 0x1234);
        EXPECT_EQ(ps(sc_core::sc_time_stamp()), 170000u);
        ASSERT_EQ(b.d.log.size(), 2u);
        EXPECT_EQ(b.d.log[0].first, 70000u);
        EXPECT_EQ(b.d.log[0].second.addr, 4u); // offset inside the window
        EXPECT_EQ(b.d.log[1].first, 160000u);
        EXPECT_EQ(b.d.mem[3], 0x1234);
        EXPECT_EQ(ps(b.host.stats().recovery_stall), 20000u);
        EXPECT_EQ(ps(b.host.stats().busy), 80000u + 70000u);
        // After an idle gap longer than recovery there is no stall.
        wait(sc_time(100, SC_NS));
        b.host.read16(0x1006);
        EXPECT_EQ(ps(sc_core::sc_time_stamp()), 270000u + 80000u);
        EXPECT_EQ(ps(b.host.stats().recovery_stall), 20000u);
    });
    sc_core::sc_start();
}

// The default (i.MX6 EIM-class, 132 MHz) profile: read = 1 + 6 + 1 = 8 cycles, write =
// 1 + 5 + 1 = 7 cycles, recovery 2 cycles: a read-read pair takes 8 + 2 + 8 = 18 cycles.
TEST(ParHost, DefaultEimProfile) {
    const par_timing t;
    EXPECT_EQ(t.bus_clock_hz, 132e6);
    EXPECT_NEAR(t.access_time(false).to_seconds(), 8 / 132e6, 1e-12);
    EXPECT_NEAR(t.access_time(true).to_seconds(), 7 / 132e6, 1e-12);
    bench b(t, [](bench& b) {
        b.host.read16(0x1000);
        b.host.read16(0x1000);
        EXPECT_NEAR(sc_core::sc_time_stamp().to_seconds(), 18 / 132e6, 3e-12); // 1 ps resolution
    });
    sc_core::sc_start();
}

// Device wait states stretch the strobe; issue cycles delay the start.
TEST(ParHost, WaitStatesAndIssueCycles) {
    auto t = t100();
    t.issue_cycles = 3;
    bench b(t, [](bench& b) {
        b.d.wait_states = sc_time(25, SC_NS);
        b.host.write16(0x1000, 1);
        // issue 30 + setup 10 + strobe 50 = 90 (latched), + 25 wait states + hold 10 = 125.
        EXPECT_EQ(b.d.log[0].first, 90000u);
        EXPECT_EQ(ps(sc_core::sc_time_stamp()), 125000u);
    });
    sc_core::sc_start();
}

// Two threads accessing at the same time are served one after the other.
TEST(ParHost, ConcurrentCallersSerialised) {
    struct two : sc_core::sc_module {
        dev d;
        par_target_socket in{"in", d};
        par_host host{"host", t100(), 0, 0x100};
        std::vector<uint64_t> done;
        SC_HAS_PROCESS(two);
        explicit two(sc_core::sc_module_name n) : sc_module(n) {
            host.par_out.bind(in);
            SC_THREAD(a);
            SC_THREAD(b);
        }
        void a() {
            host.read16(0);
            done.push_back(ps(sc_core::sc_time_stamp()));
        }
        void b() {
            host.read16(2);
            done.push_back(ps(sc_core::sc_time_stamp()));
        }
    } t("two");
    sc_core::sc_start();
    ASSERT_EQ(t.done.size(), 2u);
    EXPECT_EQ(t.done[0], 80000u);
    EXPECT_EQ(t.done[1], 80000u + 20000u + 80000u);
}

// Addresses outside the window and device errors throw with a message naming the host.
TEST(ParHost, WindowAndErrorChecks) {
    bench b(t100(), [](bench& b) {
        EXPECT_THROW(b.host.read16(0x0FFE), std::out_of_range);
        EXPECT_THROW(b.host.write16(0x1100, 0), std::out_of_range);
        EXPECT_EQ(b.d.log.size(), 0u);
        b.d.reject = true;
        try {
            b.host.write16(0x1000, 0);
            ADD_FAILURE() << "expected std::runtime_error";
        } catch (const std::runtime_error& e) {
            EXPECT_NE(std::string(e.what()).find("test device says no"), std::string::npos);
            EXPECT_NE(std::string(e.what()).find("bench.host"), std::string::npos);
        }
    });
    sc_core::sc_start();
}

TEST(ParHost, RejectsBadTiming) {
    par_timing t;
    t.read_strobe_cycles = 0;
    EXPECT_THROW(t.validate(), std::invalid_argument);
    t = par_timing{};
    t.bus_clock_hz = -1;
    EXPECT_THROW(t.validate(), std::invalid_argument);
}

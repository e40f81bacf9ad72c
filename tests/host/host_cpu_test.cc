// SPDX-License-Identifier: MIT
#include "host/cpu/host_cpu.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sc_core;
using nicsim::host_cpu;

namespace {

// Starts `n` threads at t=0, each asking for `work`; records when each finished.
struct contenders : sc_module {
    host_cpu& cpu;
    std::vector<sc_time> done;
    contenders(sc_module_name name, host_cpu& c, int n, sc_time work) : sc_module(name), cpu(c) {
        done.resize(n);
        for (int i = 0; i < n; ++i)
            sc_spawn([this, i, work] {
                wait(i, SC_PS); // fixed arrival order: thread i asks i ps after thread 0
                cpu.run(work);
                done[i] = sc_time_stamp();
            });
    }
};

} // namespace

TEST(HostCpu, OneCoreSerialisesWorkInArrivalOrder) {
    host_cpu cpu("cpu", 1);
    contenders c("c", cpu, 3, sc_time(10, SC_US));
    sc_start();
    EXPECT_EQ(c.done[0], sc_time(10, SC_US));
    EXPECT_EQ(c.done[1], sc_time(20, SC_US));
    EXPECT_EQ(c.done[2], sc_time(30, SC_US));
    EXPECT_EQ(cpu.busy_time(), sc_time(30, SC_US));
    // Thread 1 waited 10us - 1ps, thread 2 waited 20us - 2ps.
    EXPECT_EQ(cpu.wait_time(), sc_time(30, SC_US) - sc_time(3, SC_PS));
    EXPECT_DOUBLE_EQ(cpu.busy_share(sc_time(30, SC_US)), 1.0);
}

TEST(HostCpu, TwoCoresRunTwoAtOnce) {
    host_cpu cpu("cpu", 2);
    contenders c("c", cpu, 3, sc_time(10, SC_US));
    sc_start();
    EXPECT_EQ(c.done[0], sc_time(10, SC_US));
    EXPECT_EQ(c.done[1], sc_time(10, SC_US) + sc_time(1, SC_PS));
    EXPECT_EQ(c.done[2], sc_time(20, SC_US));
    EXPECT_DOUBLE_EQ(cpu.busy_share(sc_time(20, SC_US)), 30.0 / 40.0);
}

TEST(HostCpu, ZeroCoresIsRejected) {
    EXPECT_THROW(host_cpu("cpu", 0), std::invalid_argument);
}

TEST(HostCpu, AcquireHoldsACoreAcrossABlockingOperation) {
    host_cpu cpu("cpu", 1);
    sc_time second_done;
    sc_spawn([&] {
        cpu.acquire();
        wait(5, SC_US); // e.g. a PIO transfer: the core stays busy while the bus shifts
        cpu.release();
    });
    sc_spawn([&] {
        wait(1, SC_PS);
        cpu.run(sc_time(2, SC_US));
        second_done = sc_time_stamp();
    });
    sc_start();
    EXPECT_EQ(second_done, sc_time(7, SC_US));
    EXPECT_EQ(cpu.busy_time(), sc_time(7, SC_US));
    cpu.charge(sc_time(1, SC_US));
    EXPECT_EQ(cpu.busy_time(), sc_time(8, SC_US));
}

TEST(HostCpu, KernelWorkIsServedBeforeWaitingApplicationWork) {
    host_cpu cpu("cpu", 1);
    std::vector<std::string> order;
    sc_spawn([&] { cpu.run(sc_time(10, SC_US)); order.push_back("app0"); });
    sc_spawn([&] { wait(1, SC_US); cpu.run(sc_time(10, SC_US)); order.push_back("app1"); });
    sc_spawn([&] {
        wait(2, SC_US);
        cpu.run(sc_time(10, SC_US), nicsim::cpu_class::kernel);
        order.push_back("kernel");
    });
    sc_start();
    // app0 runs first (no preemption); the kernel request overtakes app1, which asked earlier.
    EXPECT_EQ(order, (std::vector<std::string>{"app0", "kernel", "app1"}));
}

// SPDX-License-Identifier: MIT
// kernel.spi_sync_fast_path: false (host/board/spi_core_port.h): the SPI core before 6.0 wakes
// its message pump thread after every message; on one core a normal-class caller waits for that
// thread's two context switches and its work; with two cores, or a real-time caller, only the
// CPU is booked.
#include <gtest/gtest.h>

#include "tests/support/null_spi_slave.h"
#include "host/board/generic_spi_port.h"
#include "host/board/spi_core_port.h"

using sc_core::sc_time;
using sc_core::SC_US;

namespace {


// Two messages of one 1536-byte DMA transfer through a generic port (30 us of CPU each) behind
// the pump port, whose round is 25 us (two 10 us switches and 5 us of pump work).
struct bench : sc_core::sc_module {
    bool rt; // the caller's class
    nicsim::host_cpu cpu;
    nicsim::spi::spi_host host;
    nicsim::test::null_spi_slave slave;
    nicsim::board::spi_core_pump_port port;
    sc_time returned;
    SC_HAS_PROCESS(bench);
    bench(const sc_core::sc_module_name& n, unsigned cores, bool caller_rt = false)
        : sc_core::sc_module(n), rt(caller_rt), cpu("cpu", cores), host("host", 1), slave("slave"),
          port(cpu,
               std::make_unique<nicsim::board::generic_spi_port>(cpu, host, 0,
                                                                 sc_time(30, SC_US), 16),
               sc_time(25, SC_US), [this] { return rt; }) {
        host.spi_out[0].bind(slave.spi_in);
        SC_THREAD(run);
    }
    void run() {
        for (int i = 0; i < 2; ++i) {
            nicsim::spi::spi_payload f;
            nicsim::spi::spi_xfer x;
            x.len = 1536;
            f.xfers.push_back(x);
            f.speed_hz = 48'000'000;
            port.transfer(f);
        }
        returned = sc_core::sc_time_stamp();
    }
};

const sc_time wire(1536.0 * 8 / 48e6, sc_core::SC_SEC);

} // namespace

TEST(SpiCorePumpPort, OnOneCoreTheCallerWaitsForThePumpAfterEveryMessage) {
    bench b("b", 1);
    sc_core::sc_start();
    EXPECT_EQ(b.returned, 2.0 * (sc_time(30 + 25, SC_US) + wire));
    EXPECT_EQ(b.cpu.busy_time(), sc_time(2 * (30 + 25), SC_US));
}

TEST(SpiCorePumpPort, WithASecondCoreThePumpRunsBesideTheCaller) {
    bench b("b", 2);
    sc_core::sc_start();
    EXPECT_EQ(b.returned, 2.0 * (sc_time(30, SC_US) + wire));
    EXPECT_EQ(b.cpu.busy_time(), sc_time(2 * (30 + 25), SC_US));
}

TEST(SpiCorePumpPort, ARealTimeCallerIsNotPreemptedByThePump) {
    bench b("b", 1, true);
    sc_core::sc_start();
    EXPECT_EQ(b.returned, 2.0 * (sc_time(30, SC_US) + wire));
    EXPECT_EQ(b.cpu.busy_time(), sc_time(2 * (30 + 25), SC_US));
}

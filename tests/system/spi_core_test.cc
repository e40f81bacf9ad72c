// SPDX-License-Identifier: MIT
// kernel.spi_sync_fast_path: false (host/board/spi_core_port.h): the SPI core before 6.0 runs its
// message pump after every spi_sync, two context switches and the pump's work on the CPU per
// message, and the TX thread waits for it. The same run on the 6.x core books none of it. Two
// runs, so the shipped binary (tests/system/nicsim_cli.h).
#include <string>

#include <gtest/gtest.h>

#include "tests/system/nicsim_cli.h"
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

TEST(SpiCore, Before60ItsPumpRunsAfterEveryMessage) {
    const std::vector<std::string> sets = {"traffic.bytes=256KiB", "driver.power_save=true",
                                           "driver.variant=chip-sleep-5.16"};
    const auto dir = test::test_dir();
    const auto run = [&](const std::string& fast_path) {
        auto s = sets;
        s.push_back("platform.kernel.spi_sync_fast_path=" + fast_path);
        return test::run_nicsim("wilc1000-spi-ttcp-tx.yaml", s, fast_path, dir);
    };
    const auto fast = run("true"), old = run("false");
    ASSERT_EQ(old.at("end_reason"), "traffic complete");
    ASSERT_EQ(fast.at("end_reason"), "traffic complete");
    const auto pf = test::load_shipped("wilc1000-spi-ttcp-tx.yaml", sets).platform;
    const double round_s = (double(pf.spi_host.message_pump_overhead.ps) +
                            2.0 * double(pf.kernel.context_switch.ps)) * 1e-12;
    ASSERT_GT(round_s, 0.0);
    const double messages = old.at("host_cpu").at("spi_controller").at("messages").get<double>();
    const double extra_cpu_s = old.at("host_cpu").at("busy_s").get<double>() -
                               fast.at("host_cpu").at("busy_s").get<double>();
    // Each message's pump round is on the CPU (the runs differ a little in what else they do).
    EXPECT_NEAR(extra_cpu_s, messages * round_s, 0.15 * messages * round_s);
    EXPECT_GT(old.at("sim_time_s").get<double>(), fast.at("sim_time_s").get<double>())
        << "the TX thread waits for the pump";
}

} // namespace
} // namespace nicsim

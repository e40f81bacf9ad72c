// SPDX-License-Identifier: MIT
// Issue 3 acceptance: the same scenario run twice gives identical --json output apart from the
// one "host" block (wall time, peak RSS). Two runs cannot share a process (SystemC cannot
// restart), so this runs the shipped `nicsim` binary twice.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

fs::path fresh_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-system" /
                 (std::string(info->test_suite_name()) + "." + info->name());
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

nlohmann::json run_nicsim(const std::string& scenario, const std::string& sets,
                          const fs::path& json, const fs::path& out) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' run '" + NICSIM_SOURCE_DIR +
                            "/configs/" + scenario + "' " + sets + " --json '" + json.string() +
                            "' > '" + out.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    EXPECT_EQ(rc, 0) << cmd << "\n(output in " << out << ")";
    std::ifstream in(json);
    EXPECT_TRUE(in.good()) << "no JSON written by: " << cmd;
    return in.good() ? nlohmann::json::parse(in) : nlohmann::json();
}

void expect_identical_runs(const std::string& scenario, const std::string& sets) {
    const fs::path d = fresh_dir();
    nlohmann::json a = run_nicsim(scenario, sets, d / "a.json", d / "a.out");
    nlohmann::json b = run_nicsim(scenario, sets, d / "b.json", d / "b.out");
    ASSERT_TRUE(a.is_object() && b.is_object());
    // The run did something worth comparing.
    ASSERT_TRUE(a.contains("sim_time_s"));
    EXPECT_GT(a["sim_time_s"].get<double>(), 0.0);
    EXPECT_EQ(a.value("end_reason", ""), "traffic complete");
    EXPECT_EQ(a["flows"].at(0).value("bytes", 0ull), 128u * 1024);
    ASSERT_TRUE(a.contains("host")) << "the report has no host block to exclude";
    a.erase("host");
    b.erase("host");
    EXPECT_EQ(a, b) << "diff: " << nlohmann::json::diff(a, b).dump(1);
}

TEST(Wilc1000SpiDeterminism, TxPowerSaveOnTwiceGivesIdenticalJson) {
    expect_identical_runs("wilc1000-spi-ttcp-tx.yaml",
                          "--set traffic.bytes=128KiB --set driver.power_save=true");
}

TEST(Wilc1000SpiDeterminism, RxPowerSaveOffTwiceGivesIdenticalJson) {
    expect_identical_runs("wilc1000-spi-ttcp-rx.yaml",
                          "--set traffic.bytes=128KiB --set driver.power_save=false");
}

// kernel.charge_native_work (docs/architecture.md#host-cpu): the driver's code, context
// switches and hard IRQs on the CPU, and the driver threads' latencies drawn per seed. The
// fixed-window stack has no jitter of its own, so what a seed changes comes from the driver
// threads alone.
constexpr const char* native_work_sets =
    "--set traffic.bytes=256KiB --set driver.power_save=false --set host.stack=fixed_window "
    "--set traffic.window=16KiB";

nlohmann::json native_work_run(const std::string& extra, const std::string& tag) {
    const fs::path d = fresh_dir();
    return run_nicsim("wilc1000-spi-ttcp-tx.yaml", std::string(native_work_sets) + " " + extra,
                      d / (tag + ".json"), d / (tag + ".out"));
}

TEST(NativeWork, OffCountsTheDriversBlocksButChargesNothingAndIgnoresTheSeed) {
    const std::string off = "--set platform.kernel.charge_native_work=false ";
    const nlohmann::json a = native_work_run(off + "--set seed=1", "a");
    const nlohmann::json b = native_work_run(off + "--set seed=2", "b");
    ASSERT_TRUE(a.is_object() && b.is_object());
    const auto& c = a["host_cpu"];
    EXPECT_GT(c["driver_blocks"].get<uint64_t>(), 10000u);
    EXPECT_EQ(c["driver_code_s"].get<double>(), 0.0);
    EXPECT_EQ(c["context_switches"].get<uint64_t>(), 0u);
    EXPECT_EQ(c["hardirqs"].get<uint64_t>(), 0u);
    EXPECT_EQ(a["sim_time_s"], b["sim_time_s"]);
}

TEST(NativeWork, OnChargesEachPartAtItsProfileCostAndDrawsLatenciesPerSeed) {
    const std::string on = "--set platform.kernel.charge_native_work=true ";
    const nlohmann::json a = native_work_run(on + "--set seed=1", "a");
    const nlohmann::json a2 = native_work_run(on + "--set seed=1", "a2");
    const nlohmann::json b = native_work_run(on + "--set seed=2", "b");
    const nlohmann::json off =
        native_work_run("--set platform.kernel.charge_native_work=false --set seed=1", "off");
    ASSERT_TRUE(a.is_object() && a2.is_object() && b.is_object() && off.is_object());
    const auto& c = a["host_cpu"];
    // sama5-class: 8 cycles per block at 500 MHz = 16 ns; 10 us per switch; 5 us per hard IRQ.
    const auto blocks = c["driver_blocks"].get<uint64_t>();
    EXPECT_GT(blocks, 10000u);
    EXPECT_NEAR(c["driver_code_s"].get<double>(), blocks * 16e-9, 1e-9);
    const auto switches = c["context_switches"].get<uint64_t>();
    const auto irqs = c["hardirqs"].get<uint64_t>();
    EXPECT_GT(switches, 0u);
    EXPECT_GT(irqs, 0u);
    EXPECT_NEAR(c["context_switch_s"].get<double>(), switches * 10e-6, 1e-9);
    EXPECT_NEAR(c["hardirq_s"].get<double>(), irqs * 5e-6, 1e-9);
    // Charged work is in the CPU time, on top of the work charged without it. (Whether the run
    // is longer than the free one is not a rule: the driver's TX batches depend on the timing,
    // and bigger batches can save more bus messages than the charges cost.)
    const double parts = c["driver_code_s"].get<double>() + c["context_switch_s"].get<double>() +
                         c["hardirq_s"].get<double>();
    EXPECT_GT(c["busy_s"].get<double>(), parts);
    // The SPI controller's work (sama5-class: atmel_spi) is its own part: one entry per
    // spi_sync, each with at least one completion interrupt and a sleep.
    const auto& spi = c["spi_controller"];
    ASSERT_TRUE(spi.is_object()) << c.dump(1);
    EXPECT_EQ(spi["messages"], a["devices"][0]["bus_stats"]["transactions"]);
    EXPECT_GE(spi["irqs"].get<uint64_t>(), spi["messages"].get<uint64_t>());
    EXPECT_EQ(spi["sleeps"], spi["messages"]); // WILC1000: one transfer per message
    EXPECT_GT(c["busy_s"].get<double>(), parts + spi["cpu_s"].get<double>());
    EXPECT_GT(off["host_cpu"]["busy_s"].get<double>(), 0.0);
    EXPECT_GT(c["busy_s"].get<double>() - parts, 0.5 * off["host_cpu"]["busy_s"].get<double>());
    // Same seed, same run; another seed, other latency draws.
    nlohmann::json x = a, y = a2;
    x.erase("host");
    y.erase("host");
    EXPECT_EQ(x, y) << nlohmann::json::diff(x, y).dump(1);
    EXPECT_NE(a["sim_time_s"], b["sim_time_s"]);
}

} // namespace

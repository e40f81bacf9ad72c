// SPDX-License-Identifier: MIT
// Helpers for testbench tests: write YAML text to a fresh temporary directory.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace nicsim::test {

// A per-test directory under GoogleTest's temp dir, emptied on creation.
inline std::filesystem::path test_dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::filesystem::path d = std::filesystem::path(::testing::TempDir()) / "nicsim-testbench" /
                              (std::string(info->test_suite_name()) + "." + info->name());
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

inline std::string write_file(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
}

// A complete platform profile with distinctive values (checked by the tests).
inline const char* test_platform_yaml() {
    return R"(name: test-board
description: for tests
cpu:
  cores: 2
  hz: 250
  clock: 800MHz
  cycles_per_block: 7
kernel:
  irq_to_thread_latency: 31us
  sched_wakeup_latency: 17us
  timer_slack: 50us
  per_packet_stack_cost: 1.5us
  per_byte_stack_cost: 3ns
  charge_native_work: true
  context_switch: 9us
  hardirq: 4us
spi_host:
  controller: test_spi
  cpu_cost: generic
  max_speed: 100MHz
  per_message_overhead: 21us
  per_transfer_overhead: 4us
  cs_setup: 20ns
  cs_hold: 30ns
  cs_inactive_min: 40ns
  inter_transfer_gap: 1us
  inter_word_gap_cycles: 2
  inter_word_gap: 5ns
  dma_threshold: 96B
  dma_setup: 7us
  polling_limit: 30us
)";
}

} // namespace nicsim::test

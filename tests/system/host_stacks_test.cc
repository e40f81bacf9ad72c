// SPDX-License-Identifier: MIT
// The board's and the peer's host-stack settings as a scenario composes them
// (system/host_stacks.cc): the board runs netif_rx's softirq work in the driver's thread, as 6.1
// does, unless the scenario says otherwise; the peer keeps its softirq thread.
#include <gtest/gtest.h>

#include "tools/config/config_loader.h"
#include "host/host_stacks.h"

using namespace nicsim;

namespace {
traffic_session::stack_configs stacks(std::vector<std::string> overrides = {}) {
    config::load_options o;
    o.overrides = std::move(overrides);
    const auto l =
        config::load_scenario(std::string(NICSIM_SOURCE_DIR) + "/configs/ks8851-spi-ping.yaml", o);
    return system::host_stack_configs(l.scenario, l.platform);
}
} // namespace

TEST(HostStacks, BoardRunsTheRxSoftirqInTheDriversThread) {
    const auto s = stacks();
    EXPECT_TRUE(s.board.net.netif_rx_in_caller);
    EXPECT_FALSE(s.peer.net.netif_rx_in_caller);
}

TEST(HostStacks, ScenarioCanGiveTheBoardItsSoftirqThreadBack) {
    const auto s = stacks({"host.net.netif_rx_in_caller=0", "peer.net.netif_rx_in_caller=1"});
    EXPECT_FALSE(s.board.net.netif_rx_in_caller);
    EXPECT_TRUE(s.peer.net.netif_rx_in_caller);
}

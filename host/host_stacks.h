// SPDX-License-Identifier: MIT
// The two hosts' network stacks for a run with host.stack: linux (docs/host-stack.md): the
// board's from its platform profile (the named CPU costs of net_stack, the kernel's latency
// distributions) and the scenario's host.net settings; the peer's, a desktop PC, from peer.net.
#pragma once

#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"
#include "host/traffic_session.h"

namespace nicsim::system {

// Throws run_error naming the host.net / peer.net key a setting fails at.
traffic_session::stack_configs host_stack_configs(const config::scenario_config& sc,
                                                  const config::platform_profile& platform);

} // namespace nicsim::system

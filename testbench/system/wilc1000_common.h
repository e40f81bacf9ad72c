// SPDX-License-Identifier: MIT
// What the WILC1000 systems share whatever the host bus (SPI or SDIO): the scenario's chip
// parameter overrides, the air link, bringing the interface up through the real driver once it
// is probed, and the chip's part of the device report.
#pragma once

#include <string>

#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000.h"
#include "testbench/config/platform_profile.h"
#include "testbench/config/scenario_config.h"
#include "testbench/host/host_cpu.h"
#include "testbench/report/report.h"

struct net_device;

namespace nicsim {
class traffic_session;
}

namespace nicsim::system {

// The scenario's device.timing / device.power overrides applied to the chip parameters.
// Throws run_error for an unknown power state.
wilc::params wilc_chip_params_for(const config::device_config& dev, wilc::params p);

air_link_params wilc_air_params(const config::link_config& l);

// After probe: find the driver's netdev, route its received frames to the traffic, ifup, and
// the cfg80211 stand-in (BSSID, power save). `module` is the driver's KBUILD_MODNAME
// ("wilc1000_spi", "wilc1000_sdio"). Returns "" or why it failed; sets `ndev`.
std::string wilc_bring_up_netdev(const char* module, const config::scenario_config& sc,
                                 const wilc::params& chip, traffic_session& traffic,
                                 ::net_device*& ndev);

// Both ends of the traffic: the host side through the real driver's xmit (`ndev` is read when
// frames are sent; the board CPU pays the stack cost), the peer behind the access point, which
// answers after the link latency through the air link.
void wilc_bind_traffic(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                       const config::platform_profile& pf, const config::scenario_config& sc,
                       air_link& air);

// The chip's share of the device report at `now`: frames, wake-ups, energy per state.
void wilc_fill_device_report(wilc1000& chip, const wilc::params& p, sc_core::sc_time now,
                             report::device_report& d);

} // namespace nicsim::system

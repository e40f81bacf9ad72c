// SPDX-License-Identifier: MIT
// What every device binding does alike with its real driver: insmod (module parameters, then
// module_init of the variant's modules), after probe: route the netdev's received frames to the
// traffic and ifup, and the host's traffic port into the driver's ndo_start_xmit.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <systemc>

#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"
#include "host/cpu/host_cpu.h"
#include "host/traffic/endpoint.h"

struct net_device;

namespace nicsim {
class traffic_session;
}

namespace nicsim::bindings {

traffic::endpoint_addr endpoint_addr_of(const std::array<uint8_t, 6>& mac, uint32_t ip,
                                        uint16_t port);

// insmod: sets the scenario's module parameters on every module of `family` (KBUILD_MODNAME
// prefix, e.g. "wilc1000") of `variant` that has them, then runs module_init of each.
// Returns "" or why it failed (errors are text: this runs inside a SystemC thread).
std::string load_driver_modules(const std::string& family, const config::driver_config& drv);

// "the 6.1 driver" / "the 6.12 driver": how findings name the driver code they describe, by
// driver.kernel or, for a user's tree (driver.source), by that tree's version.
inline std::string the_driver(const config::driver_config& drv) {
    const std::string& k = drv.source.empty() ? drv.kernel : drv.source_kernel;
    return k.empty() ? std::string("the driver") : "the " + k + " driver";
}

// After probe: the first netdev the driver (modname, variant) registered, its netif_rx frames
// routed to the traffic's host side (and, with a board stack, its netif_wake_queue to the
// stack's qdisc), then ndo_open (ip link set up). Sets `ndev`; returns "" or why it failed.
std::string open_netdev(const char* modname, const std::string& variant, traffic_session& traffic,
                        ::net_device*& ndev);

// ip link set down: ndo_stop through the emulation's dev_close (the device stops taking frames
// first, as Linux's noop qdisc does), then up to `settle` (polled each `step`) for work the
// driver had in flight to free its skbs. Returns ndo_stop's result.
int close_netdev(::net_device* ndev, sc_core::sc_time settle, sc_core::sc_time step);
// Waits until the emulation holds no skb or `limit` has passed, looking every `step`.
void await_skbs_freed(sc_core::sc_time limit, sc_core::sc_time step);

// The host's traffic port: frames go to the driver's ndo_start_xmit (retried every
// `retry_poll` while the driver has stopped the queue or refused the frame), and the stack cost
// of the profile is charged on `cpu` as application work. `ndev` is read when frames are sent.
traffic::port host_traffic_port(host_cpu& cpu, ::net_device* const& ndev,
                                const config::kernel_timing& k, sc_core::sc_time retry_poll);

// The host's transmit side, whichever host model the traffic uses: the endpoint's port above,
// or the board stack attached to the driver (ndo_start_xmit with the skb's destructor, so the
// TSQ budget returns when the driver frees the skb; netif_xmit_stopped from the netdev's queue
// state) with its CPU costs charged on `cpu` (process context as application work, softirq as
// kernel work).
void bind_host_to_driver(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                         const config::kernel_timing& k, sc_core::sc_time retry_poll);

} // namespace nicsim::bindings

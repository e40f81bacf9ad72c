// SPDX-License-Identifier: MIT
// What the Ethernet bindings (KS8851, ENC28J60) share: the cable with the far PC and the
// stack's wait for carrier after ifup.
#pragma once

#include <string>

#include <systemc>

#include "models/ethernet/eth_wire.h"
#include "core/config/platform_profile.h"
#include "host/cpu/host_cpu.h"

struct net_device;

namespace nicsim {
class traffic_session;
}

namespace nicsim::bindings {

// After ifup: waits (polling every 1 ms, bounded by 5 s) until the driver reports carrier, as
// the stack does before it transmits, then 10 ms more (assumption: the application starts some
// time after `ip link set up`, once the driver's rx-mode work is done). "" or why it failed.
std::string wait_for_carrier(::net_device* ndev, const eth::eth_wire& wire);

// Both ends of the traffic over a cable: the host side through the real driver's xmit (`ndev`
// is read when frames are sent; the board CPU pays the stack cost), the peer's frames after
// `latency` onto the wire, the wire's frames (FCS stripped) into the peer.
void bind_ethernet_traffic(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                           const config::kernel_timing& k, eth::eth_wire& wire,
                           sc_core::sc_time latency);

} // namespace nicsim::bindings

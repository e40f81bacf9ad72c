// SPDX-License-Identifier: MIT
// Pieces every device system shares: unit conversion, the platform's kernel timing and SPI host
// timing, loading the driver modules of a variant, and the host side of the traffic (the real
// driver's xmit, with the board CPU paying the stack cost).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <systemc>

#include "bus/spi/spi_timing.h"
#include "testbench/config/platform_profile.h"
#include "testbench/config/scenario_config.h"
#include "testbench/host/host_cpu.h"
#include "testbench/traffic/endpoint.h"

struct net_device;

namespace nicsim::system {

inline sc_core::sc_time to_sc(config::duration d) {
    return sc_core::sc_time(static_cast<double>(d.ps), sc_core::SC_PS);
}

// The profile's SPI controller timing, except per_message_overhead, which the system charges on
// the host CPU (cpu_spi_port) instead of the bus model.
spi::spi_host_timing spi_host_timing_of(const config::spi_host_config& c);

traffic::endpoint_addr endpoint_addr_of(const std::array<uint8_t, 6>& mac, uint32_t ip,
                                        uint16_t port);

// lx_kit's kernel parameters (HZ, timer slack, IRQ latency) from the profile, and busy-waits
// booked on `cpu`.
void apply_kernel_platform(const config::platform_profile& pf, host_cpu& cpu);

// insmod: sets the scenario's module parameters on every module of `family` (KBUILD_MODNAME
// prefix, e.g. "wilc1000") of `variant` that has them, then runs module_init of each.
// Returns "" or why it failed (errors are text: this runs inside a SystemC thread).
std::string load_driver_modules(const std::string& family, const config::driver_config& drv);

// The host's traffic port: frames go to the driver's ndo_start_xmit (retried every
// `retry_poll` while the driver has stopped the queue or refused the frame), and the stack cost
// of the profile is charged on `cpu` as application work. `ndev` is read when frames are sent.
traffic::port host_traffic_port(host_cpu& cpu, ::net_device* const& ndev,
                                const config::kernel_timing& k, sc_core::sc_time retry_poll);

} // namespace nicsim::system

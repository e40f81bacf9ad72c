// SPDX-License-Identifier: MIT
// The bus clock a device really gets on a board: the requested clock (device.bus_clock, the
// device tree's spi-max-frequency or the MMC core's SD clock) through the controller driver's
// divider rule on the profile's input clock (bus/spi/spi_clock.h, bus/sdio/sdio_clock.h).
#pragma once

#include <cstdint>

#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"

namespace nicsim::board {

// SCK for a transfer requesting `requested_hz`: the SPI core clamps it to spi_host.max_speed
// (__spi_validate), then the controller driver divides spi_host.input_clock by its rule (none:
// the clamped request). Throws spi::spi_clock_error when the driver refuses the speed.
std::uint32_t spi_sck_hz(const config::spi_host_config& c, std::uint32_t requested_hz);

// SD clock the host driver programs for `requested_hz` (sdio_host.clock_rule on input_clock;
// none: the request). Throws sdio::sdio_clock_error when the driver fails to set it.
std::uint32_t sd_clock_hz(const config::sdio_host_config& c, std::uint32_t requested_hz);

// For the report: the clock device.bus_clock turns into on this profile's controller (spi,
// sdio); the requested one for the parallel bus (no divider; its clock is par_bus.bus_clock);
// 0 when the driver refuses it (the run then fails naming device.bus_clock).
double actual_bus_clock_hz(const config::platform_profile& p, config::bus_type bus,
                           const config::frequency& requested);

} // namespace nicsim::board

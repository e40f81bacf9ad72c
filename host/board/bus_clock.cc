// SPDX-License-Identifier: MIT
#include "host/board/bus_clock.h"

#include <algorithm>
#include <stdexcept>

namespace nicsim::board {

std::uint32_t spi_sck_hz(const config::spi_host_config& c, std::uint32_t requested_hz) {
    const auto max = static_cast<std::uint32_t>(c.max_speed.hz);
    const std::uint32_t clamped = max ? std::min(requested_hz, max) : requested_hz;
    if (!c.clock_rule)
        return clamped;
    return spi::spi_sck_hz(*c.clock_rule, static_cast<std::uint32_t>(c.input_clock.hz), clamped);
}

std::uint32_t sd_clock_hz(const config::sdio_host_config& c, std::uint32_t requested_hz) {
    if (!c.clock_rule)
        return requested_hz;
    return sdio::sdio_clock_hz(*c.clock_rule, c.clock_inputs(), requested_hz);
}

double actual_bus_clock_hz(const config::platform_profile& p, config::bus_type bus,
                           const config::frequency& requested) {
    const auto hz = static_cast<std::uint32_t>(requested.hz);
    try {
        switch (bus) {
        case config::bus_type::spi:
            return spi_sck_hz(p.spi_host, hz);
        case config::bus_type::sdio:
            return p.sdio_host.present ? sd_clock_hz(p.sdio_host, hz) : 0.0;
        case config::bus_type::par:
            break;
        }
    } catch (const std::invalid_argument&) {
        return 0.0;
    }
    return requested.hz;
}

} // namespace nicsim::board

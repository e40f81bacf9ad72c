// SPDX-License-Identifier: MIT
// The SCK an SPI controller really runs at: its Linux driver divides the controller's input
// clock by an integer it computes from the transfer's requested speed_hz, each driver by its own
// rule (docs/bus-spi.md#sck-from-the-controllers-divider, sources in docs/sources.md#spi-clock-dividers).
// The functions follow the drivers' integer arithmetic (Linux 6.1; unchanged in 6.12).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace nicsim::spi {

enum class spi_clock_rule {
    atmel_scbr,   // spi-atmel.c atmel_spi_set_xfer_speed: SCBR = DIV_ROUND_UP(clk, speed), < 256
    bcm2835_cdiv, // spi-bcm2835.c bcm2835_spi_transfer_one: even CDIV >= 2, rounded up
    imx_ecspi,    // spi-imx.c mx51_ecspi_clkdiv: 4-bit pre-divider, power-of-two post-divider
    stm32_mbr,    // spi-stm32.c stm32_spi_prepare_mbr: power-of-two MBR of the nearest divider
    dw_ssi,       // spi-dw-core.c dw_spi_update_config: even BAUDR >= 2, rounded up (RP1, DesignWare)
};

const char* to_string(spi_clock_rule);

// The driver refused the speed (its -EINVAL): the message names the rule and the numbers.
struct spi_clock_error : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// SCK (Hz) the controller driver programs for a transfer asking for `requested_hz`, from the
// controller's input clock `input_hz` (both > 0; throws spi_clock_error otherwise or when the
// driver refuses the speed).
std::uint32_t spi_sck_hz(spi_clock_rule rule, std::uint32_t input_hz, std::uint32_t requested_hz);

} // namespace nicsim::spi

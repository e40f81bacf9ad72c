// SPDX-License-Identifier: MIT
// The SD clock an SD/MMC host controller really runs at: the MMC core asks for a clock
// (mmc_set_clock, the card's and host's limit) and the host's Linux driver divides its input
// clock by an integer it computes, each driver by its own rule
// (docs/bus-sdio.md#sd-clock-from-the-hosts-divider, sources in docs/sources.md#sd-clock-dividers).
// The functions follow the drivers' integer arithmetic (Linux 6.1; unchanged in 6.12).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace nicsim::sdio {

enum class sdio_clock_rule {
    // sdhci.c sdhci_calc_clk, SD Host Controller spec 3.00 without preset values: with a clock
    // multiplier the programmable mode (input x multiplier over 1..1024), else (or when that
    // cannot get low enough) the base clock over an even divider up to 2046.
    sdhci,
    // bcm2835.c bcm2835_set_clock (bcm2835-sdhost): input over (SDCDIV + 2), rounded so the
    // result is not above the request.
    bcm2835_sdhost,
    // mmci_stm32_sdmmc.c mmci_sdmmc_set_clkreg: bypass at or above the input, else input over
    // 2 x DIV_ROUND_UP(input, 2 x request), CLKDIV at most 1023.
    stm32_sdmmc,
    // sdhci-esdhc-imx.c esdhc_pltfm_set_clock (uSDHC, SDR timings): the input over a
    // power-of-two prescaler (1..256, the smallest that brings input / 16 to the request or
    // below) times a divisor 1..16 (the smallest not above the request, else 16).
    esdhc_imx,
    // meson-gx-mmc.c meson_mmc_clk_set through the common clock framework: a mux of two inputs
    // (clkin0, clkin1) in front of a one-based 6-bit divider; the fastest input / div, rounded
    // up, that is not above the request. Nothing reachable that low: clk_set_rate fails.
    meson_gx_mmc,
};

const char* to_string(sdio_clock_rule);

struct sdio_clock_error : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The clocks a rule divides.
struct sdio_clock_inputs {
    std::uint32_t input_hz = 0;        // sdhci: the capabilities' base clock; meson: clkin0
    unsigned multiplier = 0;           // sdhci: the capabilities' clock multiplier, 0 = none
    std::uint32_t second_input_hz = 0; // meson_gx_mmc: the mux's clkin1, 0 = none
};

// SD clock (Hz) the host driver programs for `requested_hz` from `in`. Throws sdio_clock_error
// when the input or the requested clock is 0, or the driver fails to set the clock.
std::uint32_t sdio_clock_hz(sdio_clock_rule rule, const sdio_clock_inputs& in,
                            std::uint32_t requested_hz);

} // namespace nicsim::sdio

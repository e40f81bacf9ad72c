// SPDX-License-Identifier: MIT
#include "bus/sdio/sdio_clock.h"

#include <string>

namespace nicsim::sdio {
namespace {

// sdhci_calc_clk for a version 3.00 host with preset values disabled (they are enabled only for
// UHS timings, which SDIO high speed is not).
std::uint32_t sdhci(std::uint64_t max_clk, std::uint64_t clk_mul, std::uint64_t clock) {
    if (clk_mul) {
        std::uint64_t div = 1;
        for (; div <= 1024; div++)
            if (max_clk * clk_mul / div <= clock)
                break;
        if (div <= 1024) // programmable clock mode
            return static_cast<std::uint32_t>(max_clk * clk_mul / div);
        // the divider cannot get that low: the base clock instead
    }
    std::uint64_t div = 1;
    if (max_clk > clock)
        for (div = 2; div < 2046; div += 2) // SDHCI_MAX_DIV_SPEC_300
            if (max_clk / div <= clock)
                break;
    return static_cast<std::uint32_t>(max_clk / div);
}

// bcm2835_set_clock (requests under 100 kHz take the largest divider).
std::uint32_t bcm2835_sdhost(std::uint32_t max_clk, std::uint32_t clock) {
    constexpr std::uint32_t max_cdiv = 0x7ff; // SDCDIV_MAX_CDIV
    if (clock < 100000)
        return max_clk / (max_cdiv + 2);
    std::uint32_t div = max_clk / clock;
    if (div < 2)
        div = 2;
    if (max_clk / div > clock)
        div++;
    div -= 2;
    if (div > max_cdiv)
        div = max_cdiv;
    return max_clk / (div + 2);
}

// mmci_sdmmc_set_clkreg outside DDR timings.
std::uint32_t stm32_sdmmc(std::uint32_t mclk, std::uint32_t desired) {
    constexpr std::uint64_t clkdiv_max = 1023; // MCI_STM32_CLK_CLKDIV_MSK
    if (desired >= mclk)
        return mclk;
    std::uint64_t clk = (std::uint64_t{mclk} + 2ull * desired - 1) / (2ull * desired);
    if (clk > clkdiv_max)
        clk = clkdiv_max;
    return static_cast<std::uint32_t>(mclk / (2 * clk));
}

// esdhc_pltfm_set_clock on a uSDHC in an SDR timing (SD high speed is one; the DDR timings,
// UHS DDR50 and eMMC DDR52, double the divisor). What the driver does besides does not move an
// SD high-speed clock on a uSDHC: the prescaler starting at 2 is the i.MX53 eSDHCv3's, and the
// ERR010450 cap (i.MX6UL/ULL: 150 MHz) lies above sdio_host.max_clock (<= 50 MHz).
std::uint32_t esdhc_imx(std::uint64_t host_clock, std::uint64_t clock) {
    std::uint64_t pre_div = 1; // SDCLKFS: the prescaler, a power of two
    while (pre_div < 256 && host_clock / (16 * pre_div) > clock)
        pre_div *= 2;
    std::uint64_t div = 1; // DVS + 1
    while (div < 16 && host_clock / (div * pre_div) > clock)
        div++;
    return static_cast<std::uint32_t>(host_clock / (div * pre_div));
}

// meson_mmc_clk_set in an SDR timing (DDR asks for twice the rate and halves the result):
// clk_set_rate on the driver's divider, which has CLK_SET_RATE_PARENT, over its mux, which has
// not. clk_divider_bestdiv tries every divider with the input the mux rounds rate x div to
// (clk_mux_determine_rate_flags: the fastest input not above it, the inputs' own rates fixed)
// and keeps the fastest DIV_ROUND_UP(input, div) not above the rate. Setting it reproduces that
// rate (the divider written, DIV_ROUND_UP(input, rate), may be smaller but divides to the same).
std::uint32_t meson_gx_mmc(std::uint64_t clkin0, std::uint64_t clkin1, std::uint64_t rate) {
    constexpr std::uint64_t max_div = 63; // CLK_DIV_MASK, 6 bits, CLK_DIVIDER_ONE_BASED
    std::uint64_t best = 0;
    for (std::uint64_t div = 1; div <= max_div; div++) {
        std::uint64_t in = 0;
        for (std::uint64_t c : {clkin0, clkin1})
            if (c && c <= rate * div && c > in)
                in = c;
        const std::uint64_t now = (in + div - 1) / div;
        if (now <= rate && now > best)
            best = now;
    }
    if (!best) // the mux has no input for the largest divider's rate either: -EINVAL
        throw sdio_clock_error("meson_gx_mmc: " + std::to_string(rate) + " Hz from inputs of " +
                               std::to_string(clkin0) + " and " + std::to_string(clkin1) +
                               " Hz: below the slowest input over 63, clk_set_rate fails");
    return static_cast<std::uint32_t>(best);
}

} // namespace

const char* to_string(sdio_clock_rule r) {
    switch (r) {
    case sdio_clock_rule::sdhci:
        return "sdhci";
    case sdio_clock_rule::bcm2835_sdhost:
        return "bcm2835_sdhost";
    case sdio_clock_rule::stm32_sdmmc:
        return "stm32_sdmmc";
    case sdio_clock_rule::esdhc_imx:
        return "esdhc_imx";
    case sdio_clock_rule::meson_gx_mmc:
        return "meson_gx_mmc";
    }
    return "?";
}

std::uint32_t sdio_clock_hz(sdio_clock_rule rule, const sdio_clock_inputs& in,
                            std::uint32_t requested_hz) {
    if (in.input_hz == 0 || requested_hz == 0)
        throw sdio_clock_error(std::string(to_string(rule)) + ": " +
                               std::to_string(requested_hz) + " Hz from an input clock of " +
                               std::to_string(in.input_hz) + " Hz: both clocks must be > 0");
    switch (rule) {
    case sdio_clock_rule::sdhci:
        return sdhci(in.input_hz, in.multiplier, requested_hz);
    case sdio_clock_rule::bcm2835_sdhost:
        return bcm2835_sdhost(in.input_hz, requested_hz);
    case sdio_clock_rule::stm32_sdmmc:
        return stm32_sdmmc(in.input_hz, requested_hz);
    case sdio_clock_rule::esdhc_imx:
        return esdhc_imx(in.input_hz, requested_hz);
    case sdio_clock_rule::meson_gx_mmc:
        return meson_gx_mmc(in.input_hz, in.second_input_hz, requested_hz);
    }
    throw sdio_clock_error("unknown SD clock rule");
}

} // namespace nicsim::sdio

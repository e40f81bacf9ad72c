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

} // namespace

const char* to_string(sdio_clock_rule r) {
    switch (r) {
    case sdio_clock_rule::sdhci:
        return "sdhci";
    case sdio_clock_rule::bcm2835_sdhost:
        return "bcm2835_sdhost";
    case sdio_clock_rule::stm32_sdmmc:
        return "stm32_sdmmc";
    }
    return "?";
}

std::uint32_t sdio_clock_hz(sdio_clock_rule rule, std::uint32_t input_hz, unsigned multiplier,
                            std::uint32_t requested_hz) {
    if (input_hz == 0 || requested_hz == 0)
        throw sdio_clock_error(std::string(to_string(rule)) + ": " +
                               std::to_string(requested_hz) + " Hz from an input clock of " +
                               std::to_string(input_hz) + " Hz: both clocks must be > 0");
    switch (rule) {
    case sdio_clock_rule::sdhci:
        return sdhci(input_hz, multiplier, requested_hz);
    case sdio_clock_rule::bcm2835_sdhost:
        return bcm2835_sdhost(input_hz, requested_hz);
    case sdio_clock_rule::stm32_sdmmc:
        return stm32_sdmmc(input_hz, requested_hz);
    }
    throw sdio_clock_error("unknown SD clock rule");
}

} // namespace nicsim::sdio

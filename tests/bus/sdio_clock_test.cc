// SPDX-License-Identifier: MIT
// The SD clock each host driver programs (bus/sdio/sdio_clock.h), against dividers computed by
// hand from the drivers' code (Linux 6.1, docs/sources.md#sd-clock-dividers).
#include "bus/sdio/sdio_clock.h"

#include <gtest/gtest.h>

using nicsim::sdio::sdio_clock_error;
using nicsim::sdio::sdio_clock_hz;
using nicsim::sdio::sdio_clock_rule;

namespace {

constexpr std::uint32_t MHz = 1'000'000;

// sdhci.c sdhci_calc_clk, programmable clock mode (sdhci-of-at91: 12 MHz base x 40 = 480 MHz).
TEST(SdioClock, SdhciProgrammableModeDividesBaseTimesMultiplier) {
    const auto r = sdio_clock_rule::sdhci;
    EXPECT_EQ(sdio_clock_hz(r, 12 * MHz, 40, 50 * MHz), 48'000'000u);   // div 10
    EXPECT_EQ(sdio_clock_hz(r, 12 * MHz, 40, 25 * MHz), 24'000'000u);   // div 20
    EXPECT_EQ(sdio_clock_hz(r, 12 * MHz, 40, 12'500'000), 12'307'692u); // div 39
    // 480 MHz / 1024 is still above 400 kHz: the base clock over an even divider (30).
    EXPECT_EQ(sdio_clock_hz(r, 12 * MHz, 40, 400'000), 400'000u);
}

// sdhci_calc_clk without a multiplier: version 3.00 divisors are 1 or even.
TEST(SdioClock, SdhciDividedModeUsesEvenDivisors) {
    const auto r = sdio_clock_rule::sdhci;
    EXPECT_EQ(sdio_clock_hz(r, 50 * MHz, 0, 50 * MHz), 50'000'000u);   // div 1
    EXPECT_EQ(sdio_clock_hz(r, 100 * MHz, 0, 50 * MHz), 50'000'000u);  // div 2
    EXPECT_EQ(sdio_clock_hz(r, 100 * MHz, 0, 30 * MHz), 25'000'000u);  // div 4
    EXPECT_EQ(sdio_clock_hz(r, 200 * MHz, 0, 400'000), 400'000u);      // div 500
    EXPECT_EQ(sdio_clock_hz(r, 200 * MHz, 0, 1'000), 97'751u);         // div 2046, the largest
}

// bcm2835.c bcm2835_set_clock: clk / (SDCDIV + 2), never above the request.
TEST(SdioClock, Bcm2835SdhostDividerPlusTwo) {
    const auto r = sdio_clock_rule::bcm2835_sdhost;
    EXPECT_EQ(sdio_clock_hz(r, 250 * MHz, 0, 50 * MHz), 50'000'000u);  // SDCDIV 3
    EXPECT_EQ(sdio_clock_hz(r, 250 * MHz, 0, 45 * MHz), 41'666'666u);  // SDCDIV 4
    EXPECT_EQ(sdio_clock_hz(r, 250 * MHz, 0, 400'000), 400'000u);      // SDCDIV 623
    EXPECT_EQ(sdio_clock_hz(r, 250 * MHz, 0, 200 * MHz), 125'000'000u); // SDCDIV 0
}

// mmci_stm32_sdmmc.c mmci_sdmmc_set_clkreg: mclk / (2 x DIV_ROUND_UP(mclk, 2 x desired)).
TEST(SdioClock, Stm32SdmmcHalvesOverCeilDivider) {
    const auto r = sdio_clock_rule::stm32_sdmmc;
    EXPECT_EQ(sdio_clock_hz(r, 99 * MHz, 0, 50 * MHz), 49'500'000u);  // CLKDIV 1
    EXPECT_EQ(sdio_clock_hz(r, 99 * MHz, 0, 25 * MHz), 24'750'000u);  // CLKDIV 2
    EXPECT_EQ(sdio_clock_hz(r, 99 * MHz, 0, 120 * MHz), 99'000'000u); // bypass
    EXPECT_EQ(sdio_clock_hz(r, 99 * MHz, 0, 10'000), 48'387u);        // CLKDIV 1023, the largest
}

TEST(SdioClock, ZeroClocksAreRefused) {
    EXPECT_THROW(sdio_clock_hz(sdio_clock_rule::sdhci, 0, 0, 1), sdio_clock_error);
    EXPECT_THROW(sdio_clock_hz(sdio_clock_rule::stm32_sdmmc, 1, 0, 0), sdio_clock_error);
}

} // namespace

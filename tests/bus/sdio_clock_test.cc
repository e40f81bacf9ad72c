// SPDX-License-Identifier: MIT
// The SD clock each host driver programs (bus/sdio/sdio_clock.h), against dividers computed by
// hand from the drivers' code (Linux 6.1, docs/sources.md#sd-clock-dividers).
#include "bus/sdio/sdio_clock.h"

#include <gtest/gtest.h>

using nicsim::sdio::sdio_clock_error;
using nicsim::sdio::sdio_clock_hz;
using nicsim::sdio::sdio_clock_inputs;
using nicsim::sdio::sdio_clock_rule;

namespace {

constexpr std::uint32_t MHz = 1'000'000;

// sdhci.c sdhci_calc_clk, programmable clock mode (sdhci-of-at91: 12 MHz base x 40 = 480 MHz).
TEST(SdioClock, SdhciProgrammableModeDividesBaseTimesMultiplier) {
    const auto r = sdio_clock_rule::sdhci;
    EXPECT_EQ(sdio_clock_hz(r, {12 * MHz, 40}, 50 * MHz), 48'000'000u);   // div 10
    EXPECT_EQ(sdio_clock_hz(r, {12 * MHz, 40}, 25 * MHz), 24'000'000u);   // div 20
    EXPECT_EQ(sdio_clock_hz(r, {12 * MHz, 40}, 12'500'000), 12'307'692u); // div 39
    // 480 MHz / 1024 is still above 400 kHz: the base clock over an even divider (30).
    EXPECT_EQ(sdio_clock_hz(r, {12 * MHz, 40}, 400'000), 400'000u);
}

// sdhci_calc_clk without a multiplier: version 3.00 divisors are 1 or even.
TEST(SdioClock, SdhciDividedModeUsesEvenDivisors) {
    const auto r = sdio_clock_rule::sdhci;
    EXPECT_EQ(sdio_clock_hz(r, {50 * MHz, 0}, 50 * MHz), 50'000'000u);   // div 1
    EXPECT_EQ(sdio_clock_hz(r, {100 * MHz, 0}, 50 * MHz), 50'000'000u);  // div 2
    EXPECT_EQ(sdio_clock_hz(r, {100 * MHz, 0}, 30 * MHz), 25'000'000u);  // div 4
    EXPECT_EQ(sdio_clock_hz(r, {200 * MHz, 0}, 400'000), 400'000u);      // div 500
    EXPECT_EQ(sdio_clock_hz(r, {200 * MHz, 0}, 1'000), 97'751u);         // div 2046, the largest
}

// bcm2835.c bcm2835_set_clock: clk / (SDCDIV + 2), never above the request.
TEST(SdioClock, Bcm2835SdhostDividerPlusTwo) {
    const auto r = sdio_clock_rule::bcm2835_sdhost;
    EXPECT_EQ(sdio_clock_hz(r, {250 * MHz, 0}, 50 * MHz), 50'000'000u);  // SDCDIV 3
    EXPECT_EQ(sdio_clock_hz(r, {250 * MHz, 0}, 45 * MHz), 41'666'666u);  // SDCDIV 4
    EXPECT_EQ(sdio_clock_hz(r, {250 * MHz, 0}, 400'000), 400'000u);      // SDCDIV 623
    EXPECT_EQ(sdio_clock_hz(r, {250 * MHz, 0}, 200 * MHz), 125'000'000u); // SDCDIV 0
}

// mmci_stm32_sdmmc.c mmci_sdmmc_set_clkreg: mclk / (2 x DIV_ROUND_UP(mclk, 2 x desired)).
TEST(SdioClock, Stm32SdmmcHalvesOverCeilDivider) {
    const auto r = sdio_clock_rule::stm32_sdmmc;
    EXPECT_EQ(sdio_clock_hz(r, {99 * MHz, 0}, 50 * MHz), 49'500'000u);  // CLKDIV 1
    EXPECT_EQ(sdio_clock_hz(r, {99 * MHz, 0}, 25 * MHz), 24'750'000u);  // CLKDIV 2
    EXPECT_EQ(sdio_clock_hz(r, {99 * MHz, 0}, 120 * MHz), 99'000'000u); // bypass
    EXPECT_EQ(sdio_clock_hz(r, {99 * MHz, 0}, 10'000), 48'387u);        // CLKDIV 1023, the largest
}

// sdhci-esdhc-imx.c esdhc_pltfm_set_clock (uSDHC, SDR): input / (prescaler x divisor), the
// prescaler the smallest power of two (to 256) with input / (16 x prescaler) not above the
// request, then the smallest divisor 1..16 not above it; the quotient rounded down. Input: the
// i.MX6ULL usdhc root, 198 MHz (docs/sources.md#sd-clock-dividers).
TEST(SdioClock, EsdhcImxPrescalerThenDivisor) {
    const auto r = sdio_clock_rule::esdhc_imx;
    const sdio_clock_inputs in{198 * MHz};
    EXPECT_EQ(sdio_clock_hz(r, in, 50 * MHz), 49'500'000u);  // pre 1, div 4
    EXPECT_EQ(sdio_clock_hz(r, in, 25 * MHz), 24'750'000u);  // pre 1, div 8
    EXPECT_EQ(sdio_clock_hz(r, in, 33 * MHz), 33'000'000u);  // pre 1, div 6: exact
    // 198 / 16 = 12.375 MHz is above 12 MHz: prescaler 2, so only even totals; 198 / 17 =
    // 11.65 MHz is not reachable, 198 / 18 = 11 MHz is.
    EXPECT_EQ(sdio_clock_hz(r, in, 12 * MHz), 11'000'000u);
    EXPECT_EQ(sdio_clock_hz(r, in, 400'000), 386'718u);      // pre 32, div 16: 386718.75 down
    EXPECT_EQ(sdio_clock_hz(r, in, 200 * MHz), 198'000'000u); // above the input: pre 1, div 1
    // Below input / 4096 (the driver's get_min_clock): the largest divider, above the request.
    EXPECT_EQ(sdio_clock_hz(r, in, 10'000), 48'339u);         // pre 256, div 16
}

// meson-gx-mmc.c meson_mmc_clk_set through clk-divider.c / clk.c: the mux of clkin0 (24 MHz,
// meson-gxbb.dtsi assigned-clock-rates) and clkin1 (fclk_div2, 1 GHz) in front of a divider
// 1..63; the fastest DIV_ROUND_UP(input, div) not above the request.
TEST(SdioClock, MesonGxMmcFastestInputOverDivider) {
    const auto r = sdio_clock_rule::meson_gx_mmc;
    const sdio_clock_inputs in{24 * MHz, 0, 1000 * MHz};
    EXPECT_EQ(sdio_clock_hz(r, in, 50 * MHz), 50'000'000u);   // clkin1 / 20: exact
    EXPECT_EQ(sdio_clock_hz(r, in, 45 * MHz), 43'478'261u);   // clkin1 / 23, rounded up
    // One hertz below clkin1 / 23 (rounded up): request x 23 is below clkin1, so the mux offers
    // only clkin0 there; / 24 is the fastest.
    EXPECT_EQ(sdio_clock_hz(r, in, 43'478'260), 41'666'667u);
    EXPECT_EQ(sdio_clock_hz(r, in, 16 * MHz), 15'873'016u);   // clkin1 / 63, the largest
    // Below clkin1 / 63 the mux takes clkin0: 24 MHz / 2.
    EXPECT_EQ(sdio_clock_hz(r, in, 15 * MHz), 12'000'000u);
    EXPECT_EQ(sdio_clock_hz(r, in, 400'000), 400'000u);       // clkin0 / 60
    EXPECT_EQ(sdio_clock_hz(r, in, 2000 * MHz), 1'000'000'000u); // above both: clkin1 / 1
    // Below clkin0 / 63 (380953 Hz) nothing is reachable: clk_set_rate fails.
    EXPECT_EQ(sdio_clock_hz(r, in, 380'953), 380'953u);
    EXPECT_THROW(sdio_clock_hz(r, in, 380'952), sdio_clock_error);
    // Without its second input the mux has clkin0 only.
    EXPECT_EQ(sdio_clock_hz(r, {24 * MHz}, 50 * MHz), 24'000'000u);
}

TEST(SdioClock, ZeroClocksAreRefused) {
    EXPECT_THROW(sdio_clock_hz(sdio_clock_rule::sdhci, {0, 0}, 1), sdio_clock_error);
    EXPECT_THROW(sdio_clock_hz(sdio_clock_rule::stm32_sdmmc, {1, 0}, 0), sdio_clock_error);
}

} // namespace

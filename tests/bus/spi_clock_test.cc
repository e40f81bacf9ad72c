// SPDX-License-Identifier: MIT
// The SCK each SPI controller driver programs (bus/spi/spi_clock.h), against dividers computed
// by hand from the drivers' code (Linux 6.1, docs/sources.md#spi-clock-dividers).
#include "bus/spi/spi_clock.h"

#include <gtest/gtest.h>

using nicsim::spi::spi_clock_error;
using nicsim::spi::spi_clock_rule;
using nicsim::spi::spi_sck_hz;

namespace {

constexpr std::uint32_t MHz = 1'000'000;

// spi-atmel.c atmel_spi_set_xfer_speed: SCBR = DIV_ROUND_UP(clk, speed), SCK = clk / SCBR.
TEST(SpiClock, AtmelScbrRoundsTheDividerUp) {
    const auto r = spi_clock_rule::atmel_scbr;
    EXPECT_EQ(spi_sck_hz(r, 83 * MHz, 48 * MHz), 41'500'000u);  // SCBR 2 (SAMA5D2)
    EXPECT_EQ(spi_sck_hz(r, 132 * MHz, 48 * MHz), 44'000'000u); // SCBR 3 (SAMA5D3)
    EXPECT_EQ(spi_sck_hz(r, 83 * MHz, 25 * MHz), 20'750'000u);  // SCBR 4 (3.32 rounded up)
    EXPECT_EQ(spi_sck_hz(r, 83 * MHz, 83 * MHz), 83'000'000u);  // SCBR 1
    EXPECT_EQ(spi_sck_hz(r, 83 * MHz, 100 * MHz), 83'000'000u); // SCBR 1: above the clock
    EXPECT_EQ(spi_sck_hz(r, 83 * MHz, 330'000), 329'365u);      // SCBR 252
}

TEST(SpiClock, AtmelScbrRefusesADividerOf256) {
    // 83 MHz / 300 kHz = 276.7: SCBR 277 does not fit 8 bits, the driver returns -EINVAL.
    try {
        spi_sck_hz(spi_clock_rule::atmel_scbr, 83 * MHz, 300'000);
        FAIL() << "no error";
    } catch (const spi_clock_error& e) {
        EXPECT_NE(std::string(e.what()).find("atmel_scbr: 300000 Hz"), std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("SCBR 277"), std::string::npos) << e.what();
    }
}

// spi-bcm2835.c bcm2835_spi_transfer_one: CDIV = DIV_ROUND_UP(clk, speed) made even, 2 at least.
TEST(SpiClock, Bcm2835CdivIsEvenAndRoundedUp) {
    const auto r = spi_clock_rule::bcm2835_cdiv;
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 25 * MHz), 25'000'000u);   // CDIV 10
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 12 * MHz), 11'363'636u);   // 20.8 -> 21 -> 22
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 20 * MHz), 17'857'142u);   // 12.5 -> 13 -> 14
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 30 * MHz), 25'000'000u);   // 8.3 -> 9 -> 10
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 40 * MHz), 31'250'000u);   // 6.25 -> 7 -> 8
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 125 * MHz), 125'000'000u); // clk / 2, the fastest
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 200 * MHz), 125'000'000u);
    EXPECT_EQ(spi_sck_hz(r, 400 * MHz, 25 * MHz), 25'000'000u); // CDIV 16
    // CDIV >= 65536 is written as 0, which the block takes as 65536.
    EXPECT_EQ(spi_sck_hz(r, 250 * MHz, 1'000), 3'814u);
}

// spi-imx.c mx51_ecspi_clkdiv: post = smallest with fin <= fspi << post, less the 4 bits the
// pre-divider covers; pre = DIV_ROUND_UP(fin, fspi << post) - 1; SCK = (fin / (pre + 1)) >> post.
TEST(SpiClock, ImxEcspiPreAndPostDividers) {
    const auto r = spi_clock_rule::imx_ecspi;
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 30 * MHz), 30'000'000u); // pre 1, post 0
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 25 * MHz), 20'000'000u); // pre 2, post 0
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 20 * MHz), 20'000'000u); // pre 2, post 0
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 7 * MHz), 6'666'666u);   // pre 8, post 0
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 1 * MHz), 1'000'000u);   // pre 14, post 2
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 900'000), 833'333u);     // pre 8, post 3
    EXPECT_EQ(spi_sck_hz(r, 60 * MHz, 100 * MHz), 60'000'000u); // fspi = min(fspi, fin)
    EXPECT_THROW(spi_sck_hz(r, 60 * MHz, 1), spi_clock_error); // post 22 > 15
}

// spi-stm32.c stm32_spi_prepare_mbr (STM32H7/MP1: divider 2..256): div = DIV_ROUND_CLOSEST(clk
// & ~1, speed), rounded up to a power of two; the SPI core clamps to clk / 2 and refuses speeds
// below clk / 256.
TEST(SpiClock, Stm32MbrIsAPowerOfTwoOfTheNearestDivider) {
    const auto r = spi_clock_rule::stm32_mbr;
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 25 * MHz), 25'000'000u); // div 4
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 30 * MHz), 25'000'000u); // div 3 -> 4
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 45 * MHz), 50'000'000u); // div 2.2 -> 2: above the request
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 20 * MHz), 12'500'000u); // div 5 -> 8
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 60 * MHz), 50'000'000u); // clamped to clk / 2
    EXPECT_EQ(spi_sck_hz(r, 100 * MHz, 400'000), 390'625u);     // div 250 -> 256
    EXPECT_EQ(spi_sck_hz(r, 99'000'001, 33 * MHz), 24'750'000u); // clk & ~1; div 3 -> 4
    EXPECT_THROW(spi_sck_hz(r, 100 * MHz, 300'000), spi_clock_error); // < min_speed_hz 390625
}

// spi-dw-core.c dw_spi_update_config: BAUDR = (DIV_ROUND_UP(clk, speed) + 1) & 0xfffe, the SPI
// core having clamped speed to max_speed_hz = clk (RP1 on a Raspberry Pi 5: clk_sys 200 MHz).
TEST(SpiClock, DwSsiBaudrIsEvenAndRoundedUp) {
    const auto r = spi_clock_rule::dw_ssi;
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 48 * MHz), 33'333'333u);   // 4.17 -> 5 -> 6
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 25 * MHz), 25'000'000u);   // 8 -> 8
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 12 * MHz), 11'111'111u);   // 16.7 -> 17 -> 18
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 100 * MHz), 100'000'000u); // 2 -> 2
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 300 * MHz), 100'000'000u); // clamped to clk: 1 -> 2
    EXPECT_EQ(spi_sck_hz(r, 200 * MHz, 3'052), 3'051u);           // 65531 -> 65532
    EXPECT_THROW(spi_sck_hz(r, 200 * MHz, 3'051), spi_clock_error); // 65554: not 16 bits
}

TEST(SpiClock, ZeroClocksAreRefused) {
    EXPECT_THROW(spi_sck_hz(spi_clock_rule::bcm2835_cdiv, 0, 1), spi_clock_error);
    EXPECT_THROW(spi_sck_hz(spi_clock_rule::atmel_scbr, 1, 0), spi_clock_error);
}

} // namespace

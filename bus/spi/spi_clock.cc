// SPDX-License-Identifier: MIT
#include "bus/spi/spi_clock.h"

#include <algorithm>
#include <string>

namespace nicsim::spi {
namespace {

std::uint64_t div_round_up(std::uint64_t n, std::uint64_t d) {
    return (n + d - 1) / d;
}

// fls(): 1-based index of the highest set bit, 0 for 0 (include/asm-generic/bitops/fls.h).
unsigned fls(std::uint32_t x) {
    unsigned r = 0;
    while (x) {
        ++r;
        x >>= 1;
    }
    return r;
}

[[noreturn]] void refuse(spi_clock_rule rule, std::uint32_t input_hz, std::uint32_t requested_hz,
                         const std::string& why) {
    throw spi_clock_error(std::string(to_string(rule)) + ": " + std::to_string(requested_hz) +
                          " Hz from an input clock of " + std::to_string(input_hz) + " Hz: " +
                          why);
}

// atmel_spi_set_xfer_speed (SAMA5 parts are SPI version > 0x121, "v2": no halving of the
// peripheral clock).
std::uint32_t atmel_scbr(std::uint32_t clk, std::uint32_t speed) {
    const std::uint64_t scbr = div_round_up(clk, speed);
    if (scbr >= 256)
        refuse(spi_clock_rule::atmel_scbr, clk, speed,
               "SCBR " + std::to_string(scbr) + " does not fit its 8 bits (too slow)");
    return static_cast<std::uint32_t>(clk / scbr);
}

// bcm2835_spi_transfer_one: CDIV even, clk/2 the fastest; a divider >= 65536 becomes 0, which the
// block takes as 65536.
std::uint32_t bcm2835_cdiv(std::uint32_t clk, std::uint32_t speed) {
    std::uint64_t cdiv;
    if (speed >= clk / 2) {
        cdiv = 2;
    } else {
        cdiv = div_round_up(clk, speed);
        cdiv += cdiv % 2;
        if (cdiv >= 65536)
            cdiv = 0;
    }
    return static_cast<std::uint32_t>(cdiv ? clk / cdiv : clk / 65536);
}

// mx51_ecspi_clkdiv: SCK = (fin / (pre + 1)) >> post with the smallest post, then the smallest pre.
std::uint32_t imx_ecspi(std::uint32_t fin, std::uint32_t fspi) {
    fspi = std::min(fspi, fin);
    unsigned post = fls(fin) - fls(fspi);
    if (std::uint64_t{fin} > (std::uint64_t{fspi} << post))
        post++;
    post = std::max(4u, post) - 4;
    if (post > 0xf)
        refuse(spi_clock_rule::imx_ecspi, fin, fspi,
               "post-divider 2^" + std::to_string(post) + " above 2^15 (too slow)");
    const std::uint64_t pre = div_round_up(fin, std::uint64_t{fspi} << post) - 1;
    return static_cast<std::uint32_t>((fin / (pre + 1)) >> post);
}

// stm32_spi_prepare_mbr with the STM32H7/MP1 limits (divider 2 .. 256): the divider nearest to
// the request, rounded up to a power of two; the SPI core refuses speeds below clk / 256 first
// and clamps speeds above clk / 2 (the controller's min/max_speed_hz).
std::uint32_t stm32_mbr(std::uint32_t clk, std::uint32_t speed) {
    if (speed < clk / 256)
        refuse(spi_clock_rule::stm32_mbr, clk, speed,
               "below the controller's min_speed_hz = " + std::to_string(clk / 256) + " Hz");
    speed = std::min(speed, clk / 2);
    const std::uint32_t even = clk & ~1u;
    const std::uint32_t div = (even + speed / 2) / speed; // DIV_ROUND_CLOSEST
    if (div < 2 || div > 256)
        refuse(spi_clock_rule::stm32_mbr, clk, speed,
               "divider " + std::to_string(div) + " outside 2..256");
    const unsigned mbrdiv = (div & (div - 1)) ? fls(div) : fls(div) - 1;
    return clk >> mbrdiv;
}

// dw_spi_update_config: clk_div = (DIV_ROUND_UP(max_freq, freq) + 1) & 0xfffe, a 16-bit BAUDR
// (0 when the rounded divider is 65536, which the block leaves unclocked: refused here); the
// SPI core has already clamped freq to max_speed_hz = max_freq, so clk_div is 2 at least.
std::uint32_t dw_ssi(std::uint32_t clk, std::uint32_t speed) {
    speed = std::min(speed, clk);
    const std::uint64_t div = (div_round_up(clk, speed) + 1) & ~std::uint64_t{1};
    if (div > 0xfffe)
        refuse(spi_clock_rule::dw_ssi, clk, speed,
               "BAUDR " + std::to_string(div) + " does not fit its 16 bits (too slow)");
    return static_cast<std::uint32_t>(clk / div);
}

} // namespace

const char* to_string(spi_clock_rule r) {
    switch (r) {
    case spi_clock_rule::atmel_scbr:
        return "atmel_scbr";
    case spi_clock_rule::bcm2835_cdiv:
        return "bcm2835_cdiv";
    case spi_clock_rule::imx_ecspi:
        return "imx_ecspi";
    case spi_clock_rule::stm32_mbr:
        return "stm32_mbr";
    case spi_clock_rule::dw_ssi:
        return "dw_ssi";
    }
    return "?";
}

std::uint32_t spi_sck_hz(spi_clock_rule rule, std::uint32_t input_hz, std::uint32_t requested_hz) {
    if (input_hz == 0 || requested_hz == 0)
        refuse(rule, input_hz, requested_hz, "both clocks must be > 0");
    switch (rule) {
    case spi_clock_rule::atmel_scbr:
        return atmel_scbr(input_hz, requested_hz);
    case spi_clock_rule::bcm2835_cdiv:
        return bcm2835_cdiv(input_hz, requested_hz);
    case spi_clock_rule::imx_ecspi:
        return imx_ecspi(input_hz, requested_hz);
    case spi_clock_rule::stm32_mbr:
        return stm32_mbr(input_hz, requested_hz);
    case spi_clock_rule::dw_ssi:
        return dw_ssi(input_hz, requested_hz);
    }
    refuse(rule, input_hz, requested_hz, "unknown rule");
}

} // namespace nicsim::spi

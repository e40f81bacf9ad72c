// SPDX-License-Identifier: MIT
// The controller drivers' clock dividers in a run (host/board/bus_clock.h,
// docs/bus-spi.md#sck-from-the-controllers-divider): the bus shifts at the SCK / SD clock the
// profile's rule makes of device.bus_clock, and the device report gives that clock. One process
// per TEST (SystemC runs once).
#include <gtest/gtest.h>

#include "host/board/bus_clock.h"
#include "tests/system/system_test_support.h"

using namespace nicsim;
using namespace nicsim::test;

namespace {

// ENC28J60 at a requested 12 MHz on spi-bcm2835 with a 250 MHz core clock: CDIV 22 (20.8 rounded
// up to even), 11.364 MHz. Every SPI word of the driver is 8 bits with no idle SCK between words
// (rpi-class), so the bits clocked over the SCK time are the SCK frequency.
TEST(BusClock, SpiRunsAtTheControllersDividedClock) {
    const auto l = load_shipped("enc28j60-spi-iperf-tx.yaml",
                                {"duration=0.3s", "platform.spi_host.clock_rule=bcm2835_cdiv",
                                 "platform.spi_host.input_clock=250MHz"});
    device_system sys("system", l.scenario, l.platform);
    const report::report r = sys.run();
    ASSERT_EQ(r.devices.size(), 1u);
    EXPECT_DOUBLE_EQ(r.devices[0].bus_clock_hz, 11'363'636.0);
    const auto& st = sys.board().spi_host_if_used()->stats();
    ASSERT_GT(st.bytes, 1000u);
    const double sck_hz = 8.0 * double(st.bytes) / st.sck_time.to_seconds();
    EXPECT_NEAR(sck_hz, 250e6 / 22, 10.0);
}

// Without a rule the bus runs at the request (the SPI core's clamp aside). Every shipped profile
// names its rule, so the test drops rpi-class's.
TEST(BusClock, SpiWithoutARuleRunsAtTheRequest) {
    auto l = load_shipped("enc28j60-spi-iperf-tx.yaml", {"duration=0.3s"});
    l.platform.spi_host.clock_rule.reset();
    device_system sys("system", l.scenario, l.platform);
    const report::report r = sys.run();
    EXPECT_DOUBLE_EQ(r.devices.at(0).bus_clock_hz, 12e6);
    const auto& st = sys.board().spi_host_if_used()->stats();
    EXPECT_NEAR(8.0 * double(st.bytes) / st.sck_time.to_seconds(), 12e6, 10.0);
}

// WILC1000 over SDIO at a requested 50 MHz on sdhci-at91 (12 MHz base x 40): 480 / 10 = 48 MHz.
TEST(BusClock, SdioRunsAtTheHostsDividedClock) {
    const auto l = load_shipped("wilc1000-sdio-ttcp-tx.yaml",
                                {"duration=0.2s", "platform.sdio_host.clock_rule=sdhci",
                                 "platform.sdio_host.input_clock=12MHz",
                                 "platform.sdio_host.clock_multiplier=40"});
    device_system sys("system", l.scenario, l.platform);
    const report::report r = sys.run();
    EXPECT_EQ(sys.board().sdio_host_if_used()->clock_hz(), 48'000'000u);
    EXPECT_DOUBLE_EQ(r.devices.at(0).bus_clock_hz, 48e6);
}

// A clock the driver refuses is rejected when the scenario loads, naming device.bus_clock and
// the platform: atmel_spi's SCBR of 83 MHz / 300 kHz = 277 does not fit 8 bits.
TEST(BusClock, ARefusedClockIsRejectedAtTheKey) {
    try {
        load_shipped("wilc1000-spi-ttcp-tx.yaml", {"device.bus_clock=300kHz",
                                                   "platform.spi_host.clock_rule=atmel_scbr",
                                                   "platform.spi_host.input_clock=83MHz"});
        FAIL() << "no error for a clock the driver refuses";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("device.bus_clock"), std::string::npos) << m;
        EXPECT_NE(m.find("platform 'sama5-class'"), std::string::npos) << m;
        EXPECT_NE(m.find("SCBR 277"), std::string::npos) << m;
    }
}

// An SD clock the host driver fails to set is rejected the same way: meson-gx-mmc's divider
// reaches no lower than 24 MHz / 63 (clk_set_rate fails below); a meson_gx_mmc rule without its
// mux's second input is a profile error naming the rule.
TEST(BusClock, ASdClockTheHostCannotSetIsRejectedAtTheKey) {
    const std::vector<std::string> meson = {"platform.sdio_host.clock_rule=meson_gx_mmc",
                                            "platform.sdio_host.input_clock=24MHz"};
    auto with = [&](std::vector<std::string> more) {
        more.insert(more.begin(), meson.begin(), meson.end());
        return more;
    };
    // 45 MHz: 1 GHz / 23, rounded up.
    const auto ok = load_shipped("wilc1000-sdio-ttcp-tx.yaml",
                                 with({"platform.sdio_host.second_input_clock=1GHz"}));
    EXPECT_EQ(board::sd_clock_hz(ok.platform.sdio_host, 45'000'000), 43'478'261u);
    try {
        load_shipped("wilc1000-sdio-ttcp-tx.yaml",
                     with({"platform.sdio_host.second_input_clock=1GHz", "device.bus_clock=300kHz"}));
        FAIL() << "no error for a clock the driver cannot set";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("device.bus_clock"), std::string::npos) << m;
        EXPECT_NE(m.find("platform 'sama5-class'"), std::string::npos) << m;
        EXPECT_NE(m.find("clk_set_rate fails"), std::string::npos) << m;
    }
    try {
        load_shipped("wilc1000-sdio-ttcp-tx.yaml", with({}));
        FAIL() << "no error for meson_gx_mmc without second_input_clock";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("clock_rule"), std::string::npos) << m;
        EXPECT_NE(m.find("second_input_clock"), std::string::npos) << m;
    }
}

} // namespace

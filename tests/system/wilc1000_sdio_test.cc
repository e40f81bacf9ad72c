// SPDX-License-Identifier: MIT
// Issue 5 item 4: the real wilc1000 6.1 sdio.c driver, through the MMC core emulation
// (kernel/lx_emul_bus/sdio.c), against the chip model strapped for SDIO on the cycle-timed SDIO
// bus: bring-up, byte-exact TCP in both directions, the in-band interrupt, and the wake-ups of
// power save counted from the driver code (the same wlan.c paths as SPI: see
// power_save_test.cc for the derivation of the formula).
#include "tests/system/system_test_support.h"

namespace nicsim {
namespace {

using test::driver_log;
using test::load_shipped;
using test::netdev_mac;
using test::netdev_state;
using test::wilc1000_sdio_test_system;
using test::wilc1000_spi_test_system;

// sdio.c's wilc_sdio_init prints the chip id with dev_err ("chipid (%08x)") on every bring-up:
// the driver's own wording, not an error of the run.
std::vector<std::string> real_errors(const driver_log& log) {
    std::vector<std::string> out;
    for (const auto& e : log.errors())
        if (e.find("chipid (") == std::string::npos)
            out.push_back(e);
    return out;
}

TEST(Wilc1000SdioBringUp, ReachesInterfaceUpOverSdioWithTheMacTheChipHolds) {
    driver_log log;
    const auto ls = load_shipped("wilc1000-sdio-ttcp-tx.yaml",
                                 {"traffic.bytes=8KiB", "driver.power_save=false"});
    wilc::params chip;
    chip.mac_addr = {0x02, 0x5a, 0x17, 0xc3, 0x9e, 0x42};
    wilc1000_sdio_test_system sys("system", ls.scenario, ls.platform, chip);
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const report::report r = sys.run();

    ASSERT_NE(sys.netdev(), nullptr);
    const auto st = netdev_state(sys);
    EXPECT_TRUE(st.registered);
    EXPECT_TRUE(st.running);
    EXPECT_EQ(netdev_mac(sys), chip.mac_addr);
    EXPECT_TRUE(sys.chip().core.firmware_ready());
    EXPECT_TRUE(log.contains("ChipID [1003a0]"));
    EXPECT_TRUE(log.contains("has_thrpt_enh3 = 1")) << "sdio init did not read the chip id";
    const auto errors = real_errors(log);
    EXPECT_TRUE(errors.empty()) << "driver error line: " << errors.front();
    EXPECT_EQ(r.end_reason, "traffic complete");
    EXPECT_EQ(r.flows.at(0).bytes, 8u * 1024);

    // It really went over SDIO: both command kinds, 4 bits wide at the scenario's clock, and
    // the firmware's messages came through the in-band interrupt.
    const auto& hs = sys.sdio_host().stats();
    EXPECT_GT(hs.cmd52, 0u);
    EXPECT_GT(hs.cmd53, 0u);
    EXPECT_GT(hs.card_irqs, 0u);
    EXPECT_EQ(sys.sdio_host().bus_width(), 4u);
    // 50 MHz requested; sama5-class's sdhci makes 480 MHz / 10 of it (docs/bus-sdio.md).
    EXPECT_EQ(sys.sdio_host().clock_hz(), 48'000'000u);
    const auto& d = r.devices.at(0);
    EXPECT_EQ(d.bus, "sdio");
    ASSERT_EQ(d.bus_commands.size(), 2u);
    EXPECT_EQ(d.bus_commands[0].second, hs.cmd52);
    EXPECT_EQ(d.bus_commands[1].second, hs.cmd53);
    EXPECT_EQ(d.bus_transactions, hs.cmd52 + hs.cmd53);
    EXPECT_EQ(d.irqs, hs.card_irqs);
}

void expect_tcp_conserves_bytes(const char* file, bool power_save, unsigned width) {
    driver_log log;
    const uint64_t total = 128 * 1024;
    const auto ls =
        load_shipped(file, {"traffic.bytes=128KiB",
                            std::string("driver.power_save=") + (power_save ? "true" : "false"),
                            "device.bus_width=" + std::to_string(width)});
    wilc1000_sdio_test_system sys("system", ls.scenario, ls.platform);
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const report::report r = sys.run();
    ASSERT_EQ(r.flows.size(), 1u);
    const auto& f = r.flows[0];
    EXPECT_EQ(r.end_reason, "traffic complete");
    // The flow checks every payload byte against its pattern and fails the run on a mismatch.
    EXPECT_EQ(f.bytes, total) << "bytes delivered intact to the receiving application";
    const auto& cs = sys.chip().core.stats();
    const auto st = netdev_state(sys);
    if (ls.scenario.traffic.kind == config::traffic_kind::ttcp_tx) {
        EXPECT_EQ(r.devices.at(0).frames_tx, cs.tx_frames_to_air);
        EXPECT_GE(cs.tx_frames_to_air, f.frames);
    } else {
        EXPECT_EQ(cs.rx_frames_dropped, 0u);
        EXPECT_EQ(st.rx_packets, cs.rx_frames_from_air);
        EXPECT_EQ(st.rx_dropped, 0u);
    }
    EXPECT_EQ(sys.sdio_host().bus_width(), width);
    const auto errors = real_errors(log);
    EXPECT_TRUE(errors.empty()) << "driver error line: " << errors.front();
}

TEST(Wilc1000SdioTraffic, TcpTxConservesEveryBytePowerSaveOff) {
    expect_tcp_conserves_bytes("wilc1000-sdio-ttcp-tx.yaml", false, 4);
}
TEST(Wilc1000SdioTraffic, TcpTxConservesEveryBytePowerSaveOn1Bit) {
    expect_tcp_conserves_bytes("wilc1000-sdio-ttcp-tx.yaml", true, 1);
}
TEST(Wilc1000SdioTraffic, TcpRxConservesEveryBytePowerSaveOff1Bit) {
    expect_tcp_conserves_bytes("wilc1000-sdio-ttcp-rx.yaml", false, 1);
}
TEST(Wilc1000SdioTraffic, TcpRxConservesEveryBytePowerSaveOn) {
    expect_tcp_conserves_bytes("wilc1000-sdio-ttcp-rx.yaml", true, 4);
}

// Bring-up config frames and their RX interrupts: see power_save_test.cc (same wlan.c path).
constexpr uint64_t bringup_cfg_frames = 8;                   // with the connect's 'W' and 'Q'
constexpr uint64_t bringup_rx_irqs = bringup_cfg_frames + 2; // + the boot and connect 'I

void expect_wake_pattern(const char* file) {
    driver_log log;
    // A firmware that gates its clock 10 us after it falls idle (not the default 10 ms), so the
    // requests between the batches find it asleep and poll clock status.
    const auto ls = load_shipped(file, {"traffic.bytes=128KiB", "driver.power_save=true",
                                        "device.timing.sleep_entry_delay=10us"});
    wilc1000_sdio_test_system sys("system", ls.scenario, ls.platform);
    sys.ifdown_after_run = false; // live model state is compared with the report below
    const report::report r = sys.run();
    EXPECT_EQ(r.end_reason, "traffic complete");
    const auto& cs = sys.chip().core.stats();
    auto& pm = sys.chip().power();
    ASSERT_EQ(cs.cfg_frames, bringup_cfg_frames);
    ASSERT_GT(cs.vmm_alloc_requests, bringup_cfg_frames);
    ASSERT_GT(cs.rx_batches, bringup_rx_irqs);
    const uint64_t tx_batches = cs.vmm_alloc_requests - bringup_cfg_frames - cs.vmm_alloc_full;
    const uint64_t rx_irqs = cs.rx_batches - bringup_rx_irqs;
    // Two wake-ups per TX batch (VMM handshake, data DMA), one per VMM-full pass, one per RX
    // interrupt the in-band handler served.
    EXPECT_EQ(pm.host_wake_requests(), 2 * tx_batches + cs.vmm_alloc_full + rx_irqs)
        << "tx batches " << tx_batches << ", rx interrupts " << rx_irqs;
    EXPECT_EQ(r.devices.at(0).wakeups, pm.host_wake_requests());
    EXPECT_GT(pm.wakeups(), 0u) << "the chip never slept";
    ASSERT_TRUE(r.devices.at(0).wake);
    EXPECT_GT(r.devices.at(0).wake->found_asleep, 0u);
    // Every wake-up writes HOST_TO_FW and WAKEUP and polls clock status (F0 0xf1) at least once,
    // every allow-sleep reads FW_TO_HOST, WAKEUP and HOST_TO_FW and clears the two: at least
    // eight CMD52 per wake-up.
    EXPECT_GE(r.devices.at(0).bus_commands.at(0).second, 8 * pm.host_wake_requests());
}

TEST(Wilc1000SdioPowerSave, TxWakeUpsAreTwoPerBatchAndOnePerInterrupt) {
    expect_wake_pattern("wilc1000-sdio-ttcp-tx.yaml");
}
TEST(Wilc1000SdioPowerSave, RxWakeUpsAreTwoPerBatchAndOnePerInterrupt) {
    expect_wake_pattern("wilc1000-sdio-ttcp-rx.yaml");
}

// ---- bad input: each names what is wrong ----

TEST(Wilc1000SdioErrors, PlatformWithoutSdioHostIsRejected) {
    auto ls = load_shipped("wilc1000-sdio-ttcp-tx.yaml", {"traffic.bytes=8KiB"});
    ls.platform.sdio_host.present = false;
    try {
        wilc1000_sdio_test_system sys("system", ls.scenario, ls.platform);
        FAIL() << "no error for a platform without an SDIO host";
    } catch (const run_error& e) {
        EXPECT_NE(std::string(e.what()).find("has no sdio_host section"), std::string::npos)
            << e.what();
    }
}

TEST(Wilc1000SdioErrors, ClockAboveTheHostsMaximumIsRejected) {
    auto ls = load_shipped("wilc1000-sdio-ttcp-tx.yaml",
                           {"traffic.bytes=8KiB", "platform.sdio_host.max_clock=25MHz"});
    try {
        wilc1000_sdio_test_system sys("system", ls.scenario, ls.platform);
        FAIL() << "no error for 50 MHz on a 25 MHz host";
    } catch (const run_error& e) {
        EXPECT_NE(std::string(e.what()).find("sdio_host.max_clock"), std::string::npos) << e.what();
    }
}

TEST(Wilc1000SdioErrors, BusWidthTwoAndOutOfBandIrqAreConfigErrors) {
    EXPECT_THROW(load_shipped("wilc1000-sdio-ttcp-tx.yaml", {"device.bus_width=2"}),
                 config::config_error);
    EXPECT_THROW(load_shipped("wilc1000-sdio-ttcp-tx.yaml", {"device.irq=gpio"}),
                 config::config_error);
    EXPECT_THROW(load_shipped("wilc1000-spi-ttcp-tx.yaml", {"device.bus_width=4"}),
                 config::config_error);
}

} // namespace
} // namespace nicsim

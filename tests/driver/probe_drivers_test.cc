// SPDX-License-Identifier: MIT
// The seven real driver files (wilc1000 wlan.c wlan_cfg.c netdev.c spi.c sdio.c; ks8851
// ks8851_common.c ks8851_spi.c ks8851_par.c) plus the patched wilc1000 variant, linked into this
// one executable (nicsim_drivers), probed to their first bus access over stub buses.
#include <cstring>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <systemc>

#include "kernel/include/lx_kit/runtime.h"
#include "kernel/include/nicsim/driver_variant.h"
#include "tests/driver/probe_support.h"

using namespace nicsim;
using namespace nicsim::test;
using sc_core::SC_MS;
using sc_core::sc_time;

TEST(ProbeDrivers, AllVariantsLinkedAndRegisterTheirDrivers) {
    std::set<std::string> variants;
    for (auto* const* v = nicsim_driver_variants; *v; ++v)
        variants.insert(std::string((*v)->driver) + "/" + (*v)->name);
    EXPECT_EQ(variants,
              (std::set<std::string>{"wilc1000/pristine", "wilc1000/no-chip-sleep",
                                     "wilc1000/chip-sleep-5.16",
                                     "ks8851/pristine", "ks8851/rx-coalescing-params",
                                     "enc28j60/pristine", "enc28j60/close-frees-tx-skb"}));

    init_all_modules();
    std::set<std::string> drivers;
    for (size_t i = 0; i < lx_bus_driver_count(); i++) {
        lx_bus_driver_info d{};
        ASSERT_EQ(lx_bus_driver_get(i, &d), 0);
        drivers.insert(std::string(d.modname) + "/" + d.variant + ":" + d.name);
    }
    std::set<std::string> expected = {
        "wilc1000_spi/pristine:wilc1000_spi",
        "wilc1000_sdio/pristine:wilc1000_sdio",
        "wilc1000_spi/no-chip-sleep:wilc1000_spi",
        "wilc1000_sdio/no-chip-sleep:wilc1000_sdio",
        "wilc1000_spi/chip-sleep-5.16:wilc1000_spi",
        "wilc1000_sdio/chip-sleep-5.16:wilc1000_sdio",
        "ks8851_spi/pristine:ks8851",
        "ks8851_par/pristine:ks8851",
        "ks8851_spi/rx-coalescing-params:ks8851",
        "ks8851_par/rx-coalescing-params:ks8851",
        "enc28j60/pristine:enc28j60",
        "enc28j60/close-frees-tx-skb:enc28j60",
    };
    // The builds of another kernel tree (issue 15) register under "<variant>@<kernel>".
    for (auto* const* v = nicsim_driver_variants; *v; ++v) {
        const std::string kernel = (*v)->kernel, driver = (*v)->driver, key = (*v)->key;
        if (kernel == "6.1") {
            EXPECT_EQ(key, (*v)->name);
            continue;
        }
        EXPECT_EQ(key, std::string((*v)->name) + "@" + kernel);
        if (driver == "ks8851") {
            expected.insert("ks8851_spi/" + key + ":ks8851");
            expected.insert("ks8851_par/" + key + ":ks8851");
        } else if (driver == "enc28j60") {
            expected.insert("enc28j60/" + key + ":enc28j60");
        } else {
            expected.insert("wilc1000_spi/" + key + ":wilc1000_spi");
            expected.insert("wilc1000_sdio/" + key + ":wilc1000_sdio");
        }
    }
    EXPECT_EQ(drivers, expected);
    // The patch adds a parameter that exists only in the patched variant.
    EXPECT_GE(lx_emul_module_find("wilc1000", "no-chip-sleep"), 0);
    EXPECT_EQ(set_param("wilc1000", "no-chip-sleep", "chip_sleep", "1"), 0);
    EXPECT_NE(set_param("wilc1000", "pristine", "chip_sleep", "1"), 0);
    EXPECT_EQ(set_param("wilc1000", "chip-sleep-5.16", "enable_sleep", "0"), 0);
    EXPECT_NE(set_param("wilc1000", "pristine", "enable_sleep", "0"), 0);
    // Every driver's patches/ folders are variants: the ks8851 one adds parameters too.
    EXPECT_EQ(set_param("ks8851_common", "rx-coalescing-params", "rx_frame_threshold", "1"), 0);
    EXPECT_NE(set_param("ks8851_common", "pristine", "rx_frame_threshold", "1"), 0);
}

namespace {

// Probe + ndo_open of a wilc1000 SPI variant; returns the recorded first frame.
spi_record wilc_first_frame(const char* variant) {
    init_all_modules();
    recording_spi_slave slave("slave");
    nicsim::spi::spi_host host("host", 1);
    host.spi_out[0].bind(slave.spi_in);

    struct run : sc_core::sc_module {
        const char* variant;
        int probe_ret = -1;
        int open_ret = 12345;
        net_device* ndev = nullptr;
        nicsim::spi::spi_host& host;
        run(const sc_core::sc_module_name& n, const char* v, nicsim::spi::spi_host& h)
            : sc_module(n), variant(v), host(h) {
            SC_HAS_PROCESS(run);
            SC_THREAD(main);
        }
        void main() {
            lx_bus_device_desc d{};
            d.name = "spi0.0";
            d.compatible = "microchip,wilc1000";
            d.max_speed_hz = 48'000'000;
            d.irq = 0;
            spi_device* spi = lx_bus_spi_create(&d);
            nicsim::lx_bus::spi_attach(spi, host, 0);
            probe_ret = lx_bus_spi_probe(spi, "wilc1000_spi", variant);
            // 6.1 probe makes no bus access and registers "wlan0" at once (wilc_netdev_init in
            // netdev.c).
            ndev = lx_bus_netdev_find("wilc1000_spi", variant, 0);
            if (ndev)
                open_ret = lx_emul_netdev_open(ndev);
        }
    } r("run", variant, host);

    sc_core::sc_start(sc_time(10'000, SC_MS));
    EXPECT_EQ(r.probe_ret, 0);
    EXPECT_NE(r.ndev, nullptr);
    if (r.ndev) {
        EXPECT_STREQ(lx_bus_netdev_name(r.ndev), "wlan0");
    }
    EXPECT_EQ(r.open_ret, 12345) << "ndo_open returned before the first bus access";
    EXPECT_FALSE(nicsim::lx_kit::aborted()) << nicsim::lx_kit::abort_message();
    if (slave.frames.empty())
        ADD_FAILURE() << "no SPI frame reached the slave";
    return slave.frames.empty() ? spi_record{} : slave.frames.front();
}

} // namespace

// Pristine driver with enable_crc7=1: the first frame of bring-up is the CRC negotiation's
// CMD_INTERNAL_READ (0xc4) of WILC_SPI_PROTOCOL_OFFSET = 0x24 (the offset of PROTOCOL_CONFIG
// 0xe824 within the SPI register block; not clockless, so address bit 7 clear)
// with its CRC7, clocking out the response in the same transfer: 4 + 15 bytes, 22 with CRC7
// (spi.c: the commands, the read response, wilc_spi_init).
TEST(ProbeDrivers, Wilc1000SpiPristineFirstFrameIsCrc7ProtocolConfigRead) {
    ASSERT_EQ(set_param("wilc1000_spi", "pristine", "enable_crc7", "1"), 0);
    spi_record f = wilc_first_frame("pristine");
    ASSERT_EQ(f.transfers, 1u);
    std::vector<uint8_t> cmd = {0xc4, 0x00, 0x24, 0x00};
    cmd.push_back(crc7_left_aligned(cmd.data(), cmd.size()));
    std::vector<uint8_t> expect = cmd;
    expect.resize(22, 0x00); // the response phase shifts out zeros
    EXPECT_EQ(f.mosi, expect);
    EXPECT_EQ(f.speed_hz, 48'000'000u);
    // wilc_wlan_power(): mdelay(5) after ENABLE, before the first command.
    EXPECT_GE(f.when, sc_time(5, SC_MS));
}

// Patched variant with chip_sleep=1 and CRC7 off (default): the same read, 19 bytes, no CRC.
TEST(ProbeDrivers, Wilc1000SpiNoChipSleepFirstFrameIsProtocolConfigRead) {
    ASSERT_EQ(set_param("wilc1000", "no-chip-sleep", "chip_sleep", "1"), 0);
    spi_record f = wilc_first_frame("no-chip-sleep");
    ASSERT_EQ(f.transfers, 1u);
    std::vector<uint8_t> expect = {0xc4, 0x00, 0x24, 0x00};
    expect.resize(4 + 15, 0x00);
    EXPECT_EQ(f.mosi, expect);
    EXPECT_GE(f.when, sc_time(5, SC_MS));
    char buf[16];
    ASSERT_EQ(lx_emul_module_param_get(lx_emul_module_find("wilc1000", "no-chip-sleep"),
                                       "chip_sleep", buf, sizeof buf),
              0);
    EXPECT_TRUE(std::string(buf) == "Y" || std::string(buf) == "1") << buf;
}

// KS8851 over SPI: phylib's ID scan (PHYSID1/2 -> swapped -> PHY1IHR 0xEA, PHY1ILR 0xE8), the
// soft reset (GRR 0x26 = 1 then 0, 1 ms apart), then the chip-ID read of CIDER (0xC0).
TEST(ProbeDrivers, Ks8851SpiProbeReachesChipIdRead) {
    init_all_modules();
    recording_spi_slave slave("slave");
    const auto cider = ks8851_spi_cmd(0, 0x3, 0xC0);
    slave.stop_when = [&](const spi_record& r) {
        return r.mosi.size() >= 2 && r.mosi[0] == cider[0] && r.mosi[1] == cider[1];
    };
    nicsim::spi::spi_host host("host", 1);
    host.spi_out[0].bind(slave.spi_in);
    struct run : sc_core::sc_module {
        nicsim::spi::spi_host& host;
        int probe_ret = 12345;
        run(const sc_core::sc_module_name& n, nicsim::spi::spi_host& h) : sc_module(n), host(h) {
            SC_HAS_PROCESS(run);
            SC_THREAD(main);
        }
        void main() {
            lx_bus_device_desc d{};
            d.name = "spi1.0";
            d.compatible = "micrel,ks8851";
            d.max_speed_hz = 40'000'000;
            d.irq = 0;
            spi_device* spi = lx_bus_spi_create(&d);
            nicsim::lx_bus::spi_attach(spi, host, 0);
            probe_ret = lx_bus_spi_probe(spi, "ks8851_spi", "pristine");
        }
    } r("run", host);
    sc_core::sc_start(sc_time(1000, SC_MS));
    EXPECT_EQ(r.probe_ret, 12345) << "probe returned before reading CIDER";
    ASSERT_EQ(slave.frames.size(), 5u);
    auto rd = [](unsigned be, unsigned reg) {
        auto c = ks8851_spi_cmd(0, be, reg);
        c.resize(4, 0);
        return c;
    };
    auto wr = [](unsigned be, unsigned reg, uint16_t v) {
        auto c = ks8851_spi_cmd(1, be, reg);
        c.push_back(v & 0xff);
        c.push_back(v >> 8);
        return c;
    };
    EXPECT_EQ(slave.frames[0].mosi, rd(0xC, 0xEA));    // PHYSID1 -> PHY1IHR (swapped by the driver)
    EXPECT_EQ(slave.frames[1].mosi, rd(0x3, 0xE8));    // PHYSID2 -> PHY1ILR
    EXPECT_EQ(slave.frames[2].mosi, wr(0xC, 0x26, 1)); // GRR = GSR
    EXPECT_EQ(slave.frames[3].mosi, wr(0xC, 0x26, 0));
    EXPECT_EQ(slave.frames[4].mosi, rd(0x3, 0xC0)); // CIDER: exact 2-byte command + 2 data
    EXPECT_EQ(std::vector<uint8_t>(slave.frames[4].mosi.begin(), slave.frames[4].mosi.begin() + 2),
              cider);
    // mdelay(1) after each GRR write.
    EXPECT_GE(slave.frames[3].when - slave.frames[2].when, sc_time(1, SC_MS));
    EXPECT_GE(slave.frames[4].when - slave.frames[3].when, sc_time(1, SC_MS));
}

namespace {
struct recording_mmio : nicsim::lx_bus::mmio16_bus_if {
    struct access {
        bool write;
        uint64_t addr;
        uint16_t value;
    };
    std::vector<access> log;
    sc_core::sc_event never;
    uint16_t read16(uint64_t addr) override {
        log.push_back({false, addr, 0});
        sc_core::sc_stop();
        sc_core::wait(never);
        return 0;
    }
    void write16(uint64_t addr, uint16_t v) override { log.push_back({true, addr, v}); }
};
} // namespace

// KS8851-16MLL: the probe's first bus accesses are ks_check_endian's command write of
// BE3|BE2|CIDER (0xC0C0) to the command port, then a read of the data port.
TEST(ProbeDrivers, Ks8851ParProbeReachesEndianCheck) {
    init_all_modules();
    recording_mmio bus;
    struct run : sc_core::sc_module {
        recording_mmio& bus;
        int probe_ret = 12345;
        run(const sc_core::sc_module_name& n, recording_mmio& b) : sc_module(n), bus(b) {
            SC_HAS_PROCESS(run);
            SC_THREAD(main);
        }
        void main() {
            lx_bus_device_desc d{};
            d.name = "ks8851-mll";
            d.compatible = "micrel,ks8851-mll";
            d.mem_base[0] = 0x1000'0000;
            d.mem_size[0] = 2;
            d.mem_base[1] = 0x1000'0002;
            d.mem_size[1] = 2;
            d.irq = 7;
            platform_device* pdev = lx_bus_platform_create(&d);
            nicsim::lx_bus::mmio16_attach(pdev, bus);
            probe_ret = lx_bus_platform_probe(pdev, "ks8851_par", "pristine");
        }
    } r("run", bus);
    sc_core::sc_start(sc_time(1000, SC_MS));
    EXPECT_EQ(r.probe_ret, 12345);
    ASSERT_EQ(bus.log.size(), 2u);
    EXPECT_TRUE(bus.log[0].write);
    EXPECT_EQ(bus.log[0].addr, 0x1000'0002u);
    EXPECT_EQ(bus.log[0].value, 0xC0C0u);
    EXPECT_FALSE(bus.log[1].write);
    EXPECT_EQ(bus.log[1].addr, 0x1000'0000u);
}

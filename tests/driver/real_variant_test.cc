// SPDX-License-Identifier: MIT
// The KS8851 as a real-header variant (its files and the emulation on one tree's real headers
// linked into one object, kernel/cmake/RealVariant.cmake), in one executable with every
// shadow-header variant (nicsim_drivers) and, where both trees are built, the other tree's
// real-header variant: each emulation registers its own drivers; a device the simulator creates
// through the variant's table is bound to its SPI driver, the bus bridge attached through the
// same call as for a shadow-header device (nicsim::lx_bus::spi_attach), and the probe reaches
// the chip through spi_sync: phylib's ID scan, the soft reset, the chip ID (CIDER), the
// board's MAC written, eth0 registered; unbinding, or a probe that fails on a wrong chip ID,
// gives back all the device's memory (its devres).
// Run: ctest --test-dir build -R 'RealVariant|real_variant'

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/lx_kit/runtime.h"
#include "kernel/include/nicsim/driver_variant.h"
#include "kernel/include/nicsim/lx_bus_emulation.h"
#include "tests/driver/probe_support.h"

// NICSIM_REAL_ANCHORS: X(anchor) per linked real-header variant (tests/driver/CMakeLists.txt).
#define X(anchor) extern "C" const struct nicsim_real_variant anchor;
NICSIM_REAL_ANCHORS
#undef X

namespace {

using namespace nicsim::test;

const nicsim_real_variant* const variants[] = {
#define X(anchor) &anchor,
    NICSIM_REAL_ANCHORS
#undef X
};

// A KSZ8851SNL on the SPI bus as far as probe, ifup and a transmit read it: a register read
// (opcode 0) answers `cider` for CIDER (0xC0), 0x1800 for TXMIR (0x78: the TX queue's 6 KB all
// free, as after reset) and 0 for every other register, little-endian after the 2 command bytes
// (datasheet: the SPI command phase, then the data phase LSB first). Records each frame.
struct ks8851_chip final : nicsim::lx_bus::spi_port {
    uint16_t cider = 0x8872; // the KSZ8851's chip ID, revision 1 (datasheet, CIDER)
    std::vector<spi_record> frames;
    void transfer(nicsim::spi::spi_payload& f) override {
        spi_record& r = frames.emplace_back();
        r.when = sc_core::sc_time_stamp();
        r.speed_hz = f.speed_hz;
        r.transfers = f.xfers.size();
        for (auto& x : f.xfers)
            for (size_t i = 0; i < x.len; i++)
                r.mosi.push_back(x.tx ? x.tx[i] : 0);
        const unsigned op = r.mosi.size() >= 2 ? r.mosi[0] >> 6 : 1;
        const unsigned reg = r.mosi.size() >= 2 ? ((r.mosi[0] & 3u) << 6) | (r.mosi[1] >> 2) : 0;
        const uint16_t value = op != 0 ? 0 : reg == 0xC0 ? cider : reg == 0x78 ? 0x1800 : 0;
        size_t at = 0;
        for (auto& x : f.xfers) {
            for (size_t i = 0; x.rx && i < x.len; i++) {
                const size_t data = at + i - 2;
                x.rx[i] = (at + i >= 2 && data < 2) ? static_cast<uint8_t>(value >> (8 * data)) : 0;
            }
            at += x.len;
        }
    }
};

// Probe (and, when `remove`, unbind) on an lx_kit task, as the kernel's driver core runs them.
struct bind_run {
    bind_run(const lx_bus_emulation* e, ks8851_chip* c, const char* name, bool rm)
        : emu(e), chip(c), device_name(name), remove(rm) {}
    const lx_bus_emulation* emu;
    ks8851_chip* chip;
    const char* device_name;
    bool remove;
    unsigned controller_flags = 0;
    int init_ret = 12345, probe_ret = 12345;
    size_t live_before = 0, live_after = 0;
    std::string netdev_name;
    std::vector<uint8_t> netdev_addr;
};

constexpr uint8_t board_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

void bind_task(void* arg) {
    auto* r = static_cast<bind_run*>(arg);
    r->init_ret = r->emu->init_modules();
    lx_bus_device_desc d{};
    d.name = r->device_name;
    d.compatible = "micrel,ks8851";
    d.max_speed_hz = 40'000'000;
    d.controller_flags = r->controller_flags;
    d.has_mac_address = 1;
    std::memcpy(d.mac_address, board_mac, 6);
    spi_device* spi = lx_bus_spi_create_on(r->emu, &d);
    nicsim::lx_bus::spi_attach(spi, *r->chip, 0);
    r->live_before = lx_emul_mem_live_count();
    r->probe_ret = r->emu->spi_probe(spi, "ks8851");
    if (const net_device* nd = r->emu->spi_netdev(spi)) {
        r->netdev_name = r->emu->netdev_name(nd);
        const uint8_t* a = r->emu->netdev_addr(nd);
        r->netdev_addr.assign(a, a + 6);
    }
    if (r->probe_ret == 0 && r->remove) {
        r->emu->spi_remove(spi);
        if (r->emu->spi_netdev(spi))
            r->netdev_name = "still registered";
    }
    r->live_after = lx_emul_mem_live_count();
}

void run(bind_run& r) {
    lx_kit_task_create("bind", bind_task, &r);
    sc_core::sc_start(sc_core::sc_time(1000, sc_core::SC_MS));
    ASSERT_FALSE(nicsim::lx_kit::aborted()) << nicsim::lx_kit::abort_message();
}

std::vector<uint8_t> rd(unsigned be, unsigned reg) {
    auto c = ks8851_spi_cmd(0, be, reg);
    c.resize(4, 0);
    return c;
}
std::vector<uint8_t> wr(unsigned be, unsigned reg, uint16_t v) {
    auto c = ks8851_spi_cmd(1, be, reg);
    c.push_back(v & 0xff);
    c.push_back(v >> 8);
    return c;
}

TEST(RealVariant, LinkedBesideTheShadowHeaderVariantsWhichStillRegister) {
    ASSERT_GE(std::size(variants), 1u);
    for (const auto* v : variants) {
        EXPECT_STREQ(v->driver, "ks8851");
        ASSERT_NE(v->emulation, nullptr);
    }
    // The shadow-header variants are linked (the table names them) and register their drivers.
    bool shadow_variant = false;
    for (auto* const* v = nicsim_driver_variants; *v; ++v)
        shadow_variant |= std::string((*v)->driver) == "ks8851";
    EXPECT_TRUE(shadow_variant);
    init_all_modules();
    bool shadow_ks8851 = false;
    for (size_t i = 0; i < lx_bus_driver_count(); i++) {
        lx_bus_driver_info d{};
        ASSERT_EQ(lx_bus_driver_get(i, &d), 0);
        shadow_ks8851 |= std::string(d.modname) == "ks8851_spi" &&
                         std::string(d.variant) == "pristine";
    }
    EXPECT_TRUE(shadow_ks8851);
}

TEST(RealVariant, Ks8851SpiProbeReadsTheChipIdThroughSpiSyncAndUnbindFreesItsDevres) {
    int n = 0;
    for (const auto* v : variants) {
        SCOPED_TRACE(v->kernel);
        ks8851_chip chip;
        std::string name = "spi" + std::to_string(++n) + ".0";
        bind_run r{v->emulation, &chip, name.c_str(), true};
        // The driver's message parameter, set by its full name before the probe reads it.
        EXPECT_EQ(v->emulation->param_set("ks8851_spi.message", "0"), 0);
        EXPECT_NE(v->emulation->param_set("ks8851_spi.no_such", "0"), 0);
        run(r);
        EXPECT_EQ(r.init_ret, 0);
        ASSERT_EQ(r.probe_ret, 0);
        ASSERT_GE(chip.frames.size(), 5u);
        EXPECT_EQ(chip.frames[0].mosi, rd(0xC, 0xEA));    // PHYSID1 -> PHY1IHR
        EXPECT_EQ(chip.frames[1].mosi, rd(0x3, 0xE8));    // PHYSID2 -> PHY1ILR
        EXPECT_EQ(chip.frames[2].mosi, wr(0xC, 0x26, 1)); // GRR = GSR
        EXPECT_EQ(chip.frames[3].mosi, wr(0xC, 0x26, 0));
        EXPECT_EQ(chip.frames[4].mosi, rd(0x3, 0xC0));    // CIDER
        EXPECT_EQ(chip.frames[4].transfers, 1u); // full duplex: command and data in one
        EXPECT_EQ(chip.frames[4].speed_hz, 40'000'000u);
        EXPECT_GE(chip.frames[4].when - chip.frames[3].when, sc_core::sc_time(1, sc_core::SC_MS));
        // The board's MAC (the node's local-mac-address) written to MARL, MARM, MARH.
        std::vector<std::vector<uint8_t>> mac_writes;
        for (const auto& f : chip.frames)
            if (f.mosi.size() == 4 && (f.mosi[0] >> 6) == 1)
                mac_writes.push_back(f.mosi);
        EXPECT_NE(std::find(mac_writes.begin(), mac_writes.end(), wr(0x3, 0x10, 0x4455)),
                  mac_writes.end());
        EXPECT_EQ(r.netdev_name, "eth0"); // each tree's emulation numbers its own devices
        EXPECT_EQ(r.netdev_addr, std::vector<uint8_t>(board_mac, board_mac + 6));
        EXPECT_EQ(r.live_after, r.live_before);
    }
}

TEST(RealVariant, Ks8851ProbeOfAnotherChipFailsAndLeavesNoMemory) {
    for (const auto* v : variants) {
        SCOPED_TRACE(v->kernel);
        ks8851_chip chip;
        chip.cider = 0x1234;
        bind_run r{v->emulation, &chip, "spi9.0", false};
        r.controller_flags = 1; // SPI_CONTROLLER_HALF_DUPLEX
        run(r);
        EXPECT_EQ(r.probe_ret, -19); // -ENODEV: "failed to read device ID"
        // A half-duplex controller: the read is the command, then the data (ks8851_rdreg).
        ASSERT_EQ(chip.frames.size(), 5u);
        EXPECT_EQ(chip.frames[4].transfers, 2u);
        EXPECT_EQ(chip.frames[4].mosi, rd(0x3, 0xC0));
        EXPECT_EQ(r.netdev_name, "");
        EXPECT_EQ(r.live_after, r.live_before);
    }
}

// The KS8851's interrupt line, idle (high: the chip drives it low to interrupt).
struct idle_irq_line final : nicsim::lx_kit::irq_source {
    sc_core::sc_event never;
    bool level() const override { return true; }
    const sc_core::sc_event& changed() const override { return never; }
};
constexpr int ks8851_irq = 7;

// Probe, ifup and ifdown through nicsim/lx_bus.h, the calls the simulator makes, on a device of
// either emulation: `emu` NULL is the shadow-header build `key` of the KS8851.
struct updown_run {
    const lx_bus_emulation* emu = nullptr;
    const char* key = nullptr;
    ks8851_chip chip;
    int probe_ret = 12345, open_ret = 12345, xmit_ret = 12345, stop_ret = 12345;
    std::string name;
    size_t probe_frames = 0, open_frames = 0, xmit_frames = 0;
    bool forgotten = false; // the net device no longer routed to the emulation after unbind
};

// A 60-byte broadcast frame from the board's MAC (IPv4 ethertype, a counting payload).
std::vector<uint8_t> test_frame() {
    std::vector<uint8_t> f(60);
    for (size_t i = 0; i < 6; i++) {
        f[i] = 0xff;
        f[6 + i] = board_mac[i];
    }
    f[12] = 0x08;
    for (size_t i = 14; i < f.size(); i++)
        f[i] = static_cast<uint8_t>(i);
    return f;
}

void updown_task(void* arg) {
    auto* r = static_cast<updown_run*>(arg);
    lx_bus_device_desc d{};
    d.name = "spi3.0";
    d.compatible = "micrel,ks8851";
    d.max_speed_hz = 40'000'000;
    d.irq = ks8851_irq;
    d.has_mac_address = 1;
    std::memcpy(d.mac_address, board_mac, 6);
    spi_device* spi = r->emu ? lx_bus_spi_create_on(r->emu, &d) : lx_bus_spi_create(&d);
    nicsim::lx_bus::spi_attach(spi, r->chip, 0);
    net_device* dev = nullptr;
    if (r->emu) {
        r->emu->init_modules();
        r->probe_ret = r->emu->spi_probe(spi, "ks8851");
        dev = lx_bus_spi_netdev(spi);
    } else {
        r->probe_ret = lx_bus_spi_probe(spi, "ks8851_spi", r->key);
        dev = lx_bus_netdev_find("ks8851_spi", r->key, 0);
    }
    r->probe_frames = r->chip.frames.size();
    if (!dev)
        return;
    r->name = lx_bus_netdev_name(dev);
    r->open_ret = lx_emul_netdev_open(dev);
    r->open_frames = r->chip.frames.size();
    const auto frame = test_frame();
    r->xmit_ret = lx_emul_netdev_xmit(dev, frame.data(), frame.size());
    lx_kit_sleep_ns(10'000'000); // the driver's TX work writes the frame to the chip
    r->xmit_frames = r->chip.frames.size();
    r->stop_ret = lx_emul_netdev_stop(dev);
    if (r->emu) {
        lx_bus_spi_remove(spi);
        r->forgotten = lx_bus_device_emulation(dev) == nullptr;
    }
}

std::vector<std::vector<uint8_t>> wire(const ks8851_chip& chip, size_t from, size_t to) {
    std::vector<std::vector<uint8_t>> w;
    for (size_t i = from; i < to && i < chip.frames.size(); i++)
        w.push_back(chip.frames[i].mosi);
    return w;
}

// The real-header KS8851 and the shadow-header build of the same tree say the same on the bus
// in probe, ifup, a transmit and ifdown: the same frames in the same order.
TEST(RealVariant, Ks8851ProbeUpTransmitDownThroughTheSimulatorsCallsAsTheShadowHeaderBuild) {
    static idle_irq_line line;
    nicsim::lx_kit::register_irq(ks8851_irq, line);
    init_all_modules();
    for (const auto* v : variants) {
        SCOPED_TRACE(v->kernel);
        updown_run real, shadow;
        real.emu = v->emulation;
        const std::string kernel = v->kernel;
        const std::string key = kernel == "6.1" ? "pristine" : "pristine@" + kernel;
        shadow.key = key.c_str();
        for (updown_run* r : {&real, &shadow}) {
            lx_kit_task_create("updown", updown_task, r);
            sc_core::sc_start(sc_core::sc_time(1000, sc_core::SC_MS));
            ASSERT_FALSE(nicsim::lx_kit::aborted()) << nicsim::lx_kit::abort_message();
            EXPECT_EQ(r->probe_ret, 0);
            EXPECT_EQ(r->open_ret, 0);
            EXPECT_EQ(r->xmit_ret, 0); // NETDEV_TX_OK
            EXPECT_EQ(r->stop_ret, 0);
        }
        EXPECT_EQ(real.name, "eth0");
        EXPECT_TRUE(real.forgotten);
        EXPECT_EQ(real.emu->skb_live_count(), 0u); // the driver freed the transmitted skb
        EXPECT_GT(real.open_frames, real.probe_frames); // ifup reached the chip
        EXPECT_EQ(wire(real.chip, 0, real.probe_frames), wire(shadow.chip, 0, shadow.probe_frames));
        EXPECT_EQ(wire(real.chip, real.probe_frames, real.open_frames),
                  wire(shadow.chip, shadow.probe_frames, shadow.open_frames));
        EXPECT_EQ(wire(real.chip, real.open_frames, real.xmit_frames),
                  wire(shadow.chip, shadow.open_frames, shadow.xmit_frames));
        EXPECT_EQ(wire(real.chip, real.xmit_frames, real.chip.frames.size()),
                  wire(shadow.chip, shadow.xmit_frames, shadow.chip.frames.size()));
        // The transmit wrote the frame into the TX FIFO: after the FIFO command and its 4-byte
        // control word and length, the frame's bytes.
        const auto frame = test_frame();
        bool written = false;
        for (const auto& w : wire(real.chip, real.open_frames, real.xmit_frames))
            written |= w.size() >= 5 + frame.size() &&
                       std::equal(frame.begin(), frame.end(), w.begin() + 5);
        EXPECT_TRUE(written);
    }
    nicsim::lx_kit::unregister_irq(ks8851_irq);
}

} // namespace

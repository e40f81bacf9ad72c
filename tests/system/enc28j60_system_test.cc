// SPDX-License-Identifier: MIT
// The real Linux 6.1 enc28j60 driver in the system `nicsim run` composes from the shipped
// scenarios (device_system with the ENC28J60 binding): probe and open reach link-up with the
// device-tree MAC in MAADR, frames of many sizes are conserved byte for byte both ways through
// the driver's IRQ/TX work items, and the iperf TX/RX scenarios deliver every byte below the
// 10BASE-T rate without findings. The trace decoder names banked registers from the model's
// declarations.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "kernel/include/nicsim/driver_variant.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "models/enc28j60/enc28j60_regs.h"
#include "models/ethernet/eth_crc.h"
#include "devices/enc28j60/enc28j60_decoder.h"
#include "devices/enc28j60/enc28j60_device.h"
#include "tools/config/config_loader.h"
#include "sim/device_system.h"
#include "tests/system/system_test_support.h"

using namespace nicsim;
using sc_core::SC_MS;
using sc_core::sc_time;

namespace {

namespace r = enc::reg;

// The shipped scenario configs/<file> with overrides (system_test_support.h's load_shipped).
config::loaded_scenario load(const std::string& file,
                             const std::vector<std::string>& overrides = {}) {
    return nicsim::test::load_shipped(file, overrides);
}

// device_system with the ENC28J60 binding, typed for the tests.
struct enc_system : device_system {
    explicit enc_system(const config::loaded_scenario& l)
        : device_system("system", l.scenario, l.platform) {}
    bindings::enc28j60_device& dev() { return device_as<bindings::enc28j60_device>(); }
    enc28j60& chip() { return dev().chip(); }
};

constexpr std::array<uint8_t, 6> peer_mac = {0x02, 0x00, 0x00, 0x00, 0xb0, 0x01};

struct lx_bus_netdev_state state(::net_device* dev) {
    struct lx_bus_netdev_state st {};
    lx_bus_netdev_state(dev, &st);
    return st;
}

// An Ethernet II frame (no FCS) of `len` bytes with a seeded payload and a local experimental
// ethertype (not IP: nothing answers it).
std::vector<uint8_t> frame(const uint8_t* dst, const uint8_t* src, size_t len, uint8_t seed) {
    std::vector<uint8_t> f(len);
    for (size_t i = 0; i < len; ++i)
        f[i] = uint8_t(seed * 29 + i * 11 + (i >> 8));
    std::memcpy(f.data(), dst, 6);
    std::memcpy(f.data() + 6, src, 6);
    f[12] = 0x88;
    f[13] = 0xB5;
    return f;
}

// ndo_start_xmit, retried while the driver has stopped its queue (one frame in flight until
// TXIF) as the stack would. Call from the system thread.
void xmit(::net_device* dev, const std::vector<uint8_t>& f) {
    for (int tries = 0; tries < 100000; ++tries) {
        if (!state(dev).queue_stopped && lx_emul_netdev_xmit(dev, f.data(), f.size()) == 0)
            return;
        sc_core::wait(sc_time(20, sc_core::SC_US));
    }
    ADD_FAILURE() << "ndo_start_xmit kept refusing a frame";
}

void expect_no_chip_findings(enc28j60& c) {
    for (const auto& f : c.findings().list())
        ADD_FAILURE() << "chip finding: " << enc::to_string(f.kind) << ": " << f.text;
}

TEST(Enc28j60System, ProbeOpenReachesLinkUpWithTheDeviceTreeMacInMaadr) {
    const auto l = load("enc28j60-spi-iperf-rx.yaml");
    enc_system sys(l);
    bool hook_ran = false;
    sys.after_up = [&] {
        hook_ran = true;
        ::net_device* dev = sys.netdev();
        EXPECT_TRUE(state(dev).carrier) << "carrier from PHSTAT2.LSTAT in ndo_open";
        EXPECT_TRUE(state(dev).running);
        // The driver took the device tree's local-mac-address (device_get_ethdev_address) and
        // programmed it into MAADR1..6 (MAADR1 = first byte on the wire).
        const auto& mac = bindings::enc28j60_device::board_mac();
        const uint8_t* ndev_mac = lx_bus_netdev_addr(dev);
        EXPECT_EQ(0, std::memcmp(ndev_mac, mac.data(), 6));
        const auto& c = sys.chip().core;
        const enc::reg_addr maadr[6] = {r::MAADR1, r::MAADR2, r::MAADR3,
                                        r::MAADR4, r::MAADR5, r::MAADR6};
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(c.peek(maadr[i]), mac[i]) << "MAADR" << i + 1;
        // enc28j60_hw_enable: the interrupt set and RX on.
        EXPECT_EQ(c.peek(r::EIE), enc::EIE_INTIE | enc::INT_PKT | enc::INT_LINK | enc::INT_TX |
                                      enc::INT_TXER | enc::INT_RXER);
        EXPECT_TRUE(c.peek(r::ECON1) & enc::ECON1_RXEN);
        // The normal rx mode (setrx work): unicast, CRC check, broadcast.
        EXPECT_EQ(c.peek(r::ERXFCON), enc::ERXFCON_UCEN | enc::ERXFCON_CRCEN | enc::ERXFCON_BCEN);
        return false;
    };
    const auto rep = sys.run();
    EXPECT_TRUE(hook_ran);
    EXPECT_EQ(rep.end_reason, "test hook");
    ASSERT_EQ(rep.devices.size(), 1u);
    EXPECT_EQ(rep.devices[0].type, "enc28j60");
    EXPECT_EQ(rep.devices[0].bus, "spi");
    EXPECT_GT(rep.devices[0].bus_transactions, 0u);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings[0].message;
    expect_no_chip_findings(sys.chip());
}

TEST(Enc28j60System, FramesOfManySizesConservedByteForByteBothWays) {
    const auto l = load("enc28j60-spi-iperf-rx.yaml");
    enc_system sys(l);
    // All RX frames together fit the driver's 6656-byte RX ring, so the test does not depend on
    // the drain rate; TX goes one frame at a time through the driver's queue stop/wake.
    const std::vector<size_t> sizes = {60, 61, 62, 63, 64, 100, 333, 777, 1001, 1499, 1514, 42};
    std::vector<std::vector<uint8_t>> rx, peer_rx, sent_in, sent_out;
    sys.after_up = [&] {
        ::net_device* dev = sys.netdev();
        lx_emul_netdev_set_rx_sink(
            dev,
            [](void* ctx, ::net_device*, const uint8_t* f, size_t len) {
                static_cast<std::vector<std::vector<uint8_t>>*>(ctx)->emplace_back(f, f + len);
            },
            &rx);
        sys.dev().wire().set_peer_sink([&](const eth::eth_frame& f) {
            EXPECT_TRUE(eth::fcs_ok(f.bytes)) << "frame " << f.id << " left with a bad FCS";
            peer_rx.push_back(f.payload());
        });
        const uint8_t* mac = lx_bus_netdev_addr(dev);
        uint8_t seed = 1;
        for (size_t n : sizes) {
            if (n >= 60) { // the peer's MAC pads shorter frames; keep RX frames exact
                sent_in.push_back(frame(mac, peer_mac.data(), n, seed++));
                sys.dev().wire().peer_send(sent_in.back());
            }
            sent_out.push_back(frame(peer_mac.data(), mac, n, seed++));
            xmit(dev, sent_out.back());
        }
        sc_core::wait(sc_time(50, SC_MS));
        return false;
    };
    sys.run();
    // The 6.1 driver hands netif_rx the frame with its FCS: the receive status vector's byte
    // count includes the CRC and enc28j60_hw_rx copies that many bytes (the stack's IP layer
    // trims to the IP total length).
    ASSERT_EQ(rx.size(), sent_in.size());
    for (size_t i = 0; i < sent_in.size(); ++i) {
        ASSERT_EQ(rx[i].size(), sent_in[i].size() + 4) << "RX frame " << i;
        EXPECT_TRUE(eth::fcs_ok(rx[i])) << "RX frame " << i << " with its FCS";
        EXPECT_EQ(std::vector<uint8_t>(rx[i].begin(), rx[i].end() - 4), sent_in[i])
            << "RX frame " << i << " (" << sent_in[i].size() << " bytes) differs";
    }
    ASSERT_EQ(peer_rx.size(), sent_out.size());
    for (size_t i = 0; i < sent_out.size(); ++i) {
        auto expect = sent_out[i];
        if (expect.size() < 60)
            expect.resize(60, 0); // MACON3.PADCFG = 001: the MAC pads to 60 bytes with zeros
        EXPECT_EQ(peer_rx[i], expect)
            << "TX frame " << i << " (" << sent_out[i].size() << " bytes) differs";
    }
    const auto st = state(sys.netdev());
    EXPECT_EQ(st.rx_packets, sent_in.size());
    EXPECT_EQ(st.tx_packets, sent_out.size());
    const auto& cs = sys.chip().stats();
    EXPECT_EQ(cs.rx_overruns, 0u);
    EXPECT_EQ(cs.rx_frames, sent_in.size());
    EXPECT_EQ(cs.pktdec, sent_in.size()) << "the driver released every packet";
    EXPECT_EQ(cs.tx_frames, sent_out.size());
    EXPECT_EQ(sys.chip().core.peek(r::EPKTCNT), 0u);
    EXPECT_GT(cs.irq_assertions, 0u) << "the falling-edge IRQ drove the work handler";
    expect_no_chip_findings(sys.chip());
}

// 10BASE-T carries at most 1460 TCP payload bytes per 1538 byte times (preamble, header, FCS,
// IFG): 9.49 Mbit/s of goodput.
constexpr double wire_goodput_limit = 10e6 * 1460 / 1538;

TEST(Enc28j60Scenario, IperfTxDeliversEveryByteBelowTheWireRate) {
    const auto l = load("enc28j60-spi-iperf-tx.yaml");
    enc_system sys(l);
    const auto rep = sys.run();
    EXPECT_EQ(rep.end_reason, "traffic complete");
    ASSERT_EQ(rep.flows.size(), 1u);
    EXPECT_EQ(rep.flows[0].bytes, l.scenario.traffic.bytes.bytes);
    EXPECT_LT(rep.flows[0].goodput_bps, wire_goodput_limit);
    EXPECT_GT(rep.flows[0].goodput_bps, 1e6);
    const auto& d = rep.devices.at(0);
    EXPECT_GT(d.frames_tx, l.scenario.traffic.bytes.bytes / 1460);
    EXPECT_GT(d.irqs, 0u);
    EXPECT_TRUE(rep.findings.empty()) << rep.findings[0].message;
}

TEST(Enc28j60Scenario, IperfRxDeliversEveryByteBelowTheWireRateRecoveringFromOverruns) {
    const auto l = load("enc28j60-spi-iperf-rx.yaml");
    enc_system sys(l);
    const auto rep = sys.run();
    EXPECT_EQ(rep.end_reason, "traffic complete");
    ASSERT_EQ(rep.flows.size(), 1u);
    EXPECT_EQ(rep.flows[0].bytes, l.scenario.traffic.bytes.bytes);
    EXPECT_LT(rep.flows[0].goodput_bps, wire_goodput_limit);
    EXPECT_GT(rep.flows[0].goodput_bps, 1e6);
    // The peer's cwnd grows until the 6.5 KB RX ring overruns; TCP retransmits and backs off.
    if (sys.chip().stats().rx_overruns > 0) {
        EXPECT_GT(sys.traffic().linux_flow()->result().retransmits, 0u);
    }
    EXPECT_EQ(rep.devices.at(0).frames_rx, sys.chip().stats().pktdec);
    for (const auto& f : rep.findings)
        EXPECT_EQ(f.severity, "info") << f.message;
}

// --- trace decoder ----------------------------------------------------------------------------

struct no_annotations : trace::bus_annotations {
    void span(std::string_view, std::string_view, uint64_t, uint64_t, std::string_view) override {}
    void instant(std::string_view, std::string_view, uint64_t, std::string_view) override {}
};

// One command: MOSI bytes, MISO bytes (padded with zeros to the MOSI length).
trace::bus_txn decode(trace::enc28j60_spi_decoder& dec, std::vector<uint8_t> mosi,
                      std::vector<uint8_t> miso = {}) {
    miso.resize(mosi.size());
    spi::spi_payload p;
    spi::spi_xfer x;
    x.tx = mosi.data();
    x.rx = miso.data();
    x.len = mosi.size();
    p.xfers.push_back(x);
    no_annotations a;
    trace::bus_txn t;
    dec.decode(p, t, a);
    return t;
}

TEST(Enc28j60Decoder, NamesBankedRegistersFromTheModelDeclarations) {
    enc::core chip("enc28j60_core");
    trace::enc28j60_spi_decoder dec(chip.registers());
    // Bank 0 after reset: 0x0C is ERXRDPTL.
    EXPECT_EQ(decode(dec, {0x4C, 0x12}).name, "WCR ERXRDPTL (b0:0x0c)");
    // enc28j60_set_bank to bank 3: BFS ECON1 BSEL1|BSEL0.
    const auto bfs = decode(dec, {0x9F, 0x03});
    EXPECT_EQ(bfs.name, "BFS ECON1 (0x1f)");
    EXPECT_EQ(dec.bank(), 3u);
    // Bank 3, 0x04 is MAADR1, a MAC/MII register: the data follows a dummy byte.
    const auto rd = decode(dec, {0x04, 0x00, 0x00}, {0x00, 0xFF, 0x02});
    EXPECT_EQ(rd.name, "RCR MAADR1 (b3:0x04)");
    EXPECT_EQ(rd.dir, "rd");
    EXPECT_EQ(rd.detail, "-> 0x02");
    // Common registers are the same in every bank; flags are named by the declared fields.
    const auto eir = decode(dec, {0x1C, 0x00}, {0x00, 0x48});
    EXPECT_EQ(eir.name, "RCR EIR (0x1c)");
    EXPECT_EQ(eir.detail, "-> 0x48 EIR{PKTIF|TXIF}");
    // BFC ECON1 BSEL1 -> bank 1: 0x19 is EPKTCNT.
    decode(dec, {0xBF, 0x02});
    EXPECT_EQ(dec.bank(), 1u);
    EXPECT_EQ(decode(dec, {0x19, 0x00}, {0x00, 0x03}).name, "RCR EPKTCNT (b1:0x19)");
    // Buffer commands and the soft reset (back to bank 0).
    EXPECT_EQ(decode(dec, std::vector<uint8_t>(7, 0x3A)).name, "RBM 6 B");
    EXPECT_EQ(decode(dec, std::vector<uint8_t>(61, 0x7A)).name, "WBM 60 B");
    EXPECT_EQ(decode(dec, {0xFF, 0xFF}).name, "SRC (soft reset)");
    EXPECT_EQ(dec.bank(), 0u);
}

} // namespace

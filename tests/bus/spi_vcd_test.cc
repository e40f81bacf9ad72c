// SPDX-License-Identifier: MIT
// VCD waveform of one hand-computed mode-0 frame, from the transaction-level host (reconstructed)
// and from the cycle-stepped host's pins.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bus/spi/spi_host.h"
#include "bus/spi/spi_vcd_tracer.h"
#include "spi_test_util.h"

using namespace nicsim::spi;
using namespace nicsim::spi::test;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// Per-process file names: the same test may run concurrently from two build directories.
std::string tmp(const std::string& name) {
    return ::testing::TempDir() + "nicsim_" + std::to_string(::getpid()) + "_" + name;
}

struct bench : sc_core::sc_module {
    spi_host host;
    echo_slave slave;
    echo_slave other; // on chip select 1, never addressed: its cs_n1 must stay high
    std::unique_ptr<spi_pin_slave> pin;
    uint8_t tx = 0xA6, rx = 0;
    SC_HAS_PROCESS(bench);
    bench(const sc_core::sc_module_name& n, spi_host_mode mode)
        : sc_core::sc_module(n), host("host", 2, timing(), mode), slave("echo", 0x3A),
          other("other", 0x00) {
        host.spi_out[0].bind(slave.spi_in);
        host.spi_out[1].bind(other.spi_in);
        if (mode == spi_host_mode::cycle_stepped) {
            pin = std::make_unique<spi_pin_slave>("pin", slave, spi_mode::mode0);
            pin->cs_n.bind(host.cs_n[0]);
            pin->sck.bind(host.sck);
            pin->mosi.bind(host.mosi);
            pin->miso.bind(host.miso);
        }
        SC_THREAD(run);
    }
    static spi_host_timing timing() {
        spi_host_timing t;
        t.per_message_overhead = sc_time(2, SC_US);
        t.cs_setup = sc_time(1, SC_US);
        t.cs_hold = sc_time(1, SC_US);
        return t;
    }
    void run() {
        spi_payload f; // mode 0, 1 MHz
        f.xfers.resize(1);
        f.xfers[0].tx = &tx;
        f.xfers[0].rx = &rx;
        f.xfers[0].len = 1;
        host.transfer(f);
    }
};

// Mode 0, MOSI 0xA6 = 1010 0110, echo slave MISO 0x3A = 0011 1010 then (shift register reload)
// the echoed 0xA6 whose MSB appears after the last trailing edge. Message overhead 2 us, CS setup
// 1 us -> bit k: leading edge (3.5 + k) us, trailing edge (4 + k) us; CS hold 1 us -> deassert at
// 12 us. CPHA=0: each bit is presented at CS assert / at the previous trailing edge.
std::vector<vcd_change> expected() {
    const uint64_t us = 1'000'000;
    std::vector<vcd_change> e = {{0, "cs_n0", '1'},    {0, "cs_n1", '1'}, {0, "sck", '0'},
                                 {0, "mosi", '0'},     {0, "miso", '0'},  {2 * us, "cs_n0", '0'},
                                 {2 * us, "mosi", '1'}};
    const char mosi[] = "10100110", miso[] = "00111010";
    char lmo = '1', lmi = '0';
    for (int k = 0; k < 8; ++k) {
        e.push_back({3 * us + us / 2 + k * us, "sck", '1'});
        const uint64_t tr = 4 * us + k * us;
        e.push_back({tr, "sck", '0'});
        const char mo = k < 7 ? mosi[k + 1] : lmo;
        const char mi = k < 7 ? miso[k + 1] : '1'; // tail: MSB of the reloaded 0xA6
        if (mo != lmo)
            e.push_back({tr, "mosi", mo});
        if (mi != lmi)
            e.push_back({tr, "miso", mi});
        lmo = mo;
        lmi = mi;
    }
    e.push_back({12 * us, "cs_n0", '1'}); // MOSI already 0 (last bit of 0xA6): no change
    e.push_back({12 * us, "miso", '0'});
    return e;
}

} // namespace

TEST(SpiVcd, TransactionReconstructionMatchesHandComputedWaveform) {
    bench b("b", spi_host_mode::transaction);
    spi_vcd_tracer vcd(tmp("vcd_tl.vcd"), 2);
    b.host.add_observer(vcd);
    sc_core::sc_start();
    vcd.close();
    EXPECT_EQ(b.rx, 0x3A);
    const vcd_file f = read_vcd(tmp("vcd_tl.vcd"));
    std::remove(tmp("vcd_tl.vcd").c_str());
    ASSERT_EQ(f.error, "");
    EXPECT_EQ(f.signals, (std::vector<std::string>{"cs_n0", "cs_n1", "sck", "mosi", "miso"}));
    EXPECT_EQ(f.changes, expected());
}

TEST(SpiVcd, PinProbeMatchesHandComputedWaveform) {
    bench b("b", spi_host_mode::cycle_stepped);
    spi_vcd_tracer vcd(tmp("vcd_pins.vcd"), 2);
    spi_vcd_pin_probe probe("probe", b.host, vcd);
    sc_core::sc_start();
    vcd.close();
    EXPECT_EQ(b.rx, 0x3A);
    const vcd_file f = read_vcd(tmp("vcd_pins.vcd"));
    std::remove(tmp("vcd_pins.vcd").c_str());
    ASSERT_EQ(f.error, "");
    EXPECT_EQ(f.changes, expected());
}

TEST(SpiVcd, BadPathAndOutOfOrderChangesAreErrors) {
    try {
        spi_vcd_tracer bad("/nonexistent-dir/x.vcd", 1);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.vcd"), std::string::npos);
    }
    spi_vcd_tracer vcd(tmp("vcd_order.vcd"), 1);
    vcd.record(spi_wire::sck, 0, sc_time(2, SC_US), true);
    EXPECT_THROW(vcd.record(spi_wire::sck, 0, sc_time(1, SC_US), false), std::logic_error);
    EXPECT_THROW(vcd.record(spi_wire::cs_n, 1, sc_time(3, SC_US), false), std::invalid_argument);
    vcd.close();
    EXPECT_EQ(read_vcd(tmp("vcd_order.vcd")).error, "");
    std::remove(tmp("vcd_order.vcd").c_str());
}

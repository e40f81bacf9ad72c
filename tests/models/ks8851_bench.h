// SPDX-License-Identifier: MIT
// Test bench for the KS8851 model: chip + Ethernet wire + IRQ line + an SPI or parallel test
// host running a body on an SC_THREAD. One bench per TEST (SystemC cannot restart).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/par/par_host.h"
#include "models/ethernet/eth_crc.h"
#include "models/ethernet/eth_wire.h"
#include "models/ks8851/ks8851.h"
#include "tests/models/ks8851_test_host.h"

namespace nicsim::test {

inline const uint8_t ks_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

// Chip parameters of the SPI variant (KSZ8851SNL).
inline ks::params spi_params() {
    ks::params p;
    p.bus = ks::bus_variant::spi;
    return p;
}

// A frame from `src` to `dst` of `len` bytes (no FCS) with a counting payload.
inline std::vector<uint8_t> ks_make_frame(const uint8_t dst[6], size_t len, uint8_t seed = 0) {
    static const uint8_t src[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
    std::vector<uint8_t> f(len);
    for (size_t i = 0; i < len; ++i)
        f[i] = uint8_t(seed + i * 7);
    std::copy(dst, dst + 6, f.begin());
    std::copy(src, src + 6, f.begin() + 6);
    f[12] = 0x08; // IPv4 ethertype (>= 0x600: Ethernet II)
    f[13] = 0x00;
    return f;
}

struct ks_bench : sc_core::sc_module {
    ks8851 chip;
    eth::eth_wire wire;
    irq_line line{"irq_line", true};
    std::unique_ptr<ks_spi_host> spi;
    std::unique_ptr<par::par_host> par_bus;
    std::unique_ptr<ks_par_host> par;
    std::function<void(ks_bench&)> body;

    SC_HAS_PROCESS(ks_bench);
    ks_bench(const ks::params& p, std::function<void(ks_bench&)> b,
             const eth::eth_wire_params& wp = {}, const par::par_timing& pt = {},
             sc_core::sc_module_name name = "bench")
        : sc_module(name), chip("ks8851", p), wire("wire", wp), body(std::move(b)) {
        if (p.bus == ks::bus_variant::spi) {
            spi = std::make_unique<ks_spi_host>("host");
            spi->spi_out.bind(chip.spi_in());
        } else {
            par_bus = std::make_unique<par::par_host>("par_bus", pt, 0, 0x100);
            par_bus->par_out.bind(chip.par_in());
            par = std::make_unique<ks_par_host>(*par_bus);
        }
        chip.irq.bind(line);
        chip.attach_wire(wire);
        SC_THREAD(run);
    }
    ks_host_base& host() { return spi ? static_cast<ks_host_base&>(*spi) : *par; }
    ks::core& core() { return chip.core; }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
    static void start(const ks::params& p, std::function<void(ks_bench&)> b,
                      const eth::eth_wire_params& wp = {}, const par::par_timing& pt = {}) {
        ks_bench bench(p, std::move(b), wp, pt);
        sc_core::sc_start();
    }
};

} // namespace nicsim::test

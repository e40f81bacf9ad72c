// SPDX-License-Identifier: MIT
// Shared helpers of the probe tests: module loading (module_init of every linked variant),
// recording bus stubs that end the simulation at a chosen access, and reference encodings
// written from the datasheets/driver docs (not from the driver code under test).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "bus/spi/spi_host.h"
#include "bus/spi/spi_sockets.h"
#include "kernel/include/lx_kit/lx_emul_api.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "kernel/include/nicsim/bus_attach.h"

namespace nicsim::test {

// Parameter of (module, variant), then module_init of every module (registers all drivers).
inline int set_param(const char* mod, const char* variant, const char* param, const char* value) {
    int idx = lx_emul_module_find(mod, variant);
    if (idx < 0)
        return -1;
    return lx_emul_module_param_set(idx, param, value);
}

inline void init_all_modules() {
    for (int i = 0; i < lx_emul_module_count(); i++)
        if (!lx_emul_module_initialized(i) && lx_emul_module_init(i) != 0)
            throw std::runtime_error(std::string("module_init failed: ") + lx_emul_module_name(i));
}

// One MOSI/MISO frame as the slave saw it.
struct spi_record {
    sc_core::sc_time when;
    uint32_t speed_hz = 0;
    size_t transfers = 0;
    std::vector<uint8_t> mosi; // all transfers concatenated (zeros where tx was NULL)
    std::vector<size_t> lens;
};

// SPI slave that records frames, answers all-zero MISO, and when `stop_when(frame)` says so,
// stops the simulation and parks the calling (driver) thread forever.
class recording_spi_slave : public sc_core::sc_module, public nicsim::spi::spi_slave_if {
  public:
    nicsim::spi::spi_target_socket spi_in;
    std::vector<spi_record> frames;
    std::function<bool(const spi_record&)> stop_when = [](const spi_record&) { return true; };

    explicit recording_spi_slave(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), spi_in("spi_in", *this) {}

    void spi_transport(nicsim::spi::spi_payload& f, sc_core::sc_time&) override {
        // Built in place: this thread may park below forever, and a local record would own
        // heap memory that nothing frees (LeakSanitizer).
        spi_record& r = frames.emplace_back();
        r.when = sc_core::sc_time_stamp();
        r.speed_hz = f.speed_hz;
        r.transfers = f.xfers.size();
        for (auto& x : f.xfers) {
            r.lens.push_back(x.len);
            for (size_t i = 0; i < x.len; i++)
                r.mosi.push_back(x.tx ? x.tx[i] : 0);
            if (x.rx)
                std::fill(x.rx, x.rx + x.len, 0);
        }
        if (stop_when(r)) {
            sc_core::sc_stop();
            sc_core::wait(m_never);
        }
    }

  private:
    sc_core::sc_event m_never;
};

// CRC7 as the WILC1000 SPI protocol uses it (x^7 + x^3 + 1, preset 0x7f, result left-aligned
// in bits 7..1, bit 0 = 0), bit by bit from the polynomial.
inline uint8_t crc7_left_aligned(const uint8_t* p, size_t n) {
    uint8_t crc = 0x7f << 1;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x80) ? static_cast<uint8_t>((crc << 1) ^ (0x09 << 1))
                               : static_cast<uint8_t>(crc << 1);
    }
    return crc & 0xfe;
}

// KSZ8851SNL SPI command phase (datasheet: 2-bit opcode, 4 byte-enable bits, register address
// A7..A2, then don't-care bits): byte 0 = op<<6 | BE<<2 | A7A6, byte 1 = A5..A0 << 2.
inline std::vector<uint8_t> ks8851_spi_cmd(unsigned op, unsigned be, unsigned reg) {
    return {static_cast<uint8_t>((op << 6) | (be << 2) | (reg >> 6)),
            static_cast<uint8_t>((reg & 0x3f) << 2)};
}

} // namespace nicsim::test

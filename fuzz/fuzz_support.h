// SPDX-License-Identifier: MIT
// Shared by the fuzz targets: the input cursor, unique module names (every input builds fresh
// chip models; SystemC never starts, so the models see time only through the `delay` argument
// of their transport calls), SPI frames built from the input and the SPI targets' frame loop,
// and annotations that go nowhere.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "bus/spi/spi_payload.h"
#include "fuzz/fuzz_input.h"
#include "trace/bus_decoder.h"

namespace nicsim::fuzz {

inline std::string unique_name(const char* base) {
    static unsigned long n = 0;
    return std::string(base) + std::to_string(n++);
}

// One chip-select frame whose buffers live as long as it does.
struct spi_frame {
    spi::spi_payload payload;
    std::vector<std::unique_ptr<std::vector<uint8_t>>> tx, rx;
    // A transfer of `len` bytes from the input (no more than it has left + 64, so a short input
    // cannot ask for megabytes of zeros).
    void add(input& in, size_t len, bool cs_change) {
        len = std::min(len, in.left() + 64);
        tx.push_back(std::make_unique<std::vector<uint8_t>>(in.bytes(len)));
        rx.push_back(std::make_unique<std::vector<uint8_t>>(len, 0));
        spi::spi_xfer x;
        x.tx = tx.back()->data();
        x.rx = rx.back()->data();
        x.len = len;
        x.cs_change = cs_change;
        payload.xfers.push_back(x);
    }
};

struct null_annotations : trace::bus_annotations {
    void span(std::string_view, std::string_view, uint64_t a, uint64_t b,
              std::string_view) override {
        if (b < a)
            __builtin_trap(); // a span must not end before it starts
    }
    void instant(std::string_view, std::string_view, uint64_t, std::string_view) override {}
};

// The SPI targets' input format: repeated { header: bits 0-1 = transfers - 1, bits 2-7 = time
// step in 5 us; per transfer: u16 length (bits 0-13, cut to what the input has left + 64) with
// bit 15 = cs_change, then that many MOSI bytes }. Each frame goes to the chip's front-end at
// `speed_hz` (time as the transport's delay) and then, with the chip's MISO, to the decoder.
template <class FrontEnd, class Decoder>
void run_spi_frames(input& in, FrontEnd& fe, Decoder& dec, uint32_t speed_hz) {
    null_annotations ann;
    sc_core::sc_time now = sc_core::SC_ZERO_TIME;
    for (unsigned frames = 0; !in.empty() && frames < 512; ++frames) {
        const uint8_t hdr = in.u8();
        now += sc_core::sc_time(5.0 * (hdr >> 2), sc_core::SC_US);
        spi_frame f;
        const unsigned nx = 1 + (hdr & 3);
        for (unsigned i = 0; i < nx; ++i) {
            const uint16_t w = in.u16();
            f.add(in, w & 0x3fff, (w & 0x8000) != 0);
        }
        f.payload.speed_hz = speed_hz;
        sc_core::sc_time delay = now; // the simulation does not run: time is the delay
        fe.spi_transport(f.payload, delay);
        trace::bus_txn t;
        t.start_ps = uint64_t(now.value());
        t.end_ps = t.start_ps + 1'000'000;
        t.bytes = f.payload.total_bytes();
        dec.decode(f.payload, t, ann);
    }
}

} // namespace nicsim::fuzz

// SPDX-License-Identifier: MIT
// libFuzzer target: the KS8851 SPI front-end (models/ks8851/ks8851_spi.cc: register commands
// with byte enables, RXQ reads, TXQ writes into the chip core's packet memory) and the trace
// decoder of its frames (devices/ks8851/ks8851_decoder.cc). Every input starts from
// a freshly reset chip.
//
// Input: repeated { header: bits 0-1 = transfers - 1, bits 2-7 = time step in 5 us;
//                   per transfer: u16 length (bits 0-13, cut to what the input has left + 64)
//                   with bit 15 = cs_change, then that many MOSI bytes }.
#include <cstdint>

#include "fuzz/fuzz_support.h"
#include "models/ks8851/ks8851_core.h"
#include "models/ks8851/ks8851_spi.h"
#include "devices/ks8851/ks8851_decoder.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::input in(data, size);
    ks::core chip(fuzz::unique_name("ks").c_str());
    ks::spi_frontend fe(chip);
    trace::ks8851_spi_decoder dec;
    fuzz::null_annotations ann;
    sc_core::sc_time now = sc_core::SC_ZERO_TIME;
    for (unsigned frames = 0; !in.empty() && frames < 512; ++frames) {
        const uint8_t hdr = in.u8();
        now += sc_core::sc_time(5.0 * (hdr >> 2), sc_core::SC_US);
        fuzz::spi_frame f;
        const unsigned nx = 1 + (hdr & 3);
        for (unsigned i = 0; i < nx; ++i) {
            const uint16_t w = in.u16();
            f.add(in, w & 0x3fff, (w & 0x8000) != 0);
        }
        f.payload.speed_hz = 40'000'000;
        sc_core::sc_time delay = now; // the simulation does not run: time is the delay
        fe.spi_transport(f.payload, delay);
        trace::bus_txn t;
        t.start_ps = uint64_t(now.value());
        t.end_ps = t.start_ps + 1'000'000;
        t.bytes = f.payload.total_bytes();
        dec.decode(f.payload, t, ann);
    }
    return 0;
}

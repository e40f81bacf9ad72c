// SPDX-License-Identifier: MIT
// libFuzzer target: the ENC28J60 SPI front-end (models/enc28j60/enc28j60_spi.cc: one command
// per chip-select window — register reads/writes, bit set/clear, buffer memory reads/writes,
// soft reset) and the trace decoder of its frames (devices/enc28j60/enc28j60_decoder.cc). Every
// input starts from a freshly reset chip.
//
// Input: the KS8851 target's framing: repeated { header: bits 0-1 = transfers - 1, bits 2-7 =
// time step in 5 us; per transfer: u16 length (bits 0-13, cut to what the input has left + 64)
// with bit 15 = cs_change, then that many MOSI bytes }.
#include <cstdint>

#include "devices/enc28j60/enc28j60_decoder.h"
#include "fuzz/fuzz_support.h"
#include "models/enc28j60/enc28j60_core.h"
#include "models/enc28j60/enc28j60_spi.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::input in(data, size);
    enc::core chip(fuzz::unique_name("enc").c_str());
    enc::spi_frontend fe(chip);
    trace::enc28j60_spi_decoder dec(chip.registers());
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
        f.payload.speed_hz = 20'000'000;
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

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
    fuzz::run_spi_frames(in, fe, dec, 40'000'000);
    return 0;
}

// SPDX-License-Identifier: MIT
// libFuzzer target: the ENC28J60 SPI front-end (models/enc28j60/enc28j60_spi.cc: one command
// per chip-select window — register reads/writes, bit set/clear, buffer memory reads/writes,
// soft reset) and the trace decoder of its frames (devices/enc28j60/enc28j60_decoder.cc). Every
// input starts from a freshly reset chip.
//
// Input: the SPI targets' frames (fuzz_support.h run_spi_frames).
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
    fuzz::run_spi_frames(in, fe, dec, 20'000'000);
    return 0;
}

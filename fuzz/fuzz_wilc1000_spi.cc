// SPDX-License-Identifier: MIT
// libFuzzer target: the WILC1000 SPI command decoder, both sides of the wire. The chip model's
// SPI slave front-end (models/wilc1000/wilc1000_spi.cc: command framing, CRC7/CRC16, DMA
// packets, filler and tags) takes chip-select frames built from the input, and the trace decoder
// (devices/wilc1000/wilc1000_spi_decoder.cc) names each frame from its MOSI and the
// chip's MISO. Every input starts from a freshly reset chip.
//
// Input: u8 setup (bit 0: CRC7 off at reset, bit 1: CRC16 off, bits 4-6: packet size field),
//        then repeated { header: bits 0-1 = transfers - 1, bits 2-7 = time step in 5 us;
//                   per transfer: u16 length (bits 0-13, cut to what the input has left + 64)
//                   with bit 15 = cs_change, then that many MOSI bytes }.
#include <cstdint>
#include <string>

#include "fuzz/fuzz_support.h"
#include "models/wilc1000/wilc1000_core.h"
#include "models/wilc1000/wilc1000_regmap.h"
#include "models/wilc1000/wilc1000_spi.h"
#include "devices/wilc1000/wilc1000_spi_decoder.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::input in(data, size);
    wilc::params p;
    const uint8_t setup = in.u8();
    p.protocol_config_reset = (setup & 1 ? 0 : wilc::regmap::PROTO_CRC7) |
                              (setup & 2 ? 0 : wilc::regmap::PROTO_CRC16) |
                              (uint32_t((setup >> 4) % 6) << wilc::regmap::PROTO_PKT_SZ_SHIFT);
    wilc::core chip(fuzz::unique_name("wilc").c_str(), p);
    wilc::spi_frontend fe(chip);
    trace::wilc1000_spi_decoder dec([&chip](uint32_t a) {
        const auto* r = chip.registers().find(0, a);
        return r ? r->name() : nullptr;
    });
    fuzz::run_spi_frames(in, fe, dec, 48'000'000);
    return 0;
}

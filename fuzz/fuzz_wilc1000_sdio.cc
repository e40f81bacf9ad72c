// SPDX-License-Identifier: MIT
// libFuzzer target: the WILC1000 SDIO CMD52/CMD53 decoder. The chip model's SDIO front-end
// (models/wilc1000/wilc1000_sdio*.cc: CCCR/FBR of function 0, the CSA window, function 1's
// registers and DMA port) takes commands built from the input, within what the SD host
// guarantees (function 0..7, 17-bit address, CMD53 count 1..511 blocks of 1..2048 bytes or
// 1..512 bytes), and the trace decoder (wilc1000_sdio_decoder.cc) names each one. Every input
// starts from a freshly reset chip strapped for SDIO.
//
// Input: repeated { flags u8: bit 0 CMD53, 1 write, 2 RAW, 3 fixed address, 4 block mode,
//                   bits 5-7 function; u32 address (17 bits) and, for CMD53, u16 count and
//                   u16 block size; u8 time step in 5 us; the data a write carries }.
#include <cstdint>
#include <vector>

#include "bus/sdio/sdio_payload.h"
#include "fuzz/fuzz_support.h"
#include "models/wilc1000/wilc1000_core.h"
#include "models/wilc1000/wilc1000_sdio.h"
#include "devices/wilc1000/wilc1000_sdio_decoder.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::input in(data, size);
    wilc::params p;
    p.bus_strap = wilc::host_bus::sdio;
    wilc::core chip(fuzz::unique_name("wilc").c_str(), p);
    wilc::sdio_frontend fe(chip);
    trace::wilc1000_sdio_decoder dec([&chip](uint32_t a) {
        const auto* r = chip.registers().find(0, a);
        return r ? r->name() : nullptr;
    });
    fuzz::null_annotations ann;
    sc_core::sc_time now = sc_core::SC_ZERO_TIME;
    size_t moved = 0; // data bytes so far: at most 4 MiB per input
    for (unsigned cmds = 0; !in.empty() && cmds < 1024 && moved < (4u << 20); ++cmds) {
        const uint8_t f = in.u8();
        sdio::sdio_payload c;
        c.cmd = (f & 1) ? sdio::sdio_command::cmd53 : sdio::sdio_command::cmd52;
        c.write = (f & 2) != 0;
        c.raw = (f & 4) != 0;
        c.incr_addr = (f & 8) == 0;
        c.fn = f >> 5;
        c.addr = in.u32() & 0x1ffff;
        if (c.is_cmd53()) {
            c.block_mode = (f & 16) != 0;
            const uint16_t n = in.u16(), bs = in.u16();
            c.count = c.block_mode ? 1 + n % 511 : 1 + n % 512;
            c.block_size = c.block_mode ? 1 + bs % 2048 : 0;
        }
        now += sc_core::sc_time(5.0 * in.u8(), sc_core::SC_US);
        const size_t n = c.is_cmd53() ? c.data_bytes() : 1;
        std::vector<uint8_t> buf = c.write ? in.bytes(n) : std::vector<uint8_t>(n, 0);
        moved += n;
        c.data = buf.data();
        sc_core::sc_time delay = now; // the simulation does not run: time is the delay
        fe.sdio_transport(c, delay);
        trace::bus_txn t;
        t.start_ps = uint64_t(now.value());
        t.end_ps = t.start_ps + 1'000'000;
        t.bytes = n;
        dec.decode(c, t, ann);
    }
    return 0;
}

// SPDX-License-Identifier: MIT
// libFuzzer target: the KS8851-16MLL parallel-bus front-end (models/ks8851/ks8851_par.cc:
// command-port register selection with byte enables, data cycles, the RXQ/TXQ FIFO while
// RXQCR.SDA is set) and the trace decoder of its accesses (ks8851_decoder.cc). Every input
// starts from a freshly reset chip, with the endian strap right or (bit 0 of the first byte)
// wrong.
//
// Input: u8 setup, then repeated 4-byte accesses { flags: bit 0 write, bit 1 command port,
//        bits 2-3 byte lanes (0 = both), bits 4-7 time step in 100 ns; u16 data; u8 spare }.
#include <cstdint>

#include "bus/par/par_payload.h"
#include "fuzz/fuzz_support.h"
#include "models/ks8851/ks8851_core.h"
#include "models/ks8851/ks8851_par.h"
#include "devices/ks8851/ks8851_decoder.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fuzz::input in(data, size);
    ks::params p;
    p.par_endian_strap_ok = (in.u8() & 1) == 0;
    ks::core chip(fuzz::unique_name("ks").c_str(), p);
    ks::par_frontend fe(chip);
    trace::ks8851_par_decoder dec(0, p.par_cmd_addr_mask);
    fuzz::null_annotations ann;
    sc_core::sc_time now = sc_core::SC_ZERO_TIME;
    for (unsigned n = 0; !in.empty() && n < 65536; ++n) {
        const uint8_t f = in.u8();
        par::par_payload a;
        a.cmd = (f & 1) ? par::par_command::write : par::par_command::read;
        a.addr = (f & 2) ? p.par_cmd_addr_mask : 0;
        const unsigned lanes = (f >> 2) & 3;
        a.lanes = uint8_t(lanes == 0 ? par::lanes_all : lanes);
        a.data = in.u16();
        in.u8();
        now += sc_core::sc_time(100.0 * (f >> 4), sc_core::SC_NS);
        sc_core::sc_time delay = now; // the simulation does not run: time is the delay
        fe.par_transport(a, delay);
        trace::bus_txn t;
        t.start_ps = uint64_t(now.value());
        t.end_ps = t.start_ps + 100'000;
        t.bytes = 2;
        dec.decode(a, t, ann);
    }
    return 0;
}

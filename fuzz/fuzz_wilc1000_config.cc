// SPDX-License-Identifier: MIT
// libFuzzer target: the WILC1000 firmware model's config-packet decoder (models/wilc1000/
// wilc1000_core.cc handle_cfg: the 'W'/'Q' header and total length, the WID list with its types,
// lengths and BIN checksums, and what WIDs start: the join request of the connect sequence,
// power management, the listen interval, disconnect) and the join-request decoder itself
// (wilc1000_join.cc parse_join_request, with the association response and 'I' status built from
// what it accepts). The SPI and SDIO targets rarely get a whole config packet through the VMM
// handshake, so this one feeds the frames straight in. Every input starts from a fresh chip.
//
// Input: repeated { u16 length (cut to what the input has left), then that many frame bytes };
//        the whole input also goes to parse_join_request as it is.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "models/wilc1000/wilc1000_core.h"
#include "models/wilc1000/wilc1000_join.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    wilc::join_request req;
    std::string err;
    if (wilc::parse_join_request(data, size, 1, req, err)) {
        if (req.rates.size() > 12 || req.ssid.size() > 32)
            __builtin_trap(); // the decoder must bound what it took from the struct
        (void)wilc::assoc_response(req, 1);
        (void)wilc::status_message(wilc::mac_status_connected, req.drv_handler);
    } else if (err.empty()) {
        __builtin_trap(); // a refusal names its reason
    }

    fuzz::input in(data, size);
    wilc::params p;
    wilc::core chip(fuzz::unique_name("wilc").c_str(), p);
    sc_core::sc_time now = sc_core::SC_ZERO_TIME;
    for (unsigned frames = 0; !in.empty() && frames < 64; ++frames) {
        const size_t len = in.u16() % 2048;
        chip.config_frame(in.bytes(len), now);
        now += sc_core::sc_time(100, sc_core::SC_US);
    }
    return 0;
}

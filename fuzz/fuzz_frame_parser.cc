// SPDX-License-Identifier: MIT
// libFuzzer target: the traffic layer's frame parser (host/traffic/frame.cc: Ethernet II,
// IPv4 with options, TCP with its option block, UDP, ICMP echo), with and without checksum
// checks, the TCP timestamp option lookup, and the MAC / IPv4 address text parsers. The parser
// must never throw, and everything it points at must lie inside the frame.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "host/traffic/frame.h"

using namespace nicsim::traffic;

namespace {
void inside(const uint8_t* base, size_t size, const uint8_t* p, size_t n) {
    if (n == 0)
        return;
    if (!p || p < base || p + n > base + size)
        __builtin_trap();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    for (bool verify : {true, false}) {
        const frame::parsed_frame f = frame::parse(data, size, verify);
        if (!f.ok)
            continue;
        inside(data, size, f.payload, f.payload_len);
        inside(data, size, f.tcp_options, f.tcp_options_len);
        uint32_t tsval = 0, tsecr = 0;
        frame::find_tcp_timestamp(f, tsval, tsecr);
    }
    const std::string text(reinterpret_cast<const char*>(data), std::min<size_t>(size, 64));
    try {
        const auto m = frame::mac_addr::parse(text);
        if (frame::mac_addr::parse(m.str()) != m)
            __builtin_trap(); // str() and parse() must round-trip
    } catch (const std::invalid_argument&) {
    }
    try {
        const auto a = frame::ipv4_addr::parse(text);
        if (frame::ipv4_addr::parse(a.str()) != a)
            __builtin_trap();
    } catch (const std::invalid_argument&) {
    }
    return 0;
}

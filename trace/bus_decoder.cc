// SPDX-License-Identifier: MIT
#include "trace/bus_decoder.h"

namespace nicsim::trace {

void frame_bytes(const spi::spi_payload& f, size_t max, std::vector<uint8_t>& mosi,
                 std::vector<uint8_t>& miso) {
    mosi.clear();
    miso.clear();
    for (const auto& x : f.xfers) {
        for (size_t i = 0; i < x.len && mosi.size() < max; ++i) {
            mosi.push_back(x.tx ? x.tx[i] : 0);
            miso.push_back(x.rx ? x.rx[i] : 0);
        }
        if (mosi.size() >= max)
            break;
    }
}

void generic_spi_decoder::decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations&) {
    t.dir = "rw";
    t.name = "frame " + std::to_string(frame.total_bytes()) + " B";
}

std::string sdio_command_text(const sdio::sdio_payload& c) {
    std::string s = std::string(c.is_cmd52() ? "CMD52 " : "CMD53 ") + (c.write ? "W" : "R") + " F" +
                    std::to_string(c.fn) + " " + hex(c.addr, 3);
    if (c.is_cmd53()) {
        s += " " + std::to_string(c.data_bytes()) + " B";
        if (c.block_mode)
            s += " (" + std::to_string(c.count) + " x " + std::to_string(c.block_size) + ")";
    }
    return s;
}

} // namespace nicsim::trace

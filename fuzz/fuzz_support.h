// SPDX-License-Identifier: MIT
// Shared by the fuzz targets: the input cursor, unique module names (every input builds fresh
// chip models; SystemC never starts, so the models see time only through the `delay` argument
// of their transport calls), SPI frames built from the input, and annotations that go nowhere.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bus/spi/spi_payload.h"
#include "fuzz/fuzz_input.h"
#include "trace/bus_decoder.h"

namespace nicsim::fuzz {

inline std::string unique_name(const char* base) {
    static unsigned long n = 0;
    return std::string(base) + std::to_string(n++);
}

// One chip-select frame whose buffers live as long as it does.
struct spi_frame {
    spi::spi_payload payload;
    std::vector<std::unique_ptr<std::vector<uint8_t>>> tx, rx;
    // A transfer of `len` bytes from the input (no more than it has left + 64, so a short input
    // cannot ask for megabytes of zeros).
    void add(input& in, size_t len, bool cs_change) {
        len = std::min(len, in.left() + 64);
        tx.push_back(std::make_unique<std::vector<uint8_t>>(in.bytes(len)));
        rx.push_back(std::make_unique<std::vector<uint8_t>>(len, 0));
        spi::spi_xfer x;
        x.tx = tx.back()->data();
        x.rx = rx.back()->data();
        x.len = len;
        x.cs_change = cs_change;
        payload.xfers.push_back(x);
    }
};

struct null_annotations : trace::bus_annotations {
    void span(std::string_view, std::string_view, uint64_t a, uint64_t b,
              std::string_view) override {
        if (b < a)
            __builtin_trap(); // a span must not end before it starts
    }
    void instant(std::string_view, std::string_view, uint64_t, std::string_view) override {}
};

} // namespace nicsim::fuzz

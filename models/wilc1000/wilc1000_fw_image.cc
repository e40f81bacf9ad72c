// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_fw_image.h"

#include <stdexcept>
#include <string>

namespace nicsim::wilc {

namespace {
void put_le32(std::vector<uint8_t>& v, uint32_t x) {
    for (int i = 0; i < 4; ++i)
        v.push_back(uint8_t(x >> (8 * i)));
}
const mem_region& region(const params& p, const char* name, uint32_t need) {
    for (const auto& r : p.memory)
        if (r.name == name) {
            if (need > r.size)
                throw std::invalid_argument(std::string("firmware image: ") + std::to_string(need) +
                                            " bytes do not fit region '" + name + "'");
            return r;
        }
    throw std::invalid_argument(std::string("firmware image: no memory region '") + name + "'");
}
} // namespace

std::vector<uint8_t> make_firmware_image(const params& p, uint32_t iram_bytes,
                                         uint32_t dram_bytes) {
    std::vector<uint8_t> img;
    uint32_t seed = 0x2545f491; // xorshift: deterministic, non-trivial content
    auto record = [&](uint32_t addr, uint32_t size) {
        put_le32(img, addr);
        put_le32(img, size);
        for (uint32_t i = 0; i < size; ++i) {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            img.push_back(uint8_t(seed));
        }
    };
    if (iram_bytes)
        record(region(p, "iram", iram_bytes).base, iram_bytes);
    if (dram_bytes)
        record(region(p, "dram", dram_bytes).base, dram_bytes);
    return img;
}

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
// A well-formed WILC1000 firmware image for the functional model (no real firmware is needed or
// executed): records {le32 addr; le32 size; u8 data[size]} as wilc_wlan_firmware_download()
// parses them, with deterministic filler content.
#pragma once

#include <cstdint>
#include <vector>

#include "models/wilc1000/wilc1000_params.h"

namespace nicsim::wilc {

// iram_bytes go to the model's "iram" region, dram_bytes to "dram" (both must exist in
// p.memory and be large enough; std::invalid_argument otherwise).
std::vector<uint8_t> make_firmware_image(const params& p, uint32_t iram_bytes = 160 * 1024,
                                         uint32_t dram_bytes = 32 * 1024);

} // namespace nicsim::wilc

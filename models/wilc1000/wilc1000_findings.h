// SPDX-License-Identifier: MIT
// A finding: something the host did that a real chip would not accept (protocol violation, bad
// CRC, access to an unmapped address, access while the clock is off, ...). The chip answers as
// it would and also records the finding with its simulated time; tests and reports read the list.
#pragma once

#include "models/common/finding_log.h"

namespace nicsim::wilc {

enum class finding_kind {
    bad_crc7,         // command CRC7 mismatch
    bad_crc16,        // data-packet CRC16 mismatch
    unknown_command,  // command byte the chip does not implement
    out_of_range,     // register/memory address nothing answers at
    unexpected_frame, // bytes that do not fit the protocol state (bad tag, truncated command...)
    clock_off_access, // clocked access while CLK_STATUS = 0
    sck_too_fast,     // SCK above the chip's maximum
    firmware,         // firmware-model level problem (bad VMM entry, CPU started without image...)
};

const char* to_string(finding_kind k);

using finding = chip_finding<finding_kind>;
using finding_log = chip_finding_log<finding_kind>;

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
// A finding: something the host did that a real KS8851 would not accept or that the model
// cannot answer faithfully (FIFO access without SDA, TXQ overflow, unmapped register, SCK too
// fast, ...). The chip answers as well as it can and records the finding with its simulated
// time; tests and reports read the list.
#pragma once

#include "models/common/finding_log.h"

namespace nicsim::ks {

enum class finding_kind {
    unmapped_register, // access to an offset not in the register table
    read_only_write,   // write to a read-only register
    fifo_without_sda,  // RXQ/TXQ access while RXQCR.SDA = 0
    txq_overflow,      // frame written into the TXQ with less free space than it needs
    bad_tx_header,     // TX byte count of 0 or above max_tx_frame
    tx_frame_aborted,  // SDA cleared in the middle of a TX frame
    release_empty,     // RXQCR.RRXEF with no frame in the RXQ
    dma_not_ready,     // RXQ data read before the RX DMA start latency elapsed
    spi_protocol,      // malformed SPI frame (short command, no byte enables, ...)
    sck_too_fast,      // SCK above max_sck_hz
    par_protocol,      // parallel-bus access the chip does not define (CMD port read, ...)
    no_wire,           // frame transmitted with no wire attached
};

const char* to_string(finding_kind k);

using finding = chip_finding<finding_kind>;
using finding_log = chip_finding_log<finding_kind>;

} // namespace nicsim::ks

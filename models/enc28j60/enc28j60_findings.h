// SPDX-License-Identifier: MIT
// Findings of the ENC28J60 model: something the host did that the real chip would not accept
// or would answer unreliably. The chip answers as well as it can and records the finding with
// its simulated time (models/common/finding_log.h); tests and reports read the list.
#pragma once

#include "models/common/finding_log.h"

namespace nicsim::enc {

enum class finding_kind {
    unimplemented_register, // access to an address with no register in the selected bank
    read_only_write,        // write that tried to change read-only bits
    bitfield_on_mac_mii,    // BFS/BFC on a MAC/MII register (ETH registers only)
    missing_dummy_byte,     // RCR of a MAC/MII register without the dummy byte
    mii_busy_access,        // MIRD read, MICMD/MIREGADR/MIWR write while MISTAT.BUSY
    phy_unimplemented,      // MII access to a PHY address with no register
    pktdec_empty,           // ECON2.PKTDEC with EPKTCNT = 0
    tx_bad_pointers,        // TXRTS with ETXND < ETXST or out of the buffer
    tx_while_busy,          // host wrote TXRTS/ETX* or the TX buffer while a TX was running
    duplex_mismatch,        // MACON3.FULDPX differs from PHCON1.PDPXMD at TX/RX time
    clock_not_ready,        // buffer or MAC/MII access while ESTAT.CLKRDY = 0
    access_after_reset,     // command sooner than src_settle after SRC
    spi_protocol,           // malformed SPI command (bad opcode, short frame, extra bytes)
    sck_too_fast,           // SCK above max_sck_hz
    spi_mode,               // SPI mode other than 0,0
    not_modelled,           // a feature the driver does not use (DMA, MII scan, BIST, ...)
    no_wire,                // frame transmitted with no wire attached
    wire_rate,              // attached wire is not 10 Mb/s
};

const char* to_string(finding_kind k);

using finding = chip_finding<finding_kind>;
using finding_log = chip_finding_log<finding_kind>;

} // namespace nicsim::enc

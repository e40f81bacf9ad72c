// SPDX-License-Identifier: MIT
// Every tunable of the ENC28J60 model in one struct. Each value says where it comes from:
// [fact] datasheet DS39662 / errata DS80349 (docs/sources.md), [code] what the Linux 6.1 driver
// (enc28j60.c) requires, [assumption] chosen and documented in docs/models/enc28j60.md.
#pragma once

#include <array>
#include <cstdint>

#include <systemc>

namespace nicsim::enc {

struct params {
    // --- identity ---
    // EREVID of silicon rev. B7 [fact: errata DS80349 lists B7 as EREVID 0x06]. The driver only
    // rejects 0x00 and 0xFF (no chip / damaged).
    uint8_t revid = 0x06;
    // MAADR1..6 after reset. [fact] 0: the chip has no factory address; the driver programs
    // the one from the device tree (local-mac-address) or a random one.
    std::array<uint8_t, 6> mac_reset = {0, 0, 0, 0, 0, 0};
    // PHCON1.PDPXMD after reset: set by the LEDB polarity strap [fact]. [assumption] false
    // (half duplex); the driver programs PHCON1 itself.
    bool pdpxmd_strap = false;

    // --- clock / SPI ---
    double clock_hz = 25e6;   // [fact] 25 MHz crystal
    double max_sck_hz = 20e6; // [fact] SPI clock up to 20 MHz; faster frames are a finding

    // --- reset and power ---
    // Power-on oscillator start-up: ESTAT.CLKRDY is 0 until then. [assumption] 300 us (the
    // datasheet's OST of 7500 clock cycles, to verify); 0 = ready at time 0.
    sc_core::sc_time ost = sc_core::sc_time(300, sc_core::SC_US);
    // ECON2.PWRSV 1 -> 0: CLKRDY returns after this. [assumption] the same 300 us.
    sc_core::sc_time wake_time = sc_core::sc_time(300, sc_core::SC_US);
    // After SRC the host must wait before the next command; CLKRDY does not show it (errata).
    // [code] the driver's comment "Errata workaround #1, CLKRDY check is unreliable, delay at
    // least 1 ms": accesses earlier than this are `access_after_reset` findings.
    sc_core::sc_time src_settle = sc_core::sc_time(1, sc_core::SC_MS);

    // --- PHY / MII ---
    // MISTAT.BUSY after MICMD.MIIRD or a MIWRH write. [fact] 10.24 us.
    sc_core::sc_time mii_busy = sc_core::sc_time(10240, sc_core::SC_NS);

    // --- MAC ---
    // ECON1.TXRTS set -> first preamble bit handed to the wire (buffer read-out and MAC start).
    // [assumption] 1 us; the wire then adds the 10 Mb/s frame time and the inter-frame gap.
    sc_core::sc_time tx_start = sc_core::sc_time(1, sc_core::SC_US);
    // Last bit received -> packet visible in the ring (EPKTCNT, ERXWRPT). [assumption] 0.
    sc_core::sc_time rx_commit = sc_core::SC_ZERO_TIME;
    // Frames shorter than this (DA..FCS) are dropped as runts. [assumption] 64 (802.3 minimum).
    unsigned min_rx_frame = 64;
    // [fact] 10BASE-T only: a wire with another rate is a `wire_rate` finding at attach time.
    double line_rate_bps = 10e6;
};

} // namespace nicsim::enc

// SPDX-License-Identifier: MIT
// Every tunable of the KS8851 model in one struct (filled from YAML by the testbench). Each
// value says where it comes from: [fact] datasheet / docs/sources.md#ks8851, [code] what the Linux
// 6.1 driver requires, [assumption] chosen and documented, to be checked against the datasheet.
// docs/models/ks8851.md mirrors this file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

namespace nicsim::ks {

enum class bus_variant { spi, par }; // KSZ8851SNL (SPI) or KSZ8851-16MLL (16-bit parallel)

// When TXQCR.METFE reads back as 0 after the host set it.
enum class metfe_clear_policy {
    at_enqueue, // once the written frames are in the transmit queue (tx_enqueue_cycles)
    at_tx_done, // once every enqueued frame has left the MAC
};

struct params {
    bus_variant bus = bus_variant::spi;

    // --- identity ---
    uint16_t cider = 0x8872; // [fact] chip id 0x887x, rev 1 as read on real boards
    uint16_t mbir = 0x1010;  // [code] TXMBF|RXMBF set, no BIST failure (driver selftest)
    bool eeprom = false;     // [assumption] no EEPROM fitted: CCR.EEPROM = 0, MAC from the host
    std::array<uint8_t, 6> mac_reset = {0, 0, 0, 0, 0, 0}; // [assumption] MARH/M/L after reset

    // --- clock and packet memory ---
    double clock_hz = 25e6;     // [fact] 25 MHz reference clock
    uint32_t txq_bytes = 6144;  // [fact] 6 KB TX queue
    uint32_t rxq_bytes = 12288; // [fact] 12 KB RX queue
    uint32_t mem_align = 4;     // [fact] 4-byte buffer boundary
    // Each RX frame occupies ALIGN(4-byte status/count header + frame incl. CRC, mem_align).
    // [assumption] header size taken from the RXQ read-out format (status + byte count).
    uint32_t rx_header_bytes = 4;
    uint32_t max_rx_frame = 2000; // [fact] RXQ frame data "maximum size is 2000" (incl. CRC)
    uint32_t max_tx_frame = 2000; // [assumption] same limit for the TX byte count

    // --- internal timing, in 25 MHz cycles ---
    // Last FCS bit received -> frame visible in RXFCTR and thresholds evaluated. [assumption]
    unsigned rx_commit_cycles = 8;
    // RXQCR.SDA set -> first RXQ data word valid (after the dummy bytes/word). [assumption]
    // 2 cycles = 80 ns: the 6.1 PAR driver reads the dummy word and the first data word back to
    // back right after the SDA write (at the default EIM timing the first data word is sampled
    // about 150 ns after SDA), so the real chip must be at least that fast.
    unsigned rx_dma_start_cycles = 2;
    // TXQCR.METFE write -> written frames in the transmit queue. [assumption] 2 cycles = 80 ns:
    // with at_enqueue the PAR driver's first TXQCR poll (about 144 ns later) sees it clear.
    unsigned tx_enqueue_cycles = 2;
    // Frame enqueued (and TXE set) -> first preamble bit on the wire. [assumption]
    unsigned tx_start_cycles = 16;
    // RXDTTR counts in units of this many clock cycles. [assumption] 1 us (25 cycles), from the
    // driver comment "1ms after first frame to IRQ" for RXDTTR = 1000.
    unsigned rxdttr_unit_cycles = 25;
    // [assumption] at_enqueue; whether METFE clears at enqueue or after transmission is on the
    // "verify against the datasheet" list. It sets the PAR driver's TX poll count.
    metfe_clear_policy metfe_clear = metfe_clear_policy::at_enqueue;

    // --- SPI front-end ---
    unsigned spi_rx_dummy_bytes = 4; // [code] ks8851_rx_pkts reads 4 dummy + 4 header bytes
    double max_sck_hz = 40e6;        // [fact] SPI clock up to 40 MHz; faster frames are a finding

    // --- parallel front-end ---
    unsigned par_rx_dummy_words = 1; // [code] ks8851_rdfifo_par starts at buff+2: one dummy word
    // Address bit that selects the command port (the chip's CMD pin wired to a host address
    // line). [assumption] host A1: data port at window offset 0, command port at offset 2.
    uint64_t par_cmd_addr_mask = 0x2;
    // EESK strap matches the (little-endian) host. false models a wrong strap: every bus word is
    // byte-swapped and BE[3:0] reads as BE[1,0,3,2]; the driver's endian check must then fail.
    bool par_endian_strap_ok = true;

    // --- power (one energy meter, ks8851_power.h; docs/models/ks8851.md "Power") ---
    // [fact] single 3.3 V supply (internal LDO for the 1.8 V core; docs/sources.md#ks8851).
    double supply_voltage_v = 3.3;
    // Supply current per meter state. No KSZ8851 current figure is in nicsim's sources
    // (docs/sources.md#gaps item 2), so none has a default: nullopt = not modelled (the report
    // gives the time in the state and null energy, never 0). A scenario may set them
    // (device.power.currents.<state>) as its own assumption.
    std::optional<double> active_current_a;          // normal, link up, a frame on the wire
    std::optional<double> idle_current_a;            // normal, link up, wire quiet
    std::optional<double> link_down_current_a;       // normal, no link
    std::optional<double> energy_detect_current_a;   // PMECR.PM = 1
    std::optional<double> soft_power_down_current_a; // PMECR.PM = 2
    std::optional<double> power_saving_current_a;    // PMECR.PM = 3
};

} // namespace nicsim::ks

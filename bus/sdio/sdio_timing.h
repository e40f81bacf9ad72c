// SPDX-License-Identifier: MIT
//
// SDIO wire schedule: pure cycle arithmetic, no SystemC processes. Given one command
// (sdio_payload), the bus clock and width and the host controller's timing (sdio_host_timing),
// compute_schedule() returns the exact SDCLK cycle of every phase of the command (48-bit command,
// N_CR, 48-bit R5 response, data blocks with CRC16, write CRC status and busy, the gaps between
// blocks) and the host software overheads around it. sdio_host and sdio_vcd_tracer take all their
// times from here, so they cannot disagree.
//
// Spec references (section numbers of the SD Physical Layer Simplified Specification v3.01,
// "PLS", unchanged in later versions, and of the SDIO Simplified Specification v3.00, "SDIO"):
//  * PLS 4.7.2  command format: start 0, transmission 1, 6-bit index, 32-bit argument, CRC7,
//               end 1 = 48 bits. SDIO 5.1 (CMD52) / 5.3 (CMD53) define the argument.
//  * SDIO 5.2   R5 response (48 bits: start, transmission 0, index, 16 stuff bits, 8 flag bits,
//               8 data bits, CRC7, end).
//  * PLS 3.6.1 / 4.5  data packet: start bit 0 on every used DAT line, the data (4-bit bus: each
//               byte as high nibble then low nibble, bit 7/3 on DAT3), one CRC16 per DAT line
//               (16 cycles), end bit 1. Write CRC status token on DAT0: start 0, 3 status bits,
//               end 1, then busy (DAT0 low) while the card programs.
//  * PLS 4.12.1 command/response timing: N_CR (command end bit → response start bit) 2..64
//               cycles; N_RC (response end bit → next command start bit) >= 8 cycles.
//  * PLS 4.12.2 read timing: N_AC (command end bit → first data start bit, and data end bit →
//               next block's start bit) >= 2 cycles, upper bound card dependent.
//  * PLS 4.12.3 write timing: N_WR (response end bit → first data start bit, and end of the
//               previous block's CRC status / busy → next start bit) >= 2 cycles; the CRC status
//               token starts 2 cycles after the data end bit (the MMC spec names this N_CRC).
//  * PLS 4.12.4 timing values table (the minima above).
//
// Time grid: integer picoseconds. SDCLK cycle c (counted from the command's first start bit)
// begins at round(c * 1e12 / clock_hz) ps, so edges never drift; host overheads and per-block
// stalls are whole picoseconds added in between. The SystemC time resolution must be 1 ps or
// finer (sdio_host checks this).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bus/sdio/sdio_payload.h"

namespace nicsim::sdio {

// Highest SDCLK of an SDIO card in high-speed mode (PLS 6.7 / SDIO 1.2 "high speed": 50 MHz;
// the WILC1000 Kconfig says 0-50 MHz, docs/sources.md#wilc1000-host-interfaces).
inline constexpr uint32_t sdio_max_clock_hz = 50'000'000;
// Identification-mode defaults the host starts in before set_ios (PLS 4.2: <= 400 kHz, 1 bit).
inline constexpr uint32_t sdio_init_clock_hz = 400'000;

// Bits of one command or response token (PLS 4.7.2, SDIO 5.2).
inline constexpr unsigned sdio_cmd_bits = 48;
inline constexpr unsigned sdio_resp_bits = 48;
// CRC16 cycles per data block (one CRC16 per DAT line, sent in parallel; PLS 4.5).
inline constexpr unsigned sdio_crc16_bits = 16;
// CRC status token on DAT0: start + 3 status bits + end (PLS 3.6.1, 4.12.3).
inline constexpr unsigned sdio_crc_status_bits = 5;

// Host controller timing. Gap parameters are SDCLK cycles with the spec's minimum as default;
// overheads are host-software costs from the platform profile (testbench YAML), default zero
// (an ideal controller that costs only its wire cycles).
struct sdio_host_timing {
    // --- host software / controller overheads (platform profile, "calibrated to ..." there) ---
    // mmc_wait_for_req() → command start bit (request setup, register programming, IRQ enable).
    sc_core::sc_time per_request_overhead = sc_core::SC_ZERO_TIME;
    // Last bit on the bus (after busy) → the caller resumes (IRQ, mmc_request_done, wake-up).
    sc_core::sc_time completion_overhead = sc_core::SC_ZERO_TIME;
    // Host stall between two data blocks of one CMD53 (e.g. PIO buffer-ready interrupt per
    // block): SDCLK is stopped, so the bus is held; counted as CPU time. Paid count-1 times.
    sc_core::sc_time per_block_overhead = sc_core::SC_ZERO_TIME;
    // CMD53 with data_bytes() >= dma_threshold_bytes uses DMA (dma_setup is added to the
    // request overhead); shorter ones PIO: the CPU moves the data while the DAT phase runs, so
    // the data phase counts as CPU time. 0 = the controller has no DMA (always PIO).
    size_t dma_threshold_bytes = 0;
    sc_core::sc_time dma_setup = sc_core::SC_ZERO_TIME;
    // Highest SDCLK the controller generates (0 = only the spec's 50 MHz limit).
    uint32_t max_clock_hz = 0;

    // --- bus gaps where the spec gives a range (SDCLK cycles) ---
    unsigned n_cr_cycles = 2; // command end → response start, PLS 4.12.4: 2..64
    unsigned n_rc_cycles = 8; // response end → next command start, PLS 4.12.4: >= 8
    unsigned n_ac_cycles = 2; // read access: command end → data, and between blocks, >= 2
    unsigned n_wr_cycles = 2; // response end / previous CRC status+busy → write data, >= 2
    unsigned crc_status_delay_cycles = 2; // data end bit → CRC status start, PLS 4.12.3 (= 2)
    // DAT0 busy after each write CRC status token. 0 = the minimum: a card whose buffer can take
    // the next block releases DAT0 at once; a card that programs longer adds the excess as
    // sdio_transport() delay (last block) or is modelled by raising this (assumption).
    unsigned write_busy_cycles = 0;
};

// One data block on the DAT lines, cycles counted from the command's start bit.
struct sdio_block_schedule {
    uint64_t start_cycle = 0;    // data start bit
    uint64_t crc_cycle = 0;      // first CRC16 bit
    uint64_t end_cycle = 0;      // cycle after the end bit
    uint64_t status_cycle = 0;   // write: CRC status start bit (0 for reads)
    uint64_t busy_end_cycle = 0; // write: cycle after the busy (== status end if no busy)
    unsigned stalls_before = 0;  // per_block_overhead stalls before this block
    sc_core::sc_time start;      // offsets from the schedule origin
    sc_core::sc_time end;        // end bit done (read) / busy done (write)
};

struct sdio_schedule {
    // Absolute simulated time of offset zero: when the host took the request (after any queue
    // wait). compute_schedule() leaves it zero; sdio_host fills it in.
    sc_core::sc_time origin = sc_core::SC_ZERO_TIME;

    uint32_t clock_hz = 0;
    unsigned bus_width = 1;
    bool dma = false;   // CMD53 data moved by DMA (false: PIO, or no data)
    bool write = false; // the command's R/W flag

    // Offsets from origin.
    sc_core::sc_time cmd_start;  // command start bit (after overheads and any bus wait)
    sc_core::sc_time resp_end;   // response end bit done
    sc_core::sc_time card_at;    // sdio_card_if::sdio_transport() is called here
    sc_core::sc_time wire_end;   // last bit / busy on the bus; the interrupt period restarts
    sc_core::sc_time bus_free;   // earliest next command start (>= resp_end + N_RC)
    sc_core::sc_time total;      // the caller resumes at origin + total
    sc_core::sc_time card_delay; // delay the card added (sdio_host fills it, add_card_delay())

    // Cycles counted from cmd_start (the command's start bit is cycle 0).
    uint64_t resp_start_cycle = 0; // = 48 + N_CR
    uint64_t resp_end_cycle = 0;   // = resp_start_cycle + 48
    uint64_t card_cycle = 0;       // cycle after the last bit the host sends / the card answers
    uint64_t wire_cycles = 0;      // command start bit → wire end, excluding per-block stalls
    uint64_t data_cycles = 0;      // DAT-line cycles: start..end bits (+ CRC status + busy)
    std::vector<sdio_block_schedule> blocks;

    // Totals.
    sc_core::sc_time bus_time;  // cmd_start → wire_end (bus occupied, incl. stalls and delay)
    sc_core::sc_time data_time; // first data start bit → last data end / busy end
    sc_core::sc_time pio_time;  // data_time when PIO (the CPU moves the data), else 0
    // CPU time: request + completion overheads, DMA setup, per-block stalls, pio_time.
    sc_core::sc_time cpu_busy;
    uint64_t data_bytes = 0; // CMD53 payload bytes on the DAT lines

    // Internal grid data for cycle_time().
    uint64_t cmd_start_ps = 0;
    uint64_t stall_ps = 0;
};

// Throws std::invalid_argument naming the value when the host cannot run at this setting:
// bus_width not 1 or 4, clock_hz 0 or above 50 MHz or above timing.max_clock_hz.
void validate_ios(uint32_t clock_hz, unsigned bus_width, const sdio_host_timing& timing);
// Throws std::invalid_argument naming the field and value for a command that cannot go on the
// wire: fn > 7, addr > 0x1FFFF, CMD52 without its data byte, CMD53 count 0 / > 511 blocks /
// > 512 bytes, block_size 0 or > 2048, data == nullptr with data to move.
void validate_command(const sdio_payload& p);

// The command's schedule (validates first). `bus_wait` is extra time the command start waits
// after the request overhead (sdio_host: N_RC after the previous command).
sdio_schedule compute_schedule(const sdio_payload& p, uint32_t clock_hz, unsigned bus_width,
                               const sdio_host_timing& timing,
                               const sc_core::sc_time& bus_wait = sc_core::SC_ZERO_TIME);

// Offset (from origin) of the boundary before SDCLK cycle `cycle` (counted from the command
// start bit), given the per-block stalls (stopped clock) that precede it.
sc_core::sc_time cycle_time(const sdio_schedule& s, uint64_t cycle, unsigned stalls);
// Per-block stalls before the boundary `cycle`: a stall sits right before block i's (i >= 1)
// start bit, so a boundary at that start counts it when `at_start` (the start bit follows the
// stall) and not otherwise (a bit that ends there ended before the clock stopped).
unsigned stalls_before(const sdio_schedule& s, uint64_t cycle, bool at_start);

// Shifts everything after card_at by the delay the card annotated (extra busy / access time).
void add_card_delay(sdio_schedule& s, const sc_core::sc_time& delay);

// The 32-bit command argument the payload encodes (SDIO 5.1 for CMD52: R/W, fn, RAW, address,
// write data; 5.3 for CMD53: R/W, fn, block mode, OP code, address, count with 512 bytes as 0).
uint32_t command_argument(const sdio_payload& p);
// CRC7 (x^7 + x^3 + 1, PLS 4.5) of `nbits` bits of `bits` (MSB first from bit nbits-1).
uint8_t crc7_bits(uint64_t bits, unsigned nbits);
// CRC16-CCITT (x^16 + x^12 + x^5 + 1, init 0, PLS 4.5) fed one bit at a time.
uint16_t crc16_step(uint16_t crc, bool bit);

// Integer-picosecond helpers (exact for any time below ~100 days).
uint64_t to_ps(const sc_core::sc_time& t);
sc_core::sc_time from_ps(uint64_t ps);

} // namespace nicsim::sdio

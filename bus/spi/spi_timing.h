// SPDX-License-Identifier: MIT
//
// SPI wire schedule: pure cycle arithmetic, no SystemC processes. Given one chip-select frame
// (spi_payload) and the host controller's timing (spi_host_timing), compute_schedule() returns
// exactly when CS asserts, when every transfer's first and last SCK cycle happen, when CS
// deasserts, and how much host CPU the frame costs. spi_host (transaction-level and cycle-stepped
// modes) and spi_vcd_tracer all take their times from here, so they cannot disagree.
//
// Time grid: all arithmetic is done in integer picoseconds. Inside a transfer, SCK half-period h
// (counted from the transfer's start) begins at round(h * 1e12 / (2 * speed_hz)) ps, rounding
// half up, so edges never drift however long the transfer is; an inter-word gap given in seconds
// is added as a whole number of picoseconds per word boundary. The SystemC time resolution must be
// 1 ps or finer (spi_host checks this).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bus/spi/spi_payload.h"

namespace nicsim::spi {

// Host SPI controller timing. Nothing here is a datasheet fact of the slave chip: the values come
// from the platform profile (testbench YAML) of the host that runs the driver. Defaults are zero,
// i.e. an ideal controller whose frames cost only their SCK cycles.
struct spi_host_timing {
    // Software cost of one spi_message (spi_sync → controller → completion), paid before CS
    // asserts. Source: platform profile, e.g. calibrated to the spi_sync measurements in
    // docs/sources.md#linux-host-latencies (RPi: 36 µs for two 9-byte transfers in 6.x).
    sc_core::sc_time per_message_overhead = sc_core::SC_ZERO_TIME;
    // Software cost of one spi_transfer (controller transfer_one(): programming clock divider,
    // FIFO/DMA), paid after CS asserts (+cs_setup) before the transfer's first SCK cycle.
    sc_core::sc_time per_transfer_overhead = sc_core::SC_ZERO_TIME;
    // CS assert → first SCK cycle (Linux spi->cs_setup); also after every cs_change reassert.
    sc_core::sc_time cs_setup = sc_core::SC_ZERO_TIME;
    // End of the last SCK cycle (+ delay_after) → CS deassert (Linux spi->cs_hold).
    sc_core::sc_time cs_hold = sc_core::SC_ZERO_TIME;
    // Time CS stays deasserted: between deassert and reassert on cs_change, and after the final
    // deassert before the host returns (Linux spi->cs_inactive; note Linux uses a 10 µs
    // cs_change_delay when a driver sets none, a profile that models that puts it here).
    sc_core::sc_time cs_inactive_min = sc_core::SC_ZERO_TIME;
    // Idle time between two transfers of the same frame (after delay_after and any cs_change).
    sc_core::sc_time inter_transfer_gap = sc_core::SC_ZERO_TIME;
    // Idle SCK cycles (at the transfer's speed) between two words of one transfer (e.g. the
    // bcm2835 inserts none, some controllers one cycle per byte for FIFO refills).
    unsigned inter_word_gap_cycles = 0;
    // Additional idle time between two words, for controllers whose gap is not SCK-based.
    sc_core::sc_time inter_word_gap = sc_core::SC_ZERO_TIME;
    // Transfers with len >= this many bytes use DMA, shorter ones PIO (CPU feeds the FIFO; the
    // bcm2835 driver uses 96, BCM2835_SPI_DMA_MIN_LENGTH). 0 = the controller has no DMA.
    size_t dma_threshold_bytes = 0;
    // Cost of setting up one DMA transfer (descriptor preparation, dmaengine submit), paid before
    // that transfer's first SCK cycle in addition to per_transfer_overhead.
    sc_core::sc_time dma_setup = sc_core::SC_ZERO_TIME;
    // Highest SCK frequency the controller generates; a frame asking for more is rejected.
    // 0 = no limit.
    uint32_t max_speed_hz = 0;
};

// When one transfer happens, as offsets from the start of its frame (spi_schedule::origin).
struct spi_xfer_schedule {
    sc_core::sc_time start; // beginning of the first SCK cycle
    sc_core::sc_time end;   // end of the last SCK cycle (== start for len 0)
    uint32_t speed_hz = 0;  // effective SCK frequency
    unsigned bits_per_word = 8;
    uint64_t words = 0;
    uint64_t bits = 0;       // SCK pulses = words * bits_per_word
    uint64_t gap_cycles = 0; // idle SCK cycles between words
    bool dma = false;        // DMA (true) or PIO (false)
    size_t segment = 0;      // index into spi_schedule::segments
    // Internal grid data for edge_time().
    uint64_t start_ps = 0;
    uint64_t word_gap_ps = 0;
    unsigned word_gap_cycles = 0;
};

// One chip-select-active window; a frame has more than one when a transfer has cs_change set.
struct spi_cs_segment {
    sc_core::sc_time cs_assert;
    sc_core::sc_time cs_deassert;
    size_t first_xfer = 0; // transfers [first_xfer, last_xfer] are clocked in this window
    size_t last_xfer = 0;
};

struct spi_schedule {
    // Absolute simulated time of offset zero: the moment spi_host::transfer() started the frame.
    // compute_schedule() leaves it zero; spi_host fills it in before observers see the schedule.
    sc_core::sc_time origin = sc_core::SC_ZERO_TIME;
    sc_core::sc_time wire_start; // first CS assert
    sc_core::sc_time wire_end;   // last bit shifted: end of the last transfer's last SCK cycle
    sc_core::sc_time cs_release; // final CS deassert
    sc_core::sc_time total;      // everything incl. overheads: the host returns at origin+total
    std::vector<spi_xfer_schedule> xfers;
    std::vector<spi_cs_segment> segments;

    sc_core::sc_time wire_time; // CS-asserted time, summed over segments (bus occupancy)
    sc_core::sc_time sck_time;  // time SCK is running, summed over transfers (incl. word gaps)
    sc_core::sc_time pio_time;  // sck_time of the PIO transfers: the CPU feeds the FIFO then
    // CPU time the frame costs the host: per-message, per-transfer and DMA-setup overheads plus
    // pio_time. CS/delay waits are not counted (the kernel may sleep through them).
    sc_core::sc_time cpu_busy;
    uint64_t bytes = 0;
    uint64_t sck_cycles = 0; // SCK pulses (bits clocked)
    uint64_t gap_cycles = 0; // idle SCK cycles between words
    unsigned pio_transfers = 0;
    unsigned dma_transfers = 0;
};

// Bytes one word occupies in memory (Linux: 1 for <= 8 bits, 2 for <= 16, else 4).
inline unsigned bytes_per_word(unsigned bits_per_word) {
    return bits_per_word <= 8 ? 1u : bits_per_word <= 16 ? 2u : 4u;
}

// Throws std::invalid_argument naming the field and its value when the frame cannot be clocked:
// no transfers, effective speed 0 or above timing.max_speed_hz, bits_per_word 0 or > 32, len not
// a multiple of the word size.
void validate_frame(const spi_payload& frame, const spi_host_timing& timing);

// The frame's schedule (validates first).
spi_schedule compute_schedule(const spi_payload& frame, const spi_host_timing& timing);
// The same into `out` (every field is overwritten), reusing the storage of its vectors: spi_host
// runs this for every frame.
void compute_schedule(const spi_payload& frame, const spi_host_timing& timing, spi_schedule& out);

// Offset (from the frame origin) of an SCK edge of bit `bit` (0-based, counted from the transfer's
// first bit) of transfer `x`. Every bit owns one SCK cycle; its leading edge (SCK leaves the CPOL
// idle level) is in the middle of the cycle, its trailing edge at the end.
sc_core::sc_time edge_time(const spi_xfer_schedule& x, uint64_t bit, bool trailing);

// Integer-picosecond helpers for the grid (exact for any time below ~100 days).
uint64_t to_ps(const sc_core::sc_time& t);
sc_core::sc_time from_ps(uint64_t ps);

} // namespace nicsim::spi

// SPDX-License-Identifier: MIT
// Memo of recent wire schedules. A driver sends the same few frame shapes over and over (a
// register read, a register write, a FIFO burst of one size), and compute_schedule() is a pure
// function of the frame's shape (transfer lengths, word sizes, speeds, delays, cs_change) and
// the host timing, so a schedule computed once can be copied for every later frame of the same
// shape. Validation depends on the same inputs, so a hit is a valid frame too. Copying into a
// schedule that already has storage does not allocate.
#pragma once

#include <array>
#include <cstddef>

#include "bus/spi/spi_timing.h"

namespace nicsim::spi {

class spi_schedule_cache {
  public:
    // Frames with more transfers than this are not cached (computed every time).
    static constexpr size_t max_xfers = 4;
    static constexpr size_t entries = 8;

    // The schedule of `frame` under `timing`: copied from the memo when the shape was seen
    // recently, else computed (and validated: throws like compute_schedule) and remembered.
    void schedule(const spi_payload& frame, const spi_host_timing& timing, spi_schedule& out);

    uint64_t hits() const { return m_hits; }
    uint64_t misses() const { return m_misses; }

  private:
    struct xfer_shape {
        size_t len = 0;
        unsigned bits_per_word = 0;
        uint32_t speed_hz = 0;
        sc_core::sc_time delay_after;
        bool cs_change = false;
    };
    struct entry {
        bool used = false;
        uint32_t frame_speed_hz = 0;
        size_t n = 0;
        std::array<xfer_shape, max_xfers> xfers{};
        spi_host_timing timing;
        spi_schedule sched;
    };

    static bool same_timing(const spi_host_timing& a, const spi_host_timing& b);
    static bool matches(const entry& e, const spi_payload& frame, const spi_host_timing& timing);

    std::array<entry, entries> m_entries{};
    size_t m_next = 0; // round-robin victim
    uint64_t m_hits = 0, m_misses = 0;
};

} // namespace nicsim::spi

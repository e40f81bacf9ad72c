// SPDX-License-Identifier: MIT
#include "bus/spi/spi_schedule_cache.h"

namespace nicsim::spi {

bool spi_schedule_cache::same_timing(const spi_host_timing& a, const spi_host_timing& b) {
    return a.per_message_overhead == b.per_message_overhead &&
           a.per_transfer_overhead == b.per_transfer_overhead && a.cs_setup == b.cs_setup &&
           a.cs_hold == b.cs_hold && a.cs_inactive_min == b.cs_inactive_min &&
           a.inter_transfer_gap == b.inter_transfer_gap &&
           a.inter_word_gap_cycles == b.inter_word_gap_cycles &&
           a.inter_word_gap == b.inter_word_gap && a.dma_threshold_bytes == b.dma_threshold_bytes &&
           a.dma_setup == b.dma_setup && a.max_speed_hz == b.max_speed_hz;
}

bool spi_schedule_cache::matches(const entry& e, const spi_payload& frame,
                                 const spi_host_timing& timing) {
    if (!e.used || e.n != frame.xfers.size() || e.frame_speed_hz != frame.speed_hz)
        return false;
    for (size_t i = 0; i < e.n; ++i) {
        const xfer_shape& k = e.xfers[i];
        const spi_xfer& x = frame.xfers[i];
        if (k.len != x.len || k.bits_per_word != x.bits_per_word || k.speed_hz != x.speed_hz ||
            k.delay_after != x.delay_after || k.cs_change != x.cs_change)
            return false;
    }
    return same_timing(e.timing, timing);
}

void spi_schedule_cache::schedule(const spi_payload& frame, const spi_host_timing& timing,
                                  spi_schedule& out) {
    const size_t n = frame.xfers.size();
    if (n == 0 || n > max_xfers) {
        compute_schedule(frame, timing, out);
        return;
    }
    for (const entry& e : m_entries)
        if (matches(e, frame, timing)) {
            ++m_hits;
            out = e.sched;
            return;
        }
    ++m_misses;
    compute_schedule(frame, timing, out); // throws for an invalid frame: nothing is remembered
    entry& e = m_entries[m_next];
    m_next = (m_next + 1) % entries;
    e.used = true;
    e.frame_speed_hz = frame.speed_hz;
    e.n = n;
    for (size_t i = 0; i < n; ++i) {
        const spi_xfer& x = frame.xfers[i];
        e.xfers[i] = xfer_shape{x.len, x.bits_per_word, x.speed_hz, x.delay_after, x.cs_change};
    }
    e.timing = timing;
    e.sched = out;
}

} // namespace nicsim::spi

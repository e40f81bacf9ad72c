// SPDX-License-Identifier: MIT
#include "bus/spi/spi_timing.h"

#include <stdexcept>
#include <string>

namespace nicsim::spi {

namespace {

constexpr uint64_t ps_per_s = 1'000'000'000'000ULL;

// Start of SCK half-period h of a transfer at f Hz: round(h * 1e12 / (2 f)) ps, half up.
uint64_t half_ps(uint64_t h, uint32_t f) {
    const unsigned __int128 num = static_cast<unsigned __int128>(h) * ps_per_s + f;
    return static_cast<uint64_t>(num / (2ULL * f));
}

uint64_t units_per_ps() {
    // Building an sc_time from a double is costly and this runs several times per frame. The
    // first call fixes the kernel's time resolution (any sc_time construction does), so the
    // value cannot change afterwards and is computed once.
    static const uint64_t u = [] {
        const auto v = sc_core::sc_time(1.0, sc_core::SC_PS).value();
        if (v == 0)
            throw std::logic_error("nicsim::spi: SystemC time resolution is coarser than 1 ps; "
                                   "the SPI wire schedule needs 1 ps or finer");
        return v;
    }();
    return u;
}

std::string xfer_field(size_t i, const char* field) {
    return "xfers[" + std::to_string(i) + "]." + field;
}

} // namespace

uint64_t to_ps(const sc_core::sc_time& t) {
    const uint64_t u = units_per_ps();
    return (t.value() + u / 2) / u;
}

sc_core::sc_time from_ps(uint64_t ps) {
    return sc_core::sc_time::from_value(ps * units_per_ps());
}

void validate_frame(const spi_payload& frame, const spi_host_timing& timing) {
    if (frame.xfers.empty())
        throw std::invalid_argument("spi frame: xfers is empty (a frame needs >= 1 transfer)");
    for (size_t i = 0; i < frame.xfers.size(); ++i) {
        const spi_xfer& x = frame.xfers[i];
        const uint32_t speed = x.speed_hz ? x.speed_hz : frame.speed_hz;
        if (speed == 0)
            throw std::invalid_argument("spi frame: " + xfer_field(i, "speed_hz") +
                                        " = 0 and frame speed_hz = 0 (no SCK frequency)");
        if (timing.max_speed_hz != 0 && speed > timing.max_speed_hz)
            throw std::invalid_argument(
                "spi frame: " + (x.speed_hz ? xfer_field(i, "speed_hz") : std::string("speed_hz")) +
                " = " + std::to_string(speed) + " Hz exceeds the host's max_speed_hz = " +
                std::to_string(timing.max_speed_hz) + " Hz");
        if (x.bits_per_word == 0 || x.bits_per_word > 32)
            throw std::invalid_argument("spi frame: " + xfer_field(i, "bits_per_word") + " = " +
                                        std::to_string(x.bits_per_word) + " (must be 1..32)");
        const unsigned bpw = bytes_per_word(x.bits_per_word);
        if (x.len % bpw != 0)
            throw std::invalid_argument(
                "spi frame: " + xfer_field(i, "len") + " = " + std::to_string(x.len) +
                " is not a multiple of the " + std::to_string(bpw) +
                "-byte word of bits_per_word = " + std::to_string(x.bits_per_word));
    }
}

spi_schedule compute_schedule(const spi_payload& frame, const spi_host_timing& timing) {
    spi_schedule s;
    compute_schedule(frame, timing, s);
    return s;
}

void compute_schedule(const spi_payload& frame, const spi_host_timing& timing, spi_schedule& s) {
    validate_frame(frame, timing);
    {
        // Start from a default schedule but keep the vectors' storage.
        auto xfers = std::move(s.xfers);
        auto segments = std::move(s.segments);
        xfers.clear();
        segments.clear();
        s = spi_schedule{};
        s.xfers = std::move(xfers);
        s.segments = std::move(segments);
    }

    const uint64_t msg_oh = to_ps(timing.per_message_overhead);
    const uint64_t xfer_oh = to_ps(timing.per_transfer_overhead);
    const uint64_t setup = to_ps(timing.cs_setup);
    const uint64_t hold = to_ps(timing.cs_hold);
    const uint64_t inactive = to_ps(timing.cs_inactive_min);
    const uint64_t xgap = to_ps(timing.inter_transfer_gap);
    const uint64_t wgap = to_ps(timing.inter_word_gap);
    const uint64_t dma_setup = to_ps(timing.dma_setup);

    s.xfers.reserve(frame.xfers.size());
    uint64_t t = msg_oh;
    uint64_t cpu = msg_oh;
    uint64_t sck_ps = 0, pio_ps = 0, wire_ps = 0;

    spi_cs_segment seg;
    uint64_t seg_assert = t;
    seg.cs_assert = from_ps(t);
    seg.first_xfer = 0;
    t += setup;

    auto close_segment = [&](size_t last) {
        t += hold;
        seg.cs_deassert = from_ps(t);
        seg.last_xfer = last;
        wire_ps += t - seg_assert;
        s.segments.push_back(seg);
        t += inactive;
    };

    for (size_t i = 0; i < frame.xfers.size(); ++i) {
        const spi_xfer& x = frame.xfers[i];
        spi_xfer_schedule xs;
        xs.speed_hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
        xs.bits_per_word = x.bits_per_word;
        xs.words = x.len / bytes_per_word(x.bits_per_word);
        xs.bits = xs.words * x.bits_per_word;
        xs.gap_cycles = xs.words ? (xs.words - 1) * timing.inter_word_gap_cycles : 0;
        xs.word_gap_cycles = timing.inter_word_gap_cycles;
        xs.word_gap_ps = wgap;
        xs.dma = timing.dma_threshold_bytes != 0 && x.len >= timing.dma_threshold_bytes;
        xs.segment = s.segments.size();

        t += xfer_oh;
        cpu += xfer_oh;
        if (xs.dma) {
            t += dma_setup;
            cpu += dma_setup;
            ++s.dma_transfers;
        } else {
            ++s.pio_transfers;
        }

        const uint64_t cycles = xs.bits + xs.gap_cycles;
        const uint64_t dur =
            half_ps(2 * cycles, xs.speed_hz) + (xs.words ? xs.words - 1 : 0) * wgap;
        xs.start_ps = t;
        xs.start = from_ps(t);
        t += dur;
        xs.end = from_ps(t);
        sck_ps += dur;
        if (!xs.dma)
            pio_ps += dur;
        s.bytes += x.len;
        s.sck_cycles += xs.bits;
        s.gap_cycles += xs.gap_cycles;
        s.wire_end = xs.end;
        s.xfers.push_back(xs);

        t += to_ps(x.delay_after);
        const bool last = i + 1 == frame.xfers.size();
        if (last)
            break;
        // Linux: cs_change on the last transfer keeps CS asserted after the message; this model
        // always deasserts at the end of the frame (documented in docs/bus-spi.md).
        if (x.cs_change) {
            close_segment(i);
            seg = spi_cs_segment{};
            seg_assert = t;
            seg.cs_assert = from_ps(t);
            seg.first_xfer = i + 1;
            t += setup;
        }
        t += xgap;
    }
    close_segment(frame.xfers.size() - 1);

    s.wire_start = s.segments.front().cs_assert;
    s.cs_release = s.segments.back().cs_deassert;
    s.total = from_ps(t);
    s.wire_time = from_ps(wire_ps);
    s.sck_time = from_ps(sck_ps);
    s.pio_time = from_ps(pio_ps);
    s.cpu_busy = from_ps(cpu + pio_ps);
}

sc_core::sc_time edge_time(const spi_xfer_schedule& x, uint64_t bit, bool trailing) {
    const uint64_t w = bit / x.bits_per_word;
    const uint64_t c = bit + w * x.word_gap_cycles;
    const uint64_t h = 2 * c + 1 + (trailing ? 1 : 0);
    return from_ps(x.start_ps + half_ps(h, x.speed_hz) + w * x.word_gap_ps);
}

} // namespace nicsim::spi

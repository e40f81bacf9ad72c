// SPDX-License-Identifier: MIT
// The schedule memo of spi_host: a copied schedule must equal a freshly computed one field for
// field, a changed shape or timing must not hit, and an invalid frame must still throw.
#include <gtest/gtest.h>

#include <stdexcept>

#include "bus/spi/spi_schedule_cache.h"

namespace nicsim::spi {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

spi_payload frame_of(std::initializer_list<size_t> lens, uint32_t hz = 25'000'000) {
    spi_payload f;
    f.speed_hz = hz;
    for (size_t n : lens) {
        spi_xfer x;
        x.len = n;
        f.xfers.push_back(x);
    }
    return f;
}

spi_host_timing timing_a() {
    spi_host_timing t;
    t.per_message_overhead = sc_time(17.8, SC_US);
    t.per_transfer_overhead = sc_time(2, SC_US);
    t.cs_setup = sc_time(100, SC_NS);
    t.cs_hold = sc_time(100, SC_NS);
    t.inter_transfer_gap = sc_time(1, SC_US);
    t.dma_threshold_bytes = 96;
    return t;
}

void expect_same(const spi_schedule& a, const spi_schedule& b) {
    EXPECT_EQ(a.wire_start, b.wire_start);
    EXPECT_EQ(a.wire_end, b.wire_end);
    EXPECT_EQ(a.cs_release, b.cs_release);
    EXPECT_EQ(a.total, b.total);
    EXPECT_EQ(a.wire_time, b.wire_time);
    EXPECT_EQ(a.sck_time, b.sck_time);
    EXPECT_EQ(a.pio_time, b.pio_time);
    EXPECT_EQ(a.cpu_busy, b.cpu_busy);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_EQ(a.sck_cycles, b.sck_cycles);
    EXPECT_EQ(a.pio_transfers, b.pio_transfers);
    EXPECT_EQ(a.dma_transfers, b.dma_transfers);
    ASSERT_EQ(a.xfers.size(), b.xfers.size());
    for (size_t i = 0; i < a.xfers.size(); ++i) {
        EXPECT_EQ(a.xfers[i].start, b.xfers[i].start);
        EXPECT_EQ(a.xfers[i].end, b.xfers[i].end);
        EXPECT_EQ(a.xfers[i].dma, b.xfers[i].dma);
    }
    ASSERT_EQ(a.segments.size(), b.segments.size());
    for (size_t i = 0; i < a.segments.size(); ++i) {
        EXPECT_EQ(a.segments[i].cs_assert, b.segments[i].cs_assert);
        EXPECT_EQ(a.segments[i].cs_deassert, b.segments[i].cs_deassert);
    }
}

TEST(SpiScheduleCache, HitsEqualFreshSchedulesAcrossShapes) {
    spi_schedule_cache cache;
    const auto t = timing_a();
    // A mix of shapes as a driver sends them, repeated: reg read, reg write, FIFO burst.
    const std::vector<spi_payload> frames = {frame_of({2, 2}), frame_of({4}), frame_of({1, 1522}),
                                             frame_of({2, 2}, 12'500'000), frame_of({1, 64})};
    for (int round = 0; round < 3; ++round)
        for (const auto& f : frames) {
            spi_schedule got;
            cache.schedule(f, t, got);
            expect_same(got, compute_schedule(f, t));
        }
    EXPECT_EQ(cache.misses(), frames.size());
    EXPECT_EQ(cache.hits(), 2 * frames.size());
}

TEST(SpiScheduleCache, ChangedTimingOrShapeFieldMisses) {
    spi_schedule_cache cache;
    auto t = timing_a();
    auto f = frame_of({2, 2});
    spi_schedule s;
    cache.schedule(f, t, s);
    t.cs_hold = sc_time(200, SC_NS); // another host timing
    cache.schedule(f, t, s);
    expect_same(s, compute_schedule(f, t));
    f.xfers[1].cs_change = true; // same lengths, other CS pattern
    cache.schedule(f, t, s);
    expect_same(s, compute_schedule(f, t));
    f.xfers[0].delay_after = sc_time(5, SC_US);
    cache.schedule(f, t, s);
    expect_same(s, compute_schedule(f, t));
    EXPECT_EQ(cache.hits(), 0u);
    EXPECT_EQ(cache.misses(), 4u);
}

TEST(SpiScheduleCache, InvalidFrameThrowsEveryTimeAndIsNotRemembered) {
    spi_schedule_cache cache;
    auto t = timing_a();
    t.max_speed_hz = 10'000'000;
    const auto f = frame_of({2, 2}, 25'000'000);
    spi_schedule s;
    EXPECT_THROW(cache.schedule(f, t, s), std::invalid_argument);
    EXPECT_THROW(cache.schedule(f, t, s), std::invalid_argument);
    EXPECT_EQ(cache.hits(), 0u);
}

TEST(SpiScheduleCache, MoreShapesThanEntriesStillCorrect) {
    spi_schedule_cache cache;
    const auto t = timing_a();
    for (int round = 0; round < 2; ++round)
        for (size_t n = 1; n <= 2 * spi_schedule_cache::entries; ++n) {
            const auto f = frame_of({1, n});
            spi_schedule s;
            cache.schedule(f, t, s);
            expect_same(s, compute_schedule(f, t));
        }
}

} // namespace
} // namespace nicsim::spi

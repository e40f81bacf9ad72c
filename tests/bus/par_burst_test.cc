// SPDX-License-Identifier: MIT
// par_host bursts (read16_rep/write16_rep, the driver's FIFO loops) against the same words as
// single accesses: every word must reach the device at the same simulated time with the same
// data, the statistics must match, and a process that wakes in the middle must see the same bus
// state. The burst runs ahead in local time (bus/common/local_time.h), so the device logs
// local_time::now(), as the chip models do.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "bus/common/local_time.h"
#include "bus/par/par_host.h"

using namespace nicsim::par;
namespace lt = nicsim::local_time;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

uint64_t ps(const sc_time& t) {
    return t.value(); // default resolution: 1 ps
}

// A FIFO port: reads return a running counter, writes are kept. Optional wait states on one
// word, and a sync() (what a chip's register write does) on one word.
struct fifo_dev : par_slave_if {
    std::vector<uint64_t> at;   // local time of each access (ps)
    std::vector<uint16_t> data; // data of each access
    uint16_t next = 0x100;
    size_t stretch_word = ~size_t(0), sync_word = ~size_t(0);
    void par_transport(par_payload& p, sc_time& delay) override {
        const size_t i = at.size();
        at.push_back(ps(lt::now()));
        if (i == stretch_word)
            delay += sc_time(25, SC_NS);
        if (i == sync_word)
            lt::sync();
        if (p.is_read())
            p.data = next++;
        data.push_back(p.data);
    }
};

par_timing t100() {
    par_timing t;
    t.bus_clock_hz = 100e6;
    return t;
}

constexpr size_t words = 40;
constexpr uint64_t gap_ps = 100'000'000; // 100 us between the two passes

// fifo_dev with the word path (par_slave_if::par_transport_words) for the FIFO port: it takes
// every word it is offered and records their data (their times are not its to see).
struct words_dev : fifo_dev {
    size_t offered = 0, taken = 0;
    size_t par_transport_words(const par_payload& p, const uint16_t* in, uint16_t* out,
                               size_t n) override {
        offered += n;
        if (p.addr != 0x2)
            return 0;
        for (size_t i = 0; i < n; ++i) {
            const uint16_t v = in ? in[i] : next++;
            if (out)
                out[i] = v;
            at.push_back(0);
            data.push_back(v);
        }
        taken += n;
        return n;
    }
};

// Runs the same access pattern twice, first as single accesses, then as bursts, `gap_ps` apart;
// a second thread wakes at `probe` into each pass and records how many accesses it sees.
template <class Dev = fifo_dev> struct bench_t : sc_core::sc_module {
    Dev d;
    par_target_socket in{"in", d};
    par_host host{"host", t100(), 0x1000, 0x100};
    sc_time probe;
    std::vector<uint64_t> seen; // host reads+writes at the probe times
    std::vector<uint16_t> got[2];
    par_host_stats stats[2];
    unsigned long long steps[2] = {};
    sc_time end[2]; // local time at the end of each pass, less the pass's start
    SC_HAS_PROCESS(bench_t);
    explicit bench_t(const sc_time& probe_at) : sc_module("bench"), probe(probe_at) {
        host.par_out.bind(in);
        SC_THREAD(run);
        SC_THREAD(prober);
    }
    void pass(bool burst) {
        std::vector<uint16_t> out(words), wr(words);
        for (size_t i = 0; i < words; ++i)
            wr[i] = uint16_t(0xA000 + i);
        const par_host_stats before = host.stats();
        const sc_time start = lt::now();
        const auto steps0 = lt::local_advances() + lt::waits();
        host.write16(0x1000, 0x8000); // a command, then the FIFO words
        if (burst) {
            host.read16_rep(0x1002, out.data(), words);
            host.write16_rep(0x1002, wr.data(), words);
        } else {
            for (size_t i = 0; i < words; ++i)
                out[i] = host.read16(0x1002);
            for (size_t i = 0; i < words; ++i)
                host.write16(0x1002, wr[i]);
        }
        steps[burst] = lt::local_advances() + lt::waits() - steps0;
        got[burst] = out;
        stats[burst].reads = host.stats().reads - before.reads;
        stats[burst].writes = host.stats().writes - before.writes;
        stats[burst].busy = host.stats().busy - before.busy;
        stats[burst].recovery_stall = host.stats().recovery_stall - before.recovery_stall;
        end[burst] = lt::now() - start;
        lt::sync();
    }
    void run() {
        pass(false);
        wait(sc_time::from_value(gap_ps) - sc_core::sc_time_stamp());
        d.next = 0x100;
        pass(true);
    }
    void prober() {
        wait(probe);
        seen.push_back(host.stats().reads + host.stats().writes);
        wait(sc_time::from_value(gap_ps));
        seen.push_back(host.stats().reads + host.stats().writes);
    }
};

using bench = bench_t<>;

// The burst pass moved the same data with the same statistics as the single accesses.
template <class B> void expect_same_data_and_stats(const B& b) {
    const size_t n = 1 + 2 * words;
    ASSERT_EQ(b.d.data.size(), 2 * n);
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(b.d.data[n + i], b.d.data[i]) << "word " << i;
    EXPECT_EQ(b.got[1], b.got[0]);
    EXPECT_EQ(b.stats[1].reads, b.stats[0].reads);
    EXPECT_EQ(b.stats[1].writes, b.stats[0].writes);
    EXPECT_EQ(b.stats[1].busy, b.stats[0].busy);
    EXPECT_EQ(b.stats[1].recovery_stall, b.stats[0].recovery_stall);
}

// ... and every word reached the device at the same time (relative to its pass).
void expect_same_passes(bench& b) {
    const size_t n = 1 + 2 * words;
    ASSERT_EQ(b.d.at.size(), 2 * n);
    for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(b.d.at[n + i] - gap_ps, b.d.at[i]) << "word " << i;
    expect_same_data_and_stats(b);
}

} // namespace

// Nothing else runs during the bursts: identical words, and one local step per burst instead of
// one per phase.
TEST(ParBurst, SameWordsAndTimesAsSingleAccesses) {
    bench b(sc_time(1, sc_core::SC_SEC)); // the probe never fires inside the run
    lt::start(sc_time(200, SC_US));
    expect_same_passes(b);
    // Hand-computed: read 80 ns + recovery 20 ns per word, the first FIFO read waits out the
    // command write's recovery: 10 + 50 (write latched at 60), +10 hold +20 recovery, +70.
    EXPECT_EQ(b.d.at[1], 160'000u);
    EXPECT_EQ(b.d.at[2], 260'000u);
    EXPECT_LE(b.steps[1], 4u);
    EXPECT_GE(b.steps[0], 3 * words);
}

// Another process wakes in the middle of the bursts: the bursts stop before its time, so it sees
// the same number of completed accesses as with single accesses, and the words keep their times.
TEST(ParBurst, OtherProcessMidBurstSeesTheSameBus) {
    bench b(sc_time(2345, SC_NS));
    lt::start(sc_time(200, SC_US));
    expect_same_passes(b);
    ASSERT_EQ(b.seen.size(), 2u);
    EXPECT_GT(b.seen[0], 1u);
    EXPECT_EQ(b.seen[1] - b.seen[0], 1 + 2 * words) << "the probe saw a different bus state";
}

// Device wait states and a device sync() in the middle of a burst: the burst ends after that
// word and resumes; times and statistics are unchanged.
TEST(ParBurst, WaitStatesAndDeviceSyncMidBurst) {
    bench b(sc_time(1, sc_core::SC_SEC));
    b.d.stretch_word = 7;          // a read in the first pass
    b.d.sync_word = 1 + words + 5; // a write in the first pass
    struct again : sc_core::sc_module {
        bench& b;
        SC_HAS_PROCESS(again);
        explicit again(bench& bb) : sc_module("again"), b(bb) { SC_THREAD(run); }
        void run() { // the same two words of the burst pass
            wait(sc_time::from_value(gap_ps / 2));
            b.d.stretch_word += 1 + 2 * words;
            b.d.sync_word += 1 + 2 * words;
        }
    } a(b);
    lt::start(sc_time(200, SC_US));
    expect_same_passes(b);
}

// Exact mode (sim.quantum = 0): the burst degrades to single accesses, same times.
TEST(ParBurst, ExactModeSameTimes) {
    lt::set_quantum(sc_core::SC_ZERO_TIME);
    bench b(sc_time(2345, SC_NS));
    lt::start(sc_time(200, SC_US));
    expect_same_passes(b);
    EXPECT_EQ(b.seen[1] - b.seen[0], 1 + 2 * words);
}

// A device with the word path: it answers all but the first word of each burst together (the
// first goes through par_transport, which sees its time), and data, statistics and the time the
// bursts end are those of single accesses.
TEST(ParBurst, DeviceWordPathSameDataStatsAndEnd) {
    bench_t<words_dev> b(sc_time(1, sc_core::SC_SEC));
    lt::start(sc_time(200, SC_US));
    expect_same_data_and_stats(b);
    EXPECT_EQ(b.end[1], b.end[0]);
    EXPECT_EQ(b.d.taken, 2 * (words - 1)) << "the word path was not used";
}

// With an observer attached (a trace), every word goes through par_transport: the observer sees
// each access at its own time.
TEST(ParBurst, ObserverDisablesTheWordPath) {
    struct count_obs : par_observer {
        size_t n = 0;
        void on_access(const par_payload&, const par_access_times&) override { ++n; }
    } obs;
    bench_t<words_dev> b(sc_time(1, sc_core::SC_SEC));
    b.host.add_observer(obs);
    lt::start(sc_time(200, SC_US));
    EXPECT_EQ(b.d.offered, 0u);
    EXPECT_EQ(obs.n, 2 * (1 + 2 * words));
    EXPECT_EQ(b.d.data.size(), 2 * (1 + 2 * words));
}

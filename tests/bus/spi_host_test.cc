// SPDX-License-Identifier: MIT
// spi_host in transaction-level mode: when the slave is called, when transfer() returns,
// statistics, errors, observers, serialisation of concurrent callers.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bus/spi/spi_host.h"

using namespace nicsim::spi;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

// Frame-level slave: rx = ~tx, records when it was called; optionally fails or adds a delay.
class invert_slave : public sc_core::sc_module, public spi_slave_if {
  public:
    spi_target_socket spi_in;
    std::vector<sc_time> calls;
    bool fail = false;
    sc_time add_delay = sc_core::SC_ZERO_TIME;

    explicit invert_slave(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), spi_in("spi_in", *this) {}

    void spi_transport(spi_payload& f, sc_time& delay) override {
        calls.push_back(sc_core::sc_time_stamp());
        for (auto& x : f.xfers)
            for (size_t i = 0; i < x.len; ++i)
                if (x.rx)
                    x.rx[i] = static_cast<uint8_t>(~(x.tx ? x.tx[i] : 0));
        if (fail) {
            f.response = spi_response::protocol_error;
            f.error = "bad command";
        }
        delay += add_delay;
    }
};

// A testbench: host with one chip select + slave, and a thread running `body`.
struct bench : sc_core::sc_module {
    spi_host host;
    invert_slave slave;
    std::function<void(bench&)> body;
    SC_HAS_PROCESS(bench);
    bench(const sc_core::sc_module_name& n, const spi_host_timing& t, std::function<void(bench&)> b)
        : sc_core::sc_module(n), host("host", 1, t), slave("slave"), body(std::move(b)) {
        host.spi_out[0].bind(slave.spi_in);
        SC_THREAD(run);
    }
    void run() { body(*this); }
};

spi_host_timing sample_timing() {
    spi_host_timing t;
    t.per_message_overhead = sc_time(3, SC_US);
    t.per_transfer_overhead = sc_time(1, SC_US);
    t.cs_setup = sc_time(100, SC_NS);
    t.cs_hold = sc_time(200, SC_NS);
    t.cs_inactive_min = sc_time(500, SC_NS);
    t.dma_threshold_bytes = 4;
    t.dma_setup = sc_time(2, SC_US);
    return t;
}

} // namespace

// The slave is called when the last bit is shifted; transfer() returns after delay_after, CS hold
// and CS inactive time: origin 1 us, +3 us message, +0.1 us setup, +1 us transfer overhead,
// 2 bytes at 1 MHz = 16 us -> last bit at 21.1 us; +2 us delay_after +0.2 us hold +0.5 us
// inactive -> 23.8 us.
TEST(SpiHost, SlaveCalledAtWireEndAndReturnAfterTotal) {
    uint8_t tx[2] = {0x12, 0x34}, rx[2] = {};
    sc_time returned;
    bench b("b", sample_timing(), [&](bench& b) {
        sc_core::wait(1, SC_US);
        spi_payload f;
        f.speed_hz = 1'000'000;
        f.xfers.resize(1);
        f.xfers[0].tx = tx;
        f.xfers[0].rx = rx;
        f.xfers[0].len = 2;
        f.xfers[0].delay_after = sc_time(2, SC_US);
        b.host.transfer(f);
        returned = sc_core::sc_time_stamp();
        EXPECT_EQ(f.response, spi_response::ok);
    });
    sc_core::sc_start();
    ASSERT_EQ(b.slave.calls.size(), 1u);
    EXPECT_EQ(b.slave.calls[0], sc_time(21100, SC_NS));
    EXPECT_EQ(returned, sc_time(23800, SC_NS));
    EXPECT_EQ(rx[0], 0xED);
    EXPECT_EQ(rx[1], 0xCB);
    const spi_host_stats& s = b.host.stats();
    EXPECT_EQ(s.frames, 1u);
    EXPECT_EQ(s.transfers, 1u);
    EXPECT_EQ(s.bytes, 2u);
    EXPECT_EQ(s.errors, 0u);
    EXPECT_EQ(s.pio_transfers, 1u);
    EXPECT_EQ(s.sck_time, sc_time(16, SC_US));
    EXPECT_EQ(s.wire_time, sc_time(19300, SC_NS)); // CS asserted 4 us .. 23.3 us
    EXPECT_EQ(s.cpu_busy, sc_time(20, SC_US));     // 3 + 1 + 16 PIO
}

// Statistics add up over frames, and DMA transfers do not count as CPU-busy PIO time.
TEST(SpiHost, StatisticsAccumulateWithDma) {
    std::vector<uint8_t> big(8, 0xAA);
    bench b("b", sample_timing(), [&](bench& b) {
        spi_payload f;
        f.speed_hz = 8'000'000; // 1 us per byte
        f.xfers.resize(2);
        f.xfers[0].len = 2; // PIO
        f.xfers[1].tx = big.data();
        f.xfers[1].len = big.size(); // DMA (>= 4 bytes)
        b.host.transfer(f);
        b.host.transfer(f);
    });
    sc_core::sc_start();
    const spi_host_stats& s = b.host.stats();
    EXPECT_EQ(s.frames, 2u);
    EXPECT_EQ(s.transfers, 4u);
    EXPECT_EQ(s.bytes, 20u);
    EXPECT_EQ(s.pio_transfers, 2u);
    EXPECT_EQ(s.dma_transfers, 2u);
    EXPECT_EQ(s.pio_time, sc_time(4, SC_US));
    // Per frame: 3 us message + 2 x 1 us transfer + 2 us DMA setup + 2 us PIO = 9 us.
    EXPECT_EQ(s.cpu_busy, sc_time(18, SC_US));
}

// A slave error stays in the payload and is counted; the next frame starts clean.
TEST(SpiHost, SlaveErrorKeptAndCounted) {
    spi_response first = spi_response::ok, second = spi_response::protocol_error;
    std::string msg;
    bench b("b", {}, [&](bench& b) {
        spi_payload f;
        f.xfers.resize(1);
        f.xfers[0].len = 1;
        b.slave.fail = true;
        b.host.transfer(f);
        first = f.response;
        msg = f.error;
        b.slave.fail = false;
        b.host.transfer(f);
        second = f.response;
    });
    sc_core::sc_start();
    EXPECT_EQ(first, spi_response::protocol_error);
    EXPECT_EQ(msg, "bad command");
    EXPECT_EQ(second, spi_response::ok);
    EXPECT_EQ(b.host.stats().errors, 1u);
    EXPECT_EQ(b.host.stats().frames, 2u);
}

// Invalid frames are rejected before any simulated time passes, naming the problem.
TEST(SpiHost, InvalidFramesThrowBeforeTimePasses) {
    std::vector<std::string> errors;
    std::vector<sc_time> when;
    bench b("b", {}, [&](bench& b) {
        spi_payload f;
        f.xfers.resize(1);
        f.xfers[0].len = 1;
        f.xfers[0].bits_per_word = 40;
        try {
            b.host.transfer(f);
        } catch (const std::invalid_argument& e) {
            errors.push_back(e.what());
            when.push_back(sc_core::sc_time_stamp());
        }
        f.xfers[0].bits_per_word = 8;
        f.cs = 3;
        try {
            b.host.transfer(f);
        } catch (const std::invalid_argument& e) {
            errors.push_back(e.what());
            when.push_back(sc_core::sc_time_stamp());
        }
    });
    sc_core::sc_start();
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[0].find("xfers[0].bits_per_word = 40"), std::string::npos) << errors[0];
    EXPECT_NE(errors[1].find("cs = 3"), std::string::npos) << errors[1];
    EXPECT_EQ(when[0], sc_core::SC_ZERO_TIME);
    EXPECT_EQ(when[1], sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(b.slave.calls.empty());
    EXPECT_EQ(b.host.stats().frames, 0u);
}

// A slave may not annotate time (it cannot stretch SCK). The failed frame still releases the
// controller: the next frame runs.
TEST(SpiHost, SlaveDelayIsRejectedAndHostStaysUsable) {
    std::string err;
    bool second_done = false;
    bench b("b", {}, [&](bench& b) {
        b.slave.add_delay = sc_time(1, SC_NS);
        spi_payload f;
        f.xfers.resize(1);
        f.xfers[0].len = 1;
        try {
            b.host.transfer(f);
        } catch (const std::logic_error& e) {
            err = e.what();
        }
        b.slave.add_delay = sc_core::SC_ZERO_TIME;
        b.host.transfer(f);
        second_done = true;
    });
    sc_core::sc_start();
    EXPECT_NE(err.find("cannot stretch the clock"), std::string::npos) << err;
    EXPECT_TRUE(second_done);
    EXPECT_EQ(b.slave.calls.size(), 2u);
}

TEST(SpiHost, TransferOutsideThreadThrows) {
    bench b("b", {}, [](bench&) {});
    spi_payload f;
    f.xfers.resize(1);
    EXPECT_THROW(b.host.transfer(f), std::logic_error);
}

// Observers get every frame with the absolute origin and every MISO bit, even when the caller
// discards MISO (rx == nullptr); the caller's rx pointer is restored afterwards.
TEST(SpiHost, ObserverSeesFrameAndMisoOfDiscardedRx) {
    struct recorder : spi_observer {
        std::vector<sc_time> origins, ends;
        std::vector<uint8_t> miso;
        void on_frame(const spi_payload& f, const spi_schedule& s) override {
            origins.push_back(s.origin);
            ends.push_back(sc_core::sc_time_stamp());
            EXPECT_EQ(sc_core::sc_time_stamp(), s.origin + s.total);
            ASSERT_NE(f.xfers[0].rx, nullptr);
            miso.push_back(f.xfers[0].rx[0]);
        }
    } rec;
    uint8_t tx = 0x0F;
    const uint8_t* rx_after = reinterpret_cast<const uint8_t*>(1);
    bench b("b", {}, [&](bench& b) {
        sc_core::wait(5, SC_US);
        spi_payload f;
        f.xfers.resize(1);
        f.xfers[0].tx = &tx;
        f.xfers[0].len = 1;
        b.host.transfer(f);
        rx_after = f.xfers[0].rx;
    });
    b.host.add_observer(rec);
    sc_core::sc_start();
    ASSERT_EQ(rec.origins.size(), 1u);
    EXPECT_EQ(rec.origins[0], sc_time(5, SC_US));
    EXPECT_EQ(rec.ends[0], sc_time(13, SC_US)); // 8 bits at the default 1 MHz
    EXPECT_EQ(rec.miso[0], 0xF0);
    EXPECT_EQ(rx_after, nullptr);
}

// Two threads calling at the same instant: the second frame starts when the first one returned.
TEST(SpiHost, ConcurrentCallersAreSerialised) {
    struct two : sc_core::sc_module {
        spi_host host;
        invert_slave slave;
        std::vector<std::pair<int, sc_time>> done;
        SC_HAS_PROCESS(two);
        explicit two(const sc_core::sc_module_name& n)
            : sc_core::sc_module(n), host("host", 1), slave("slave") {
            host.spi_out[0].bind(slave.spi_in);
            SC_THREAD(a);
            SC_THREAD(b);
        }
        void go(int id) {
            spi_payload f;
            f.xfers.resize(1);
            f.xfers[0].len = 1; // 8 us at 1 MHz
            host.transfer(f);
            done.emplace_back(id, sc_core::sc_time_stamp());
        }
        void a() { go(0); }
        void b() { go(1); }
    } t("t");
    sc_core::sc_start();
    ASSERT_EQ(t.done.size(), 2u);
    EXPECT_EQ(t.done[0].second, sc_time(8, SC_US));
    EXPECT_EQ(t.done[1].second, sc_time(16, SC_US));
    EXPECT_NE(t.done[0].first, t.done[1].first);
    ASSERT_EQ(t.slave.calls.size(), 2u);
    EXPECT_EQ(t.slave.calls[1], sc_time(16, SC_US));
}

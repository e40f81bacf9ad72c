// SPDX-License-Identifier: MIT
// SDIO host controller: card-call timing, overhead accounting, serialisation, card-added delay,
// in-band interrupt recognition (4-bit deferred to the interrupt period, 1-bit immediate), error
// responses and bad inputs. Cycle counts come from sdio_timing_test.cc's rules; 25 MHz = 40 ns.
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bus/common/local_time.h"
#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_host.h"

using namespace nicsim::sdio;
using nicsim::irq_line;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

constexpr uint32_t mhz25 = 25'000'000;
sc_time cyc(uint64_t n) {
    return sc_time(double(n * 40), SC_NS);
}

// A register file per function (fn 0..1): CMD52 reads/writes one byte, CMD53 moves bytes at
// incrementing or fixed addresses. Logs every call; can answer an error or add a delay.
class test_card : public sc_core::sc_module, public sdio_card_if {
  public:
    sdio_target_socket sdio_in;
    struct call {
        sc_time at;
        sdio_command cmd;
        bool write;
        unsigned fn;
        uint32_t addr;
        size_t bytes;
    };
    std::vector<call> log;
    std::vector<uint8_t> regs[2];
    sdio_response answer = sdio_response::ok;
    uint8_t flags = 0;
    sc_time add_delay = sc_core::SC_ZERO_TIME;

    explicit test_card(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), sdio_in("sdio_in", *this) {
        for (auto& r : regs) {
            r.resize(0x20000);
            for (size_t i = 0; i < r.size(); ++i)
                r[i] = static_cast<uint8_t>(i * 7 + 3);
        }
    }
    void sdio_transport(sdio_payload& p, sc_time& delay) override {
        log.push_back({sc_core::sc_time_stamp(), p.cmd, p.write, p.fn, p.addr, p.data_bytes()});
        p.response = answer;
        p.r5_flags = flags;
        if (answer != sdio_response::ok) {
            p.error = "test card error";
            return;
        }
        auto& r = regs[p.fn & 1];
        if (p.is_cmd52()) {
            if (p.write)
                r[p.addr] = *p.data;
            if (!p.write || p.raw)
                *p.data = r[p.addr];
        } else {
            for (size_t i = 0; i < p.data_bytes(); ++i) {
                const size_t a = (p.addr + (p.incr_addr ? i : 0)) & 0x1FFFF;
                if (p.write)
                    r[a] = p.data[i];
                else
                    p.data[i] = r[a];
            }
        }
        delay += add_delay;
    }
};

// Host + card + any number of test threads; runs the simulation to the end.
struct bench : sc_core::sc_module {
    sdio_host host;
    test_card card;
    irq_line irq;
    std::vector<std::function<void()>> threads;
    SC_HAS_PROCESS(bench);
    explicit bench(const sc_core::sc_module_name& n = "bench", const sdio_host_timing& t = {})
        : sc_core::sc_module(n), host("host", t), card("card"), irq("irq") {
        host.sdio_out.bind(card.sdio_in);
    }
    void spawn(std::function<void()> f) {
        threads.push_back(std::move(f));
        sc_core::sc_spawn(threads.back());
    }
    void run() { sc_core::sc_start(); }
};

sc_time now() {
    return sc_core::sc_time_stamp();
}

} // namespace

// CMD52 read and write through the helpers: the card is called at the response end bit
// (98 cycles = 3.92 us), the caller resumes then (no overheads), data and errno come back.
TEST(SdioHost, Cmd52ReadWrite) {
    bench b;
    std::vector<sc_time> returned;
    uint8_t v = 0;
    int rc1 = 1, rc2 = 1;
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        rc1 = b.host.cmd52(1, false, 0x10, v);
        returned.push_back(now());
        uint8_t w = 0xC3;
        rc2 = b.host.cmd52(1, true, 0x11, w);
        returned.push_back(now());
    });
    b.run();
    EXPECT_EQ(rc1, 0);
    EXPECT_EQ(rc2, 0);
    EXPECT_EQ(v, static_cast<uint8_t>(0x10 * 7 + 3));
    EXPECT_EQ(b.card.regs[1][0x11], 0xC3);
    ASSERT_EQ(b.card.log.size(), 2u);
    EXPECT_EQ(b.card.log[0].at, cyc(98));
    EXPECT_EQ(returned[0], cyc(98));
    // The second command waits for N_RC: starts at 98 + 8 = 106, card called at 204.
    EXPECT_EQ(b.card.log[1].at, cyc(204));
    EXPECT_EQ(returned[1], cyc(204));
    EXPECT_EQ(b.host.stats().cmd52, 2u);
    EXPECT_EQ(b.host.stats().data_bytes, 2u);
    EXPECT_EQ(b.host.stats().dat_bytes, 0u);
    EXPECT_EQ(b.host.stats().bus_busy, cyc(2 * 98));
}

// CMD53 block write then read of 2 x 512 bytes in 4-bit mode: data arrives intact; card calls at
// the last CRC status end (block 0 [100,1142), token [1144,1149), block 1 [1151,2193), token
// [2195,2200)) = 2200 cycles. The bus is free at max(98 + N_RC 8, 2200) = 2200, so the read
// starts there; its last end bit is at 50 + 1042 + 2 + 1042 = 2136 cycles after its start.
TEST(SdioHost, Cmd53BlocksMoveDataAndTime) {
    bench b;
    std::vector<uint8_t> out(1024), in(1024);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<uint8_t>(i ^ 0x5A);
    int rc1 = 1, rc2 = 1;
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        rc1 = b.host.cmd53(1, true, 0x8000, true, true, 2, 512, out.data());
        rc2 = b.host.cmd53(1, false, 0x8000, true, true, 2, 512, in.data());
    });
    b.run();
    EXPECT_EQ(rc1, 0);
    EXPECT_EQ(rc2, 0);
    EXPECT_EQ(in, out);
    ASSERT_EQ(b.card.log.size(), 2u);
    EXPECT_EQ(b.card.log[0].at, cyc(2200));
    EXPECT_EQ(b.card.log[1].at, cyc(2200 + 2136));
    EXPECT_EQ(b.host.stats().cmd53, 2u);
    EXPECT_EQ(b.host.stats().blocks, 4u);
    EXPECT_EQ(b.host.stats().dat_bytes, 2048u);
    EXPECT_EQ(b.host.stats().pio_commands, 2u); // dma_threshold 0: no DMA
    EXPECT_EQ(b.host.stats().bus_busy, cyc(2200 + 2136));
    EXPECT_EQ(b.host.stats().pio_time, cyc((2200 - 100) + (2136 - 50)));
}

// Host overheads around a 4-byte byte-mode read (1-bit: card at 100 cycles = 4 us after the
// start bit): request 10 us, completion 5 us -> card at 14 us, return at 19 us; CPU 15 us + PIO
// data 50 cycles (2 us) = 17 us; bus busy 4 us.
TEST(SdioHost, OverheadAccounting) {
    sdio_host_timing t;
    t.per_request_overhead = sc_time(10, SC_US);
    t.completion_overhead = sc_time(5, SC_US);
    bench b("bench", t);
    uint8_t buf[4] = {};
    sc_time ret;
    b.spawn([&] {
        b.host.set_ios(mhz25, 1);
        EXPECT_EQ(b.host.cmd53(1, false, 0x20, true, false, 4, 0, buf), 0);
        ret = now();
    });
    b.run();
    ASSERT_EQ(b.card.log.size(), 1u);
    EXPECT_EQ(b.card.log[0].at, sc_time(14, SC_US));
    EXPECT_EQ(ret, sc_time(19, SC_US));
    EXPECT_EQ(b.host.stats().cpu_busy, sc_time(17, SC_US));
    EXPECT_EQ(b.host.stats().pio_time, sc_time(2, SC_US));
    EXPECT_EQ(b.host.stats().bus_busy, sc_time(4, SC_US));
    EXPECT_EQ(buf[3], static_cast<uint8_t>(0x23 * 7 + 3));
}

// Three callers arriving at 0, 1 ns, 2 ns are served in that order, one command at a time:
// A (CMD52, card at 98) ... B may start at A's bus free 106 -> card 204; C at 212 -> card 310.
TEST(SdioHost, SerialisesCallersInArrivalOrder) {
    bench b;
    uint8_t va = 0, vb = 0, vc = 0;
    std::vector<std::string> order;
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        b.host.cmd52(1, false, 1, va);
        order.push_back("A");
    });
    b.spawn([&] {
        sc_core::wait(sc_time(1, SC_NS));
        b.host.cmd52(1, false, 2, vb);
        order.push_back("B");
    });
    b.spawn([&] {
        sc_core::wait(sc_time(2, SC_NS));
        b.host.cmd52(1, false, 3, vc);
        order.push_back("C");
    });
    b.run();
    ASSERT_EQ(b.card.log.size(), 3u);
    EXPECT_EQ(b.card.log[0].addr, 1u);
    EXPECT_EQ(b.card.log[1].addr, 2u);
    EXPECT_EQ(b.card.log[2].addr, 3u);
    EXPECT_EQ(b.card.log[0].at, cyc(98));
    EXPECT_EQ(b.card.log[1].at, cyc(204));
    EXPECT_EQ(b.card.log[2].at, cyc(310));
    EXPECT_EQ(order, (std::vector<std::string>{"A", "B", "C"}));
    EXPECT_EQ(vc, 3 * 7 + 3);
}

// A card that needs 1 us longer (write busy) holds the bus: the caller resumes 1 us after the
// card call, bus busy grows by 1 us, and the next command starts after it.
TEST(SdioHost, CardAddedDelayHoldsTheBus) {
    bench b;
    b.card.add_delay = sc_time(1, SC_US);
    uint8_t buf[4] = {1, 2, 3, 4};
    sc_time ret;
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        b.host.cmd53(1, true, 0x40, true, false, 4, 0, buf); // card at 133 cycles
        ret = now();
        b.card.add_delay = sc_core::SC_ZERO_TIME;
        uint8_t v = 0;
        b.host.cmd52(1, false, 0x40, v); // starts at once (bus free = wire end), card 98 later
        EXPECT_EQ(v, 1);
    });
    b.run();
    ASSERT_EQ(b.card.log.size(), 2u);
    EXPECT_EQ(b.card.log[0].at, cyc(133));
    EXPECT_EQ(ret, cyc(133) + sc_time(1, SC_US));
    EXPECT_EQ(b.card.log[1].at, cyc(133 + 98) + sc_time(1, SC_US));
    EXPECT_EQ(b.host.stats().bus_busy, cyc(133 + 98) + sc_time(1, SC_US));
}

// Error responses reach the caller as errno and are counted.
TEST(SdioHost, ErrorResponsesVisible) {
    bench b;
    int rc[5] = {};
    b.spawn([&] {
        uint8_t v = 0;
        b.card.answer = sdio_response::no_response;
        rc[0] = b.host.cmd52(1, false, 0, v);
        b.card.answer = sdio_response::illegal;
        rc[1] = b.host.cmd52(1, false, 0, v);
        b.card.answer = sdio_response::out_of_range;
        rc[2] = b.host.cmd53(1, false, 0, true, false, 1, 0, &v);
        b.card.answer = sdio_response::ok;
        b.card.flags = r5_state_cmd | r5_out_of_range;
        rc[3] = b.host.cmd52(1, false, 0, v);
        b.card.flags = r5_state_cmd;
        rc[4] = b.host.cmd52(1, false, 0, v);
    });
    b.run();
    EXPECT_EQ(rc[0], -ETIMEDOUT);
    EXPECT_EQ(rc[1], -EINVAL);
    EXPECT_EQ(rc[2], -ERANGE);
    EXPECT_EQ(rc[3], -ERANGE);
    EXPECT_EQ(rc[4], 0);
    EXPECT_EQ(b.host.stats().errors, 4u);
}

// 4-bit mode: the card raises its interrupt at 10 us while a 512-byte block read occupies the bus
// (start 0, last end bit at 1092 cycles = 43.68 us); the host recognises it only when the
// interrupt period begins at 43.68 us. Later, with the bus idle, a rise at 60 us is seen at once.
TEST(SdioHost, Irq4BitDeferredUntilBusIdle) {
    bench b;
    b.host.connect_card_irq(b.irq);
    std::vector<sc_time> seen;
    std::vector<uint8_t> buf(512);
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        b.host.cmd53(1, false, 0, true, true, 1, 512, buf.data());
    });
    b.spawn([&] {
        sc_core::wait(sc_time(10, SC_US));
        b.irq.set_level(true);
        sc_core::wait(sc_time(40, SC_US)); // 50 us
        b.irq.set_level(false);
        sc_core::wait(sc_time(10, SC_US)); // 60 us
        b.irq.set_level(true);
        sc_core::wait(sc_time(1, SC_US));
        b.irq.set_level(false);
    });
    b.spawn([&] {
        for (int i = 0; i < 2; ++i) {
            b.host.wait_card_irq();
            seen.push_back(now());
            // The handler clears the source: wait until the line drops before waiting again.
            while (b.irq.level())
                sc_core::wait(b.irq.negedge_event());
        }
    });
    b.run();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], cyc(1092));
    EXPECT_EQ(seen[1], sc_time(60, SC_US));
    EXPECT_EQ(b.host.stats().card_irqs, 2u);
    EXPECT_EQ(b.host.stats().card_irqs_deferred, 1u);
    EXPECT_EQ(b.host.stats().irq_latency, cyc(1092) - sc_time(10, SC_US));
}

// 1-bit mode: DAT1 is a dedicated interrupt pin, so the same rise at 10 us during the (1-bit,
// longer) block read is recognised at 10 us.
TEST(SdioHost, Irq1BitImmediate) {
    bench b;
    b.host.connect_card_irq(b.irq);
    sc_time seen;
    bool active_then = false;
    std::vector<uint8_t> buf(512);
    b.spawn([&] {
        b.host.set_ios(mhz25, 1);
        b.host.cmd53(1, false, 0, true, true, 1, 512, buf.data());
    });
    b.spawn([&] {
        sc_core::wait(sc_time(10, SC_US));
        b.irq.set_level(true);
    });
    b.spawn([&] {
        b.host.wait_card_irq();
        seen = now();
        active_then = b.host.command_active();
    });
    b.run();
    EXPECT_EQ(seen, sc_time(10, SC_US));
    EXPECT_TRUE(active_then); // recognised in the middle of the data transfer
    EXPECT_EQ(b.host.stats().card_irqs, 1u);
    EXPECT_EQ(b.host.stats().card_irqs_deferred, 0u);
}

// 4-bit, back-to-back writes with zero overheads: the second command starts at the very instant
// the first one's busy ends (wire end 133 cycles). The interrupt (raised at 1 us, during the first
// command) is latched when the interrupt period begins, so it is recognised at 133 cycles even
// though the bus is busy again one delta cycle later.
TEST(SdioHost, Irq4BitLatchedAtPeriodStart) {
    bench b;
    b.host.connect_card_irq(b.irq);
    sc_time seen;
    uint8_t buf[4] = {};
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        b.host.cmd53(1, true, 0, true, false, 4, 0, buf);
        b.host.cmd53(1, true, 0, true, false, 4, 0, buf);
    });
    b.spawn([&] {
        sc_core::wait(sc_time(1, SC_US));
        b.irq.set_level(true);
    });
    b.spawn([&] {
        b.host.wait_card_irq();
        seen = now();
    });
    b.run();
    ASSERT_EQ(b.card.log.size(), 2u);
    EXPECT_EQ(b.card.log[1].at, cyc(133 + 133)); // the second started at 133
    EXPECT_EQ(seen, cyc(133));
    EXPECT_EQ(b.host.stats().card_irqs_deferred, 1u);
}

// A card that answers at the caller's local time (sdio_card_if::answers_at_local_time).
class local_card : public test_card {
  public:
    using test_card::test_card;
    bool answers_at_local_time(const sdio_payload&) const override { return true; }
};

// The commands of an interrupt handler run while the card's interrupt is pending. With nobody
// waiting for the interrupt they stay on the caller's local time: no wait per command (before,
// every command's end synchronised to open the interrupt period for a waiter that was not
// there), and they take as long as with the line low.
TEST(SdioHost, PendingIrqWithoutWaiterKeepsCommandsLocal) {
    struct lbench : sc_core::sc_module {
        sdio_host host{"host"};
        local_card card{"card"};
        irq_line irq{"irq"};
        unsigned long long waits[2] = {}, steps[2] = {};
        sc_time took[2];
        SC_HAS_PROCESS(lbench);
        lbench() : sc_core::sc_module("lbench") {
            host.sdio_out.bind(card.sdio_in);
            host.connect_card_irq(irq);
            SC_THREAD(handler);
        }
        void handler() {
            host.set_ios(mhz25, 4);
            for (int pending = 0; pending < 2; ++pending) {
                irq.set_level(pending == 1); // high: as while wilc_sdio_interrupt runs
                sc_core::wait(sc_time(1, SC_US));
                const auto w0 = nicsim::local_time::waits();
                const auto s0 = nicsim::local_time::local_advances();
                const sc_time t0 = nicsim::local_time::now();
                uint8_t v = 0;
                for (unsigned i = 0; i < 8; ++i)
                    host.cmd52(0, false, 0xf7, v);
                waits[pending] = nicsim::local_time::waits() - w0;
                steps[pending] = nicsim::local_time::local_advances() - s0;
                took[pending] = nicsim::local_time::now() - t0;
                nicsim::local_time::sync();
            }
        }
    } b;
    nicsim::local_time::start(sc_time(1, sc_core::SC_MS));
    EXPECT_EQ(b.waits[1], 0u);
    EXPECT_EQ(b.waits[1], b.waits[0]);
    EXPECT_GT(b.steps[1], 8u);
    EXPECT_EQ(b.took[1], b.took[0]);
    EXPECT_GE(b.took[1], cyc(8 * 98)); // each CMD52 takes at least its 98 cycles
    EXPECT_EQ(b.card.log.size(), 16u);
}

// Level-sensitive: a waiter that comes back while the line is still high returns at once.
TEST(SdioHost, IrqLevelSensitive) {
    bench b;
    b.host.connect_card_irq(b.irq);
    b.irq.set_level(true);
    std::vector<sc_time> seen;
    b.spawn([&] {
        b.host.set_ios(mhz25, 4);
        b.host.wait_card_irq();
        seen.push_back(now());
        sc_core::wait(sc_time(3, SC_US));
        b.host.wait_card_irq();
        seen.push_back(now());
    });
    b.run();
    EXPECT_EQ(seen, (std::vector<sc_time>{sc_core::SC_ZERO_TIME, sc_time(3, SC_US)}));
    EXPECT_EQ(b.host.stats().card_irqs, 2u);
}

TEST(SdioHost, WaitIrqWithoutLineIsAnError) {
    bench b;
    std::string msg;
    b.spawn([&] {
        try {
            b.host.wait_card_irq();
        } catch (const std::logic_error& e) {
            msg = e.what();
        }
    });
    b.run();
    EXPECT_NE(msg.find("no card interrupt line is connected"), std::string::npos) << msg;
}

// Bad inputs raise clear errors before any time passes and the host stays usable.
TEST(SdioHost, BadInputsRejected) {
    sdio_host_timing t;
    t.max_clock_hz = 41'666'667;
    bench b("bench", t);
    std::vector<std::string> msgs;
    auto expect_throw = [&](const std::function<void()>& f) {
        try {
            f();
            msgs.push_back("(no exception)");
        } catch (const std::invalid_argument& e) {
            msgs.push_back(e.what());
        }
    };
    sc_time t_after;
    b.spawn([&] {
        expect_throw([&] { b.host.set_ios(mhz25, 2); });
        expect_throw([&] { b.host.set_ios(60'000'000, 4); });
        expect_throw([&] { b.host.set_ios(50'000'000, 4); });
        b.host.set_ios(mhz25, 4);
        std::vector<uint8_t> buf(1024);
        expect_throw([&] { b.host.cmd53(1, false, 0, true, true, 0, 512, buf.data()); });
        expect_throw([&] { b.host.cmd53(1, true, 0, true, false, 513, 0, buf.data()); });
        t_after = now();
        uint8_t v = 0;
        EXPECT_EQ(b.host.cmd52(1, false, 5, v), 0);
    });
    b.run();
    ASSERT_EQ(msgs.size(), 5u);
    EXPECT_NE(msgs[0].find("bus_width = 2"), std::string::npos) << msgs[0];
    EXPECT_NE(msgs[1].find("clock_hz = 60000000"), std::string::npos) << msgs[1];
    EXPECT_NE(msgs[2].find("max_clock_hz = 41666667"), std::string::npos) << msgs[2];
    EXPECT_NE(msgs[3].find("block count = 0"), std::string::npos) << msgs[3];
    EXPECT_NE(msgs[4].find("byte count = 513"), std::string::npos) << msgs[4];
    EXPECT_NE(msgs[0].find("bench.host"), std::string::npos) << msgs[0];
    EXPECT_EQ(t_after, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(b.card.log.size(), 1u);
    EXPECT_EQ(b.host.clock_hz(), mhz25);
    EXPECT_EQ(b.host.bus_width(), 4u);
}

TEST(SdioHost, TransferOutsideThreadIsAnError) {
    bench b;
    uint8_t v = 0;
    EXPECT_THROW(b.host.cmd52(1, false, 0, v), std::logic_error);
}

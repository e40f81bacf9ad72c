// SPDX-License-Identifier: MIT
// spi_host.cpu_cost: atmel_spi (host/board/atmel_spi_port.h): the interrupts, sleeps and
// CPU time of one spi_sync follow spi-atmel.c and at_xdmac.c (Linux 6.1), and the port spends
// them on the board's CPU around the wire time.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/support/null_spi_slave.h"
#include "host/board/atmel_spi_port.h"

using nicsim::board::atmel_spi_cost;
using nicsim::board::atmel_spi_costs;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

atmel_spi_costs sama5d2() {
    atmel_spi_costs c;
    c.per_message = sc_time(50, SC_US);
    c.per_transfer = sc_time(5, SC_US);
    c.dma_setup = sc_time(10, SC_US);
    c.hardirq = sc_time(5, SC_US);
    c.context_switch = sc_time(10, SC_US);
    c.dma_threshold_bytes = 16; // DMA_MIN_BYTES
    c.fifo_size = 16;           // sama5d2.dtsi atmel,fifo-size
    return c;
}

nicsim::spi::spi_payload frame(std::vector<size_t> lens, unsigned bits_per_word = 8) {
    nicsim::spi::spi_payload f;
    for (size_t len : lens) {
        nicsim::spi::spi_xfer x;
        x.len = len;
        x.bits_per_word = bits_per_word;
        f.xfers.push_back(x);
    }
    return f;
}

} // namespace

// A transfer of 16 bytes or more goes by DMA: set-up before, the TX and RX channel interrupts
// after, and the caller sleeps once (switch out, switch back in).
TEST(AtmelSpiCost, DmaTransferSleepsOnceAndTakesBothChannelInterrupts) {
    const auto m = atmel_spi_cost(sama5d2(), frame({1536}));
    EXPECT_EQ(m.dma_transfers, 1u);
    EXPECT_EQ(m.pio_transfers, 0u);
    EXPECT_EQ(m.irqs, 2u);
    EXPECT_EQ(m.sleeps, 1u);
    EXPECT_FALSE(m.word_pio);
    EXPECT_EQ(m.before, sc_time(50 + 5 + 10, SC_US));
    EXPECT_EQ(m.after, sc_time(2 * 5 + 2 * 10, SC_US));
}

// Below DMA_MIN_BYTES the FIFO path: one chunk of up to fifo_size words, one interrupt, one sleep.
TEST(AtmelSpiCost, ShortTransferIsOneFifoChunk) {
    const auto m = atmel_spi_cost(sama5d2(), frame({15}));
    EXPECT_EQ(m.dma_transfers, 0u);
    EXPECT_EQ(m.pio_transfers, 1u);
    EXPECT_EQ(m.irqs, 1u);
    EXPECT_EQ(m.sleeps, 1u);
    EXPECT_EQ(m.before, sc_time(55, SC_US));
    EXPECT_EQ(m.after, sc_time(5 + 20, SC_US));
}

// Without DMA, long PIO transfers go in FIFO-sized chunks (16-bit words count as words).
TEST(AtmelSpiCost, WithoutDmaLongTransfersGoInFifoChunks) {
    auto c = sama5d2();
    c.dma_threshold_bytes = 0;
    auto m = atmel_spi_cost(c, frame({40}));
    EXPECT_EQ(m.irqs, 3u); // 16 + 16 + 8
    EXPECT_EQ(m.sleeps, 3u);
    m = atmel_spi_cost(c, frame({40}, 16)); // 20 words
    EXPECT_EQ(m.irqs, 2u);
}

// Without a FIFO every word is one interrupt, and the thread never sleeps: the core is busy.
TEST(AtmelSpiCost, WithoutFifoEveryWordIsAnInterruptAndTheCoreStaysBusy) {
    auto c = sama5d2();
    c.fifo_size = 0;
    const auto m = atmel_spi_cost(c, frame({10, 1536}));
    EXPECT_EQ(m.pio_transfers, 1u);
    EXPECT_EQ(m.dma_transfers, 1u);
    EXPECT_EQ(m.irqs, 10u + 2u);
    EXPECT_EQ(m.sleeps, 1u); // the DMA transfer's
    EXPECT_TRUE(m.word_pio);
    EXPECT_EQ(m.before, sc_time(50 + 2 * 5 + 10, SC_US));
}

namespace {


struct bench : sc_core::sc_module {
    nicsim::host_cpu cpu;
    nicsim::spi::spi_host host;
    nicsim::test::null_spi_slave slave;
    nicsim::board::atmel_spi_port port;
    sc_time returned;
    SC_HAS_PROCESS(bench);
    explicit bench(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), cpu("cpu", 1), host("host", 1), slave("slave"),
          port(cpu, host, 0, sama5d2(), [] { return sc_time(20, SC_US); }) {
        host.spi_out[0].bind(slave.spi_in);
        SC_THREAD(run);
    }
    void run() {
        auto f = frame({1536});
        f.speed_hz = 48'000'000;
        port.transfer(f);
        returned = sc_core::sc_time_stamp();
    }
};

} // namespace

// One DMA message: 65 us of CPU before the wire, 256 us of wire (1536 bytes at 48 MHz) with the
// core free, then 30 us of interrupts and switches within the 20 us wake-up latency's place:
// the CPU part is longer, so it decides.
TEST(AtmelSpiPort, ChargesTheCpuAroundTheWireAndWaitsTheWakeup) {
    bench b("b");
    sc_core::sc_start();
    const sc_time wire(1536.0 * 8 / 48e6, sc_core::SC_SEC);
    EXPECT_EQ(b.returned, sc_time(65, SC_US) + wire + sc_time(30, SC_US));
    EXPECT_EQ(b.cpu.busy_time(), sc_time(65 + 30, SC_US));
    // The accounting the report shows: one message, its two DMA interrupts, one sleep.
    const auto& a = b.port.accounting();
    EXPECT_EQ(a.messages, 1u);
    EXPECT_EQ(a.irqs, 2u);
    EXPECT_EQ(a.sleeps, 1u);
    EXPECT_EQ(a.cpu, b.cpu.busy_time());
}

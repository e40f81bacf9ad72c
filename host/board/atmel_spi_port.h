// SPDX-License-Identifier: MIT
// spi_host.cpu_cost: atmel_spi — spi_sync as the atmel_spi controller driver runs it
// (drivers/spi/spi-atmel.c, Linux 6.1, on a SAMA5D2: XDMAC DMA, 16-data FIFO):
//
//   spi_sync → SPI core → atmel_spi_one_transfer() per transfer:
//     len >= dma_threshold (DMA_MIN_BYTES = 16): atmel_spi_next_xfer_dma_submit() sets up the
//       TX and RX XDMAC channels; at_xdmac raises one interrupt per channel at the end of its
//       descriptor (AT_XDMAC_CIE_LIE) and completes the RX one from its tasklet (dma_callback →
//       complete()).
//     shorter: PIO. With a FIFO (atmel,fifo-size) atmel_spi_next_xfer_fifo() fills up to
//       fifo_size words and one RXFTHF interrupt pumps them back; without one,
//       atmel_spi_next_xfer_single() sends one word per interrupt.
//     After each submit the thread waits in wait_for_completion_timeout(): it sleeps (a switch
//     out), the interrupt completes it, and the scheduler switches it back in after its wake-up
//     latency. Only the one-word PIO path never sleeps: its interrupt arrives (8 SCK cycles)
//     before the thread reaches wait_for_completion, so the core stays busy.
//
// Charged here, on the board's CPU (kernel class): per message `per_message_overhead` (the SPI
// core's message path and the controller's per-message work), per transfer
// `per_transfer_overhead`, per DMA transfer `dma_setup`, per completion interrupt
// `kernel.hardirq` (its tasklet included), per sleep two `kernel.context_switch`es; the wake-up
// latency (the board's seeded stream) passes as elapsed time. The transfers of one message are
// charged before and after the message's wire time as a whole (WILC1000 and ENC28J60 send one
// transfer per message almost always); the wire itself runs with the core free except on the
// one-word PIO path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "bus/common/local_time.h"
#include "bus/spi/spi_host.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/cpu/host_cpu.h"

namespace nicsim::board {

struct atmel_spi_costs {
    sc_core::sc_time per_message;    // spi_host.per_message_overhead
    sc_core::sc_time per_transfer;   // spi_host.per_transfer_overhead
    sc_core::sc_time dma_setup;      // spi_host.dma_setup
    sc_core::sc_time hardirq;        // kernel.hardirq
    sc_core::sc_time context_switch; // kernel.context_switch
    size_t dma_threshold_bytes = 16; // spi_host.dma_threshold (0: no DMA)
    unsigned fifo_size = 16;         // spi_host.fifo_size (0: one interrupt per word)
    // Interrupts per DMA transfer: at_xdmac ends the TX and the RX channel each with one.
    unsigned irqs_per_dma_transfer = 2;
};

// What one message costs the CPU by the rules above (pure: tests check it against the source).
struct atmel_spi_message_cost {
    unsigned dma_transfers = 0, pio_transfers = 0;
    unsigned irqs = 0;       // completion interrupts
    unsigned sleeps = 0;     // wait_for_completion that slept
    bool word_pio = false;   // a one-word-per-interrupt PIO transfer holds the core for its wire
    sc_core::sc_time before; // CPU before the wire: message, transfers, DMA set-up
    sc_core::sc_time after;  // CPU after it: interrupts and switches back in
};

inline atmel_spi_message_cost atmel_spi_cost(const atmel_spi_costs& c,
                                             const spi::spi_payload& frame) {
    atmel_spi_message_cost m;
    m.before = c.per_message;
    for (const auto& x : frame.xfers) {
        m.before += c.per_transfer;
        if (x.len == 0)
            continue;
        const size_t words = x.bits_per_word > 8 ? (x.len + 1) / 2 : x.len;
        if (c.dma_threshold_bytes && x.len >= c.dma_threshold_bytes) {
            ++m.dma_transfers;
            m.before += c.dma_setup;
            m.irqs += c.irqs_per_dma_transfer;
            ++m.sleeps;
        } else if (c.fifo_size) {
            ++m.pio_transfers;
            const unsigned chunks = unsigned((words + c.fifo_size - 1) / c.fifo_size);
            m.irqs += chunks;
            m.sleeps += chunks;
        } else {
            ++m.pio_transfers;
            m.irqs += unsigned(words);
            m.word_pio = true;
        }
    }
    m.after = c.hardirq * double(m.irqs) + c.context_switch * double(2 * m.sleeps);
    return m;
}

// What the controller driver spent, summed over the messages (the report's host_cpu part).
struct spi_controller_accounting {
    std::uint64_t messages = 0;
    std::uint64_t irqs = 0;   // completion interrupts
    std::uint64_t sleeps = 0; // waits that slept (each two context switches)
    sc_core::sc_time cpu;     // CPU time charged: software path, interrupts, switches
};

class atmel_spi_port : public lx_bus::spi_port {
  public:
    // `host` must run with per_message_overhead, per_transfer_overhead and dma_setup = 0: this
    // port charges them on the CPU. `wakeup` draws one scheduler wake-up latency.
    atmel_spi_port(host_cpu& cpu, spi::spi_host& host, unsigned cs, const atmel_spi_costs& costs,
                   std::function<sc_core::sc_time()> wakeup)
        : m_cpu(cpu), m_host(host), m_cs(cs), m_costs(costs), m_wakeup(std::move(wakeup)) {}

    void transfer(spi::spi_payload& frame) override {
        // Runs on the caller's local time (bus/common/local_time.h).
        frame.cs = m_cs;
        const atmel_spi_message_cost m = atmel_spi_cost(m_costs, frame);
        ++m_acct.messages;
        m_acct.irqs += m.irqs;
        m_acct.sleeps += m.sleeps;
        m_acct.cpu += m.before + m.after;
        m_cpu.acquire(cpu_class::kernel);
        if (m.before != sc_core::SC_ZERO_TIME)
            local_time::advance(m.before);
        if (m.word_pio) { // the core services every word: it stays busy through the wire
            m_host.transfer(frame);
            m_cpu.release();
        } else {
            m_cpu.release();
            m_host.transfer(frame);
        }
        // Each sleep ends with the scheduler's wake-up latency, of which the switches and the
        // interrupts are the CPU part (as lx_kit's block_current charges a woken task).
        sc_core::sc_time latency = sc_core::SC_ZERO_TIME;
        for (unsigned i = 0; i < m.sleeps && m_wakeup; ++i)
            latency += m_wakeup();
        const sc_core::sc_time woke = local_time::now();
        if (m.after != sc_core::SC_ZERO_TIME)
            m_cpu.advance(m.after, cpu_class::kernel);
        if (woke + latency > local_time::now())
            local_time::advance(woke + latency - local_time::now());
    }

    const spi_controller_accounting& accounting() const { return m_acct; }

  private:
    host_cpu& m_cpu;
    spi::spi_host& m_host;
    unsigned m_cs;
    atmel_spi_costs m_costs;
    spi_controller_accounting m_acct;
    std::function<sc_core::sc_time()> m_wakeup;
};

} // namespace nicsim::board

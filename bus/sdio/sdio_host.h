// SPDX-License-Identifier: MIT
//
// Host SDIO controller: the initiator side of the SDIO bus. The driver emulation (sdio_readb,
// sdio_memcpy_fromio, ... through the MMC core's CMD52/CMD53) calls transfer() (or the cmd52()/
// cmd53() helpers) from a SystemC thread; the host waits the controller's software overheads and
// the wire time computed by compute_schedule() and hands the command to the card on `sdio_out`
// once, at the time its last bit crossed the wire (sdio_sockets.h contract).
//
// The card's in-band interrupt arrives on an irq_line (connect_card_irq). The MMC core's
// sdio_irq_thread calls wait_card_irq() in a loop; it returns when the line is high and the host
// can see it: in 4-bit mode only in the interrupt period, i.e. while no command is on the bus
// (SDIO 8.1.2; interrupts in the block gap of a 4-bit multi-block transfer are not modelled), in
// 1-bit mode at any time (DAT1 is a dedicated interrupt pin then). Like SDHCI's card interrupt
// the recognition is level-sensitive: a caller that comes back while the line is still high (and
// visible) returns at once, so the handler must clear the card's interrupt source.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_observer.h"
#include "bus/sdio/sdio_payload.h"
#include "bus/sdio/sdio_sockets.h"
#include "bus/sdio/sdio_timing.h"

namespace nicsim::sdio {

struct sdio_host_stats {
    uint64_t cmd52 = 0;
    uint64_t cmd53 = 0;
    uint64_t blocks = 0;     // CMD53 data blocks (a byte-mode CMD53 is one block)
    uint64_t data_bytes = 0; // payload bytes moved: CMD52's one byte + CMD53 data
    uint64_t dat_bytes = 0;  // payload bytes on the DAT lines only (CMD53 data, no CRC/tokens)
    uint64_t errors = 0;     // commands whose card answered response != ok or R5 error flags
    uint64_t pio_commands = 0;
    uint64_t dma_commands = 0;
    uint64_t card_irqs = 0;          // interrupts recognised (wait_card_irq returns)
    uint64_t card_irqs_deferred = 0; // ... of which waited for the interrupt period (4-bit)
    sc_core::sc_time bus_busy;       // command start bit → last bit/busy (incl. data, card delay)
    sc_core::sc_time cpu_busy;       // overheads + per-block stalls + PIO data time
    sc_core::sc_time pio_time;       // data phases the CPU moved (PIO)
    sc_core::sc_time irq_latency;    // sum over recognised interrupts: line high → recognised
};

// Linux errno (negative) the MMC core returns for a finished command (drivers/mmc/core/
// sdio_ops.c semantics): 0 ok; no_response -ETIMEDOUT; illegal -EINVAL; out_of_range -ERANGE;
// crc_error -EILSEQ; protocol_error -EIO; with response ok the R5 flags R5_ERROR -EIO,
// FUNCTION_NUMBER -EINVAL, OUT_OF_RANGE -ERANGE.
int to_errno(const sdio_payload& p);

class sdio_host : public sc_core::sc_module {
  public:
    sdio_initiator_socket sdio_out;

    // Starts at the identification-mode ios (400 kHz, 1 bit) until set_ios().
    explicit sdio_host(const sc_core::sc_module_name& name,
                       const sdio_host_timing& timing = sdio_host_timing{});

    // SDCLK frequency and bus width (Linux mmc_set_ios). Throws std::invalid_argument (see
    // validate_ios()); applies to commands that start after the call.
    void set_ios(uint32_t clock_hz, unsigned bus_width);
    uint32_t clock_hz() const { return m_clock_hz; }
    unsigned bus_width() const { return m_bus_width; }

    // Runs one command. Must be called from an SC_THREAD (it waits). Throws std::invalid_argument
    // for a command that cannot go on the wire (validate_command()) before any simulated time
    // passes. Concurrent callers are served one command at a time in arrival order. The card's
    // answer stays in the payload (response, r5_flags, error; see to_errno()) and errors are
    // counted in stats().errors.
    void transfer(sdio_payload& p);

    // Convenience for the driver emulation's sdio_host_if: build the payload, transfer(), return
    // to_errno(). cmd53 count is blocks in block mode, bytes in byte mode.
    int cmd52(unsigned fn, bool write, unsigned addr, uint8_t& data, bool raw = false);
    int cmd53(unsigned fn, bool write, unsigned addr, bool incr_addr, bool block_mode,
              unsigned count, unsigned blksz, uint8_t* buf);

    // The card's interrupt line (level high = pending). Not owned; replaces a previous one.
    void connect_card_irq(irq_line& line);
    // Blocks the calling SC_THREAD until the card interrupt is pending and visible (see the file
    // comment); counts it. Throws std::logic_error if no line is connected.
    void wait_card_irq();
    // Whether the host could see a pending interrupt now (1-bit mode or no command on the bus).
    bool card_irq_window_open() const { return m_bus_width == 1 || !m_cmd_active; }
    // A command occupies the bus (start bit → last bit/busy).
    bool command_active() const { return m_cmd_active; }

    const sdio_host_timing& timing() const { return m_timing; }
    // Validates the current ios against the new max_clock_hz.
    void set_timing(const sdio_host_timing& t);
    const sdio_host_stats& stats() const { return m_stats; }

    // Observers are called after every command, in the order attached; not owned.
    void add_observer(sdio_observer& obs) { m_observers.push_back(&obs); }

  private:
    void wait_until(const sc_core::sc_time& abs);
    void require_thread(const char* what) const;
    void bus_idle();

    sdio_host_timing m_timing;
    uint32_t m_clock_hz = sdio_init_clock_hz;
    unsigned m_bus_width = 1;
    sdio_host_stats m_stats;
    std::vector<sdio_observer*> m_observers;
    std::vector<std::unique_ptr<sdio_schedule>> m_schedules; // all schedules, see transfer()
    std::vector<sdio_schedule*> m_free_schedules;            // ... of which not in use
    uint64_t m_next_ticket = 0; // FIFO of callers waiting for the controller
    uint64_t m_serving = 0;
    sc_core::sc_event m_idle;
    sc_core::sc_time m_bus_free_at = sc_core::SC_ZERO_TIME; // earliest next command start bit

    irq_line* m_irq = nullptr;
    bool m_cmd_active = false;
    bool m_irq_latched = false;     // line high when the interrupt period began (host status bit)
    sc_core::sc_event m_irq_window; // interrupt period began / width changed
    unsigned m_irq_waiters = 0;     // processes waiting in wait_card_irq()
};

} // namespace nicsim::sdio

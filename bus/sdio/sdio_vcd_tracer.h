// SPDX-License-Identifier: MIT
//
// VCD waveform of an SDIO bus: clk, cmd, dat0..dat3 and the card's interrupt line (card_irq), at
// exact picosecond times ($timescale 1ps). Attach it to an sdio_host as an sdio_observer: every
// completed command is turned back into pin levels cycle by cycle from its schedule and payload
// (the same schedule the host waited for), and to the card's irq_line as an irq_observer.
//
// Pin conventions (docs/bus-sdio.md): CMD and DAT idle high (pull-ups); SDCLK runs only while a
// command is on the bus (start bit → last bit/busy; gated otherwise) and is stopped low during
// per-block stalls; each bit is driven at the falling edge that begins its cycle and sampled at
// the rising edge in the middle. CMD carries the 48-bit command and R5 response with their CRC7;
// the DAT lines carry each block's start bit, data (4-bit: high nibble first, bit 3 on DAT3),
// per-line CRC16 and end bit; a write's CRC status token ("010" = accepted) and busy go on DAT0.
// A card-added delay is drawn as extra busy on a write and as idle time otherwise. DAT1's
// interrupt signalling is drawn on card_irq, not on dat1.
//
// Commands arrive when they complete and interrupt changes as they happen, so the tracer holds
// interrupt changes back until the command in flight has been written (one host per tracer).
#pragma once

#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_observer.h"

namespace nicsim::sdio {

enum class sdio_wire : uint8_t { clk, cmd, dat0, dat1, dat2, dat3, card_irq };

class sdio_vcd_tracer : public sdio_observer, public irq_observer {
  public:
    // Opens `path` (throws std::runtime_error naming it if it cannot) and writes the header.
    explicit sdio_vcd_tracer(const std::string& path, const std::string& scope = "sdio");
    ~sdio_vcd_tracer() override;

    void on_command(const sdio_payload& cmd, const sdio_schedule& schedule) override;
    void on_irq(const irq_line& line, bool level, const sc_core::sc_time& t) override;

    // One pin level at absolute time t; times must not decrease (std::logic_error otherwise).
    void record(sdio_wire wire, const sc_core::sc_time& t, bool level);

    // Writes pending changes and closes the file (also done by the destructor).
    void close();

  private:
    void record_ps(size_t idx, uint64_t ps, bool level);
    void drain_irq(uint64_t up_to_ps);
    void flush();

    std::ofstream m_out;
    std::string m_path;
    std::vector<std::string> m_ids;
    std::vector<bool> m_level;                         // last written level per signal
    uint64_t m_pending_ps = 0;                         // time of the changes in m_pending
    std::map<size_t, bool> m_pending;                  // signal -> last level at m_pending_ps
    std::deque<std::pair<uint64_t, bool>> m_irq_queue; // held-back card_irq changes
    bool m_dumped = false;
    bool m_closed = false;
};

} // namespace nicsim::sdio

// SPDX-License-Identifier: MIT
// KSZ8851-16MLL 16-bit parallel-bus front-end (CMD pin selects the command port):
//
//   CMD port write   command word: bits 15:12 = BE3..BE0, bits 7:0 = register address
//   DATA port        the first data cycle after a command write, and every data cycle while
//                    RXQCR.SDA = 0: the register the last command selected. The BE pair of
//                    the addressed half carries data (BE1/BE0 for A1 = 0, BE3/BE2 for A1 = 1);
//                    lanes not enabled read 0 and are not written.
//                    Further data cycles while RXQCR.SDA = 1 (no command cycle in between)
//                    access the packet-memory FIFO: reads stream the RXQ (first
//                    `par_rx_dummy_words` dummy words after each DMA start, then status, byte
//                    count, data), writes feed the TXQ ([control][byte count][data] per frame).
//
// Words are little-endian (D7..0 = lower address byte) when the EESK strap matches the host;
// with a wrong strap every word is byte-swapped and BE[3:0] means BE[1,0,3,2], which is what the
// driver's endian check (CMD 0xC0C0, read must be 0) detects.
#pragma once

#include <cstdint>

#include "bus/par/par_sockets.h"
#include "models/ks8851/ks8851_core.h"

namespace nicsim::ks {

struct par_frontend_stats {
    uint64_t cmd_writes = 0;
    uint64_t data_reads = 0;
    uint64_t data_writes = 0;
    uint64_t fifo_reads = 0;  // data reads while SDA = 1
    uint64_t fifo_writes = 0; // data writes while SDA = 1
};

class par_frontend : public par::par_slave_if {
  public:
    explicit par_frontend(core& c) : m_core(c) {}
    void par_transport(par::par_payload& p, sc_core::sc_time& delay) override;
    // FIFO data words in the middle of a DMA (not its first, not a TX frame's last): they depend
    // on no time and schedule nothing.
    size_t par_transport_words(const par::par_payload& p, const uint16_t* in, uint16_t* out,
                               size_t n) override;
    const par_frontend_stats& stats() const { return m_stats; }
    uint16_t command() const { return m_cmd; }

  private:
    core& m_core;
    par_frontend_stats m_stats;
    uint16_t m_cmd = 0;
    bool m_reg_cycle = false; // a command write was the last CMD-port access
    uint64_t m_dma_seen = 0;  // core.dma_starts() at the last FIFO read
    unsigned m_dummy_left = 0;
    bool m_check_ready = false; // next real FIFO word is the first of this DMA
};

} // namespace nicsim::ks

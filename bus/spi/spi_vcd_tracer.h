// SPDX-License-Identifier: MIT
//
// VCD waveform of an SPI bus: cs_n<i> (one per chip select), sck, mosi, miso, at exact picosecond
// times ($timescale 1ps). Two ways to feed it:
//  * as an spi_observer of an spi_host (any mode): each completed frame is turned back into pin
//    changes cycle by cycle from its schedule and payload, using the same pin conventions as the
//    cycle-stepped host (docs/bus-spi.md), so the transaction mode gets waveforms for free;
//  * through spi_vcd_pin_probe, which records the real pins of a cycle-stepped host.
// Both produce the same file for the same frames (tests/bus/spi_vcd_test.cc,
// spi_reference_test.cc). Changes must arrive in non-decreasing time order (one host per
// tracer); several changes of one signal at the same instant collapse to the last one, and a
// change to the level a signal already has is not written.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "bus/spi/spi_observer.h"

namespace nicsim::spi {

class spi_host;

enum class spi_wire : uint8_t { cs_n, sck, mosi, miso };

class spi_vcd_tracer : public spi_observer {
  public:
    // Opens `path` for writing (throws std::runtime_error naming the path if it cannot) and
    // writes the header with the idle levels at time 0 (cs_n = 1, others 0).
    spi_vcd_tracer(const std::string& path, unsigned num_cs, const std::string& scope = "spi");
    ~spi_vcd_tracer() override;

    void on_frame(const spi_payload& frame, const spi_schedule& schedule) override;

    // One pin level at absolute time t (cs is used for cs_n only).
    void record(spi_wire wire, unsigned cs, const sc_core::sc_time& t, bool level);

    // Writes pending changes and closes the file (also done by the destructor).
    void close();

  private:
    size_t index(spi_wire wire, unsigned cs) const;
    void flush();

    std::ofstream m_out;
    std::string m_path;
    unsigned m_num_cs;
    std::vector<std::string> m_ids;
    std::vector<bool> m_level;        // last written level per signal
    uint64_t m_pending_ps = 0;        // time of the changes in m_pending
    std::map<size_t, bool> m_pending; // signal -> last level at m_pending_ps
    bool m_dumped = false;            // $dumpvars written
    bool m_closed = false;
};

// Records the pins of a cycle-stepped spi_host into a tracer (an SC_METHOD on every pin).
class spi_vcd_pin_probe : public sc_core::sc_module {
  public:
    SC_HAS_PROCESS(spi_vcd_pin_probe);
    spi_vcd_pin_probe(const sc_core::sc_module_name& name, spi_host& host, spi_vcd_tracer& tracer);

  private:
    void sample();
    spi_host& m_host;
    spi_vcd_tracer& m_tracer;
};

} // namespace nicsim::spi

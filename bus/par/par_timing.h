// SPDX-License-Identifier: MIT
// Strobe timing of the asynchronous 16-bit bus in host bus-clock cycles, as an i.MX6 EIM-class
// external bus controller programs it (CSA/OEA/WEA = setup, RWSC/WWSC = strobe, CSN/OEN/WEN =
// hold, RCSN/WCSN-style idle = recovery). One access:
//
//   |issue| setup |   strobe (RD#/WR# low)  | hold | ... recovery ... | next access
//   ^call                                   ^device samples / latches (par_transport)
//                                                  ^caller returns
//
// The caller returns after the hold phase; recovery only delays the *next* access (the CPU can
// run meanwhile). Defaults are an assumption for an i.MX6 EIM at 132 MHz talking to a
// KSZ8851-16MLL; the reasoning is in docs/bus-par.md. Platform profiles override them.
#pragma once

#include <systemc>

namespace nicsim::par {

struct par_timing {
    // EIM clock. [fact] the i.MX6 EIM runs from ACLK_EIM_SLOW, at most 132 MHz.
    double bus_clock_hz = 132e6;
    // CPU + interconnect time from the load/store to CS# assertion. [assumption] 0: belongs to
    // the host CPU model; platforms may calibrate it.
    unsigned issue_cycles = 0;
    // CS#/address valid before RD#/WR# falls. [assumption] 1 cycle = 7.6 ns, covers the
    // few-ns address/CMD setup an asynchronous SRAM-like slave needs.
    unsigned addr_setup_cycles = 1;
    // RD# low time. [assumption] 6 cycles = 45 ns: a conservative strobe for a 3.3 V
    // asynchronous peripheral whose read access time is a few tens of ns.
    unsigned read_strobe_cycles = 6;
    // WR# low time. [assumption] 5 cycles = 38 ns.
    unsigned write_strobe_cycles = 5;
    // Address/CS# held after the strobe rises. [assumption] 1 cycle.
    unsigned hold_cycles = 1;
    // Bus idle between two accesses (CS# high). [assumption] 2 cycles = 15 ns.
    unsigned recovery_cycles = 2;

    // Throws std::invalid_argument naming the bad field.
    void validate() const;

    sc_core::sc_time cycle() const { return sc_core::sc_time(1.0 / bus_clock_hz, sc_core::SC_SEC); }
    // n cycles computed in one step (no per-cycle rounding to the time resolution).
    sc_core::sc_time cycles(unsigned n) const {
        return sc_core::sc_time(double(n) / bus_clock_hz, sc_core::SC_SEC);
    }
    unsigned strobe_cycles(bool write) const {
        return write ? write_strobe_cycles : read_strobe_cycles;
    }
    // From the call to the strobe's trailing edge.
    sc_core::sc_time to_strobe_end(bool write) const {
        return cycles(issue_cycles + addr_setup_cycles + strobe_cycles(write));
    }
    // From the call to the caller's return (no recovery wait, no device wait states).
    sc_core::sc_time access_time(bool write) const {
        return cycles(issue_cycles + addr_setup_cycles + strobe_cycles(write) + hold_cycles);
    }
};

} // namespace nicsim::par

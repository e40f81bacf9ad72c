// SPDX-License-Identifier: MIT
//
// Byte-causal SPI slaves, for the cycle-stepped reference mode.
//
// A pin-level slave must put MISO bit n on the wire before it has seen MOSI bit n, so a slave
// that only knows whole frames (spi_slave_if) cannot be driven bit by bit. spi_byte_slave is the
// causal form: the slave sees each CS window as a stream of 8-bit slots (the window's bits in wire
// order, cut every 8 bits, whatever bits_per_word is) and hands out MISO one slot ahead, exactly
// like a hardware shift register:
//
//   CS asserts             -> spi_select()              returns MISO slot 0
//   8 MOSI bits sampled    -> spi_mosi_byte(b, 8)       returns MISO slot i+1 (reloaded at once,
//                                                       so also after the window's last slot)
//   CS deasserts mid-slot  -> spi_mosi_byte(b, n < 8)   MSB-aligned partial slot; return ignored
//   CS deasserts           -> spi_deselect()
//
// spi_byte_slave::spi_transport() replays that call sequence from a whole frame, so the same
// slave object behaves identically under the transaction-level host (via its socket) and under
// the cycle-stepped host (via spi_pin_slave), which is what the reference test compares.
#pragma once

#include <string>

#include <systemc>

#include "bus/spi/spi_sockets.h"

namespace nicsim::spi {

class spi_byte_slave : public spi_slave_if {
  public:
    virtual uint8_t spi_select() = 0;
    virtual uint8_t spi_mosi_byte(uint8_t mosi, unsigned nbits) = 0;
    virtual void spi_deselect() {}

    // The frame-at-once form: replays select / mosi_byte / deselect per CS window, fills rx and
    // frame.miso_tail.
    void spi_transport(spi_payload& frame, sc_core::sc_time& delay) override;
};

// Pin-level adapter: samples MOSI on the mode's sampling edge, shifts MISO on the other edge
// (CPHA=0: first bit at CS assert, then on trailing edges; CPHA=1: on leading edges) and drives a
// spi_byte_slave. Bind the ports to spi_host's pins (cs_n[i], sck, mosi, miso). The mode is the
// device's (a real slave is wired/configured for one); a frame whose SCK idle level does not
// match CPOL at CS assert is recorded in error() and the window is ignored.
class spi_pin_slave : public sc_core::sc_module {
  public:
    sc_core::sc_in<bool> cs_n;
    sc_core::sc_in<bool> sck;
    sc_core::sc_in<bool> mosi;
    sc_core::sc_out<bool> miso;

    SC_HAS_PROCESS(spi_pin_slave);
    spi_pin_slave(const sc_core::sc_module_name& name, spi_byte_slave& slave, spi_mode mode);

    const std::string& error() const { return m_error; }

  private:
    void on_cs();
    void on_sck();
    void drive();
    void sample();

    spi_byte_slave& m_slave;
    spi_mode m_mode;
    bool m_selected = false;
    uint8_t m_out = 0;      // MISO slot being shifted out
    unsigned m_out_idx = 0; // next bit of m_out to drive (0 = MSB)
    uint8_t m_in = 0;       // MOSI slot being shifted in
    unsigned m_in_bits = 0;
    std::string m_error;
};

} // namespace nicsim::spi

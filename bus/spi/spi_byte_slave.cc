// SPDX-License-Identifier: MIT
#include "bus/spi/spi_byte_slave.h"

#include <stdexcept>

#include "bus/spi/spi_bits.h"

namespace nicsim::spi {

namespace {

// The MISO shift register of one CS window, shared in spirit with spi_pin_slave: same call order.
struct byte_shifter {
    spi_byte_slave& slave;
    uint8_t out = 0;
    unsigned out_idx = 0;
    uint8_t in = 0;
    unsigned in_bits = 0;
    bool level = false; // MISO level

    void drive() { level = (out >> (7 - out_idx++)) & 1u; }
    void sample(bool mosi) {
        in = static_cast<uint8_t>((in << 1) | (mosi ? 1u : 0u));
        if (++in_bits == 8) {
            out = slave.spi_mosi_byte(in, 8);
            out_idx = 0;
            in = 0;
            in_bits = 0;
        }
    }
};

} // namespace

void spi_byte_slave::spi_transport(spi_payload& frame, sc_core::sc_time&) {
    try {
        validate_frame(frame, spi_host_timing{});
    } catch (const std::invalid_argument& e) {
        frame.response = spi_response::protocol_error;
        frame.error = e.what();
        return;
    }
    const bool pha = cpha(frame.mode);
    frame.miso_tail.clear();
    size_t first = 0;
    while (first < frame.xfers.size()) {
        size_t last = first;
        while (last + 1 < frame.xfers.size() && !frame.xfers[last].cs_change)
            ++last;

        byte_shifter sh{*this};
        sh.out = spi_select();
        if (!pha)
            sh.drive(); // CPHA=0: first bit valid at CS assert
        for (size_t xi = first; xi <= last; ++xi) {
            const spi_xfer& x = frame.xfers[xi];
            const uint64_t bits = xfer_bits(x);
            for (uint64_t k = 0; k < bits; ++k) {
                if (pha) { // leading edge shifts, trailing edge samples
                    sh.drive();
                    store_miso_bit(x, k, sh.level);
                    sh.sample(mosi_bit(x, k));
                } else { // leading edge samples, trailing edge shifts
                    store_miso_bit(x, k, sh.level);
                    sh.sample(mosi_bit(x, k));
                    sh.drive();
                }
            }
        }
        if (sh.in_bits)
            spi_mosi_byte(static_cast<uint8_t>(sh.in << (8 - sh.in_bits)), sh.in_bits);
        spi_deselect();
        frame.miso_tail.push_back(sh.level);
        first = last + 1;
    }
}

spi_pin_slave::spi_pin_slave(const sc_core::sc_module_name& name, spi_byte_slave& slave,
                             spi_mode mode)
    : sc_core::sc_module(name), cs_n("cs_n"), sck("sck"), mosi("mosi"), miso("miso"),
      m_slave(slave), m_mode(mode) {
    SC_METHOD(on_cs);
    sensitive << cs_n;
    dont_initialize();
    SC_METHOD(on_sck);
    sensitive << sck;
    dont_initialize();
}

void spi_pin_slave::drive() {
    miso.write((m_out >> (7 - m_out_idx++)) & 1u);
}

void spi_pin_slave::sample() {
    m_in = static_cast<uint8_t>((m_in << 1) | (mosi.read() ? 1u : 0u));
    if (++m_in_bits == 8) {
        m_out = m_slave.spi_mosi_byte(m_in, 8);
        m_out_idx = 0;
        m_in = 0;
        m_in_bits = 0;
    }
}

void spi_pin_slave::on_cs() {
    if (!cs_n.read()) { // asserted
        if (sck.read() != cpol(m_mode)) {
            m_error = std::string(name()) + ": SCK idle level " + (sck.read() ? "1" : "0") +
                      " at CS assert does not match CPOL of SPI mode " +
                      std::to_string(static_cast<unsigned>(m_mode)) + " at " +
                      sc_core::sc_time_stamp().to_string();
            return;
        }
        m_selected = true;
        m_in = 0;
        m_in_bits = 0;
        m_out = m_slave.spi_select();
        m_out_idx = 0;
        if (!cpha(m_mode))
            drive();
    } else if (m_selected) {
        m_selected = false;
        if (m_in_bits)
            m_slave.spi_mosi_byte(static_cast<uint8_t>(m_in << (8 - m_in_bits)), m_in_bits);
        m_slave.spi_deselect();
        miso.write(false); // release the shared line
    }
}

void spi_pin_slave::on_sck() {
    if (!m_selected)
        return;
    const bool leading = sck.read() != cpol(m_mode);
    if (leading == cpha(m_mode))
        drive(); // CPHA=1 leading edge, CPHA=0 trailing edge
    else
        sample(); // CPHA=0 leading edge, CPHA=1 trailing edge
}

} // namespace nicsim::spi

// SPDX-License-Identifier: MIT
// Test hosts for the KS8851 model. ks_spi_host encodes SPI frames the way the 6.1 driver's SPI
// accessors frame them (written from the protocol of ks8851_spi.c, not from driver
// code): 16-bit register read = one frame of 2 command + 2 data bytes (MOSI carries stale bytes
// in the data phase), register write = one 4-byte frame, RXQ read = one frame of 2 transfers
// (1 opcode byte, then len bytes read), TXQ write = one frame of 2 transfers (5 header bytes,
// then ALIGN(len,4) data bytes). ks_par_host does the same over the parallel bus (command word
// with BE bits, data port). Both also implement the driver's per-frame sequences (TX: SDA, FIFO,
// release SDA, METFE; RX: RXFCTR, RXFHSR, RXFHBCR, RXFDPR, SDA, FIFO, RRXEF). Use from an
// SC_THREAD.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "bus/par/par_host.h"
#include "bus/spi/spi_sockets.h"
#include "models/ks8851/ks8851_regs.h"

namespace nicsim::test {

inline unsigned align4(unsigned v) {
    return (v + 3) & ~3u;
}

// Register command bytes: [op|BE<<2|A7A6][A5..A0<<2]; op RD 0x00 / WR 0x40.
inline std::vector<uint8_t> ks_spi_cmd(uint8_t op, unsigned be, unsigned reg) {
    return {uint8_t(op | (be << 2) | (reg >> 6)), uint8_t((reg & 0x3F) << 2)};
}
// The BE pattern the driver uses for a 16-bit register.
inline unsigned ks_be16(unsigned reg) {
    return (reg & 2) ? 0xC : 0x3;
}

struct ks_rx_result {
    uint16_t status = 0;
    uint16_t count = 0;         // RXFHBCR & 0xFFF (incl. CRC)
    std::vector<uint8_t> raw;   // everything the FIFO read returned (incl. dummy + header)
    std::vector<uint8_t> frame; // raw[8 .. 8 + count - 4): the frame without CRC
};

// Common driver-sequence logic over 16-bit register and FIFO primitives.
struct ks_host_base {
    uint16_t rc_rxqcr = ks::RXQCR_RXFCTE | ks::RXQCR_RXDBCTE | ks::RXQCR_RXDTTE;
    unsigned fid = 0;
    virtual ~ks_host_base() = default;
    virtual uint16_t rd16(unsigned reg) = 0;
    virtual void wr16(unsigned reg, uint16_t v) = 0;
    virtual std::vector<uint8_t> rdfifo(unsigned len) = 0; // returns `len` bytes from buff[0]
    virtual void wrfifo(const std::vector<uint8_t>& frame, bool txic) = 0;

    // The driver's open() register programming (after the QMU reset).
    void open(uint16_t ier) {
        wr16(ks::reg::GRR, ks::GRR_QMU);
        wr16(ks::reg::GRR, 0);
        wr16(ks::reg::TXCR, 0x000F);
        wr16(ks::reg::TXFDPR, 0x4000);
        wr16(ks::reg::RXCR1, 0x0CA1);
        wr16(ks::reg::RXCR2, 0x0080);
        wr16(ks::reg::RXDTTR, 1000);
        wr16(ks::reg::RXDBCTR, 4096);
        wr16(ks::reg::RXFCTR, 10);
        wr16(ks::reg::RXQCR, rc_rxqcr);
        wr16(ks::reg::ISR, ier);
        wr16(ks::reg::IER, ier);
    }
    void set_mac(const uint8_t m[6]) {
        for (unsigned i = 0; i < 6; i += 2)
            wr16(0x14 - i, uint16_t(m[i] << 8 | m[i + 1]));
    }
    // ks8851_tx_work per-frame sequence (SPI) / start_xmit (PAR without the poll).
    void tx(const std::vector<uint8_t>& frame, bool txic) {
        wr16(ks::reg::RXQCR, uint16_t(rc_rxqcr | ks::RXQCR_SDA));
        wrfifo(frame, txic);
        wr16(ks::reg::RXQCR, rc_rxqcr);
        wr16(ks::reg::TXQCR, ks::TXQCR_METFE);
    }
    // ks8851_rx_pkts: every frame RXFCTR reports.
    std::vector<ks_rx_result> rx_all() {
        std::vector<ks_rx_result> out;
        unsigned rxfc = (rd16(ks::reg::RXFCTR) >> 8) & 0xFF;
        for (; rxfc; --rxfc) {
            ks_rx_result r;
            r.status = rd16(ks::reg::RXFHSR);
            r.count = rd16(ks::reg::RXFHBCR) & 0xFFF;
            wr16(ks::reg::RXFDPR, 0x4000);
            wr16(ks::reg::RXQCR, uint16_t(rc_rxqcr | ks::RXQCR_SDA));
            if (r.count > 4) {
                const unsigned len = r.count - 4;
                r.raw = rdfifo(align4(len) + 8);
                r.frame.assign(r.raw.begin() + 8, r.raw.begin() + 8 + len);
            }
            wr16(ks::reg::RXQCR, uint16_t(rc_rxqcr | ks::RXQCR_RRXEF));
            out.push_back(std::move(r));
        }
        return out;
    }
};

struct ks_spi_host : sc_core::sc_module, ks_host_base {
    spi::spi_initiator_socket spi_out{"spi_out"};
    uint32_t speed_hz = 25'000'000;
    bool half_duplex = false;
    sc_core::sc_time gap = sc_core::sc_time(1, sc_core::SC_US); // host time after each frame
    uint64_t frames = 0;
    std::vector<std::vector<uint8_t>> mosi_log; // MOSI of each frame (flattened)

    explicit ks_spi_host(sc_core::sc_module_name n) : sc_module(n) {}

    // One chip-select frame of the given transfers (tx may be empty = NULL tx_buf).
    void frame(std::vector<std::vector<uint8_t>> tx, std::vector<std::vector<uint8_t>*> rx,
               std::vector<size_t> lens) {
        spi::spi_payload p;
        p.speed_hz = speed_hz;
        std::vector<uint8_t> flat;
        size_t total = 0;
        for (size_t i = 0; i < lens.size(); ++i) {
            spi::spi_xfer x;
            x.len = lens[i];
            x.tx = tx[i].empty() ? nullptr : tx[i].data();
            if (rx[i]) {
                rx[i]->assign(lens[i], 0xEE);
                x.rx = rx[i]->data();
            }
            p.xfers.push_back(x);
            total += lens[i];
            if (tx[i].empty())
                flat.insert(flat.end(), lens[i], 0);
            else
                flat.insert(flat.end(), tx[i].begin(), tx[i].end());
        }
        wait(sc_core::sc_time(8.0 * double(total) / speed_hz, sc_core::SC_SEC));
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        spi_out->b_transport(p, d);
        ++frames;
        mosi_log.push_back(std::move(flat));
        wait(gap);
    }

    // Register read with an arbitrary BE pattern (8/16/32-bit forms): returns the data bytes.
    std::vector<uint8_t> rd(unsigned be, unsigned reg, unsigned nbytes) {
        std::vector<uint8_t> cmd = ks_spi_cmd(0x00, be, reg);
        std::vector<uint8_t> rx;
        if (half_duplex) {
            std::vector<uint8_t> rx2;
            frame({cmd, {}}, {nullptr, &rx2}, {2, nbytes});
            return rx2;
        }
        std::vector<uint8_t> tx = cmd;
        tx.resize(2 + nbytes, 0xA5); // stale bytes in the data phase, as the driver leaves them
        frame({tx}, {&rx}, {2 + size_t(nbytes)});
        return std::vector<uint8_t>(rx.begin() + 2, rx.end());
    }
    void wr(unsigned be, unsigned reg, const std::vector<uint8_t>& data) {
        std::vector<uint8_t> tx = ks_spi_cmd(0x40, be, reg);
        tx.insert(tx.end(), data.begin(), data.end());
        frame({tx}, {nullptr}, {tx.size()});
    }
    uint16_t rd16(unsigned reg) override {
        const auto b = rd(ks_be16(reg), reg, 2);
        return uint16_t(b[0] | b[1] << 8);
    }
    void wr16(unsigned reg, uint16_t v) override {
        wr(ks_be16(reg), reg, {uint8_t(v), uint8_t(v >> 8)});
    }
    std::vector<uint8_t> rdfifo(unsigned len) override {
        std::vector<uint8_t> rx;
        frame({{0x80}, {}}, {nullptr, &rx}, {1, len});
        return rx;
    }
    void wrfifo(const std::vector<uint8_t>& f, bool txic) override {
        const unsigned id = (fid++ & 0x3F) | (txic ? 0x8000 : 0);
        const unsigned len = unsigned(f.size());
        std::vector<uint8_t> hdr = {0xC0, uint8_t(id), uint8_t(id >> 8), uint8_t(len),
                                    uint8_t(len >> 8)};
        std::vector<uint8_t> data = f;
        data.resize(align4(len), 0x5A); // the driver over-reads the skb tail: junk bytes
        frame({hdr, data}, {nullptr, nullptr}, {5, data.size()});
    }
};

// Parallel bus: data port at window offset 0, command port at offset 2 (CMD on host A1).
struct ks_par_host : ks_host_base {
    par::par_host& bus;
    uint64_t data_addr = 0, cmd_addr = 2;
    explicit ks_par_host(par::par_host& b) : bus(b) {}

    static uint16_t cmd_word(unsigned reg) { return uint16_t(reg | (0x3000u << (reg & 2))); }
    uint16_t rd16(unsigned reg) override {
        bus.write16(cmd_addr, cmd_word(reg));
        return bus.read16(data_addr);
    }
    void wr16(unsigned reg, uint16_t v) override {
        bus.write16(cmd_addr, cmd_word(reg));
        bus.write16(data_addr, v);
    }
    // Like ks8851_rdfifo_par: len/2 word reads stored from buff+2 on; buff[0..1] untouched (0).
    std::vector<uint8_t> rdfifo(unsigned len) override {
        std::vector<uint8_t> b(len + 2, 0);
        for (unsigned i = 0; i < len / 2; ++i) {
            const uint16_t w = bus.read16(data_addr);
            b[2 + 2 * i] = uint8_t(w);
            b[3 + 2 * i] = uint8_t(w >> 8);
        }
        return b;
    }
    void wrfifo(const std::vector<uint8_t>& f, bool txic) override {
        const unsigned id = (fid++ & 0x3F) | (txic ? 0x8000 : 0);
        bus.write16(data_addr, uint16_t(id));
        bus.write16(data_addr, uint16_t(f.size()));
        std::vector<uint8_t> d = f;
        d.resize(align4(unsigned(f.size())), 0x5A);
        for (size_t i = 0; i < d.size(); i += 2)
            bus.write16(data_addr, uint16_t(d[i] | d[i + 1] << 8)); // little-endian memory order
    }
};

} // namespace nicsim::test

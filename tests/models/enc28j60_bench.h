// SPDX-License-Identifier: MIT
// Test bench for the ENC28J60 model: chip + 10 Mb/s Ethernet wire + INT line + an SPI test host
// running a body on an SC_THREAD. One bench per TEST (SystemC cannot restart).
//
// enc_host frames SPI messages the way the 6.1 driver's accessors do (written from the
// datasheet command set and the driver's message shapes, not copied from the driver):
//   RCR   spi_write_then_read: transfer 1 = opcode byte, transfer 2 = 1 byte read (ETH) or
//         2 bytes (MAC/MII: dummy + data)
//   WCR/BFS/BFC  one 2-byte transfer;  SRC  one 2-byte transfer 0xFF 0xFF
//   RBM   one message of 2 transfers: opcode, then len bytes read
//   WBM   one transfer: opcode + data
// plus the driver's bank tracking, word accesses, PHY access with MISTAT.BUSY polling, packet
// write, and its hw_init / hw_enable register programming.
#pragma once

#include <functional>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/spi/spi_sockets.h"
#include "models/enc28j60/enc28j60.h"
#include "models/ethernet/eth_crc.h"
#include "models/ethernet/eth_wire.h"

namespace nicsim::test {

inline const uint8_t enc_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

// Driver layout: RX ring 0x0000..0x19FF, TX buffer from 0x1A00.
inline constexpr uint16_t rx_start = 0x0000, rx_end = 0x19FF, tx_start = 0x1A00;

inline std::vector<uint8_t> enc_make_frame(const uint8_t dst[6], size_t len, uint8_t seed = 0) {
    static const uint8_t src[6] = {0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE};
    std::vector<uint8_t> f(len);
    for (size_t i = 0; i < len; ++i)
        f[i] = uint8_t(seed + i * 7);
    std::copy(dst, dst + 6, f.begin());
    std::copy(src, src + 6, f.begin() + 6);
    f[12] = 0x08; // IPv4 ethertype
    f[13] = 0x00;
    return f;
}

// A register as the host addresses it: bank, 5-bit address, MAC/MII (dummy byte on read).
struct hreg {
    unsigned bank;
    uint8_t off;
    bool mac = false;
};

namespace r {
inline constexpr hreg EIE{0, 0x1B}, EIR{0, 0x1C}, ESTAT{0, 0x1D}, ECON2{0, 0x1E}, ECON1{0, 0x1F};
inline constexpr hreg ERDPTL{0, 0x00}, EWRPTL{0, 0x02}, ETXSTL{0, 0x04}, ETXNDL{0, 0x06},
    ERXSTL{0, 0x08}, ERXNDL{0, 0x0A}, ERXRDPTL{0, 0x0C}, ERXWRPTL{0, 0x0E};
inline constexpr hreg EHT0{1, 0x00}, ERXFCON{1, 0x18}, EPKTCNT{1, 0x19};
inline constexpr hreg MACON1{2, 0x00, true}, MACON3{2, 0x02, true}, MACON4{2, 0x03, true},
    MABBIPG{2, 0x04, true}, MAIPGL{2, 0x06, true}, MACLCON2{2, 0x09, true}, MAMXFLL{2, 0x0A, true},
    MICMD{2, 0x12, true}, MIREGADR{2, 0x14, true}, MIWRL{2, 0x16, true}, MIWRH{2, 0x17, true},
    MIRDL{2, 0x18, true};
inline constexpr hreg MAADR5{3, 0x00, true}, MAADR6{3, 0x01, true}, MAADR3{3, 0x02, true},
    MAADR4{3, 0x03, true}, MAADR1{3, 0x04, true}, MAADR2{3, 0x05, true}, MISTAT{3, 0x0A, true},
    EREVID{3, 0x12}, ECOCON{3, 0x15}, EPAUSL{3, 0x18};
} // namespace r

struct enc_host : sc_core::sc_module {
    spi::spi_initiator_socket spi_out{"spi_out"};
    uint32_t speed_hz = 20'000'000;
    spi::spi_mode mode = spi::spi_mode::mode0;
    sc_core::sc_time gap = sc_core::sc_time(200, sc_core::SC_NS); // host time between messages
    unsigned bank = 0;                                            // the driver's cached bank
    bool full_duplex = false;

    explicit enc_host(sc_core::sc_module_name n) : sc_module(n) {}

    // One message of transfers; tx empty = NULL tx_buf (zeros), rx nullptr = discarded.
    void message(std::vector<std::vector<uint8_t>> tx, std::vector<std::vector<uint8_t>*> rx,
                 std::vector<size_t> lens) {
        spi::spi_payload p;
        p.speed_hz = speed_hz;
        p.mode = mode;
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
        }
        wait(sc_core::sc_time(8.0 * double(total) / speed_hz, sc_core::SC_SEC));
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        spi_out->b_transport(p, d);
        wait(gap);
    }
    void write_op(uint8_t op, uint8_t addr, uint8_t v) {
        message({{uint8_t(op | (addr & 0x1F)), v}}, {nullptr}, {2});
    }
    uint8_t read_op(uint8_t addr, bool mac) {
        std::vector<uint8_t> rx;
        const size_t slen = mac ? 2 : 1;
        message({{uint8_t(addr & 0x1F)}, {}}, {nullptr, &rx}, {1, slen});
        return rx[slen - 1];
    }
    void set_bank(const hreg& a) {
        if (a.off >= 0x1B)
            return;
        if ((a.bank & 1) != (bank & 1))
            write_op((a.bank & 1) ? 0x80 : 0xA0, 0x1F, 0x01);
        if ((a.bank & 2) != (bank & 2))
            write_op((a.bank & 2) ? 0x80 : 0xA0, 0x1F, 0x02);
        bank = a.bank;
    }
    uint8_t rd(const hreg& a) {
        set_bank(a);
        return read_op(a.off, a.mac);
    }
    void wr(const hreg& a, uint8_t v) {
        set_bank(a);
        write_op(0x40, a.off, v);
    }
    void bfs(const hreg& a, uint8_t m) {
        set_bank(a);
        write_op(0x80, a.off, m);
    }
    void bfc(const hreg& a, uint8_t m) {
        set_bank(a);
        write_op(0xA0, a.off, m);
    }
    uint16_t rdw(const hreg& a) {
        const uint8_t lo = rd(a);
        return uint16_t(read_op(uint8_t(a.off + 1), a.mac) << 8 | lo);
    }
    void wrw(const hreg& a, uint16_t v) {
        wr(a, uint8_t(v));
        write_op(0x40, uint8_t(a.off + 1), uint8_t(v >> 8));
    }
    std::vector<uint8_t> rbm(size_t len) {
        std::vector<uint8_t> rx;
        message({{0x3A}, {}}, {nullptr, &rx}, {1, len});
        return rx;
    }
    void wbm(const std::vector<uint8_t>& data) {
        std::vector<uint8_t> tx = {0x7A};
        tx.insert(tx.end(), data.begin(), data.end());
        message({tx}, {nullptr}, {tx.size()});
    }
    std::vector<uint8_t> mem_read(uint16_t addr, size_t len) {
        wrw(r::ERDPTL, addr);
        return rbm(len);
    }
    void soft_reset() {
        message({{0xFF, 0xFF}}, {nullptr}, {2});
        wait(sc_core::sc_time(2, sc_core::SC_MS)); // the driver's udelay(2000)
    }
    bool wait_phy_ready() {
        for (int i = 0; i < 1000; ++i)
            if (!(rd(r::MISTAT) & 0x01))
                return true;
        return false;
    }
    uint16_t phy_read(uint8_t a) {
        wr(r::MIREGADR, a);
        wr(r::MICMD, 0x01);
        wait_phy_ready();
        wr(r::MICMD, 0x00);
        return rdw(r::MIRDL);
    }
    bool phy_write(uint8_t a, uint16_t v) {
        wr(r::MIREGADR, a);
        wrw(r::MIWRL, v);
        return wait_phy_ready();
    }
    void set_mac(const uint8_t m[6]) {
        wr(r::MAADR1, m[0]);
        wr(r::MAADR2, m[1]);
        wr(r::MAADR3, m[2]);
        wr(r::MAADR4, m[3]);
        wr(r::MAADR5, m[4]);
        wr(r::MAADR6, m[5]);
    }
    void rxfifo_init(uint16_t start, uint16_t end) {
        wrw(r::ERXSTL, start);
        wrw(r::ERXRDPTL, end); // the driver's erxrdpt_workaround(start) is always `end` here
        wrw(r::ERXNDL, end);
    }
    // enc28j60_hw_init (returns false when EREVID says "no chip").
    bool hw_init(uint16_t rxs = rx_start, uint16_t rxe = rx_end) {
        soft_reset();
        write_op(0x40, 0x1F, 0x00);
        bank = 0;
        wr(r::ECON2, 0x80 | 0x08);
        rxfifo_init(rxs, rxe);
        wrw(r::ETXSTL, tx_start);
        wrw(r::ETXNDL, 0x1FFF);
        const uint8_t rev = rd(r::EREVID);
        if (rev == 0x00 || rev == 0xFF)
            return false;
        wr(r::ERXFCON, 0x80 | 0x20 | 0x01);
        wr(r::MACON1, 0x01 | 0x08 | 0x04);
        if (full_duplex) {
            wr(r::MACON3, 0x20 | 0x10 | 0x02 | 0x01);
            wr(r::MAIPGL, 0x12);
            wr(r::MABBIPG, 0x15);
        } else {
            wr(r::MACON3, 0x20 | 0x10 | 0x02);
            wr(r::MACON4, 0x40);
            wrw(r::MAIPGL, 0x0C12);
            wr(r::MABBIPG, 0x12);
        }
        wrw(r::MAMXFLL, 1518);
        return phy_write(0x14, 0x3476) && phy_write(0x00, full_duplex ? 0x0100 : 0x0000) &&
               phy_write(0x10, full_duplex ? 0x0000 : 0x0100);
    }
    // enc28j60_hw_enable.
    void hw_enable() {
        phy_write(0x12, 0x0012); // PHIE: PGEIE | PLNKIE
        bfc(r::EIR, 0x7B);
        wr(r::EIE, 0x80 | 0x40 | 0x10 | 0x08 | 0x02 | 0x01);
        bfs(r::ECON1, 0x04);
    }
    // enc28j60_hw_disable.
    void hw_disable() {
        wr(r::EIE, 0x00);
        bfc(r::ECON1, 0x04);
    }
    // poll_ready: true when (reg & mask) == val within `tries` reads.
    bool poll(const hreg& a, uint8_t mask, uint8_t val, int tries = 100000) {
        for (int i = 0; i < tries; ++i)
            if ((rd(a) & mask) == val)
                return true;
        return false;
    }
    // enc28j60_lowpower.
    void lowpower(bool low) {
        if (low) {
            bfc(r::ECON1, 0x04);
            poll(r::ESTAT, 0x04, 0);
            poll(r::ECON1, 0x08, 0);
            bfs(r::ECON2, 0x20);
        } else {
            bfc(r::ECON2, 0x20);
            poll(r::ESTAT, 0x01, 0x01);
        }
    }
    // hw_init + set_hw_macaddr + hw_enable (the register state after ndo_open).
    void init(uint16_t rxs = rx_start, uint16_t rxe = rx_end) {
        hw_init(rxs, rxe);
        set_mac(enc_mac);
        hw_enable();
    }
    // enc28j60_packet_write + TXRTS.
    void transmit(const std::vector<uint8_t>& f) {
        wrw(r::EWRPTL, tx_start);
        wrw(r::ETXNDL, uint16_t(tx_start + f.size()));
        write_op(0x7A, 0, 0x00); // per-packet control byte
        wbm(f);
        bfs(r::ECON1, 0x08);
    }
};

struct enc_bench : sc_core::sc_module {
    enc28j60 chip;
    eth::eth_wire wire;
    irq_line line{"int_line", true};
    enc_host host{"host"};
    std::function<void(enc_bench&)> body;

    static eth::eth_wire_params ten_mbit() {
        eth::eth_wire_params w;
        w.rate_bps = 10e6;
        return w;
    }

    SC_HAS_PROCESS(enc_bench);
    enc_bench(const enc::params& p, std::function<void(enc_bench&)> b,
              const eth::eth_wire_params& wp, sc_core::sc_module_name name = "bench")
        : sc_module(name), chip("enc28j60", p), wire("wire", wp), body(std::move(b)) {
        host.spi_out.bind(chip.spi_in);
        chip.irq.bind(line);
        chip.attach_wire(wire);
        SC_THREAD(run);
    }
    enc::core& core() { return chip.core; }
    // Wait for INT low (with a timeout); true when it is low.
    bool wait_int(sc_core::sc_time timeout = sc_core::sc_time(10, sc_core::SC_MS)) {
        if (!line.level())
            return true;
        wait(timeout, line.negedge_event());
        return !line.level();
    }
    void run() {
        wait(chip.core.prm().ost); // oscillator start-up
        body(*this);
        sc_core::sc_stop();
    }
    static void start(const enc::params& p, std::function<void(enc_bench&)> b,
                      const eth::eth_wire_params& wp = ten_mbit()) {
        enc_bench bench(p, std::move(b), wp);
        sc_core::sc_start();
    }
};

} // namespace nicsim::test

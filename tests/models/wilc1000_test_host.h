// SPDX-License-Identifier: MIT
// A small SPI host for the WILC1000 model tests. It encodes commands from the WILC SPI protocol
// description (docs/models/wilc1000.md, spi.c) the way the 6.1 driver frames
// them: every phase is its own chip-select frame, register reads are one frame of command + 15
// response bytes (+2 with CRC7), the DMA write ends with a 4-byte data-response read, and so on.
// It is written from the protocol, not from driver code. Must be used from an SC_THREAD.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "bus/spi/spi_sockets.h"
#include "models/wilc1000/wilc1000_crc.h"

namespace nicsim::test {

struct wilc_test_host : sc_core::sc_module {
    spi::spi_initiator_socket spi_out{"spi_out"};

    uint32_t speed_hz = 48'000'000;
    bool crc7 = false; // host-side protocol state (what the driver believes)
    bool crc16 = false;
    sc_core::sc_time gap = sc_core::sc_time(2, sc_core::SC_US); // host time between frames
    uint32_t data_pkt = 8192;                                   // driver's DATA_PKT_SZ
    std::string error;                                          // last failure, "" = none
    uint64_t frames = 0;
    bool corrupt_next_crc7 = false;  // fault injection: flip CRC7 bits on the next command
    bool corrupt_next_crc16 = false; // fault injection: flip CRC16 bits on the next data packet
    std::vector<uint8_t> last_rx;    // MISO of the last frame

    explicit wilc_test_host(sc_core::sc_module_name n) : sc_module(n) {}

    // One chip-select frame: the host clocks tx out and returns MISO; time advances by the wire
    // time, the transport happens at the end of the frame, then `gap` passes.
    std::vector<uint8_t> xfer(const std::vector<uint8_t>& tx) {
        std::vector<uint8_t> rx(tx.size(), 0xee);
        spi::spi_payload p;
        p.speed_hz = speed_hz;
        spi::spi_xfer x;
        x.tx = tx.data();
        x.rx = rx.data();
        x.len = tx.size();
        p.xfers.push_back(x);
        wait(sc_core::sc_time(8.0 * double(tx.size()) / speed_hz, sc_core::SC_SEC));
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        spi_out->b_transport(p, d);
        ++frames;
        wait(gap);
        last_rx = rx;
        return rx;
    }

    void add_crc7(std::vector<uint8_t>& w) {
        if (!crc7)
            return;
        uint8_t c = wilc::crc7_be(0xfe, w.data(), w.size());
        if (corrupt_next_crc7) {
            c ^= 0x10;
            corrupt_next_crc7 = false;
        }
        w.push_back(c);
    }

    bool fail(const std::string& e) {
        error = e;
        return false;
    }

    // Register read as the driver frames it; clockless for addr < 0x30 (CMD_INTERNAL_READ with
    // address bit 15) unless spi_internal, which reads the SPI-controller offset `addr`.
    bool read(uint32_t addr, uint32_t& v, bool spi_internal = false) {
        const bool clockless = !spi_internal && addr < 0x30;
        std::vector<uint8_t> w;
        uint8_t cmd;
        if (clockless || spi_internal) {
            cmd = 0xc4;
            w = {cmd, uint8_t((addr >> 8) | (clockless ? 0x80 : 0)), uint8_t(addr), 0};
        } else {
            cmd = 0xca;
            w = {cmd, uint8_t(addr >> 16), uint8_t(addr >> 8), uint8_t(addr)};
        }
        add_crc7(w);
        const size_t cmd_len = w.size();
        w.resize(cmd_len + 15 + (crc7 ? 2 : 0), 0);
        auto r = xfer(w);
        const uint8_t* rsp = &r[cmd_len];
        if (rsp[0] != cmd && !clockless)
            return fail("echo mismatch");
        if (rsp[1] != 0 && !clockless)
            return fail("status " + std::to_string(rsp[1]));
        int i = 0;
        while (i < 8 && (rsp[2 + i] >> 4) != 0xf)
            ++i;
        if (i == 8)
            return fail("data start missing");
        const uint8_t* d = &rsp[2 + i + 1];
        v = uint32_t(d[0]) | uint32_t(d[1]) << 8 | uint32_t(d[2]) << 16 | uint32_t(d[3]) << 24;
        if (!clockless && crc16) {
            const uint16_t got = uint16_t(d[4] << 8 | d[5]);
            if (got != wilc::crc16_ccitt(0xffff, d, 4))
                return fail("bad read CRC16");
        }
        error.clear();
        return true;
    }

    bool write(uint32_t addr, uint32_t v, bool spi_internal = false) {
        const bool clockless = !spi_internal && addr < 0x30;
        std::vector<uint8_t> w;
        uint8_t cmd;
        if (clockless || spi_internal) {
            cmd = 0xc3;
            w = {cmd, uint8_t((addr >> 8) | (clockless ? 0x80 : 0)), uint8_t(addr)};
        } else {
            cmd = 0xc9;
            w = {cmd, uint8_t(addr >> 16), uint8_t(addr >> 8), uint8_t(addr)};
        }
        for (int s = 24; s >= 0; s -= 8)
            w.push_back(uint8_t(v >> s)); // big-endian on writes
        add_crc7(w);
        const size_t cmd_len = w.size();
        w.resize(cmd_len + 2, 0);
        auto r = xfer(w);
        if (r[cmd_len] != cmd && !clockless)
            return fail("echo mismatch");
        if (r[cmd_len + 1] != 0 && !clockless)
            return fail("status " + std::to_string(r[cmd_len + 1]));
        error.clear();
        return true;
    }

    bool reset() {
        std::vector<uint8_t> w = {0xcf, 0xff, 0xff, 0xff};
        add_crc7(w);
        const size_t cmd_len = w.size();
        w.resize(cmd_len + 3, 0);
        auto r = xfer(w);
        if (r[cmd_len + 1] != 0xcf || r[cmd_len + 2] != 0)
            return fail("reset response");
        return true;
    }

    bool dma_cmd(uint8_t cmd, uint32_t addr, uint32_t size) {
        std::vector<uint8_t> w = {cmd,           uint8_t(addr >> 16), uint8_t(addr >> 8),
                                  uint8_t(addr), uint8_t(size >> 16), uint8_t(size >> 8),
                                  uint8_t(size)};
        add_crc7(w);
        const size_t cmd_len = w.size();
        w.resize(cmd_len + 2, 0);
        auto r = xfer(w);
        if (r[cmd_len] != cmd)
            return fail("dma echo mismatch");
        if (r[cmd_len + 1] != 0)
            return fail("dma status " + std::to_string(r[cmd_len + 1]));
        return true;
    }

    bool dma_write(uint32_t addr, const std::vector<uint8_t>& data) {
        if (!dma_cmd(0xc7, addr, uint32_t(data.size())))
            return false;
        size_t ix = 0, sz = data.size();
        do {
            const size_t n = std::min<size_t>(sz, data_pkt);
            const uint8_t order = sz <= data_pkt ? 3 : (ix == 0 ? 1 : 2);
            xfer({uint8_t(0xf0 | order)});
            xfer(std::vector<uint8_t>(data.begin() + ix, data.begin() + ix + n));
            if (crc16) {
                uint16_t c = wilc::crc16_ccitt(0xffff, &data[ix], n);
                if (corrupt_next_crc16) {
                    c ^= 1;
                    corrupt_next_crc16 = false;
                }
                xfer({uint8_t(c >> 8), uint8_t(c)});
            }
            ix += n;
            sz -= n;
        } while (sz);
        auto r = xfer({0, 0, 0, 0});
        for (int i = 2; i >= 0; --i)
            if ((r[i] >> 4) == 0xc) {
                if ((r[i] & 0xf) != 3 || r[i + 1] != 0)
                    return fail("data response error " + std::to_string(r[i + 1]));
                error.clear();
                return true;
            }
        return fail("data response missing");
    }

    int tag_polls = 0; // polls needed by the last dma_read's first packet

    bool dma_read(uint32_t addr, std::vector<uint8_t>& out, uint32_t size) {
        out.assign(size, 0);
        if (!dma_cmd(0xc8, addr, size))
            return false;
        size_t ix = 0;
        bool first = true;
        while (ix < size) {
            const size_t n = std::min<size_t>(size - ix, data_pkt);
            int polls = 0;
            for (int retry = 100; retry >= 0; --retry) {
                ++polls;
                if ((xfer({0})[0] >> 4) == 0xf)
                    break;
            }
            if (first)
                tag_polls = polls;
            first = false;
            auto d = xfer(std::vector<uint8_t>(n, 0));
            std::copy(d.begin(), d.end(), out.begin() + ix);
            if (crc16) {
                auto c = xfer({0, 0});
                if (uint16_t(c[0] << 8 | c[1]) != wilc::crc16_ccitt(0xffff, d.data(), n))
                    return fail("bad DMA read CRC16");
            }
            ix += n;
        }
        error.clear();
        return true;
    }

    // The 6.1 CRC negotiation: probe PROTOCOL_CONFIG with the wanted CRC7 setting, then the
    // other; write the new configuration with the old setting; switch.
    bool init(bool want_crc7, bool want_crc16) {
        crc7 = want_crc7;
        crc16 = false;
        uint32_t reg = 0;
        bool ok = false;
        for (int i = 0; i < 2 && !ok; ++i) {
            ok = read(0x24, reg, true);
            if (!ok)
                crc7 = !want_crc7;
        }
        if (!ok)
            return fail("Failed with CRC7 on and off");
        reg &= ~(0x4u | 0x8u);
        if (want_crc7)
            reg |= 0x4;
        if (want_crc16)
            reg |= 0x8;
        reg = (reg & ~0x70u) | (5u << 4);
        if (!write(0x24, reg, true))
            return false;
        crc7 = want_crc7;
        crc16 = want_crc16;
        read(0x24, reg, true); // re-read, result ignored (as the driver does)
        uint32_t id;
        return read(0x1000, id);
    }

    // chip_wakeup(): HOST_TO_FW, WAKEUP, poll CLK_STATUS (no delay), CMD_RESET. Returns polls.
    int wake(int max_trials = 10000) {
        write(0x0b, 1);
        write(0x01, 2);
        int trials = 0;
        uint32_t v = 0;
        while (trials < max_trials) {
            read(0x0f, v);
            if (v & 4)
                break;
            ++trials;
        }
        if (trials >= max_trials)
            return -1;
        reset();
        return trials + 1;
    }

    // chip_allow_sleep(): FW_TO_HOST poll, clear WAKEUP, clear HOST_TO_FW.
    void allow_sleep() {
        uint32_t v = 0;
        for (int t = 100; --t;) {
            read(0x10, v);
            if (!(v & 1))
                break;
        }
        read(0x01, v);
        if (v & 2)
            write(0x01, v & ~2u);
        read(0x0b, v);
        if (v & 1)
            write(0x0b, v & ~1u);
    }
};

} // namespace nicsim::test

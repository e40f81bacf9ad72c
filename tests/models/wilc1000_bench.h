// SPDX-License-Identifier: MIT
// Test bench for the WILC1000 model: chip + test SPI host + IRQ line (+ optional air link), and
// driver-like sequences (firmware download/start, interrupt service, VMM TX) written from the
// protocol description. One bench per TEST (SystemC cannot restart).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "bus/irq/irq_line.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000.h"
#include "models/wilc1000/wilc1000_fw_image.h"
#include "tests/models/wilc1000_test_host.h"

namespace nicsim::test {

struct rx_pkt {
    bool cfg;
    uint32_t offset, total, len;
    std::vector<uint8_t> raw;     // whole packet incl. header
    std::vector<uint8_t> payload; // raw[offset, offset+len)
};

struct wilc_bench : sc_core::sc_module {
    wilc1000 chip;
    wilc_test_host host{"host"};
    irq_line line{"irq_line", true};
    std::unique_ptr<air_link> air;
    std::function<void(wilc_bench&)> body;

    SC_HAS_PROCESS(wilc_bench);
    wilc_bench(const wilc::params& p, std::function<void(wilc_bench&)> b, bool with_air = false,
               air_link_params ap = {}, sc_core::sc_module_name name = "bench")
        : sc_module(name), chip("wilc", p), body(std::move(b)) {
        host.spi_out.bind(chip.spi_in);
        chip.irq.bind(line);
        if (with_air) {
            air = std::make_unique<air_link>("air", ap);
            chip.attach_air(*air);
        }
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }

    wilc::core& core() { return chip.core; }

    // Frame end time of the host's last transaction (the chip's view of "now" for it).
    sc_core::sc_time last_frame_end() const { return sc_core::sc_time_stamp() - host.gap; }

    // Time the chip executed the host's last command: the frame end minus the response bytes
    // clocked after the command (the chip acts when the command's last byte is in).
    sc_core::sc_time cmd_time(size_t resp_bytes) const {
        return last_frame_end() -
               sc_core::sc_time(8.0 * double(resp_bytes) / host.speed_hz, sc_core::SC_SEC);
    }
    // sc_time equality up to the ps rounding of per-byte wire times.
    static bool near(sc_core::sc_time a, sc_core::sc_time b) {
        const double d = a.to_seconds() - b.to_seconds();
        return d < 50e-12 && d > -50e-12;
    }

    // wilc_wlan_firmware_download + wilc_wlan_start, as the driver sequences them.
    bool download_and_start(uint32_t iram = 16 * 1024, uint32_t dram = 4 * 1024) {
        const auto img = wilc::make_firmware_image(chip.core.config(), iram, dram);
        uint32_t reg = 0;
        host.read(0x1400, reg);
        host.write(0x1400, reg & ~(1u << 10));
        size_t off = 0;
        while (off < img.size()) {
            uint32_t addr = le32(&img[off]), size = le32(&img[off + 4]);
            off += 8;
            while (size) {
                const uint32_t n = std::min<uint32_t>(size, 4096);
                if (!host.dma_write(addr,
                                    std::vector<uint8_t>(img.begin() + off, img.begin() + off + n)))
                    return false;
                addr += n;
                off += n;
                size -= n;
            }
        }
        host.write(0x150014, 1);
        host.write(0x14a0, 0);
        host.read(0x1408, reg);
        host.write(0x1408, reg | (1u << 8));
        host.read(0x1a00, reg);
        host.write(0x1a00, reg | (1u << 27));
        host.read(0x1400, reg);
        return host.write(0x1400, reg | (1u << 10));
    }

    // Wait for a falling edge on the IRQ line; false on timeout.
    bool wait_irq(sc_core::sc_time timeout) {
        if (!line.level())
            return true;
        wait(timeout, line.negedge_event());
        return !line.level();
    }

    // wilc_handle_isr without PS: INT_STATUS, INT_CLEAR 0x181 + read-back, DMA read from 0.
    std::vector<rx_pkt> isr() {
        std::vector<rx_pkt> out;
        uint32_t st = 0;
        if (!host.read(0x40, st, true) || !(st & (1u << 16)))
            return out;
        const uint32_t size = (st & 0x7fff) * 4;
        host.write(0x44, 0x181, true);
        uint32_t chk = 0;
        host.read(0x44, chk, true);
        std::vector<uint8_t> buf;
        if (!host.dma_read(0, buf, size))
            return out;
        size_t off = 0;
        while (off + 4 <= buf.size()) {
            const uint32_t h = le32(&buf[off]);
            rx_pkt p;
            p.cfg = h >> 31;
            p.offset = (h >> 22) & 0x1ff;
            p.total = (h >> 11) & 0x7ff;
            p.len = h & 0x7ff;
            if (!p.len || !p.total)
                break;
            p.raw.assign(buf.begin() + off, buf.begin() + off + p.total);
            p.payload.assign(p.raw.begin() + p.offset, p.raw.begin() + p.offset + p.len);
            out.push_back(std::move(p));
            off += p.total ? out.back().total : 4;
        }
        return out;
    }

    struct tx_entry {
        bool cfg;
        std::vector<uint8_t> bytes;
        unsigned ac = 2;
    };

    // wilc_wlan_handle_txq's bus part (PS off): TX_CTRL poll, VMM table, HOST_VMM_CTL, INT_CLEAR
    // 0x140 + read-back, DMA of the entries to port 0. Returns the entries the chip granted.
    int send_tx(const std::vector<tx_entry>& entries, const uint8_t bssid[6] = nullptr) {
        std::vector<uint32_t> table;
        for (const auto& e : entries) {
            const uint32_t sz = ((e.cfg ? 76u : 34u) + uint32_t(e.bytes.size()) + 3) & ~3u;
            table.push_back(sz / 4 | (e.cfg ? 1u << 10 : 0));
        }
        table.push_back(0);
        uint32_t reg = 1;
        for (int i = 0; i < 201 && (reg & 1); ++i)
            host.read(0x106c, reg);
        std::vector<uint8_t> tb;
        for (uint32_t w : table)
            for (int i = 0; i < 4; ++i)
                tb.push_back(uint8_t(w >> (8 * i)));
        if (!host.dma_write(0xd0000, tb))
            return -1;
        host.write(0x1078, 2);
        int entries_granted = -1;
        for (int i = 0; i < 200; ++i) {
            host.read(0x1078, reg);
            if (reg & 4) {
                entries_granted = (reg >> 3) & 0x3f;
                break;
            }
        }
        if (entries_granted <= 0)
            return entries_granted;
        std::vector<uint8_t> txb;
        for (int i = 0; i < entries_granted; ++i) {
            const auto& e = entries[i];
            const uint32_t vmm = (table[i] & 0x3ff) * 4;
            const size_t base = txb.size();
            txb.resize(base + vmm, 0);
            const uint32_t hdr = (e.cfg ? 1u << 31 : 0) | uint32_t(e.bytes.size()) << 15 | vmm;
            put32(&txb[base], hdr);
            if (e.cfg) {
                std::copy(e.bytes.begin(), e.bytes.end(), txb.begin() + base + 76);
            } else {
                put32(&txb[base + 4], e.ac);
                if (bssid)
                    std::copy(bssid, bssid + 6, txb.begin() + base + 8);
                std::copy(e.bytes.begin(), e.bytes.end(), txb.begin() + base + 34);
            }
        }
        host.write(0x44, 0x140, true);
        host.read(0x44, reg, true);
        if (!(reg & 0x100))
            return -2;
        if (!host.dma_write(0, txb))
            return -3;
        return entries_granted;
    }

    // A config frame as wilc_wlan_cfg_commit builds it.
    static std::vector<uint8_t> cfg_frame(char type, uint8_t seq, const std::vector<uint8_t>& tlv,
                                          uint32_t drv = 1) {
        std::vector<uint8_t> f(8 + tlv.size(), 0);
        f[0] = uint8_t(type);
        f[1] = seq;
        std::copy(tlv.begin(), tlv.end(), f.begin() + 8);
        f[2] = uint8_t(f.size());
        f[3] = uint8_t(f.size() >> 8);
        put32(&f[4], drv);
        return f;
    }

    // Boot the firmware and consume its 'I' message. With an air link the station then joins its
    // AP (join()), as the driver's connect does, so data frames flow.
    bool boot() {
        if (!host.init(false, false) || !download_and_start())
            return false;
        if (!wait_irq(sc_core::sc_time(1, sc_core::SC_SEC)))
            return false;
        auto pk = isr();
        if (!(pk.size() == 1 && pk[0].cfg && pk[0].payload.at(0) == 'I'))
            return false;
        return !air || join();
    }

    // The join request hif.c's wilc_send_connect_wid ends with: 'W' WID_JOIN_REQ_EXTENDED with a
    // struct wilc_join_bss_param naming the air link's AP (SSID at 0, channel at 34, BSSID at
    // 43, beacon period at 49), consuming the 'R'; when the AP answers (params().associated),
    // also the 'I' connected the firmware sends join_time later.
    bool join() {
        const air_bss& bss = air->params().bss;
        std::vector<uint8_t> param(100, 0);
        std::copy(bss.ssid.begin(), bss.ssid.end(), param.begin());
        param[34] = uint8_t(bss.channel);
        std::copy(bss.bssid.begin(), bss.bssid.end(), param.begin() + 43);
        param[49] = 100; // TU
        std::vector<uint8_t> tlv = {0x98, 0x39, uint8_t(param.size()), 0};
        tlv.insert(tlv.end(), param.begin(), param.end());
        if (send_tx({{true, cfg_frame('W', 0, tlv)}}) != 1 ||
            !wait_irq(sc_core::sc_time(100, sc_core::SC_MS)) || isr().size() != 1)
            return false;
        if (!air->params().associated)
            return true;
        if (!wait_irq(chip.core.config().join_time + sc_core::sc_time(100, sc_core::SC_MS)))
            return false;
        auto pk = isr();
        return pk.size() == 1 && pk[0].payload.at(0) == 'I' && pk[0].payload.at(7) == 1;
    }

    // boot(), then firmware power save on ('W' WID_POWER_MANAGEMENT = 1), consuming the 'R': the
    // firmware applies it (chip sleep and 802.11 power save) once the reply is fetched.
    // listen_interval > 0: WID_LISTEN_INTERVAL in the same frame first, as wilc_init_fw_config
    // sends it before power save is switched on.
    bool boot_with_ps(uint8_t listen_interval = 0) {
        if (!boot())
            return false;
        std::vector<uint8_t> tlv;
        if (listen_interval)
            tlv = {0x0f, 0x00, 1, 0, listen_interval};
        tlv.insert(tlv.end(), {0x0b, 0x00, 1, 0, 1});
        auto w = cfg_frame('W', 1, tlv);
        if (send_tx({{true, w}}) != 1 || !wait_irq(sc_core::sc_time(100, sc_core::SC_MS)))
            return false;
        return isr().size() == 1;
    }

    static uint32_t le32(const uint8_t* p) {
        return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
    }
    static void put32(uint8_t* p, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            p[i] = uint8_t(v >> (8 * i));
    }
};

} // namespace nicsim::test

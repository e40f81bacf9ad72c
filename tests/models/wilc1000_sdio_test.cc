// SPDX-License-Identifier: MIT
// WILC1000 SDIO function device: CCCR/FBR/CIS, the CSA window onto the chip's AHB space, the
// vendor sleep/wake and interrupt registers, the F1 VMM data port (TX and RX, block + byte mode),
// the in-band interrupt, the bus strap and the error answers. The test host below issues
// CMD52/CMD53 payloads the way sdio.c sequences them, written from the
// protocol description; no bus timing (each command costs a fixed host gap).
#include <cstring>
#include <functional>
#include <stdexcept>

#include <gtest/gtest.h>
#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_sockets.h"
#include "models/wilc1000/wilc1000.h"
#include "models/wilc1000/wilc1000_fw_image.h"
#include "models/wilc1000/wilc1000_regmap.h"

using namespace nicsim;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
using sdio::sdio_response;
using wilc::finding_kind;

namespace {

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void put32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}
std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    for (auto& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = uint8_t(seed >> 16);
    }
    return v;
}

struct rx_pkt {
    bool cfg;
    uint32_t offset, total, len;
    std::vector<uint8_t> payload;
};

wilc::params sdio_params() {
    wilc::params p;
    p.bus_strap = wilc::host_bus::sdio;
    return p;
}

// Chip strapped for SDIO + a host issuing commands through an initiator socket.
struct sdio_bench : sc_core::sc_module {
    wilc1000 chip;
    sdio::sdio_initiator_socket sdio_out{"sdio_out"};
    irq_line line{"sdio_irq_line", false};
    std::function<void(sdio_bench&)> body;
    sc_time gap = sc_time(2, SC_US); // host time per command
    std::string error;               // error text of the last failed command
    sdio_response last = sdio_response::ok;
    uint32_t blksz = 512; // WILC_SDIO_BLOCK_SIZE
    unsigned cmd53_count = 0;

    SC_HAS_PROCESS(sdio_bench);
    sdio_bench(const wilc::params& p, std::function<void(sdio_bench&)> b,
               sc_core::sc_module_name name = "bench")
        : sc_module(name), chip("wilc", p), body(std::move(b)) {
        sdio_out.bind(chip.sdio_in);
        chip.sdio_irq.bind(line);
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        sc_core::sc_stop();
    }
    wilc::core& core() { return chip.core; }

    sdio_response transport(sdio::sdio_payload& p) {
        wait(gap);
        sc_time d = sc_core::SC_ZERO_TIME;
        sdio_out->b_transport(p, d);
        last = p.response;
        error = p.error;
        return p.response;
    }
    sdio_response cmd52(unsigned fn, uint32_t addr, bool write, uint8_t& v, bool raw = false) {
        sdio::sdio_payload p;
        p.cmd = sdio::sdio_command::cmd52;
        p.fn = fn;
        p.addr = addr;
        p.write = write;
        p.raw = raw;
        p.data = &v;
        return transport(p);
    }
    uint8_t rd52(unsigned fn, uint32_t addr) {
        uint8_t v = 0xee;
        cmd52(fn, addr, false, v);
        return v;
    }
    sdio_response wr52(unsigned fn, uint32_t addr, uint8_t v, bool raw = false) {
        return cmd52(fn, addr, true, v, raw);
    }
    sdio_response cmd53(unsigned fn, uint32_t addr, bool write, uint8_t* buf, unsigned count,
                        bool block, unsigned block_size) {
        sdio::sdio_payload p;
        p.cmd = sdio::sdio_command::cmd53;
        p.fn = fn;
        p.addr = addr;
        p.write = write;
        p.incr_addr = true;
        p.block_mode = block;
        p.count = count;
        p.block_size = block_size;
        p.data = buf;
        ++cmd53_count;
        return transport(p);
    }

    // wilc_sdio_set_func0_csa_address: three CMD52, LSB first.
    bool set_csa(uint32_t a) {
        for (unsigned i = 0; i < 3; ++i)
            if (wr52(0, 0x10c + i, uint8_t(a >> (8 * i))) != sdio_response::ok)
                return false;
        return true;
    }
    // wilc_sdio_read_reg / write_reg.
    bool read_reg(uint32_t addr, uint32_t& v) {
        if (addr >= 0xf0 && addr <= 0xff) {
            uint8_t b = 0;
            if (cmd52(0, addr, false, b) != sdio_response::ok)
                return false;
            v = b;
            return true;
        }
        uint8_t b[4] = {};
        if (!set_csa(addr) || cmd53(0, 0x10f, false, b, 4, false, blksz) != sdio_response::ok)
            return false;
        v = le32(b);
        return true;
    }
    bool write_reg(uint32_t addr, uint32_t v) {
        if (addr >= 0xf0 && addr <= 0xff)
            return wr52(0, addr, uint8_t(v)) == sdio_response::ok;
        uint8_t b[4];
        put32(b, v);
        return set_csa(addr) && cmd53(0, 0x10f, true, b, 4, false, blksz) == sdio_response::ok;
    }
    // wilc_sdio_write / wilc_sdio_read: addr > 0 through the CSA window (F0 0x10f), addr 0 the
    // F1 data port; ALIGN(size, 4) split into whole blocks + a byte-mode remainder.
    bool block_io(bool write, uint32_t addr, uint8_t* buf, uint32_t size) {
        size = (size + 3) & ~3u;
        const unsigned fn = addr > 0 ? 0 : 1;
        const uint32_t port = addr > 0 ? 0x10f : 0x0;
        const uint32_t nblk = size / blksz, nleft = size % blksz;
        if (nblk) {
            if (addr > 0 && !set_csa(addr))
                return false;
            if (cmd53(fn, port, write, buf, nblk, true, blksz) != sdio_response::ok)
                return false;
            if (addr > 0)
                addr += nblk * blksz;
            buf += nblk * blksz;
        }
        if (nleft) {
            if (addr > 0 && !set_csa(addr))
                return false;
            if (cmd53(fn, port, write, buf, nleft, false, blksz) != sdio_response::ok)
                return false;
        }
        return true;
    }

    // wilc_sdio_init (not resume): CSA enable, F0 block size, IOEx, IORx poll (<= 4 reads), F1
    // block size, IENx, CHIPID. Returns the IORx polls needed, -1 on failure.
    int init(uint32_t* chipid = nullptr) {
        if (wr52(0, 0x100, 0x80, true) != sdio_response::ok)
            return -1;
        wr52(0, 0x10, uint8_t(blksz));
        wr52(0, 0x11, uint8_t(blksz >> 8));
        if (wr52(0, 0x02, 0x02, true) != sdio_response::ok)
            return -1;
        int polls = 0;
        bool ready = false;
        for (int loop = 3; loop >= 0; --loop) {
            ++polls;
            if (rd52(0, 0x03) == 0x02) {
                ready = true;
                break;
            }
        }
        if (!ready)
            return -1;
        wr52(0, 0x110, uint8_t(blksz));
        wr52(0, 0x111, uint8_t(blksz >> 8));
        if (wr52(0, 0x04, 0x03, true) != sdio_response::ok)
            return -1;
        uint32_t id = 0;
        if (!read_reg(wilc::regmap::CHIPID, id))
            return -1;
        if (chipid)
            *chipid = id;
        return polls;
    }

    // wilc_wlan_firmware_download (4 KiB chunks) + wilc_wlan_start with the SDIO values.
    bool download_and_start(std::vector<uint8_t>* image = nullptr) {
        auto img = wilc::make_firmware_image(core().config(), 16 * 1024, 4 * 1024);
        if (image)
            *image = img;
        uint32_t reg = 0;
        read_reg(0x1400, reg);
        write_reg(0x1400, reg & ~(1u << 10));
        size_t off = 0;
        while (off < img.size()) {
            uint32_t addr = le32(&img[off]), size = le32(&img[off + 4]);
            off += 8;
            while (size) {
                const uint32_t n = std::min<uint32_t>(size, 4096);
                std::vector<uint8_t> chunk(img.begin() + off, img.begin() + off + n);
                if (!block_io(true, addr, chunk.data(), n))
                    return false;
                addr += n;
                off += n;
                size -= n;
            }
        }
        if (!write_reg(0x150014, 1u << 3) || !write_reg(0x14a0, 0))
            return false;
        // wilc_sdio_sync_ext, in-band interrupt: only the power sequencer bit of MISC.
        read_reg(0x1428, reg);
        write_reg(0x1428, reg & ~(1u << 8));
        read_reg(0x1400, reg);
        return write_reg(0x1400, reg | (1u << 10));
    }

    bool wait_irq(sc_time timeout) {
        if (!line.level())
            wait(timeout, line.posedge_event());
        return line.level();
    }

    // wilc_handle_isr (in-band, enh3, PS off): 0xf2/0xf3 + F1 0x4, clear 0xf8 = SEL_VMM_TBL1 |
    // EN_VMM, F1 read of the batch.
    std::vector<rx_pkt> isr(uint32_t* size_out = nullptr) {
        std::vector<rx_pkt> out;
        const uint32_t words = rd52(0, 0xf2) | uint32_t(rd52(0, 0xf3)) << 8;
        const uint8_t flags = rd52(1, 0x4);
        if (!(flags & 1))
            return out;
        const uint32_t size = (words & 0x7fff) * 4;
        if (size_out)
            *size_out = size;
        wr52(0, 0xf8, 0xc0);
        std::vector<uint8_t> buf(size);
        if (!block_io(false, 0, buf.data(), size))
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
            p.payload.assign(buf.begin() + off + p.offset, buf.begin() + off + p.offset + p.len);
            off += p.total;
            out.push_back(std::move(p));
        }
        return out;
    }

    // wilc_wlan_handle_txq's bus part (PS off) over SDIO: TX_CTRL, VMM table, HOST_VMM_CTL,
    // 0xf8 = SEL_VMM_TBL0 | EN_VMM, F1 write of the entries. Returns the entries granted.
    int send_tx(const std::vector<std::pair<bool, std::vector<uint8_t>>>& entries) {
        std::vector<uint32_t> table;
        for (const auto& [cfg, bytes] : entries) {
            const uint32_t sz = ((cfg ? 76u : 34u) + uint32_t(bytes.size()) + 3) & ~3u;
            table.push_back(sz / 4 | (cfg ? 1u << 10 : 0));
        }
        table.push_back(0);
        uint32_t reg = 1;
        for (int i = 0; i < 201 && (reg & 1); ++i)
            read_reg(0x106c, reg);
        std::vector<uint8_t> tb(4 * table.size());
        for (size_t i = 0; i < table.size(); ++i)
            put32(&tb[4 * i], table[i]);
        if (!block_io(true, 0xd0000, tb.data(), uint32_t(tb.size())))
            return -1;
        write_reg(0x1078, 2);
        int granted = -1;
        for (int i = 0; i < 200; ++i) {
            read_reg(0x1078, reg);
            if (reg & 4) {
                granted = (reg >> 3) & 0x3f;
                break;
            }
        }
        if (granted <= 0)
            return granted;
        std::vector<uint8_t> txb;
        for (int i = 0; i < granted; ++i) {
            const auto& [cfg, bytes] = entries[i];
            const uint32_t vmm = (table[i] & 0x3ff) * 4;
            const size_t base = txb.size();
            txb.resize(base + vmm, 0);
            put32(&txb[base], (cfg ? 1u << 31 : 0) | uint32_t(bytes.size()) << 15 | vmm);
            if (!cfg)
                put32(&txb[base + 4], 2); // AC_BE_Q
            std::copy(bytes.begin(), bytes.end(), txb.begin() + base + (cfg ? 76 : 34));
        }
        if (wr52(0, 0xf8, 0xa0) != sdio_response::ok)
            return -2;
        if (!block_io(true, 0, txb.data(), uint32_t(txb.size())))
            return -3;
        return granted;
    }

    bool boot() {
        if (init() < 0 || !download_and_start())
            return false;
        if (!wait_irq(sc_time(1, sc_core::SC_SEC)))
            return false;
        auto pk = isr();
        return pk.size() == 1 && pk[0].cfg && pk[0].payload.at(0) == 'I';
    }
};

void run(const wilc::params& p, std::function<void(sdio_bench&)> body) {
    sdio_bench b(p, std::move(body));
    sc_core::sc_start();
}

} // namespace

TEST(Wilc1000Sdio, DriverInitSequenceCccrAndChipIdThroughCsa) {
    wilc::params p = sdio_params();
    p.chip_id = 0x1003a1; // a value only the model's parameter can produce
    run(p, [](sdio_bench& b) {
        uint32_t id = 0;
        EXPECT_EQ(b.init(&id), 1); // IORx follows IOEx at once (sdio_io_ready_delay = 0)
        EXPECT_EQ(id, 0x1003a1u);
        EXPECT_EQ(b.chip.sdio.block_size(0), 512);
        EXPECT_EQ(b.chip.sdio.block_size(1), 512);
        EXPECT_EQ(b.rd52(0, 0x02), 0x02);
        EXPECT_EQ(b.rd52(0, 0x04), 0x03);
        EXPECT_EQ(b.rd52(0, 0x100), 0x80 | 0x40 | 0x07); // CSA enabled + supported, WLAN
        // The raw write of IENx returned the register's value in the same command.
        uint8_t v = 0x03;
        EXPECT_EQ(b.cmd52(0, 0x04, true, v, true), sdio_response::ok);
        EXPECT_EQ(v, 0x03);
        // SDIO 2.00 identity and capabilities.
        EXPECT_EQ(b.rd52(0, 0x00), 0x32);
        EXPECT_EQ(b.rd52(0, 0x08) & 0x02, 0x02); // SMB
        EXPECT_EQ(b.rd52(0, 0x13) & 0x01, 0x01); // SHS
        b.wr52(0, 0x07, 0x02);                   // 4-bit bus
        EXPECT_EQ(b.rd52(0, 0x07), 0x02);
        // Common CIS: CISTPL_MANFID with the Microchip WILC1000 ids.
        const uint32_t cis = b.rd52(0, 0x09) | b.rd52(0, 0x0a) << 8 | b.rd52(0, 0x0b) << 16;
        ASSERT_EQ(b.rd52(0, cis), 0x20);
        EXPECT_EQ(b.rd52(0, cis + 2) | b.rd52(0, cis + 3) << 8, 0x0296);
        EXPECT_EQ(b.rd52(0, cis + 4) | b.rd52(0, cis + 5) << 8, 0x5347);
        // CSA pointer auto-increments over the 4-byte access.
        EXPECT_EQ(b.chip.sdio.csa_pointer(), wilc::regmap::CHIPID + 4);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Wilc1000Sdio, IorxReadyFollowsIoexAfterConfiguredDelay) {
    wilc::params p = sdio_params();
    p.sdio_io_ready_delay = sc_time(10, SC_US);
    run(p, [](sdio_bench& b) {
        b.wr52(0, 0x02, 0x02);
        const sc_time t_en = sc_core::sc_time_stamp();
        EXPECT_EQ(b.rd52(0, 0x03), 0x00); // 2 us later: not ready
        // F1 is not usable before it is ready.
        EXPECT_EQ(b.rd52(1, 0x4), 0x00);
        EXPECT_EQ(b.last, sdio_response::protocol_error);
        wait(t_en + sc_time(10, SC_US) - sc_core::sc_time_stamp() - b.gap);
        EXPECT_EQ(b.rd52(0, 0x03), 0x02);
        EXPECT_EQ(b.rd52(1, 0x4), 0x00);
        EXPECT_EQ(b.last, sdio_response::ok);
    });
}

TEST(Wilc1000Sdio, CsaRegisterWriteReadAndByteAccess) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_GE(b.init(), 1);
        ASSERT_TRUE(b.write_reg(wilc::regmap::GP_REG_0, 0x12345678));
        EXPECT_EQ(b.core().registers().at(0, wilc::regmap::GP_REG_0).get(), 0x12345678u);
        uint32_t v = 0;
        ASSERT_TRUE(b.read_reg(wilc::regmap::GP_REG_0, v));
        EXPECT_EQ(v, 0x12345678u);
        // CMD52 on the CSA window: byte access to memory, pointer auto-increments.
        ASSERT_TRUE(b.write_reg(0x30010, 0xa1b2c3d4));
        ASSERT_TRUE(b.set_csa(0x30011));
        EXPECT_EQ(b.rd52(0, 0x10f), 0xc3);
        EXPECT_EQ(b.rd52(0, 0x10f), 0xb2);
        EXPECT_EQ(b.chip.sdio.csa_pointer(), 0x30013u);
        // The SDIO values the driver writes in wilc_wlan_start are accepted without findings.
        ASSERT_TRUE(b.write_reg(wilc::regmap::VMM_CORE_CFG, 1u << 3));
        EXPECT_TRUE(b.core().findings().list().empty());
        // An unmapped AHB address: R5 OUT_OF_RANGE, error text and a finding.
        EXPECT_FALSE(b.read_reg(0x900000, v));
        EXPECT_EQ(b.last, sdio_response::out_of_range);
        EXPECT_NE(b.error.find("0x900000"), std::string::npos) << b.error;
        EXPECT_EQ(b.core().findings().count(finding_kind::out_of_range), 1u);
    });
}

TEST(Wilc1000Sdio, FirmwareDownloadThroughCsaBootsAndRaisesInBandInterrupt) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_GE(b.init(), 1);
        std::vector<uint8_t> img;
        ASSERT_TRUE(b.download_and_start(&img));
        // Every record landed byte-exactly at its address.
        size_t off = 0;
        while (off < img.size()) {
            const uint32_t addr = le32(&img[off]), size = le32(&img[off + 4]);
            std::vector<uint8_t> mem(size);
            b.core().mem_peek(addr, mem.data(), size);
            EXPECT_TRUE(std::equal(mem.begin(), mem.end(), img.begin() + off + 8))
                << "record at " << std::hex << addr;
            off += 8 + size;
        }
        EXPECT_TRUE(b.core().cpu_running());
        ASSERT_TRUE(b.wait_irq(sc_time(1, sc_core::SC_SEC)));
        EXPECT_TRUE(b.core().firmware_ready());
        EXPECT_EQ(b.rd52(0, 0x05), 0x02); // INTx: F1 interrupt pending
        uint32_t size = 0;
        auto pk = b.isr(&size);
        ASSERT_EQ(pk.size(), 1u);
        EXPECT_TRUE(pk[0].cfg);
        EXPECT_EQ(pk[0].payload.at(0), 'I');
        EXPECT_EQ(size, pk[0].total);
        EXPECT_FALSE(b.line.level()); // the RX DMA cleared the interrupt
        EXPECT_EQ(b.rd52(0, 0x05), 0x00);
        EXPECT_EQ(b.chip.sdio.stats().irq_assertions, 1u);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Wilc1000Sdio, InBandInterruptNeedsMasterAndFunctionEnable) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        b.wr52(0, 0x04, 0x02); // F1 enable without master
        b.core().inject_rx_frame(std::vector<uint8_t>(100, 0x5a));
        wait(sc_time(100, SC_US));
        EXPECT_TRUE(b.core().int0_pending());
        EXPECT_FALSE(b.line.level());
        b.wr52(0, 0x04, 0x01); // master without F1
        EXPECT_FALSE(b.line.level());
        b.wr52(0, 0x04, 0x03);
        EXPECT_TRUE(b.line.level());
    });
}

TEST(Wilc1000Sdio, TxFrameInBlockAndByteModeReachesTheAirByteExactly) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        // 34 + 1514 = 1548 bytes in the VMM: 3 blocks of 512 + a 12-byte CMD53.
        const auto frame = pattern(1514, 7);
        const unsigned before = b.cmd53_count;
        ASSERT_EQ(b.send_tx({{false, frame}}), 1);
        ASSERT_EQ(b.core().tx_frames_unlinked().size(), 1u);
        EXPECT_EQ(b.core().tx_frames_unlinked()[0], frame);
        EXPECT_EQ(b.chip.sdio.stats().f1_bytes_written, 1548u);
        // HOST_TX_CTRL read, table, VMM_CTL write + read: 4 CSA CMD53, then F1 block + bytes.
        EXPECT_EQ(b.cmd53_count - before, 6u);
        EXPECT_FALSE(b.core().tx_port_armed());
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Wilc1000Sdio, RxFrameRaisesInterruptSizeAndIsReadByteExactly) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        const auto frame = pattern(1000, 3);
        b.core().inject_rx_frame(frame);
        ASSERT_TRUE(b.wait_irq(sc_time(1, SC_MS)));
        const uint32_t total = (b.core().config().rx_pkt_offset + 1000 + 3) & ~3u; // 1036
        EXPECT_EQ(b.rd52(0, 0xf2) | b.rd52(0, 0xf3) << 8, total / 4);
        EXPECT_EQ(b.rd52(1, 0x4), 0x01); // INT0 -> driver bit 16
        // The RX DMA in two parts: 2 blocks, then 12 bytes. The interrupt stays pending until
        // the last byte is read.
        b.wr52(0, 0xf8, 0xc0);
        std::vector<uint8_t> buf(total);
        ASSERT_EQ(b.cmd53(1, 0, false, buf.data(), 2, true, 512), sdio_response::ok);
        EXPECT_TRUE(b.line.level());
        EXPECT_TRUE(b.core().int0_pending());
        ASSERT_EQ(b.cmd53(1, 0, false, buf.data() + 1024, total - 1024, false, 512),
                  sdio_response::ok);
        EXPECT_FALSE(b.line.level());
        EXPECT_FALSE(b.core().int0_pending());
        EXPECT_EQ(b.rd52(0, 0xf2), 0x00);
        const uint32_t h = le32(buf.data());
        EXPECT_EQ(h & 0x7ff, 1000u);
        const uint32_t off = (h >> 22) & 0x1ff;
        EXPECT_TRUE(std::equal(frame.begin(), frame.end(), buf.begin() + off));
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Wilc1000Sdio, MmcCoreSplitContinuesAtIncrementedAddress) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_GE(b.init(), 1);
        // A 1536-byte CSA write split as 2 blocks at 0x10f, then 512 bytes at 0x10f + 1024.
        auto data = pattern(1536, 11);
        ASSERT_TRUE(b.set_csa(0x31000));
        ASSERT_EQ(b.cmd53(0, 0x10f, true, data.data(), 2, true, 512), sdio_response::ok);
        ASSERT_EQ(b.cmd53(0, 0x10f + 1024, true, data.data() + 1024, 512, false, 512),
                  sdio_response::ok);
        std::vector<uint8_t> mem(1536);
        b.core().mem_peek(0x31000, mem.data(), mem.size());
        EXPECT_EQ(mem, data);
        // Not a continuation once another command came in between.
        b.rd52(0, 0x00);
        uint8_t x[4] = {};
        EXPECT_EQ(b.cmd53(0, 0x10f + 1536, true, x, 4, false, 512), sdio_response::out_of_range);
    });
}

TEST(Wilc1000Sdio, SleepWakeHandshakeClockStatusAfterWakeLatency) {
    wilc::params p = sdio_params();
    p.sleep_entry_delay = sc_time(100, SC_US);
    p.wake_latency = sc_time(300, SC_US);
    run(p, [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        // Firmware power save on ('W' WID_POWER_MANAGEMENT = 1), reply consumed.
        std::vector<uint8_t> w = {'W', 1, 13, 0, 1, 0, 0, 0, 0x0b, 0x00, 1, 0, 1};
        ASSERT_EQ(b.send_tx({{true, w}}), 1);
        ASSERT_TRUE(b.wait_irq(sc_time(100, SC_MS)));
        ASSERT_EQ(b.isr().size(), 1u);
        wait(sc_time(1, SC_MS));
        ASSERT_EQ(b.chip.power().state(sc_core::sc_time_stamp()), wilc::power_state::asleep);
        EXPECT_EQ(b.rd52(0, 0xf1), 0x00);
        // AHB access through the CSA while the clock is off: error + finding.
        uint32_t v = 0;
        EXPECT_FALSE(b.read_reg(wilc::regmap::CHIPID, v));
        EXPECT_EQ(b.last, sdio_response::protocol_error);
        EXPECT_NE(b.error.find("clock is off"), std::string::npos) << b.error;
        EXPECT_EQ(b.core().findings().count(finding_kind::clock_off_access), 1u);

        // chip_wakeup: 0xfa = 1, 0xf0 = 1, poll 0xf1 bit 0.
        b.wr52(0, 0xfa, 1);
        b.wr52(0, 0xf0, 1);
        const sc_time ready = sc_core::sc_time_stamp() + sc_time(300, SC_US);
        int zeros = 0;
        for (int i = 0; i < 10000; ++i) {
            if (b.rd52(0, 0xf1) & 1)
                break;
            EXPECT_LT(sc_core::sc_time_stamp(), ready);
            ++zeros;
        }
        EXPECT_GE(sc_core::sc_time_stamp(), ready);
        EXPECT_LT(sc_core::sc_time_stamp() - ready, b.gap);
        EXPECT_EQ(zeros, 149); // 300 us / 2 us per CMD52, the 150th read sees the clock
        EXPECT_EQ(b.chip.power().wakeups(), 1u);
        ASSERT_TRUE(b.read_reg(wilc::regmap::CHIPID, v));
        EXPECT_EQ(v, b.core().config().chip_id);
        EXPECT_EQ(b.rd52(0, 0xf0), 0x01);
        EXPECT_EQ(b.rd52(0, 0xfc), 0x00); // FW_TO_HOST: firmware never busy

        // chip_allow_sleep: clear 0xf0 and 0xfa; asleep after the entry delay.
        b.wr52(0, 0xf0, 0);
        b.wr52(0, 0xfa, 0);
        const sc_time t_allow = sc_core::sc_time_stamp();
        EXPECT_EQ(b.chip.power().state(t_allow), wilc::power_state::sleep_pending);
        EXPECT_EQ(b.chip.power().state(t_allow + sc_time(100, SC_US)), wilc::power_state::asleep);
    });
}

TEST(Wilc1000Sdio, AbortResetResetsTheInterfaceNotTheFirmware) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        b.wr52(0, 0x06, 0x08); // hif_reset
        EXPECT_EQ(b.rd52(0, 0x02), 0x00);
        EXPECT_EQ(b.rd52(0, 0x04), 0x00);
        EXPECT_EQ(b.chip.sdio.block_size(1), 0);
        EXPECT_EQ(b.rd52(0, 0x100) & 0x80, 0x00);
        EXPECT_TRUE(b.core().firmware_ready());
        // Re-init (resume path) brings the interface back.
        EXPECT_GE(b.init(), 1);
        b.core().inject_rx_frame(std::vector<uint8_t>(64, 1));
        ASSERT_TRUE(b.wait_irq(sc_time(1, SC_MS)));
        EXPECT_EQ(b.isr().size(), 1u);
    });
}

TEST(Wilc1000Sdio, ErrorCasesAnswerWithR5ErrorTextAndFinding) {
    run(sdio_params(), [](sdio_bench& b) {
        // CSA window before CSA is enabled.
        uint8_t buf[512] = {};
        EXPECT_EQ(b.cmd53(0, 0x10f, false, buf, 4, false, 512), sdio_response::protocol_error);
        EXPECT_NE(b.error.find("CSA is disabled"), std::string::npos) << b.error;
        ASSERT_GE(b.init(), 1);
        const size_t n0 = b.core().findings().list().size();

        // Unknown function 3.
        uint8_t v = 0;
        EXPECT_EQ(b.cmd52(3, 0x0, false, v), sdio_response::illegal);
        EXPECT_NE(b.error.find("function 3"), std::string::npos) << b.error;
        EXPECT_EQ(b.core().findings().count(finding_kind::unknown_command), 1u);

        // CMD53 to F1 at a register other than the data port.
        EXPECT_EQ(b.cmd53(1, 0x8, false, buf, 4, false, 512), sdio_response::out_of_range);
        EXPECT_NE(b.error.find("F1 0x8"), std::string::npos) << b.error;
        EXPECT_EQ(b.cmd53(1, 0x4, false, buf, 4, false, 512), sdio_response::out_of_range);

        // Block mode with a block size different from the F1 block size register.
        EXPECT_EQ(b.cmd53(1, 0x0, true, buf, 1, true, 256), sdio_response::protocol_error);
        EXPECT_NE(b.error.find("0x110"), std::string::npos) << b.error;

        // TX data with the VMM port not armed (no 0xf8 write before).
        EXPECT_EQ(b.cmd53(1, 0x0, true, buf, 64, false, 512), sdio_response::out_of_range);
        EXPECT_NE(b.error.find("F1 data port"), std::string::npos) << b.error;

        // Reserved CCCR register and F1 register that does not exist.
        EXPECT_EQ(b.cmd52(0, 0x20, false, v), sdio_response::out_of_range);
        EXPECT_NE(b.error.find("0x20"), std::string::npos) << b.error;
        EXPECT_EQ(b.cmd52(1, 0x10, false, v), sdio_response::out_of_range);
        // CIS is read-only.
        EXPECT_EQ(b.wr52(0, 0x1000, 0), sdio_response::out_of_range);

        EXPECT_EQ(b.core().findings().list().size(), n0 + 8);
        EXPECT_EQ(b.chip.sdio.stats().errors, 9u);
    });
}

TEST(Wilc1000Sdio, StrapRejectsTheOtherBus) {
    // Strapped for SPI (the default): SDIO commands get no response + a finding.
    wilc::params p;
    run(p, [](sdio_bench& b) {
        uint8_t v = 0;
        EXPECT_EQ(b.cmd52(0, 0x00, false, v), sdio_response::no_response);
        EXPECT_NE(b.error.find("strapped for SPI"), std::string::npos) << b.error;
        EXPECT_EQ(b.core().findings().count(finding_kind::unexpected_frame), 1u);
        // The SPI front-end answers normally on an SPI strap.
        spi::spi_payload f;
        std::vector<uint8_t> tx = {0xcf, 0xff, 0xff, 0xff, 0, 0, 0}, rx(7, 0);
        spi::spi_xfer x;
        x.tx = tx.data();
        x.rx = rx.data();
        x.len = tx.size();
        f.xfers.push_back(x);
        sc_time d = sc_core::SC_ZERO_TIME;
        b.chip.spi_gate.spi_transport(f, d);
        EXPECT_EQ(f.response, spi::spi_response::ok);
    });
}

TEST(Wilc1000Sdio, SdioStrapRejectsSpiAndFlagsSpiVmmCoreCfg) {
    run(sdio_params(), [](sdio_bench& b) {
        spi::spi_payload f;
        std::vector<uint8_t> tx = {0xcf, 0xff, 0xff, 0xff, 0, 0, 0}, rx(7, 0);
        spi::spi_xfer x;
        x.tx = tx.data();
        x.rx = rx.data();
        x.len = tx.size();
        f.xfers.push_back(x);
        sc_time d = sc_core::SC_ZERO_TIME;
        b.chip.spi_gate.spi_transport(f, d);
        EXPECT_EQ(f.response, spi::spi_response::no_device);
        EXPECT_NE(f.error.find("strapped for SDIO"), std::string::npos) << f.error;
        EXPECT_EQ(b.chip.spi.stats().frames, 0u);
        ASSERT_GE(b.init(), 1);
        ASSERT_TRUE(b.write_reg(wilc::regmap::VMM_CORE_CFG, 1)); // the SPI value
        EXPECT_EQ(b.core().findings().count(finding_kind::unexpected_frame), 2u);
        EXPECT_NE(b.core().findings().list().back().text.find("VMM_CORE_CFG"), std::string::npos);
    });
}

TEST(Wilc1000Sdio, OutOfBandGpioModeUsesIrqFlagAndClearRegisters) {
    run(sdio_params(), [](sdio_bench& b) {
        ASSERT_TRUE(b.boot());
        // wilc_sdio_sync_ext with irq_gpio: PIN_MUX_0 bit 8, INTR_ENABLE bit 27.
        uint32_t reg = 0;
        ASSERT_TRUE(b.read_reg(wilc::regmap::PIN_MUX_0, reg));
        ASSERT_TRUE(b.write_reg(wilc::regmap::PIN_MUX_0, reg | (1u << 8)));
        ASSERT_TRUE(b.read_reg(wilc::regmap::INTR_ENABLE, reg));
        ASSERT_TRUE(b.write_reg(wilc::regmap::INTR_ENABLE, reg | (1u << 27)));
        b.wr52(0, 0x04, 0x00); // no in-band interrupt in GPIO mode
        b.core().inject_rx_frame(std::vector<uint8_t>(200, 0x77));
        wait(sc_time(100, SC_US));
        EXPECT_FALSE(b.core().irq_level()); // the active-low pin is asserted
        EXPECT_FALSE(b.line.level());       // DAT1 interrupt is not
        EXPECT_EQ(b.rd52(0, 0xf7), 0x01);   // flags from F0 0xf7 in GPIO mode
        // enh3 clear in GPIO mode: CLR_INT0 | SEL_VMM_TBL1 | EN_VMM in one write.
        EXPECT_EQ(b.wr52(0, 0xf8, 0xc1), sdio::sdio_response::ok);
        EXPECT_TRUE(b.core().irq_level());
        EXPECT_EQ(b.rd52(0, 0xf8), 0xc0); // VMM bits read back
        const uint32_t size = (b.core().config().rx_pkt_offset + 200 + 3) & ~3u;
        std::vector<uint8_t> buf(size);
        ASSERT_TRUE(b.block_io(false, 0, buf.data(), size));
        EXPECT_EQ(le32(buf.data()) & 0x7ff, 200u);
        EXPECT_TRUE(b.core().findings().list().empty());
    });
}

TEST(Wilc1000Sdio, InvalidMaxBlockSizeIsRejected) {
    wilc::params p = sdio_params();
    p.sdio_max_block_size = 4096;
    try {
        wilc1000 chip("wilc", p);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("sdio_max_block_size"), std::string::npos);
    }
}

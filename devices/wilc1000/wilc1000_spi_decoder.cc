// SPDX-License-Identifier: MIT
#include "devices/wilc1000/wilc1000_spi_decoder.h"

#include "models/wilc1000/wilc1000_regmap.h"
#include "models/wilc1000/wilc1000_spi.h"

namespace nicsim::trace {

namespace {

namespace rm = wilc::regmap;
namespace cmd = wilc::spi_cmd;

constexpr size_t max_decode_bytes = 32; // command + response of every register access
constexpr const char* op_lane = "operations";

const char* clockless_name(uint32_t a) {
    switch (a) {
    case rm::CL_WAKEUP:
        return "wakeup";
    case rm::CL_HOST_TO_FW:
        return "host_to_fw";
    case rm::CL_CLK_STATUS:
        return "clk_status";
    case rm::CL_FW_TO_HOST:
        return "fw_to_host";
    }
    return nullptr;
}

uint32_t be(const std::vector<uint8_t>& b, size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i)
        v = (v << 8) | (at + i < b.size() ? b[at + i] : 0);
    return v;
}

} // namespace

std::string wilc1000_spi_decoder::reg(uint32_t addr, bool clockless, bool internal) const {
    const char* n = nullptr;
    if (clockless)
        n = clockless_name(addr);
    else if (m_names)
        n = m_names(internal ? rm::SPI_BASE + addr : addr);
    std::string s = hex(addr, clockless || internal ? 2 : 4);
    if (n)
        s += std::string(" ") + n;
    return s;
}

bool wilc1000_spi_decoder::read_value(uint8_t c, size_t cmd_len, uint32_t& v,
                                      uint8_t& status) const {
    for (size_t k = cmd_len; k <= cmd_len + 1 && k + 1 < m_miso.size(); ++k) {
        if (m_miso[k] != c)
            continue;
        status = m_miso[k + 1];
        for (size_t j = k + 2; j < k + 2 + 8 && j + 4 < m_miso.size(); ++j)
            if ((m_miso[j] & 0xf0) == 0xf0) {
                v = uint32_t(m_miso[j + 1]) | uint32_t(m_miso[j + 2]) << 8 |
                    uint32_t(m_miso[j + 3]) << 16 | uint32_t(m_miso[j + 4]) << 24;
                return true;
            }
        return false;
    }
    return false;
}

bool wilc1000_spi_decoder::write_status(uint8_t c, size_t cmd_len, uint8_t& status) const {
    for (size_t k = cmd_len; k <= cmd_len + 1 && k + 1 < m_miso.size(); ++k)
        if (m_miso[k] == c) {
            status = m_miso[k + 1];
            return true;
        }
    return false;
}

void wilc1000_spi_decoder::end_op(uint64_t end_ps, bus_annotations& a, const char* how) {
    std::string name =
        std::string(m_write ? "DMA_EXT_WRITE " : "DMA_EXT_READ ") + std::to_string(m_size) + " B";
    json_args args;
    args.add_hex("addr", m_addr, 6).add("bytes", m_size).add("packets", m_packets).add("end", how);
    a.span(op_lane, name, m_op_start, end_ps, args.str());
    m_phase = phase::none;
}

bool wilc1000_spi_decoder::continue_dma(size_t len, bus_txn& t, bus_annotations& a) {
    const uint8_t b0 = m_mosi.empty() ? 0 : m_mosi[0];
    const uint8_t r0 = m_miso.empty() ? 0 : m_miso[0];
    const bool tag = len == 1 && (b0 & 0xf0) == 0xf0;
    auto data_tag = [&] {
        const unsigned order = b0 & 0x3;
        t.name = "DMA data tag " + hex(b0, 2) +
                 (order == 3   ? " (last)"
                  : order == 1 ? " (first)"
                               : " (middle)");
        t.dir = "wr";
        m_phase = phase::w_data;
    };
    auto read_hdr = [&] {
        const bool ready = (r0 & 0xf0) == 0xf0;
        t.name = std::string("DMA_EXT_READ packet header ") + (ready ? "(data start)" : "(wait)");
        t.detail = "-> " + hex(r0, 2);
        t.dir = "rd";
        m_phase = ready ? phase::r_data : phase::r_hdr;
    };
    switch (m_phase) {
    case phase::none:
        return false;
    case phase::w_tag:
        if (tag) {
            data_tag();
            return true;
        }
        break;
    case phase::w_data:
        m_left -= std::min<uint64_t>(len, m_left);
        ++m_packets;
        t.name = "DMA_EXT_WRITE data " + std::to_string(len) + " B";
        t.dir = "wr";
        m_phase = phase::w_after;
        return true;
    case phase::w_after:
        if (len == 2) {
            t.name = "DMA data CRC16";
            t.dir = "wr";
            return true;
        }
        if (tag && m_left > 0) {
            data_tag();
            return true;
        }
        if (len == 4 && m_left == 0) {
            // spi_data_rsp: the last byte with 0xC? in the top nibble starts the final response.
            int i = 2;
            while (i >= 0 && (m_miso.size() <= size_t(i) || (m_miso[size_t(i)] & 0xf0) != 0xc0))
                --i;
            t.name = "DMA_EXT_WRITE data response";
            t.dir = "rd";
            if (i < 0)
                t.detail = "missing";
            else
                t.detail = "-> " + hex(m_miso[size_t(i)], 2) + " " + hex(m_miso[size_t(i) + 1], 2);
            end_op(t.end_ps, a, i < 0 ? "no response" : "response");
            return true;
        }
        break;
    case phase::r_hdr:
        if (len == 1) {
            read_hdr();
            return true;
        }
        break;
    case phase::r_data:
        m_left -= std::min<uint64_t>(len, m_left);
        ++m_packets;
        t.name = "DMA_EXT_READ data " + std::to_string(len) + " B";
        t.dir = "rd";
        if (m_left == 0) {
            end_op(t.end_ps, a, "data");
            m_phase = phase::r_after; // a CRC16 frame may still follow
        } else {
            m_phase = phase::r_after;
        }
        return true;
    case phase::r_after:
        if (len == 2) {
            t.name = "DMA data CRC16";
            t.dir = "rd";
            return true;
        }
        if (len == 1 && m_left > 0) {
            read_hdr();
            return true;
        }
        m_phase = phase::none;
        return false;
    }
    // Not what the protocol expects next: the transfer was abandoned.
    if (m_phase != phase::r_after)
        end_op(t.start_ps, a, "abandoned");
    m_phase = phase::none;
    return false;
}

void wilc1000_spi_decoder::command(size_t len, bus_txn& t, bus_annotations& a) {
    const uint8_t c = m_mosi.empty() ? 0 : m_mosi[0];
    const std::string op = hex(c, 2) + " ";
    uint8_t status = 0;
    uint32_t v = 0;
    auto status_detail = [&](bool ok) {
        if (!ok)
            t.detail += t.detail.empty() ? "no response" : " (no response)";
        else if (status != 0)
            t.detail += (t.detail.empty() ? "status " : " status ") + hex(status, 2);
    };
    switch (c) {
    case cmd::INTERNAL_WRITE:
    case cmd::INTERNAL_READ: {
        const bool clockless = m_mosi.size() > 1 && (m_mosi[1] & 0x80);
        const uint32_t addr =
            (m_mosi.size() > 2) ? ((uint32_t(m_mosi[1]) & 0x7f) << 8 | m_mosi[2]) : 0;
        const std::string r = reg(addr, clockless, true) + (clockless ? " (clockless)" : "");
        if (c == cmd::INTERNAL_WRITE) {
            v = be(m_mosi, 3, 4);
            t.name = op + "INTERNAL_WRITE " + r;
            t.dir = "wr";
            t.detail = "= " + hex(v, 8);
            // Clockless writes may answer anything (the driver ignores it); report only errors.
            if (write_status(c, 7, status) && status)
                t.detail += " status " + hex(status, 2);
            const bool starts_wake =
                clockless && ((addr == rm::CL_HOST_TO_FW && (v & rm::HOST_TO_FW_BIT)) ||
                              (addr == rm::CL_WAKEUP && (v & rm::WAKEUP_BIT)));
            if (starts_wake)
                m_hs.wake_request(t.start_ps, a);
            else if (clockless && addr == rm::CL_HOST_TO_FW)
                m_hs.host_to_fw_cleared(t.end_ps, a);
        } else {
            const bool ok = read_value(c, 4, v, status);
            t.name = op + "INTERNAL_READ " + r;
            t.dir = "rw";
            t.detail = ok ? "-> " + hex(v, 8) : "";
            if (!clockless)
                status_detail(ok);
            if (clockless && addr == rm::CL_CLK_STATUS) {
                // One name for every poll (Perfetto colours slices by name); the count goes into
                // the detail.
                t.name += " poll";
                const bool ready = ok && (v & rm::CLK_STATUS_BIT);
                if (ok)
                    t.detail += ready ? " (clock ready)" : " (clock off)";
                if (const unsigned n = m_hs.clock_poll(ready, t.end_ps, a))
                    t.detail = "#" + std::to_string(n) + " " + t.detail;
            } else if (clockless && addr == rm::CL_FW_TO_HOST) {
                m_hs.fw_to_host_poll(t.start_ps);
            }
        }
        return;
    }
    case cmd::SINGLE_WRITE:
        v = be(m_mosi, 4, 4);
        t.name = op + "SINGLE_WRITE " + reg(be(m_mosi, 1, 3), false, false);
        t.dir = "wr";
        t.detail = "= " + hex(v, 8);
        status_detail(write_status(c, 8, status));
        return;
    case cmd::SINGLE_READ: {
        const bool ok = read_value(c, 4, v, status);
        t.name = op + "SINGLE_READ " + reg(be(m_mosi, 1, 3), false, false);
        t.dir = "rw";
        t.detail = ok ? "-> " + hex(v, 8) : "";
        status_detail(ok);
        return;
    }
    case cmd::DMA_EXT_WRITE:
    case cmd::DMA_EXT_READ:
    case cmd::DMA_WRITE:
    case cmd::DMA_READ: {
        const bool ext = c == cmd::DMA_EXT_WRITE || c == cmd::DMA_EXT_READ;
        m_write = c == cmd::DMA_EXT_WRITE || c == cmd::DMA_WRITE;
        m_addr = be(m_mosi, 1, 3);
        m_size = ext ? be(m_mosi, 4, 3) : be(m_mosi, 4, 2);
        m_left = m_size;
        m_packets = 0;
        m_op_start = t.start_ps;
        const char* n = c == cmd::DMA_EXT_WRITE  ? "DMA_EXT_WRITE"
                        : c == cmd::DMA_EXT_READ ? "DMA_EXT_READ"
                        : c == cmd::DMA_WRITE    ? "DMA_WRITE"
                                                 : "DMA_READ";
        t.name = op + n + " " + reg(m_addr, false, false) + " " + std::to_string(m_size) + " B";
        t.dir = "wr";
        const bool ok = write_status(c, ext ? 7 : 6, status);
        status_detail(ok);
        m_phase = !ok || status ? phase::none : m_write ? phase::w_tag : phase::r_hdr;
        return;
    }
    case cmd::RESET:
        t.name = op + "RESET";
        t.dir = "wr";
        return;
    case cmd::TERMINATE:
        t.name = op + "TERMINATE";
        t.dir = "wr";
        return;
    case cmd::REPEAT:
        t.name = op + "REPEAT";
        t.dir = "wr";
        return;
    default:
        t.name = "frame " + std::to_string(len) + " B (no command: " + hex(c, 2) + ")";
        t.dir = "rw";
        return;
    }
}

void wilc1000_spi_decoder::decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) {
    frame_bytes(frame, max_decode_bytes, m_mosi, m_miso);
    const size_t len = frame.total_bytes();
    if (continue_dma(len, t, a))
        return;
    command(len, t, a);
}

} // namespace nicsim::trace

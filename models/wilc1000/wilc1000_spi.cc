// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_spi.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "bus/common/local_time.h"
#include "models/wilc1000/wilc1000_crc.h"
#include "models/wilc1000/wilc1000_regmap.h"

using namespace sc_core;

namespace nicsim::wilc {

namespace {

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// Command length without the CRC7 byte; 0 = not a command byte.
size_t command_length(uint8_t c) {
    switch (c) {
    case spi_cmd::DMA_WRITE:
    case spi_cmd::DMA_READ:
        return 6;
    case spi_cmd::INTERNAL_WRITE:
        return 7;
    case spi_cmd::INTERNAL_READ:
        return 4;
    case spi_cmd::TERMINATE:
    case spi_cmd::REPEAT:
        return 4;
    case spi_cmd::DMA_EXT_WRITE:
    case spi_cmd::DMA_EXT_READ:
        return 7;
    case spi_cmd::SINGLE_WRITE:
        return 8;
    case spi_cmd::SINGLE_READ:
        return 4;
    case spi_cmd::RESET:
        return 4;
    default:
        return 0;
    }
}

uint8_t status_of(access_status s) {
    // Unmapped AHB addresses are not reported over SPI (assumption): only a stopped clock is.
    return s == access_status::clock_off ? spi_status::INTERNAL : spi_status::OK;
}

} // namespace

unsigned spi_frontend::filler_bytes(sc_time access, double sck_hz) {
    // The chip starts the access when the command (incl. CRC7) is in and has the echo and status
    // bytes (2 byte times) for free; every further started byte time is one filler byte.
    const double byte_s = 8.0 / sck_hz;
    const double n = std::ceil(access.to_seconds() / byte_s - 1e-9) - 2.0;
    return n > 0 ? unsigned(n) : 0u;
}

bool spi_frontend::register_read_frame(const spi::spi_payload& frame) const {
    if (m_state != state::idle || frame.xfers.empty() || !frame.xfers[0].tx ||
        frame.xfers[0].len == 0)
        return false;
    const uint8_t c = frame.xfers[0].tx[0];
    return c == spi_cmd::SINGLE_READ || c == spi_cmd::INTERNAL_READ;
}

uint32_t spi_frontend::block_size() const {
    uint32_t f =
        (m_core.protocol_config() & regmap::PROTO_PKT_SZ_MASK) >> regmap::PROTO_PKT_SZ_SHIFT;
    if (f > 5)
        f = 5;
    return 256u << f;
}

void spi_frontend::spi_transport(spi::spi_payload& frame, sc_time& delay) {
    ++m_stats.frames;
    if (!register_read_frame(frame))
        local_time::sync(); // writes, DMA and anything unusual run at SystemC time
    const sc_time t_end = local_time::now() + delay;
    sc_time dur = SC_ZERO_TIME;
    for (const auto& x : frame.xfers) {
        const uint32_t hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
        if (hz == 0) {
            frame.response = spi::spi_response::protocol_error;
            frame.error = std::string("WILC1000 SPI: frame with speed_hz = 0");
            return;
        }
        dur += sc_time(8.0 * double(x.len) / hz, SC_SEC);
    }
    sc_time t = t_end > dur ? t_end - dur : SC_ZERO_TIME;
    // spi_truncated: the transfer stops after half of its bytes (at least one); the rest of
    // MISO reads 0 and the chip sees chip-select rise early.
    size_t budget = ~size_t(0);
    if (faults.truncated.attached() && faults.truncated.fires(t)) {
        size_t total = 0;
        for (const auto& x : frame.xfers)
            total += x.len;
        budget = std::max<size_t>(1, total / 2);
        faults.truncated.effect(t, "SPI message cut after " + std::to_string(budget) + " of " +
                                       std::to_string(total) + " bytes");
    }
    for (size_t xi = 0; xi < frame.xfers.size(); ++xi) {
        auto& x = frame.xfers[xi];
        const double hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
        if (hz > m_core.config().max_sck_hz && !m_warned_speed) {
            m_warned_speed = true;
            find(t, finding_kind::sck_too_fast,
                 "SCK " + std::to_string(hz / 1e6) + " MHz above the chip's maximum");
        }
        const sc_time bt(8.0 / hz, SC_SEC);
        if (budget != ~size_t(0)) {
            const size_t n = std::min(budget, x.len);
            if (n < x.len && x.rx)
                std::memset(x.rx + n, 0, x.len - n);
            budget -= n;
            if (n < x.len) {
                spi::spi_xfer cut = x;
                cut.len = n;
                for (size_t i = 0; i < n; ++i) {
                    const uint8_t out = miso(t);
                    if (cut.rx)
                        cut.rx[i] = out;
                    t += bt;
                    mosi(cut.tx ? cut.tx[i] : 0, t, hz);
                }
                m_stats.bytes += n;
                t += sc_time::from_value(bt.value() * (x.len - n));
                for (size_t k = xi + 1; k < frame.xfers.size(); ++k)
                    if (frame.xfers[k].rx)
                        std::memset(frame.xfers[k].rx, 0, frame.xfers[k].len);
                cs_deassert(t);
                return;
            }
        }
        for (size_t i = 0; i < x.len;) {
            // DMA data runs are moved at once (see bulk_data()); every other byte goes through
            // the byte-by-byte state machine.
            if (const size_t k = bulk_data(x, i)) {
                i += k;
                t += sc_time::from_value(bt.value() * k);
                continue;
            }
            const uint8_t out = miso(t);
            if (x.rx)
                x.rx[i] = out;
            t += bt;
            mosi(x.tx ? x.tx[i] : 0, t, hz);
            ++i;
        }
        m_stats.bytes += x.len;
        if (x.cs_change && xi + 1 < frame.xfers.size())
            cs_deassert(t);
    }
    cs_deassert(t);
}

namespace {
// How many of the first `n` bytes are zero: 8 at a time, as the host clocks a whole read packet
// of zeros per frame.
size_t zero_run(const uint8_t* p, size_t n) {
    size_t i = 0;
    for (uint64_t w; i + 8 <= n; i += 8) {
        std::memcpy(&w, p + i, 8);
        if (w)
            break;
    }
    while (i < n && !p[i])
        ++i;
    return i;
}
} // namespace

size_t spi_frontend::bulk_data(const spi::spi_xfer& x, size_t i) {
    // Inside a DMA data packet, away from its last byte, miso() and mosi() only move bytes between
    // the wire and m_dma_buf and advance m_pkt_pos; neither looks at the time. So a run of such
    // bytes can be copied at once with the same result as the per-byte loop. The packet's last
    // byte (which finishes the packet), pending status bytes and non-zero MOSI during a read
    // (a protocol violation) are left to the per-byte path.
    if (m_phase != phase::data || m_pkt_pos + 1 >= m_pkt_len)
        return 0;
    size_t k = std::min<size_t>(x.len - i, m_pkt_len - m_pkt_pos - 1);
    uint8_t* buf = &m_dma_buf[m_dma_pos + m_pkt_pos];
    if (m_state == state::dma_write) {
        if (!m_async.empty())
            return 0; // the previous packet's response is still being clocked out
        if (x.tx)
            std::memcpy(buf, x.tx + i, k);
        else
            std::memset(buf, 0, k);
        if (x.rx)
            std::memset(x.rx + i, 0, k); // miso() with nothing to send
    } else if (m_state == state::dma_read) {
        if (x.tx)
            k = zero_run(x.tx + i, k);
        if (x.rx)
            std::memcpy(x.rx + i, buf, k);
    } else {
        return 0;
    }
    m_pkt_pos += uint32_t(k);
    return k;
}

void spi_frontend::cs_deassert(sc_time t) {
    if (m_state == state::command) {
        find(t, finding_kind::unexpected_frame,
             "command " + hex(m_cmd[0]) + " truncated by chip-select after " +
                 std::to_string(m_cmd.size()) + " of " + std::to_string(m_cmd_need) + " bytes");
        m_state = state::idle;
    } else if (m_state == state::response) {
        // The host stopped clocking before the response ended: the rest is lost.
        m_rsp.clear();
        m_state = m_after;
        if (m_state == state::dma_read)
            start_read_packet();
    }
}

uint8_t spi_frontend::miso(sc_time t) {
    switch (m_state) {
    case state::response: {
        const uint8_t b = m_rsp.front();
        m_rsp.pop_front();
        return b;
    }
    case state::dma_read: {
        if (m_phase == phase::tag) {
            if (t < m_rd_ready)
                return 0x00; // data not ready yet: the host polls for the tag
            const bool last = m_dma_pos + m_pkt_len >= m_dma_size;
            m_phase = phase::data;
            return last ? 0xf3 : (m_dma_pos == 0 ? 0xf1 : 0xf2);
        }
        if (m_phase == phase::data) {
            const uint8_t b = m_dma_buf[m_dma_pos + m_pkt_pos];
            if (++m_pkt_pos == m_pkt_len) {
                if (m_dma_crc16) {
                    const uint16_t c = crc16_ccitt(0xffff, &m_dma_buf[m_dma_pos], m_pkt_len);
                    m_crc_buf[0] = uint8_t(c >> 8);
                    m_crc_buf[1] = uint8_t(c);
                    m_phase = phase::crc;
                    m_pkt_pos = 0;
                } else {
                    m_dma_pos += m_pkt_len;
                    start_read_packet();
                }
            }
            return b;
        }
        const uint8_t b = m_crc_buf[m_pkt_pos++];
        if (m_pkt_pos == 2) {
            m_dma_pos += m_pkt_len;
            start_read_packet();
        }
        return b;
    }
    default:
        if (!m_async.empty()) {
            const uint8_t b = m_async.front();
            m_async.pop_front();
            return b;
        }
        return 0x00;
    }
}

void spi_frontend::start_read_packet() {
    if (m_dma_pos >= m_dma_size) {
        m_state = state::idle;
        return;
    }
    m_phase = phase::tag;
    m_pkt_pos = 0;
    m_pkt_len = std::min(m_dma_size - m_dma_pos, m_blk);
}

void spi_frontend::mosi(uint8_t b, sc_time t, double hz) {
    switch (m_state) {
    case state::idle: {
        if (b == 0x00 || b == 0xff)
            return; // bus idle / host reading
        m_cmd.assign(1, b);
        m_cmd_crc7 = m_core.protocol_config() & regmap::PROTO_CRC7;
        const size_t len = command_length(b);
        // Unknown command bytes: assume the 4-byte simple-command shape (assumption).
        m_cmd_need = (len ? len : 4) + (m_cmd_crc7 ? 1 : 0);
        m_async.clear();
        m_state = state::command;
        return;
    }
    case state::command:
        m_cmd.push_back(b);
        if (m_cmd.size() == m_cmd_need) {
            if (faults.cmd_bit_error.attached() && faults.cmd_bit_error.fires(t)) {
                // Bit 1: with CRC7 on the last byte is the CRC7, whose bit 0 the chip ignores.
                m_cmd.back() ^= 0x02;
                faults.cmd_bit_error.effect(t, "bit 1 of the last byte of command " +
                                                   hex(m_cmd[0]) + " flipped");
            }
            execute(t, hz);
        }
        return;
    case state::response:
        // MOSI is don't-care while the response is clocked out; after its last byte the
        // machine moves on (idle, or the data phase of a DMA command).
        if (m_rsp.empty())
            m_state = m_after;
        return;
    case state::dma_read:
        if (b != 0x00) {
            find(t, finding_kind::unexpected_frame,
                 "MOSI " + hex(b) + " during a DMA read data phase: read of " +
                     std::to_string(m_dma_size) + " bytes abandoned after " +
                     std::to_string(m_dma_pos + m_pkt_pos) + " bytes");
            m_state = state::idle;
            mosi(b, t, hz);
        }
        return;
    case state::dma_write:
        if (m_phase == phase::tag) {
            if (b >= 0xf1 && b <= 0xf3) {
                const uint32_t rem = m_dma_size - m_dma_pos;
                const uint8_t want = rem <= m_blk ? 0xf3 : (m_dma_pos == 0 ? 0xf1 : 0xf2);
                if (b != want)
                    find(t, finding_kind::unexpected_frame,
                         "data-start tag " + hex(b) + " where " + hex(want) + " was expected");
                m_pkt_len = std::min(rem, m_blk);
                m_pkt_pos = 0;
                m_phase = phase::data;
            } else if (b != 0x00) {
                find(t, finding_kind::unexpected_frame,
                     "expected a data-start tag 0xf1..0xf3, got " + hex(b) + ": DMA write of " +
                         std::to_string(m_dma_size) + " bytes abandoned");
                m_state = state::idle;
                mosi(b, t, hz);
            }
            return;
        }
        if (m_phase == phase::data) {
            m_dma_buf[m_dma_pos + m_pkt_pos] = b;
            if (++m_pkt_pos == m_pkt_len) {
                m_pkt_pos = 0;
                if (faults.data_bit_error.attached() && faults.data_bit_error.fires(t)) {
                    // One bit in the middle of the packet, before the chip checks its CRC16.
                    m_dma_buf[m_dma_pos + m_pkt_len / 2] ^= 0x10;
                    faults.data_bit_error.effect(
                        t, "bit 4 of byte " + std::to_string(m_dma_pos + m_pkt_len / 2) + " of a " +
                               std::to_string(m_dma_size) + "-byte DMA write flipped");
                }
                if (m_dma_crc16)
                    m_phase = phase::crc;
                else
                    finish_write_packet(t);
            }
            return;
        }
        m_crc_buf[m_pkt_pos++] = b;
        if (m_pkt_pos == 2) {
            const uint16_t want = crc16_ccitt(0xffff, &m_dma_buf[m_dma_pos], m_pkt_len);
            const uint16_t got = uint16_t(m_crc_buf[0] << 8 | m_crc_buf[1]);
            if (want != got) {
                ++m_stats.crc16_errors;
                m_dma_error = true;
                find(t, finding_kind::bad_crc16,
                     "DMA write packet at byte " + std::to_string(m_dma_pos) + ": CRC16 " +
                         hex(got) + ", expected " + hex(want));
            }
            finish_write_packet(t);
        }
        return;
    }
}

void spi_frontend::finish_write_packet(sc_time t) {
    const bool first = m_dma_pos == 0;
    m_dma_pos += m_pkt_len;
    const bool last = m_dma_pos >= m_dma_size;
    uint8_t status = m_dma_error ? spi_status::CRC16 : spi_status::OK;
    if (last) {
        if (!m_dma_error)
            status = status_of(m_core.block_write(m_dma_addr, m_dma_buf.data(), m_dma_size, t));
        m_state = state::idle;
    } else {
        m_phase = phase::tag;
    }
    const uint8_t order = last ? 3 : (first ? 1 : 2);
    m_async.push_back(uint8_t(0xc0 | order));
    m_async.push_back(status);
}

void spi_frontend::read_response(uint8_t cmd, uint32_t v, bool clockless, sc_time access,
                                 double hz) {
    m_rsp.push_back(cmd);
    m_rsp.push_back(spi_status::OK);
    for (unsigned i = filler_bytes(access, hz); i; --i)
        m_rsp.push_back(0x00);
    m_rsp.push_back(0xf3);
    const uint8_t d[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    m_rsp.insert(m_rsp.end(), d, d + 4);
    // CRC16 covers the data of clocked reads only (clockless reads are unchecked by the host).
    if (!clockless && (m_core.protocol_config() & regmap::PROTO_CRC16)) {
        const uint16_t c = crc16_ccitt(0xffff, d, 4);
        m_rsp.push_back(uint8_t(c >> 8));
        m_rsp.push_back(uint8_t(c));
    }
}

void spi_frontend::execute(sc_time t, double hz) {
    using namespace spi_cmd;
    const params& p = m_core.config();
    const uint8_t c = m_cmd[0];
    const uint8_t* a = &m_cmd[1];
    m_rsp.clear();
    m_after = state::idle;
    m_state = state::response;
    auto reply = [&](uint8_t status) {
        m_rsp.push_back(c);
        m_rsp.push_back(status);
    };

    if (m_cmd_crc7) {
        const size_t n = m_cmd.size() - 1;
        const uint8_t want = crc7_be(0xfe, m_cmd.data(), n);
        if ((m_cmd[n] & 0xfe) != want) {
            ++m_stats.crc7_errors;
            find(t, finding_kind::bad_crc7,
                 "command " + hex(c) + ": CRC7 " + hex(m_cmd[n]) + ", expected " + hex(want));
            reply(spi_status::CRC7);
            return;
        }
    }
    const size_t len = command_length(c);
    if (len == 0 || c == DMA_WRITE || c == DMA_READ || c == TERMINATE || c == REPEAT) {
        find(t, finding_kind::unknown_command,
             "command " + hex(c) + (len ? " is not implemented by the model" : " is unknown"));
        reply(spi_status::UNSUPPORTED);
        return;
    }
    ++m_stats.commands[c];

    switch (c) {
    case INTERNAL_WRITE:
    case INTERNAL_READ: {
        const uint32_t adr = uint32_t(a[0]) << 8 | a[1];
        const bool clockless = adr & 0x8000;
        const uint32_t off = adr & 0x7fff;
        uint32_t v = 0;
        access_status s = access_status::ok;
        if (!clockless && off >= 0x100) {
            find(t, finding_kind::out_of_range,
                 "internal access to SPI-controller offset " + hex(off) + " (block is 0x100)");
            s = access_status::out_of_range;
        }
        if (c == INTERNAL_WRITE) {
            const uint32_t d =
                uint32_t(a[2]) << 24 | uint32_t(a[3]) << 16 | uint32_t(a[4]) << 8 | a[5];
            if (clockless)
                s = m_core.clockless_write(off, d, t);
            else if (s == access_status::ok)
                s = m_core.reg_write(regmap::SPI_BASE + off, d, t);
            reply(status_of(s));
        } else {
            if (clockless)
                s = m_core.clockless_read(off, v, t);
            else if (s == access_status::ok)
                s = m_core.reg_read(regmap::SPI_BASE + off, v, t);
            if (s == access_status::clock_off)
                reply(spi_status::INTERNAL);
            else
                read_response(c, v, clockless, p.internal_read_access, hz);
        }
        return;
    }
    case SINGLE_WRITE: {
        const uint32_t adr = uint32_t(a[0]) << 16 | uint32_t(a[1]) << 8 | a[2];
        const uint32_t d = uint32_t(a[3]) << 24 | uint32_t(a[4]) << 16 | uint32_t(a[5]) << 8 | a[6];
        reply(status_of(m_core.reg_write(adr, d, t)));
        return;
    }
    case SINGLE_READ: {
        const uint32_t adr = uint32_t(a[0]) << 16 | uint32_t(a[1]) << 8 | a[2];
        uint32_t v = 0;
        const access_status s = m_core.reg_read(adr, v, t);
        if (s == access_status::clock_off)
            reply(spi_status::INTERNAL);
        else
            read_response(c, v, false, p.ahb_read_access, hz);
        return;
    }
    case DMA_EXT_WRITE:
    case DMA_EXT_READ: {
        m_dma_addr = uint32_t(a[0]) << 16 | uint32_t(a[1]) << 8 | a[2];
        m_dma_size = uint32_t(a[3]) << 16 | uint32_t(a[4]) << 8 | a[5];
        m_dma_pos = 0;
        m_dma_error = false;
        m_dma_crc16 = m_core.protocol_config() & regmap::PROTO_CRC16;
        m_blk = block_size();
        if (m_dma_size == 0) {
            find(t, finding_kind::unexpected_frame, "DMA command with size 0");
            reply(spi_status::UNEXPECTED_DATA);
            return;
        }
        if (!m_core.clock_ready(t)) {
            find(t, finding_kind::clock_off_access,
                 "DMA command " + hex(c) + " while the chip clock is off");
            reply(spi_status::INTERNAL);
            return;
        }
        // The buffer only grows (a resize after a shorter DMA would zero-fill the difference):
        // a write transfer overwrites every byte before block_write() sees the first m_dma_size,
        // and block_read() clears them itself.
        if (m_dma_buf.size() < m_dma_size)
            m_dma_buf.resize(m_dma_size);
        reply(spi_status::OK);
        if (c == DMA_EXT_WRITE) {
            m_after = state::dma_write;
            m_phase = phase::tag;
        } else {
            // The chip fetches the data now; the first tag is ready after dma_read_latency.
            m_core.block_read(m_dma_addr, m_dma_buf.data(), m_dma_size, t);
            m_rd_ready = t + p.dma_read_latency;
            m_after = state::dma_read;
            m_pkt_len = std::min(m_dma_size, m_blk);
            m_pkt_pos = 0;
            m_phase = phase::tag;
        }
        return;
    }
    case RESET:
        // Resets the SPI slave state machine only; PROTOCOL_CONFIG (CRC, packet size) is kept.
        m_async.clear();
        m_rsp.push_back(0x00); // the response starts one byte later
        reply(spi_status::OK);
        return;
    default:
        return;
    }
}

} // namespace nicsim::wilc

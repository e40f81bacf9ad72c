// SPDX-License-Identifier: MIT
#include "models/enc28j60/enc28j60_spi.h"

#include <cstring>
#include <string>

#include "bus/common/local_time.h"

namespace nicsim::enc {

bool spi_frontend::local_only(const spi::spi_payload& frame) const {
    // Byte k of the CS window that starts at transfer `first` (0 where MOSI is not driven).
    const auto byte_at = [&frame](size_t first, size_t k, uint8_t& b) {
        for (size_t i = first; i < frame.xfers.size(); ++i) {
            const auto& x = frame.xfers[i];
            if (k < x.len) {
                b = x.tx ? x.tx[k] : 0;
                return true;
            }
            k -= x.len;
            if (x.cs_change)
                break;
        }
        return false;
    };
    unsigned bank = m_core.bank(); // as the frame's bank-select commands leave it
    size_t first = 0;
    while (first < frame.xfers.size()) {
        uint8_t b0 = 0, b1 = 0;
        if (byte_at(first, 0, b0)) {
            const auto op = static_cast<opcode>(b0 >> 5);
            const uint8_t arg = b0 & 0x1F;
            const bool has_data = byte_at(first, 1, b1);
            if (op == opcode::bfs || op == opcode::bfc) {
                if (arg != reg::ECON1.off || !has_data || (b1 & ~ECON1_BSEL) != 0)
                    return false;
                bank = op == opcode::bfs ? (bank | b1) : (bank & ~unsigned(b1));
            } else if (op == opcode::wcr) {
                const bool pointer = bank == 0 && arg <= reg::EWRPTH.off; // ERDPTL..EWRPTH
                if (!pointer)
                    return false;
            } else if (op != opcode::rcr && op != opcode::rbm && op != opcode::wbm) {
                return false;
            }
        }
        while (first < frame.xfers.size() && !frame.xfers[first].cs_change)
            ++first;
        ++first;
    }
    return true;
}

void spi_frontend::spi_transport(spi::spi_payload& frame, sc_core::sc_time&) {
    if (!local_only(frame))
        local_time::sync(); // the TLM-2.0 way: the initiator catches up first
    ++m_stats.frames;
    auto& log = m_core.findings();
    if (frame.mode != spi::spi_mode::mode0)
        log.add(finding_kind::spi_mode, "SPI mode " + std::to_string(unsigned(frame.mode)) +
                                            " (the chip supports mode 0,0 only)");
    for (const auto& x : frame.xfers) {
        const uint32_t hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
        if (hz > m_core.prm().max_sck_hz) {
            log.add(finding_kind::sck_too_fast,
                    "SCK " + std::to_string(hz) + " Hz above " +
                        std::to_string(uint64_t(m_core.prm().max_sck_hz)) + " Hz");
            break;
        }
    }
    size_t first = 0;
    while (first < frame.xfers.size()) {
        size_t last = first;
        while (last + 1 < frame.xfers.size() && !frame.xfers[last].cs_change)
            ++last;
        size_t n = 0;
        for (size_t i = first; i <= last; ++i)
            n += frame.xfers[i].len;
        m_mosi.assign(n, 0);
        m_miso.assign(n, 0);
        size_t pos = 0;
        for (size_t i = first; i <= last; ++i) {
            const auto& x = frame.xfers[i];
            if (x.tx)
                std::memcpy(m_mosi.data() + pos, x.tx, x.len);
            pos += x.len;
        }
        if (n)
            command(m_mosi.data(), m_miso.data(), n);
        m_stats.bytes += n;
        pos = 0;
        for (size_t i = first; i <= last; ++i) {
            auto& x = frame.xfers[i];
            if (x.rx)
                std::memcpy(x.rx, m_miso.data() + pos, x.len);
            pos += x.len;
        }
        first = last + 1;
    }
}

void spi_frontend::command(const uint8_t* mosi, uint8_t* miso, size_t n) {
    ++m_stats.commands;
    const auto op = static_cast<opcode>(mosi[0] >> 5);
    const uint8_t arg = mosi[0] & 0x1F;
    auto& log = m_core.findings();
    auto protocol = [&](const std::string& why) { log.add(finding_kind::spi_protocol, why); };
    m_core.begin_command(op, arg);
    switch (op) {
    case opcode::rcr: {
        ++m_stats.rcr;
        const bool mac = arg < first_common && m_core.is_mac_mii(arg);
        const size_t first_data = mac ? 2 : 1;
        if (n <= first_data) {
            if (mac && n == 2)
                log.add(finding_kind::missing_dummy_byte, "RCR of MAC/MII register " +
                                                              m_core.reg_name(arg) +
                                                              " without the dummy byte");
            else
                protocol("RCR without a data byte");
            m_core.read_control(arg); // the chip still fetched it
            return;
        }
        // One register fetch per command; further bytes repeat it [assumption].
        const uint8_t v = m_core.read_control(arg);
        for (size_t i = first_data; i < n; ++i)
            miso[i] = v;
        return;
    }
    case opcode::rbm:
        ++m_stats.rbm;
        if (arg != buffer_arg)
            protocol("RBM opcode with argument " + std::to_string(arg) + " (must be 0x1A)");
        if (n > 1)
            m_core.read_buffer(miso + 1, n - 1);
        m_stats.buffer_bytes_read += n - 1;
        return;
    case opcode::wcr:
        ++m_stats.wcr;
        if (n < 2) {
            protocol("WCR without a data byte");
            return;
        }
        if (n > 2)
            protocol("WCR with " + std::to_string(n - 2) + " extra bytes (ignored)");
        m_core.write_control(arg, mosi[1]);
        return;
    case opcode::wbm:
        ++m_stats.wbm;
        if (arg != buffer_arg)
            protocol("WBM opcode with argument " + std::to_string(arg) + " (must be 0x1A)");
        if (n > 1)
            m_core.write_buffer(mosi + 1, n - 1);
        m_stats.buffer_bytes_written += n - 1;
        return;
    case opcode::bfs:
    case opcode::bfc:
        ++(op == opcode::bfs ? m_stats.bfs : m_stats.bfc);
        if (n < 2) {
            protocol("BFS/BFC without a mask byte");
            return;
        }
        if (n > 2)
            protocol("BFS/BFC with extra bytes (ignored)");
        m_core.bit_field(arg, mosi[1], op == opcode::bfs);
        return;
    case opcode::src:
        ++m_stats.src;
        if (arg != src_arg) {
            protocol("opcode 111 with argument " + std::to_string(arg) + " (SRC is 0xFF)");
            return;
        }
        // The driver sends 0xFF 0xFF; bytes after the opcode are ignored.
        m_core.soft_reset();
        return;
    case opcode::bad:
        protocol("undefined opcode 110");
        return;
    }
}

} // namespace nicsim::enc

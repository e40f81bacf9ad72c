// SPDX-License-Identifier: MIT
#include "bus/sdio/sdio_vcd_tracer.h"

#include <array>
#include <stdexcept>

namespace nicsim::sdio {

namespace {

constexpr size_t n_signals = 7;
const char* const signal_names[n_signals] = {"clk",  "cmd",  "dat0",    "dat1",
                                             "dat2", "dat3", "card_irq"};
constexpr bool idle_level[n_signals] = {false, true, true, true, true, true, false};

// 48-bit token with CRC7 over its first 40 bits and the end bit (PLS 4.7.2, SDIO 5.2).
uint64_t token48(uint64_t first40) {
    return (first40 << 8) | (uint64_t(crc7_bits(first40, 40)) << 1) | 1u;
}

bool token_bit(uint64_t token, uint64_t k) {
    return (token >> (47 - k)) & 1;
}

// Data bit of DAT line `line` in data cycle n of a block (PLS 3.6.1: 1-bit MSB first on DAT0;
// 4-bit: each byte high nibble then low nibble, nibble bit 3 on DAT3).
bool data_bit(const uint8_t* d, unsigned width, uint64_t n, unsigned line) {
    if (width == 1)
        return (d[n / 8] >> (7 - n % 8)) & 1;
    const uint8_t b = d[n / 2];
    const unsigned nib = (n % 2 == 0) ? (b >> 4) : (b & 0xF);
    return (nib >> line) & 1;
}

} // namespace

sdio_vcd_tracer::sdio_vcd_tracer(const std::string& path, const std::string& scope)
    : m_out(path), m_path(path) {
    if (!m_out)
        throw std::runtime_error("sdio_vcd_tracer: cannot open '" + path + "' for writing");
    // No $date: the file must be a deterministic function of the simulation.
    m_out << "$version nicsim sdio_vcd_tracer $end\n$timescale 1ps $end\n$scope module " << scope
          << " $end\n";
    for (size_t i = 0; i < n_signals; ++i) {
        m_ids.push_back(std::string(1, static_cast<char>('!' + i)));
        m_out << "$var wire 1 " << m_ids.back() << ' ' << signal_names[i] << " $end\n";
        m_level.push_back(idle_level[i]);
    }
    m_out << "$upscope $end\n$enddefinitions $end\n";
}

sdio_vcd_tracer::~sdio_vcd_tracer() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; close() explicitly to see write errors.
    }
}

void sdio_vcd_tracer::record(sdio_wire wire, const sc_core::sc_time& t, bool level) {
    record_ps(static_cast<size_t>(wire), to_ps(t), level);
}

void sdio_vcd_tracer::record_ps(size_t idx, uint64_t ps, bool level) {
    if (m_closed)
        throw std::logic_error("sdio_vcd_tracer: record() after close() of '" + m_path + "'");
    if (ps < m_pending_ps)
        throw std::logic_error("sdio_vcd_tracer: change at " + std::to_string(ps) +
                               " ps is earlier than one already recorded in '" + m_path +
                               "' (one host per tracer, commands in time order)");
    if (ps > m_pending_ps) {
        flush();
        m_pending_ps = ps;
    }
    m_pending[idx] = level;
}

void sdio_vcd_tracer::flush() {
    if (!m_dumped) {
        m_out << "#0\n$dumpvars\n";
        for (size_t i = 0; i < m_ids.size(); ++i) {
            if (m_pending_ps == 0 && m_pending.count(i))
                m_level[i] = m_pending[i];
            m_out << (m_level[i] ? '1' : '0') << m_ids[i] << '\n';
        }
        m_out << "$end\n";
        m_dumped = true;
        if (m_pending_ps == 0) {
            m_pending.clear();
            return;
        }
    }
    bool stamped = false;
    for (const auto& [idx, v] : m_pending) {
        if (m_level[idx] == v)
            continue;
        if (!stamped) {
            m_out << '#' << m_pending_ps << '\n';
            stamped = true;
        }
        m_out << (v ? '1' : '0') << m_ids[idx] << '\n';
        m_level[idx] = v;
    }
    m_pending.clear();
}

void sdio_vcd_tracer::drain_irq(uint64_t up_to_ps) {
    while (!m_irq_queue.empty() && m_irq_queue.front().first <= up_to_ps) {
        record_ps(static_cast<size_t>(sdio_wire::card_irq), m_irq_queue.front().first,
                  m_irq_queue.front().second);
        m_irq_queue.pop_front();
    }
}

void sdio_vcd_tracer::close() {
    if (m_closed)
        return;
    drain_irq(UINT64_MAX);
    flush();
    m_closed = true;
    m_out.close();
    if (!m_out)
        throw std::runtime_error("sdio_vcd_tracer: error writing '" + m_path + "'");
}

void sdio_vcd_tracer::on_irq(const irq_line&, bool level, const sc_core::sc_time& t) {
    m_irq_queue.emplace_back(to_ps(t), level);
}

void sdio_vcd_tracer::on_command(const sdio_payload& p, const sdio_schedule& s) {
    const uint64_t origin = to_ps(s.origin);
    const unsigned width = s.bus_width;
    const unsigned idx = static_cast<unsigned>(p.cmd);

    // CMD line tokens: command (start 0, transmission 1) and R5 response (start 0,
    // transmission 0, 16 stuff bits, flags, data byte).
    const uint64_t cmd_tok = token48((uint64_t(0x40 | idx) << 32) | command_argument(p));
    const uint8_t r5_data = (p.is_cmd52() && p.data) ? *p.data : 0;
    const uint64_t resp_tok =
        token48((uint64_t(idx) << 32) | (uint64_t(p.r5_flags) << 16) | (uint64_t(r5_data) << 8));

    // Per-block, per-line CRC16 (PLS 4.5).
    const size_t bb = p.block_bytes();
    const uint64_t dcyc = s.blocks.empty() ? 0 : bb * 8 / width;
    std::vector<std::array<uint16_t, 4>> crcs(s.blocks.size());
    for (size_t b = 0; b < s.blocks.size(); ++b) {
        crcs[b] = {0, 0, 0, 0};
        for (uint64_t n = 0; n < dcyc; ++n)
            for (unsigned l = 0; l < width; ++l)
                crcs[b][l] = crc16_step(crcs[b][l], data_bit(p.data + b * bb, width, n, l));
    }

    std::array<bool, n_signals> cur;
    for (size_t i = 0; i < n_signals; ++i)
        cur[i] = idle_level[i];
    auto set = [&](sdio_wire w, uint64_t ps, bool v) {
        const size_t i = static_cast<size_t>(w);
        if (cur[i] == v && w != sdio_wire::clk)
            return;
        drain_irq(ps);
        record_ps(i, ps, v);
        cur[i] = v;
    };

    size_t blk = 0;
    unsigned stalls = 0;
    for (uint64_t c = 0; c < s.wire_cycles; ++c) {
        // Move to the block this cycle belongs to (a stall precedes blocks 1..n-1).
        while (blk + 1 < s.blocks.size() && c >= s.blocks[blk + 1].start_cycle)
            ++blk;
        if (!s.blocks.empty() && c >= s.blocks[blk].start_cycle)
            stalls = s.blocks[blk].stalls_before;
        const uint64_t t0 = origin + to_ps(cycle_time(s, c, stalls));
        const uint64_t t1 = origin + to_ps(cycle_time(s, c + 1, stalls));
        const uint64_t mid = t0 + (t1 - t0) / 2;

        set(sdio_wire::clk, t0, false);
        // CMD
        bool cmd = true;
        if (c < sdio_cmd_bits)
            cmd = token_bit(cmd_tok, c);
        else if (c >= s.resp_start_cycle && c < s.resp_end_cycle)
            cmd = token_bit(resp_tok, c - s.resp_start_cycle);
        set(sdio_wire::cmd, t0, cmd);
        // DAT
        std::array<bool, 4> dat = {true, true, true, true};
        if (!s.blocks.empty()) {
            const sdio_block_schedule& b = s.blocks[blk];
            if (c >= b.start_cycle && c < b.end_cycle) {
                const uint64_t k = c - b.start_cycle;
                for (unsigned l = 0; l < width; ++l) {
                    if (k == 0)
                        dat[l] = false; // start bit
                    else if (k <= dcyc)
                        dat[l] = data_bit(p.data + blk * bb, width, k - 1, l);
                    else if (k <= dcyc + sdio_crc16_bits)
                        dat[l] = (crcs[blk][l] >> (15 - (k - dcyc - 1))) & 1;
                    // else end bit: high
                }
            } else if (p.write && c >= b.status_cycle && c < b.busy_end_cycle) {
                const uint64_t k = c - b.status_cycle;
                // Token: start 0, status 010 (accepted), end 1; then busy (low).
                static constexpr bool token[sdio_crc_status_bits] = {false, false, true, false,
                                                                     true};
                dat[0] = k < sdio_crc_status_bits ? token[k] : false;
            }
        }
        set(sdio_wire::dat0, t0, dat[0]);
        set(sdio_wire::dat1, t0, dat[1]);
        set(sdio_wire::dat2, t0, dat[2]);
        set(sdio_wire::dat3, t0, dat[3]);
        set(sdio_wire::clk, mid, true);
    }
    // Cycle-grid end of the wire activity; a card delay extends a write's busy to wire_end.
    const uint64_t grid_end = origin + to_ps(cycle_time(s, s.wire_cycles, stalls));
    set(sdio_wire::clk, grid_end, false);
    if (p.write && !s.blocks.empty() && s.card_delay != sc_core::SC_ZERO_TIME)
        set(sdio_wire::dat0, grid_end, false);
    const uint64_t end = origin + to_ps(s.wire_end);
    set(sdio_wire::cmd, end, true);
    for (sdio_wire w : {sdio_wire::dat0, sdio_wire::dat1, sdio_wire::dat2, sdio_wire::dat3})
        set(w, end, true);
    // Nothing later than the command's return can be written before it any more.
    drain_irq(origin + to_ps(s.total));
}

} // namespace nicsim::sdio

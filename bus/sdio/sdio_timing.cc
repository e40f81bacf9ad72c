// SPDX-License-Identifier: MIT
#include "bus/sdio/sdio_timing.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace nicsim::sdio {

namespace {

constexpr uint64_t ps_per_s = 1'000'000'000'000ULL;

// Start of SDCLK cycle c at f Hz: round(c * 1e12 / f) ps, half up.
uint64_t cyc_ps(uint64_t c, uint32_t f) {
    const unsigned __int128 num = static_cast<unsigned __int128>(c) * ps_per_s + f / 2;
    return static_cast<uint64_t>(num / f);
}

uint64_t units_per_ps() {
    // The first sc_time construction fixes the kernel's resolution, so this cannot change later.
    static const uint64_t u = [] {
        const auto v = sc_core::sc_time(1.0, sc_core::SC_PS).value();
        if (v == 0)
            throw std::logic_error("nicsim::sdio: SystemC time resolution is coarser than 1 ps; "
                                   "the SDIO wire schedule needs 1 ps or finer");
        return v;
    }();
    return u;
}

const char* cmd_name(const sdio_payload& p) {
    return p.is_cmd52() ? "CMD52" : "CMD53";
}

} // namespace

uint64_t to_ps(const sc_core::sc_time& t) {
    const uint64_t u = units_per_ps();
    return (t.value() + u / 2) / u;
}

sc_core::sc_time from_ps(uint64_t ps) {
    return sc_core::sc_time::from_value(ps * units_per_ps());
}

void validate_ios(uint32_t clock_hz, unsigned bus_width, const sdio_host_timing& timing) {
    if (bus_width != 1 && bus_width != 4)
        throw std::invalid_argument("sdio: bus_width = " + std::to_string(bus_width) +
                                    " (an SDIO card supports 1 or 4 data lines)");
    if (clock_hz == 0)
        throw std::invalid_argument("sdio: clock_hz = 0 (SDCLK stopped; need > 0)");
    if (clock_hz > sdio_max_clock_hz)
        throw std::invalid_argument("sdio: clock_hz = " + std::to_string(clock_hz) +
                                    " Hz exceeds the SDIO high-speed maximum of 50000000 Hz");
    if (timing.max_clock_hz != 0 && clock_hz > timing.max_clock_hz)
        throw std::invalid_argument("sdio: clock_hz = " + std::to_string(clock_hz) +
                                    " Hz exceeds the host controller's max_clock_hz = " +
                                    std::to_string(timing.max_clock_hz) + " Hz");
}

void validate_command(const sdio_payload& p) {
    if (!p.is_cmd52() && !p.is_cmd53())
        throw std::invalid_argument("sdio: cmd = " + std::to_string(unsigned(p.cmd)) +
                                    " (only CMD52 and CMD53 are modelled)");
    const std::string c = cmd_name(p);
    if (p.fn > 7)
        throw std::invalid_argument("sdio " + c + ": fn = " + std::to_string(p.fn) +
                                    " (function numbers are 0..7)");
    if (p.addr > 0x1FFFF)
        throw std::invalid_argument("sdio " + c + ": addr = " + std::to_string(p.addr) +
                                    " exceeds the 17-bit register address (max 0x1FFFF)");
    if (p.is_cmd52()) {
        if (p.data == nullptr)
            throw std::invalid_argument("sdio CMD52: data == nullptr (CMD52 needs exactly one "
                                        "data byte: the value to write or the byte read)");
        return;
    }
    if (p.block_mode) {
        if (p.count == 0 || p.count > 511)
            throw std::invalid_argument("sdio CMD53: block count = " + std::to_string(p.count) +
                                        " (block mode needs 1..511; 0 = infinite is not "
                                        "supported)");
        if (p.block_size == 0 || p.block_size > 2048)
            throw std::invalid_argument("sdio CMD53: block_size = " + std::to_string(p.block_size) +
                                        " (must be 1..2048)");
    } else if (p.count == 0 || p.count > 512) {
        throw std::invalid_argument("sdio CMD53: byte count = " + std::to_string(p.count) +
                                    " (byte mode moves 1..512 bytes)");
    }
    if (p.data == nullptr)
        throw std::invalid_argument("sdio CMD53: data == nullptr but the command moves " +
                                    std::to_string(p.data_bytes()) + " byte(s)");
}

sc_core::sc_time cycle_time(const sdio_schedule& s, uint64_t cycle, unsigned stalls) {
    return from_ps(s.cmd_start_ps + cyc_ps(cycle, s.clock_hz) + stalls * s.stall_ps);
}

unsigned stalls_before(const sdio_schedule& s, uint64_t cycle, bool at_start) {
    unsigned n = 0;
    for (size_t i = 1; i < s.blocks.size(); ++i) {
        const uint64_t b = s.blocks[i].start_cycle;
        if (b < cycle || (at_start && b == cycle))
            ++n;
        else
            break;
    }
    return n;
}

sdio_schedule compute_schedule(const sdio_payload& p, uint32_t clock_hz, unsigned bus_width,
                               const sdio_host_timing& t, const sc_core::sc_time& bus_wait) {
    validate_ios(clock_hz, bus_width, t);
    validate_command(p);

    sdio_schedule s;
    s.clock_hz = clock_hz;
    s.bus_width = bus_width;
    s.data_bytes = p.data_bytes();
    s.write = p.write;
    s.dma = p.is_cmd53() && t.dma_threshold_bytes != 0 && s.data_bytes >= t.dma_threshold_bytes;
    s.stall_ps = to_ps(t.per_block_overhead);

    // Software before the command: request setup (+ DMA descriptor setup), then any wait for
    // the bus (N_RC after the previous response).
    uint64_t pre = to_ps(t.per_request_overhead);
    if (s.dma)
        pre += to_ps(t.dma_setup);
    s.cmd_start_ps = pre + to_ps(bus_wait);
    s.cmd_start = from_ps(s.cmd_start_ps);

    // PLS 4.7.2: command token cycles [0, 48). PLS 4.12.1: response after N_CR.
    const uint64_t cmd_end = sdio_cmd_bits;
    s.resp_start_cycle = cmd_end + t.n_cr_cycles;
    s.resp_end_cycle = s.resp_start_cycle + sdio_resp_bits;

    uint64_t card = s.resp_end_cycle; // CMD52: the response is the last thing on the wire
    uint64_t wire = s.resp_end_cycle;
    const unsigned nblocks = p.data_blocks();
    if (nblocks) {
        // PLS 3.6.1: start bit, block_bytes * 8 / width data cycles, CRC16, end bit.
        const uint64_t len = 1 + p.block_bytes() * 8 / bus_width + sdio_crc16_bits + 1;
        s.blocks.resize(nblocks);
        uint64_t prev_end = 0;
        for (unsigned i = 0; i < nblocks; ++i) {
            sdio_block_schedule& b = s.blocks[i];
            b.stalls_before = i; // one stall before every block after the first
            if (!p.write) {
                // PLS 4.12.2: N_AC after the command end bit, then after each block's end bit.
                b.start_cycle = (i == 0 ? cmd_end : prev_end) + t.n_ac_cycles;
            } else {
                // PLS 4.12.3: N_WR after the response end bit, then after the previous block's
                // CRC status (and busy).
                b.start_cycle = (i == 0 ? s.resp_end_cycle : prev_end) + t.n_wr_cycles;
            }
            b.crc_cycle = b.start_cycle + 1 + p.block_bytes() * 8 / bus_width;
            b.end_cycle = b.start_cycle + len;
            if (p.write) {
                b.status_cycle = b.end_cycle + t.crc_status_delay_cycles;
                b.busy_end_cycle = b.status_cycle + sdio_crc_status_bits + t.write_busy_cycles;
                prev_end = b.busy_end_cycle;
                s.data_cycles += b.busy_end_cycle - b.start_cycle;
            } else {
                b.busy_end_cycle = b.end_cycle;
                prev_end = b.end_cycle;
                s.data_cycles += len;
            }
        }
        const sdio_block_schedule& last = s.blocks.back();
        if (p.write) {
            // Contract (sdio_sockets.h): the card is called after the last CRC status token;
            // the last busy follows.
            card = last.status_cycle + sdio_crc_status_bits;
            wire = last.busy_end_cycle;
        } else {
            // A short read can end its data before the response has ended.
            card = std::max(s.resp_end_cycle, last.end_cycle);
            wire = card;
        }
        for (sdio_block_schedule& b : s.blocks) {
            b.start = cycle_time(s, b.start_cycle, b.stalls_before);
            b.end = cycle_time(s, b.busy_end_cycle, b.stalls_before);
        }
    }
    s.card_cycle = card;
    s.wire_cycles = wire;

    s.resp_end = cycle_time(s, s.resp_end_cycle, stalls_before(s, s.resp_end_cycle, false));
    s.card_at = cycle_time(s, card, stalls_before(s, card, false));
    s.wire_end = cycle_time(s, wire, stalls_before(s, wire, false));
    const uint64_t rc = s.resp_end_cycle + t.n_rc_cycles;
    s.bus_free = std::max(cycle_time(s, rc, stalls_before(s, rc, false)), s.wire_end);
    s.total = s.wire_end + t.completion_overhead;
    s.bus_time = s.wire_end - s.cmd_start;

    sc_core::sc_time stalls = sc_core::SC_ZERO_TIME;
    if (nblocks) {
        stalls = from_ps(s.stall_ps * (nblocks - 1));
        s.data_time = s.blocks.back().end - s.blocks.front().start;
        if (!s.dma)
            s.pio_time = s.data_time - stalls; // stalls are counted once, below
    }
    s.cpu_busy = from_ps(pre) + t.completion_overhead + stalls + s.pio_time;
    return s;
}

void add_card_delay(sdio_schedule& s, const sc_core::sc_time& delay) {
    s.card_delay += delay;
    s.wire_end += delay;
    s.bus_free = std::max(s.bus_free, s.wire_end);
    s.total += delay;
    s.bus_time += delay;
    if (s.write && !s.blocks.empty()) {
        s.blocks.back().end += delay; // write: busy held longer
        s.data_time += delay;
    }
}

uint32_t command_argument(const sdio_payload& p) {
    uint32_t a =
        (p.write ? 1u << 31 : 0u) | (uint32_t(p.fn & 7) << 28) | (uint32_t(p.addr & 0x1FFFF) << 9);
    if (p.is_cmd52()) {
        // SDIO 5.1: R/W, function, RAW, stuff, address, stuff, write data.
        if (p.raw)
            a |= 1u << 27;
        if (p.write && p.data)
            a |= *p.data;
    } else {
        // SDIO 5.3: R/W, function, block mode, OP code (incrementing), address, count
        // (byte mode: 512 is sent as 0).
        if (p.block_mode)
            a |= 1u << 27;
        if (p.incr_addr)
            a |= 1u << 26;
        a |= p.count & 0x1FF;
    }
    return a;
}

uint8_t crc7_bits(uint64_t bits, unsigned nbits) {
    uint8_t crc = 0;
    for (unsigned i = nbits; i-- > 0;) {
        const bool in = (bits >> i) & 1;
        const bool fb = ((crc >> 6) & 1) ^ in;
        crc = static_cast<uint8_t>((crc << 1) & 0x7F);
        if (fb)
            crc ^= 0x09; // x^3 + 1
    }
    return crc;
}

uint16_t crc16_step(uint16_t crc, bool bit) {
    const bool fb = ((crc >> 15) & 1) ^ bit;
    crc = static_cast<uint16_t>(crc << 1);
    if (fb)
        crc ^= 0x1021; // x^12 + x^5 + 1
    return crc;
}

} // namespace nicsim::sdio

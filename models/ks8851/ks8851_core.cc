// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_core.h"

#include <cstring>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "bus/common/local_time.h"
#include "models/common/frame_buffers.h"
#include "models/ethernet/eth_crc.h"
#include "models/ks8851/ks8851_regs.h"

namespace nicsim::ks {

using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_ZERO_TIME;

const char* to_string(finding_kind k) {
    switch (k) {
    case finding_kind::unmapped_register:
        return "unmapped_register";
    case finding_kind::read_only_write:
        return "read_only_write";
    case finding_kind::fifo_without_sda:
        return "fifo_without_sda";
    case finding_kind::txq_overflow:
        return "txq_overflow";
    case finding_kind::bad_tx_header:
        return "bad_tx_header";
    case finding_kind::tx_frame_aborted:
        return "tx_frame_aborted";
    case finding_kind::release_empty:
        return "release_empty";
    case finding_kind::dma_not_ready:
        return "dma_not_ready";
    case finding_kind::spi_protocol:
        return "spi_protocol";
    case finding_kind::sck_too_fast:
        return "sck_too_fast";
    case finding_kind::par_protocol:
        return "par_protocol";
    case finding_kind::no_wire:
        return "no_wire";
    }
    return "?";
}

namespace {
std::string hex16(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "0x%02x", v);
    return b;
}
} // namespace

core::core(sc_core::sc_module_name name, const params& p) : sc_module(name), m_p(p), m_power(m_p) {
    if (!(p.clock_hz > 0.0) || !std::isfinite(p.clock_hz))
        throw std::invalid_argument(std::string(this->name()) + ": params.clock_hz must be > 0");
    if (p.mem_align == 0 || (p.mem_align & (p.mem_align - 1)))
        throw std::invalid_argument(std::string(this->name()) +
                                    ": params.mem_align must be a power of two");
    if (p.txq_bytes == 0 || p.txq_bytes > 0x1FFF)
        throw std::invalid_argument(std::string(this->name()) +
                                    ": params.txq_bytes must be 1..8191 (TXMIR is 13 bits)");
    if (p.rxq_bytes == 0)
        throw std::invalid_argument(std::string(this->name()) + ": params.rxq_bytes must be > 0");
    if (p.rxdttr_unit_cycles == 0)
        throw std::invalid_argument(std::string(this->name()) +
                                    ": params.rxdttr_unit_cycles must be >= 1");
    m_period = sc_time(1.0 / p.clock_hz, sc_core::SC_SEC);
    declare_registers(m_regs);
    for (unsigned i = 0; i < m_by_off.size(); ++i)
        m_by_off[i] = m_regs.find(0, 2 * i);
    attach_handlers();
    reset_registers();

    SC_HAS_PROCESS(core);
    SC_METHOD(commit_rx);
    sensitive << m_commit_ev;
    dont_initialize();
    SC_METHOD(dt_expired);
    sensitive << m_dt_ev;
    dont_initialize();
    SC_METHOD(enqueue_written);
    sensitive << m_enqueue_ev;
    dont_initialize();
    SC_THREAD(tx_engine);
}

sc_time core::clock_edge_at_or_after(const sc_time& t) const {
    const double n = std::ceil(t / m_period - 1e-9);
    return m_period * n;
}

void core::attach_wire(eth::eth_wire& wire) {
    m_wire = &wire;
    wire.attach_station(*this);
    m_link_up = wire.link_up();
    m_power.set_link(local_time::now(), m_link_up);
}

// ---------------------------------------------------------------- registers

// Handlers by register: values the chip computes are read handlers, side effects of control
// registers are write handlers. Access rules and reset values are the declarations'.
void core::attach_handlers() {
    R(reg::CCR).on_read = [this](uint16_t) {
        uint16_t v = m_p.eeprom ? CCR_EEPROM : 0;
        if (m_p.bus == bus_variant::spi)
            v |= CCR_SPI | CCR_32PIN;
        else
            v |= CCR_16BIT | CCR_48PIN | (m_p.par_endian_strap_ok ? CCR_LE : 0);
        return v;
    };
    R(reg::MBIR).on_read = [this](uint16_t) { return m_p.mbir; };
    R(reg::GRR).on_write = [this](uint16_t, uint16_t v) { write_grr(v); };
    R(reg::TXCR).on_write = [this](uint16_t o, uint16_t v) { write_txcr(o, v); };
    R(reg::RXCR1).on_write = [this](uint16_t o, uint16_t v) { write_rxcr1(o, v); };
    R(reg::TXMIR).on_read = [this](uint16_t) {
        if (faults.tx_full.attached() && faults.tx_full.fires(local_time::now())) {
            faults.tx_full.effect(local_time::now(), "TXMIR read 0 bytes free (TX buffer full)");
            return uint16_t(0);
        }
        return uint16_t((m_p.txq_bytes - m_tx_used) & 0x1FFF);
    };
    R(reg::RXFHSR).on_read = [this](uint16_t) {
        return m_rxq.empty() ? uint16_t(0) : m_rxq.front().status;
    };
    R(reg::RXFHBCR).on_read = [this](uint16_t) {
        return m_rxq.empty() ? uint16_t(0) : m_rxq.front().count;
    };
    auto& txqcr = R(reg::TXQCR);
    txqcr.on_read = [this](uint16_t s) {
        return uint16_t((s & ~TXQCR_METFE) | (m_metfe ? TXQCR_METFE : 0)); // live bit: m_metfe
    };
    txqcr.on_write = [this](uint16_t, uint16_t v) { write_txqcr(v); };
    auto& rxqcr = R(reg::RXQCR);
    rxqcr.on_read = [this](uint16_t s) {
        return uint16_t((s & ~RXQCR_SDA) | (m_sda ? RXQCR_SDA : 0)); // live bit: m_sda
    };
    rxqcr.on_write = [this](uint16_t o, uint16_t v) { write_rxqcr(o, v); };
    R(reg::RXFDPR).on_write = [this](uint16_t, uint16_t v) { m_rx_ptr = v & 0x7FF; };
    R(reg::IER).on_write = [this](uint16_t, uint16_t) { update_irq(); };
    R(reg::ISR).on_write = [this](uint16_t, uint16_t v) {
        if (!(v & IRQ_RXI)) // acknowledging RXI clears the threshold status bits
            R(reg::RXQCR).set_bits(RXQCR_RXDTTS | RXQCR_RXDBCTS | RXQCR_RXFCTS, false);
        update_irq();
    };
    R(reg::RXFCTR).on_read = [this](uint16_t s) {
        return uint16_t(std::min<size_t>(m_rxq.size(), 255) << 8 | (s & 0xFF));
    };
    R(reg::CIDER).on_read = [this](uint16_t) { return m_p.cider; };
    // Power-management mode: metered (ks8851_power.h); the other PMECR bits are storage.
    R(reg::PMECR).on_write = [this](uint16_t, uint16_t v) {
        m_power.set_mode(local_time::now(), static_cast<pm_mode>(v & PMECR_PM_MASK));
    };
    // PHY reset self-clears; link state is the wire's.
    R(reg::PHYRR).on_write = [this](uint16_t, uint16_t) { R(reg::PHYRR).set(0); };
    R(reg::P1MBCR).on_write = [this](uint16_t, uint16_t v) { write_p1mbcr(v); };
    R(reg::P1MBSR).on_read = [this](uint16_t) {
        // 100FD|100HD|10FD|10HD, AN capable, extended capabilities; link latches low.
        uint16_t v = 0x7809;
        if (m_link_up && !m_link_latched_low)
            v |= BMSR_LSTATUS | BMSR_ANEGCOMPLETE;
        return v;
    };
    // [fact] PHY id 0x00221430 (KSZ886X/KSZ8851), swapped
    R(reg::PHY1ILR).on_read = [](uint16_t) { return uint16_t(0x1430); };
    R(reg::PHY1IHR).on_read = [](uint16_t) { return uint16_t(0x0022); };
    R(reg::P1ANLPR).on_read = [this](uint16_t) {
        return uint16_t(m_link_up ? 0x45E1 : 0); // partner: ack + 10/100 HD/FD + pause
    };
    R(reg::P1SR).on_read = [this](uint16_t) {
        if (!m_link_up)
            return uint16_t(0);
        const bool fast = !m_wire || m_wire->params().rate_bps >= 100e6;
        // OP_100M, OP_FDX, AN_DONE, LINK_GOOD, partner flow + 10/100 HD/FD
        return uint16_t((fast ? 1u << 10 : 0) | 1u << 9 | 1u << 6 | 1u << 5 | 0x1F);
    };
}

void core::reset_registers() {
    m_regs.reset_all();
    m_power.set_mode(local_time::now(), static_cast<pm_mode>(r(reg::PMECR) & PMECR_PM_MASK));
    const auto& m = m_p.mac_reset;
    R(reg::MARH).set(uint16_t(m[0] << 8 | m[1]));
    R(reg::MARM).set(uint16_t(m[2] << 8 | m[3]));
    R(reg::MARL).set(uint16_t(m[4] << 8 | m[5]));
    m_sda = false;
    m_metfe = false;
    flush_queues();
    update_irq();
}

void core::flush_queues() {
    ++m_generation;
    m_rxq.clear();
    m_rx_pending.clear();
    m_rx_used = 0;
    m_rx_ptr = 0;
    m_dt_running = false;
    m_dt_ev.cancel();
    m_tx_written.clear();
    m_tx_queue.clear();
    m_tx_hdr.clear();
    m_tx_in_frame = false;
    m_tx_skip = false;
    m_metfe = false;
    m_metfe_batch = 0;
    // A frame already on the wire finishes there, but its memory is returned now.
    m_tx_used = 0;
}

uint16_t core::reg_peek(uint8_t off) const {
    const reg16* d = m_by_off[off >> 1];
    return d ? d->read() : 0;
}

uint16_t core::reg_read(uint8_t off) {
    off &= 0xFE;
    const reg16* d = m_by_off[off >> 1];
    if (!d) {
        m_findings.add(finding_kind::unmapped_register, "read of unmapped register " + hex16(off));
        return 0;
    }
    const uint16_t v = d->read();
    // Read side effects (reg_peek has none).
    if (off == reg::P1MBSR)
        m_link_latched_low = false; // reading BMSR re-arms the latch (MII semantics)
    if (off == reg::ISR)
        ++m_stats.isr_reads;
    return v;
}

void core::reg_write(uint8_t off, uint16_t value, uint16_t mask) {
    // Answered at the host's local time (bus/common/local_time.h), like reads and FIFO data: a
    // write that starts one of the chip's own processes (TX engine, enqueue, interrupt line)
    // catches up first where it does so (kick_tx, write_txqcr, update_irq).
    off &= 0xFE;
    reg16* d = m_by_off[off >> 1];
    if (!d) {
        m_findings.add(finding_kind::unmapped_register,
                       "write of unmapped register " + hex16(off) + " = " + hex16(value));
        return;
    }
    // A write whose bytes reach only bits the chip produces is dropped and reported; bytes
    // holding unimplemented bits (access::none) are dropped silently.
    const uint16_t writable = d->mask(regs::access::rw) | d->mask(regs::access::w1c);
    if (!(mask & writable) && (mask & d->mask(regs::access::ro))) {
        m_findings.add(finding_kind::read_only_write,
                       std::string("write to read-only register ") + d->name());
        return;
    }
    d->write(value, mask);
}

void core::write_grr(uint16_t v) {
    if (v & GRR_GSR) {
        reset_registers(); // global soft reset: registers and queues to their defaults
        R(reg::GRR).set(GRR_GSR);
        return;
    }
    if (v & GRR_QMU)
        flush_queues(); // QMU reset: empty TXQ/RXQ, TXMIR back to full
    update_irq();
}

void core::write_txcr(uint16_t old_v, uint16_t v) {
    if ((old_v & TXCR_TXE) && !(v & TXCR_TXE))
        raise(IRQ_TXPSI); // TX process stopped
    if (v & TXCR_TXE)
        kick_tx();
}

void core::kick_tx() {
    local_time::sync(); // the TX engine starts at the host's time
    m_tx_kick.notify(SC_ZERO_TIME);
}

void core::write_rxcr1(uint16_t old_v, uint16_t v) {
    // The driver's rx-mode handshake: RXE 1->0 must raise RXPSI (ks8851_common.c,
    // docs/sources.md#linux-drivers).
    if ((old_v & RXCR1_RXE) && !(v & RXCR1_RXE))
        raise(IRQ_RXPSI);
    if (v & (1u << 15)) { // FRXQ: flush the receive queue
        m_rxq.clear();
        m_rx_used = 0;
        R(reg::RXCR1).set(r(reg::RXCR1) & 0x7FFF);
    }
}

void core::write_txqcr(uint16_t v) {
    if (v & TXQCR_METFE) {
        R(reg::TXQCR).set_bits(TXQCR_METFE, false); // the live bit is m_metfe
        if (!m_metfe) {
            m_metfe = true;
            local_time::sync(); // the enqueue runs on the chip's clock from the host's time
            m_enqueue_ev.notify(clock_edge_at_or_after(sc_time_stamp()) +
                                cycles(m_p.tx_enqueue_cycles) - sc_time_stamp());
        }
    }
    if (v & TXQCR_AETFE) { // auto-enqueue: everything already written goes now
        while (!m_tx_written.empty()) {
            m_tx_queue.push_back(std::move(m_tx_written.front()));
            m_tx_written.pop_front();
        }
        kick_tx();
    }
}

void core::write_rxqcr(uint16_t old_v, uint16_t v) {
    const bool sda = v & RXQCR_SDA;
    // Status bits 12:10 are read-only (declared); RRXEF and SDA are live bits.
    R(reg::RXQCR).set(uint16_t(v & ~(RXQCR_RRXEF | RXQCR_SDA)));
    (void)old_v;
    if (sda && !m_sda) {
        m_sda = true;
        ++m_dma_starts;
        m_rx_ptr = r(reg::RXFDPR) & 0x7FF;
        m_dma_ready_at =
            clock_edge_at_or_after(local_time::now()) + cycles(m_p.rx_dma_start_cycles);
    } else if (!sda && m_sda) {
        m_sda = false;
        if (m_tx_in_frame || !m_tx_hdr.empty())
            abort_partial_tx("RXQCR.SDA cleared in the middle of a TX frame");
    }
    if (v & RXQCR_RRXEF)
        release_head();
}

void core::write_p1mbcr(uint16_t v) {
    // Self-clearing PHY reset / AN restart; speed and duplex follow the wire, not BMCR.
    R(reg::P1MBCR).set(uint16_t(v & ~(BMCR_RESET | BMCR_ANRESTART)));
    if (v & BMCR_RESET)
        R(reg::P1MBCR).set(0x3100);
}

// ---------------------------------------------------------------- interrupts

void core::raise(uint16_t bits) {
    R(reg::ISR).set_bits(bits, true);
    if (bits & IRQ_RXI)
        ++m_stats.rx_interrupts;
    update_irq();
}

void core::update_irq() {
    const bool level = (r(reg::ISR) & r(reg::IER)) == 0; // active low
    if (level == m_irq_level)
        return;
    local_time::sync(); // the pin changes at the host's time (a register write answered ahead)
    m_irq_level = level;
    if (!level)
        ++m_stats.irq_assertions;
    if (on_irq)
        on_irq(level);
}

void core::bus_error(const std::string& why) {
    m_findings.add(finding_kind::spi_protocol, why);
    raise(IRQ_SPIBEI);
}

// ---------------------------------------------------------------- PHY / link

void core::eth_link_changed(bool up) {
    if (up == m_link_up)
        return;
    m_link_up = up;
    m_power.set_link(local_time::now(), up);
    if (!up)
        m_link_latched_low = true;
    raise(IRQ_LCI);
}

void core::eth_line_busy(bool station_tx, bool busy) {
    m_power.set_wire_busy(local_time::now(), station_tx, busy);
}

// ---------------------------------------------------------------- RX path

bool core::filter(const std::vector<uint8_t>& f, uint16_t& status) const {
    const uint16_t c1 = r(reg::RXCR1);
    const uint8_t* da = f.data();
    const bool bcast = std::all_of(da, da + 6, [](uint8_t b) { return b == 0xFF; });
    const bool mcast = !bcast && (da[0] & 1);
    status = uint16_t(RXFSHR_RXFV | (bcast ? RXFSHR_RXBF : mcast ? RXFSHR_RXMF : RXFSHR_RXUF));
    if (f.size() >= 14 && (f[12] << 8 | f[13]) >= 0x0600)
        status |= RXFSHR_RXFT; // Ethernet II (type field) frame
    if ((c1 & RXCR1_RXAE) && (c1 & RXCR1_RXINVF))
        return true; // promiscuous: the driver's IFF_PROMISC setting
    if (bcast)
        return c1 & RXCR1_RXBE;
    if (mcast) {
        if (c1 & RXCR1_RXMAFMA)
            return true; // all multicast
        if (!(c1 & RXCR1_RXME))
            return false;
        // Hash: top 6 bits of the big-endian CRC-32 of the DA (Linux ether_crc) select one of
        // 64 bits in MAHTR0..3.
        const uint32_t crc = eth::bitrev32(eth::crc32_le_raw(0xFFFFFFFFu, da, 6)) >> 26;
        return (r(uint8_t(reg::MAHTR0 + 2 * (crc >> 4))) >> (crc & 15)) & 1;
    }
    if (!(c1 & RXCR1_RXUE))
        return false;
    const uint8_t mac[6] = {uint8_t(r(reg::MARH) >> 8), uint8_t(r(reg::MARH)),
                            uint8_t(r(reg::MARM) >> 8), uint8_t(r(reg::MARM)),
                            uint8_t(r(reg::MARL) >> 8), uint8_t(r(reg::MARL))};
    return std::equal(mac, mac + 6, da);
}

void core::eth_rx_frame(eth::eth_frame f) {
    if (!(r(reg::RXCR1) & RXCR1_RXE)) {
        ++m_stats.rx_disabled;
        return;
    }
    if (f.bytes.size() < 64 || f.bytes.size() > m_p.max_rx_frame ||
        !(f.fcs_known_good || eth::fcs_ok(f.bytes))) {
        ++m_stats.rx_errors; // runt, too long or bad FCS: not stored (RXCR1.RXEFE not modelled)
        return;
    }
    uint16_t status = 0;
    if (!filter(f.bytes, status)) {
        ++m_stats.rx_filtered;
        return;
    }
    pending_rx p{clock_edge_at_or_after(sc_time_stamp()) + cycles(m_p.rx_commit_cycles),
                 std::move(f.bytes), status};
    m_rx_pending.push_back(std::move(p));
    if (m_rx_pending.size() == 1)
        m_commit_ev.notify(m_rx_pending.front().commit_at - sc_time_stamp());
}

void core::commit_rx() {
    while (!m_rx_pending.empty() && m_rx_pending.front().commit_at <= sc_time_stamp()) {
        pending_rx p = std::move(m_rx_pending.front());
        m_rx_pending.pop_front();
        rx_frame fr;
        fr.count = uint16_t(p.bytes.size());
        fr.status = p.status;
        fr.footprint = align(m_p.rx_header_bytes + fr.count);
        const bool forced =
            faults.rx_overrun.attached() && faults.rx_overrun.fires(sc_time_stamp());
        if (m_rx_used + fr.footprint > m_p.rxq_bytes || forced) {
            if (forced)
                faults.rx_overrun.effect(sc_time_stamp(), "received frame dropped: RXQ overrun");
            ++m_stats.rx_overruns;
            raise(IRQ_RXOI);
            continue;
        }
        fr.image = frame_buffers::take(); // a released frame's storage
        fr.image.reserve(fr.footprint);
        fr.image = {uint8_t(fr.status), uint8_t(fr.status >> 8), uint8_t(fr.count),
                    uint8_t(fr.count >> 8)};
        fr.image.insert(fr.image.end(), p.bytes.begin(), p.bytes.end());
        fr.image.resize(fr.footprint, 0);
        if (faults.fifo_corruption.attached() && faults.fifo_corruption.fires(sc_time_stamp())) {
            // After the MAC checked the FCS: one bit of the frame data in packet memory flips
            // (byte 4 of the image is the first frame byte; the flipped one is in the middle).
            const size_t at = 4 + fr.count / 2;
            fr.image[at] ^= 0x08;
            faults.fifo_corruption.effect(sc_time_stamp(), "bit 3 of frame byte " +
                                                               std::to_string(fr.count / 2) +
                                                               " flipped in the RXQ");
        }
        m_rx_used += fr.footprint;
        ++m_stats.rx_frames;
        m_stats.rx_bytes += fr.count;
        m_rxq.push_back(std::move(fr));
        frame_buffers::give(p.bytes); // the wire's copy is in packet memory now
        rx_thresholds();
    }
    if (!m_rx_pending.empty())
        m_commit_ev.notify(m_rx_pending.front().commit_at - sc_time_stamp());
}

void core::rx_thresholds() {
    const uint16_t q = r(reg::RXQCR);
    const uint16_t en = q & (RXQCR_RXFCTE | RXQCR_RXDBCTE | RXQCR_RXDTTE);
    if (!en) {
        raise(IRQ_RXI); // no threshold enabled: interrupt per frame
        return;
    }
    uint16_t status = 0;
    if ((q & RXQCR_RXFCTE) && m_rxq.size() >= (r(reg::RXFCTR) & 0xFFu))
        status |= RXQCR_RXFCTS;
    if (q & RXQCR_RXDBCTE) {
        uint32_t bytes = 0;
        for (const auto& f : m_rxq)
            bytes += f.count;
        if (bytes >= r(reg::RXDBCTR))
            status |= RXQCR_RXDBCTS;
    }
    if ((q & RXQCR_RXDTTE) && !m_dt_running) {
        // Duration timer: armed by the first frame, counts RXDTTR units on the 25 MHz clock.
        m_dt_running = true;
        const sc_time fire = clock_edge_at_or_after(sc_time_stamp()) +
                             cycles(unsigned(r(reg::RXDTTR)) * m_p.rxdttr_unit_cycles);
        m_dt_ev.notify(fire - sc_time_stamp());
    }
    if (status) {
        R(reg::RXQCR).set_bits(status, true);
        raise(IRQ_RXI);
    }
}

void core::dt_expired() {
    m_dt_running = false;
    if (!(r(reg::RXQCR) & RXQCR_RXDTTE) || m_rxq.empty())
        return;
    R(reg::RXQCR).set_bits(RXQCR_RXDTTS, true);
    raise(IRQ_RXI);
}

void core::release_head() {
    if (m_rxq.empty()) {
        m_findings.add(finding_kind::release_empty, "RXQCR.RRXEF with an empty RXQ");
        return;
    }
    m_rx_used -= m_rxq.front().footprint;
    frame_buffers::give(m_rxq.front().image);
    m_rxq.pop_front();
    m_rx_ptr = r(reg::RXFDPR) & 0x7FF;
    ++m_stats.rx_released;
}

uint8_t core::rxq_read_byte() {
    if (!m_sda) {
        m_findings.add(finding_kind::fifo_without_sda, "RXQ read while RXQCR.SDA = 0");
        return 0;
    }
    if (m_rxq.empty())
        return 0;
    const auto& img = m_rxq.front().image;
    const uint8_t b = m_rx_ptr < img.size() ? img[m_rx_ptr] : 0;
    ++m_rx_ptr; // RXFDPR.RXFPAI auto-increment (the only mode the driver uses)
    return b;
}

void core::rxq_read(uint8_t* dst, size_t n) {
    if (!m_sda) {
        m_findings.add(finding_kind::fifo_without_sda, "RXQ read while RXQCR.SDA = 0");
        std::memset(dst, 0, n);
        return;
    }
    if (m_rxq.empty()) {
        std::memset(dst, 0, n);
        return;
    }
    // Same bytes as n calls of rxq_read_byte(), in one copy.
    const auto& img = m_rxq.front().image;
    const size_t avail = m_rx_ptr < img.size() ? img.size() - m_rx_ptr : 0;
    const size_t k = std::min(n, avail);
    if (k)
        std::memcpy(dst, img.data() + m_rx_ptr, k);
    if (n > k)
        std::memset(dst + k, 0, n - k);
    m_rx_ptr += uint32_t(n);
}

// ---------------------------------------------------------------- TX path

void core::abort_partial_tx(const char* why) {
    m_findings.add(finding_kind::tx_frame_aborted, why);
    if (m_tx_in_frame && !m_tx_skip)
        m_tx_used -= m_tx_cur.footprint;
    m_tx_in_frame = false;
    m_tx_skip = false;
    m_tx_hdr.clear();
}

void core::txq_write_byte(uint8_t b) {
    if (!m_sda) {
        m_findings.add(finding_kind::fifo_without_sda, "TXQ write while RXQCR.SDA = 0");
        return;
    }
    if (!m_tx_in_frame) {
        m_tx_hdr.push_back(b);
        if (m_tx_hdr.size() < 4)
            return;
        m_tx_cur = tx_frame{};
        m_tx_cur.ctrl = uint16_t(m_tx_hdr[0] | m_tx_hdr[1] << 8);
        m_tx_cur.count = uint16_t(m_tx_hdr[2] | m_tx_hdr[3] << 8);
        m_tx_hdr.clear();
        m_tx_in_frame = true;
        m_tx_skip = false;
        m_tx_cur.footprint = align(4 + m_tx_cur.count);
        m_tx_cur.generation = m_generation;
        if (m_tx_cur.count == 0 || m_tx_cur.count > m_p.max_tx_frame) {
            m_findings.add(finding_kind::bad_tx_header,
                           "TX byte count " + std::to_string(m_tx_cur.count) + " out of range");
            m_tx_in_frame = false; // nothing to skip for 0; a huge count cannot be framed
            return;
        }
        if (m_tx_used + m_tx_cur.footprint > m_p.txq_bytes) {
            m_findings.add(finding_kind::txq_overflow,
                           "TX frame of " + std::to_string(m_tx_cur.count) + " bytes needs " +
                               std::to_string(m_tx_cur.footprint) + " but TXMIR is " +
                               std::to_string(txq_free()));
            m_tx_skip = true;
        } else {
            m_tx_used += m_tx_cur.footprint;
        }
        m_tx_cur.data = frame_buffers::take(); // a sent frame's storage
        m_tx_cur.data.reserve(align(m_tx_cur.count));
        return;
    }
    m_tx_cur.data.push_back(b);
    if (m_tx_cur.data.size() < align(m_tx_cur.count))
        return;
    m_tx_in_frame = false;
    if (m_tx_skip) {
        m_tx_skip = false;
        return;
    }
    if (r(reg::TXQCR) & TXQCR_AETFE) {
        m_tx_queue.push_back(std::move(m_tx_cur));
        kick_tx();
    } else {
        m_tx_written.push_back(std::move(m_tx_cur));
    }
}

size_t core::txq_bytes_before_frame_end() const {
    if (!m_sda || !m_tx_in_frame)
        return 0;
    const size_t end = align(m_tx_cur.count);
    return end - m_tx_cur.data.size() - 1;
}

void core::txq_append(const uint8_t* b, size_t n) {
    if (n > txq_bytes_before_frame_end())
        throw std::logic_error("ks8851 core: txq_append past the frame's last byte");
    m_tx_cur.data.insert(m_tx_cur.data.end(), b, b + n);
}

void core::txq_write(const uint8_t* b, size_t n) {
    while (n > 0) {
        if (const size_t k = std::min(n, txq_bytes_before_frame_end())) {
            txq_append(b, k);
            b += k;
            n -= k;
        } else { // a header byte, a frame's last byte (it may start TX) or SDA = 0
            txq_write_byte(*b++);
            --n;
        }
    }
}

void core::enqueue_written() {
    const size_t n = m_tx_written.size();
    while (!m_tx_written.empty()) {
        m_tx_queue.push_back(std::move(m_tx_written.front()));
        m_tx_written.pop_front();
    }
    m_tx_kick.notify(SC_ZERO_TIME);
    if (m_p.metfe_clear == metfe_clear_policy::at_enqueue ||
        (n == 0 && !m_tx_busy && m_tx_queue.empty()))
        m_metfe = false;
    else
        m_metfe_batch = m_tx_queue.size() + (m_tx_busy ? 1 : 0);
}

void core::tx_engine() {
    for (;;) {
        while (m_tx_queue.empty() || !(r(reg::TXCR) & TXCR_TXE))
            sc_core::wait(m_tx_kick);
        m_tx_active = std::move(m_tx_queue.front());
        m_tx_queue.pop_front();
        m_tx_busy = true;
        sc_core::wait(clock_edge_at_or_after(sc_time_stamp()) + cycles(m_p.tx_start_cycles) -
                      sc_time_stamp());
        const uint16_t txcr = r(reg::TXCR);
        std::vector<uint8_t> bytes = frame_buffers::take();
        bytes.reserve(std::max<size_t>(m_tx_active.count, 60) + 4); // padding and FCS in place
        bytes.assign(m_tx_active.data.begin(), m_tx_active.data.begin() + m_tx_active.count);
        frame_buffers::give(m_tx_active.data); // TXQ memory: only its footprint counts now
        if ((txcr & TXCR_TXPE) && bytes.size() < 60)
            bytes.resize(60, 0); // pad to the 64-byte minimum (with the CRC)
        if (txcr & TXCR_TXCRC)
            eth::append_fcs(bytes);
        if (m_wire) {
            m_wire->station_transmit(std::move(bytes)); // the frame time on the wire
        } else {
            m_findings.add(finding_kind::no_wire, "frame transmitted with no wire attached");
        }
        tx_frame_complete();
        m_tx_busy = false;
    }
}

void core::eth_tx_done(const eth::eth_frame& f) {
    ++m_stats.tx_frames;
    m_stats.tx_bytes += f.bytes.size();
}

void core::tx_frame_complete() {
    if (m_tx_active.generation != m_generation)
        return; // queue was reset while the frame was on the wire: memory already returned
    m_tx_used -= m_tx_active.footprint;
    R(reg::TXSR).set(uint16_t(m_tx_active.ctrl & TXFR_TXFID_MASK));
    if (m_tx_active.ctrl & TXFR_TXIC)
        raise(IRQ_TXI);
    if (m_metfe && m_p.metfe_clear == metfe_clear_policy::at_tx_done && m_metfe_batch &&
        --m_metfe_batch == 0)
        m_metfe = false;
}

} // namespace nicsim::ks

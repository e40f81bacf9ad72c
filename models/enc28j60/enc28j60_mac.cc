// SPDX-License-Identifier: MIT
// The ENC28J60 MAC: transmit of the packet between ETXST and ETXND when ECON1.TXRTS is set
// (per-packet control byte, padding and CRC, status vector after ETXND), and receive into the
// ring (filter, free space, next-packet pointer and status vector, EPKTCNT).
#include "models/enc28j60/enc28j60_core.h"

#include <algorithm>
#include <string>

#include "models/ethernet/eth_crc.h"

namespace nicsim::enc {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {
bool is_broadcast(const std::vector<uint8_t>& b) {
    return b.size() >= 6 &&
           std::all_of(b.begin(), b.begin() + 6, [](uint8_t x) { return x == 0xFF; });
}
bool is_multicast(const std::vector<uint8_t>& b) {
    return !b.empty() && (b[0] & 1) && !is_broadcast(b);
}
uint16_t type_len(const std::vector<uint8_t>& b) {
    return b.size() >= 14 ? uint16_t(b[12] << 8 | b[13]) : 0;
}
} // namespace

void core::attach_wire(eth::eth_wire& wire) {
    m_wire = &wire;
    wire.attach_station(*this);
    m_phy.init_link(wire.link_up());
    if (wire.params().rate_bps != m_p.line_rate_bps)
        m_findings.add(finding_kind::wire_rate, "wire rate " +
                                                    std::to_string(wire.params().rate_bps) +
                                                    " b/s; the ENC28J60 is 10BASE-T only");
}

void core::eth_link_changed(bool up) {
    m_phy.set_link(up);
}

// ------------------------------------------------------------------ transmit

// The on-wire bytes of the packet at ETXST..ETXND: byte ETXST is the per-packet control byte;
// with POVERRIDE it chooses pad/CRC/huge, otherwise MACON3 does [fact].
bool core::build_tx(std::vector<uint8_t>& out, bool& giant) {
    const uint16_t st = ptr(reg::ETXSTL), nd = ptr(reg::ETXNDL);
    if (nd <= st) {
        tx_error("ETXND " + std::to_string(nd) + " not after ETXST " + std::to_string(st));
        return false;
    }
    const uint8_t ctrl = m_mem[st];
    out.assign(m_mem.begin() + st + 1, m_mem.begin() + nd + 1);
    const uint8_t macon3 = R(reg::MACON3).get();
    unsigned pad_to = 0;
    bool crc, huge;
    if (ctrl & PCTRL_POVERRIDE) {
        pad_to = (ctrl & PCTRL_PPADEN) ? 60 : 0;
        crc = (ctrl & PCTRL_PCRCEN) != 0;
        huge = (ctrl & PCTRL_PHUGEEN) != 0;
    } else {
        // PADCFG: x00/x10 no pad; 001 pad to 60; 011/111 pad to 64; 101 64 for VLAN else 60.
        // Any padding setting also appends the CRC.
        const unsigned pc = (macon3 & MACON3_PADCFG) >> 5;
        if (pc == 1)
            pad_to = 60;
        else if (pc == 3 || pc == 7)
            pad_to = 64;
        else if (pc == 5)
            pad_to = type_len(out) == 0x8100 ? 64 : 60;
        crc = (macon3 & MACON3_TXCRCEN) || (pc & 1);
        huge = (macon3 & MACON3_HFRMEN) != 0;
    }
    // Padding to 64 pads the frame with its CRC to 64, i.e. the data to 60 first.
    if (pad_to && out.size() < 60)
        out.resize(60, 0);
    if (crc)
        eth::append_fcs(out);
    const unsigned mamxfl = R(reg::MAMXFLH).get() << 8 | R(reg::MAMXFLL).get();
    giant = !huge && out.size() > mamxfl; // sent anyway, flagged in the TSV [assumption]
    return true;
}

void core::tx_error(const std::string& why) {
    ++m_stats.tx_errors;
    m_findings.add(finding_kind::tx_bad_pointers, why);
    m_econ1->set_bits(ECON1_TXRTS, false);
    m_eir->set_bits(INT_TXER, true);
    m_estat->set_bits(ESTAT_TXABRT, true);
    update_irq();
}

// Transmit status vector: 7 bytes written right after ETXND [fact: layout TSV bits 0..51].
void core::write_tsv(const std::vector<uint8_t>& f, bool giant) {
    uint8_t tsv[7] = {};
    const unsigned n = unsigned(f.size()); // [assumption] both counts are DA..FCS
    const uint16_t tl = type_len(f);
    tsv[0] = uint8_t(n);
    tsv[1] = uint8_t(n >> 8);
    tsv[2] = 0x80; // bit 23 done; no collisions, no CRC/length errors
    tsv[3] =
        uint8_t((is_multicast(f) ? 0x01 : 0) | (is_broadcast(f) ? 0x02 : 0) | (giant ? 0x40 : 0));
    tsv[4] = uint8_t(n);
    tsv[5] = uint8_t(n >> 8);
    tsv[6] = uint8_t((tl == 0x8808 ? 0x01 : 0) | (tl == 0x8100 ? 0x08 : 0));
    const uint16_t at = ptr(reg::ETXNDL);
    for (unsigned i = 0; i < 7; ++i)
        m_mem[(at + 1 + i) & ptr_mask] = tsv[i];
}

void core::tx_engine() {
    for (;;) {
        while (!m_tx_pending)
            sc_core::wait(m_tx_kick);
        const uint64_t gen = m_tx_gen;
        sc_core::wait(m_p.tx_start);
        if (gen != m_tx_gen || !m_tx_pending)
            continue; // cancelled by TXRTS clear, TXRST or reset
        m_tx_pending = false;
        bool giant = false;
        if (!build_tx(m_tx_frame, giant))
            continue;
        if (!m_duplex_warned && bool(R(reg::MACON3).get() & MACON3_FULDPX) != m_phy.full_duplex()) {
            m_duplex_warned = true;
            m_findings.add(finding_kind::duplex_mismatch,
                           "MACON3.FULDPX differs from PHCON1.PDPXMD");
        }
        m_phy.set_tx_active(true);
        if (m_wire) {
            // A copy: m_tx_frame feeds the TSV below. Returns after the frame time on the wire.
            m_wire->station_transmit(m_tx_frame);
        } else {
            m_findings.add(finding_kind::no_wire, "frame transmitted with no wire attached");
        }
        m_phy.set_tx_active(false);
        if (gen != m_tx_gen)
            continue; // reset while on the wire: no status
        write_tsv(m_tx_frame, giant);
        m_econ1->set_bits(ECON1_TXRTS, false);
        m_eir->set_bits(INT_TX, true);
        update_irq();
    }
}

void core::eth_tx_done(const eth::eth_frame& f) {
    ++m_stats.tx_frames;
    m_stats.tx_bytes += f.bytes.size();
}

// ------------------------------------------------------------------ receive

void core::eth_rx_frame(eth::eth_frame f) {
    m_rx_pending.emplace_back(sc_time_stamp() + m_p.rx_commit, std::move(f));
    if (m_rx_pending.size() == 1)
        m_rx_ev.notify(m_p.rx_commit);
}

void core::commit_rx() {
    while (!m_rx_pending.empty() && m_rx_pending.front().first <= sc_time_stamp()) {
        receive(m_rx_pending.front().second);
        m_rx_pending.pop_front();
    }
    if (!m_rx_pending.empty())
        m_rx_ev.notify(m_rx_pending.front().first - sc_time_stamp());
}

// ERXFCON [fact]: with no address filter enabled every frame passes; OR mode passes a frame
// any enabled filter accepts, AND mode one all accept; CRCEN drops bad CRCs in both modes.
// Pattern match, magic packet and hash table are not modelled (never match).
bool core::accept(const std::vector<uint8_t>& b, bool crc_ok) const {
    const uint8_t fc = R(reg::ERXFCON).get();
    if ((fc & ERXFCON_CRCEN) && !crc_ok)
        return false;
    static const reg_addr maadr[6] = {reg::MAADR1, reg::MAADR2, reg::MAADR3,
                                      reg::MAADR4, reg::MAADR5, reg::MAADR6};
    bool ucast = b.size() >= 6;
    for (unsigned i = 0; i < 6 && ucast; ++i)
        ucast = b[i] == R(maadr[i]).get();
    const struct {
        uint8_t bit;
        bool match;
    } filters[] = {{ERXFCON_UCEN, ucast},           {ERXFCON_BCEN, is_broadcast(b)},
                   {ERXFCON_MCEN, is_multicast(b)}, {ERXFCON_PMEN, false},
                   {ERXFCON_MPEN, false},           {ERXFCON_HTEN, false}};
    bool any_enabled = false, any = false, all = true;
    for (const auto& f : filters) {
        if (!(fc & f.bit))
            continue;
        any_enabled = true;
        any = any || f.match;
        all = all && f.match;
    }
    if (!any_enabled)
        return true;
    return (fc & ERXFCON_ANDOR) ? all : any;
}

void core::receive(const eth::eth_frame& f) {
    const std::vector<uint8_t>& b = f.bytes;
    const uint8_t econ1 = m_econ1->get();
    if (!clock_ready() || !(econ1 & ECON1_RXEN) || (econ1 & ECON1_RXRST) ||
        !(R(reg::MACON1).get() & MACON1_MARXEN)) {
        ++m_stats.rx_disabled;
        return;
    }
    const unsigned mamxfl = R(reg::MAMXFLH).get() << 8 | R(reg::MAMXFLL).get();
    const bool huge_ok = R(reg::MACON3).get() & MACON3_HFRMEN;
    if (b.size() < m_p.min_rx_frame || (!huge_ok && b.size() > mamxfl)) {
        ++m_stats.rx_errors;
        return;
    }
    const bool crc_ok = f.fcs_known_good || eth::fcs_ok(b);
    if (!accept(b, crc_ok)) {
        ++m_stats.rx_filtered;
        return;
    }
    if (!m_duplex_warned && bool(R(reg::MACON3).get() & MACON3_FULDPX) != m_phy.full_duplex()) {
        m_duplex_warned = true;
        m_findings.add(finding_kind::duplex_mismatch, "MACON3.FULDPX differs from PHCON1.PDPXMD");
    }
    // 2-byte next pointer + 4-byte RSV + data incl. CRC, padded so the next packet starts at an
    // even address [fact].
    const unsigned len = unsigned(b.size());
    const unsigned need = 6 + len + ((6 + len) & 1);
    reg8& cnt = R(reg::EPKTCNT);
    if (cnt.get() == 255 || need > rx_free()) {
        ++m_stats.rx_overruns;
        m_eir->set_bits(INT_RXER, true);
        m_estat->set_bits(ESTAT_BUFER, true); // [assumption] see docs/models/enc28j60.md
        update_irq();
        return;
    }
    uint16_t status = crc_ok ? RSV_RX_OK : RSV_CRC_ERR;
    if (is_multicast(b))
        status |= RSV_MULTICAST;
    if (is_broadcast(b))
        status |= RSV_BROADCAST;
    const uint16_t tl = type_len(b);
    if (tl == 0x8808)
        status |= RSV_CONTROL;
    if (tl == 0x8100)
        status |= RSV_VLAN;
    if (tl > 1500 && tl < 0x0600)
        status |= RSV_LEN_RANGE;
    // Length check (FRMLNEN) [assumption]: a length field must match the data, or be below
    // it when the data is the 46-byte minimum (padding).
    if ((R(reg::MACON3).get() & MACON3_FRMLNEN) && tl <= 1500 && len >= 18) {
        const unsigned data = len - 18;
        if (tl > data || (data > 46 && tl != data))
            status |= RSV_LEN_CHK_ERR;
    }
    const uint16_t start = ptr(reg::ERXWRPTL);
    const uint16_t next = rx_advance(start, need);
    const uint8_t hdr[6] = {uint8_t(next),     uint8_t(next >> 8), uint8_t(len),
                            uint8_t(len >> 8), uint8_t(status),    uint8_t(status >> 8)};
    rx_ring_write(rx_ring_write(start, hdr, sizeof hdr), b.data(), b.size());
    set_ptr(reg::ERXWRPTL, next);
    cnt.set(uint8_t(cnt.get() + 1));
    ++m_stats.rx_frames;
    m_stats.rx_bytes += len;
    update_irq();
}

} // namespace nicsim::enc

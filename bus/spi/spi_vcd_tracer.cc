// SPDX-License-Identifier: MIT
#include "bus/spi/spi_vcd_tracer.h"

#include <stdexcept>

#include "bus/spi/spi_bits.h"
#include "bus/spi/spi_host.h"

namespace nicsim::spi {

spi_vcd_tracer::spi_vcd_tracer(const std::string& path, unsigned num_cs, const std::string& scope)
    : m_out(path), m_path(path), m_num_cs(num_cs) {
    if (!m_out)
        throw std::runtime_error("spi_vcd_tracer: cannot open '" + path + "' for writing");
    if (num_cs == 0 || num_cs > 90)
        throw std::invalid_argument("spi_vcd_tracer: num_cs = " + std::to_string(num_cs) +
                                    " (must be 1..90)");
    std::vector<std::string> names;
    for (unsigned i = 0; i < num_cs; ++i)
        names.push_back("cs_n" + std::to_string(i));
    names.insert(names.end(), {"sck", "mosi", "miso"});
    // No $date: the file must be a deterministic function of the simulation.
    m_out << "$version nicsim spi_vcd_tracer $end\n$timescale 1ps $end\n$scope module " << scope
          << " $end\n";
    for (size_t i = 0; i < names.size(); ++i) {
        m_ids.push_back(std::string(1, static_cast<char>('!' + i)));
        m_out << "$var wire 1 " << m_ids.back() << ' ' << names[i] << " $end\n";
        m_level.push_back(i < num_cs); // idle: cs_n high, sck/mosi/miso low
    }
    m_out << "$upscope $end\n$enddefinitions $end\n";
}

spi_vcd_tracer::~spi_vcd_tracer() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; close() explicitly to see write errors.
    }
}

size_t spi_vcd_tracer::index(spi_wire wire, unsigned cs) const {
    switch (wire) {
    case spi_wire::cs_n:
        if (cs >= m_num_cs)
            throw std::invalid_argument("spi_vcd_tracer: cs = " + std::to_string(cs) +
                                        " but the trace has " + std::to_string(m_num_cs) +
                                        " chip select(s)");
        return cs;
    case spi_wire::sck:
        return m_num_cs;
    case spi_wire::mosi:
        return m_num_cs + 1;
    case spi_wire::miso:
        break;
    }
    return m_num_cs + 2;
}

void spi_vcd_tracer::record(spi_wire wire, unsigned cs, const sc_core::sc_time& t, bool level) {
    if (m_closed)
        throw std::logic_error("spi_vcd_tracer: record() after close() of '" + m_path + "'");
    const size_t idx = index(wire, cs);
    const uint64_t ps = to_ps(t);
    if (ps < m_pending_ps)
        throw std::logic_error("spi_vcd_tracer: change at " + t.to_string() +
                               " is earlier than one already recorded in '" + m_path +
                               "' (one host per tracer, frames in time order)");
    if (ps > m_pending_ps) {
        flush();
        m_pending_ps = ps;
    }
    m_pending[idx] = level;
}

void spi_vcd_tracer::flush() {
    if (!m_dumped) {
        // Levels at time 0 (idle, or changes recorded at time 0) form the $dumpvars block, so
        // timestamps in the body are strictly increasing.
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

void spi_vcd_tracer::close() {
    if (m_closed)
        return;
    flush();
    m_closed = true;
    m_out.close();
    if (!m_out)
        throw std::runtime_error("spi_vcd_tracer: error writing '" + m_path + "'");
}

void spi_vcd_tracer::on_frame(const spi_payload& frame, const spi_schedule& s) {
    const bool pol = cpol(frame.mode);
    const bool pha = cpha(frame.mode);
    const unsigned cs = frame.cs;
    auto at = [&](const sc_core::sc_time& off) { return s.origin + off; };

    for (size_t w = 0; w < s.segments.size(); ++w) {
        const spi_cs_segment& seg = s.segments[w];
        const bool has_tail = w < frame.miso_tail.size();
        // Same conventions as spi_host::run_pins(): SCK idle level and CS at assert; CPHA=0
        // presents the first bit at CS assert and each next bit at the previous trailing edge;
        // CPHA=1 presents each bit at its leading edge.
        auto next_bit = [&](size_t xi, uint64_t k, bool& mo, bool& mi) {
            if (k + 1 < s.xfers[xi].bits) {
                mo = mosi_bit(frame.xfers[xi], k + 1);
                mi = miso_bit(frame.xfers[xi], k + 1);
                return true;
            }
            for (size_t j = xi + 1; j <= seg.last_xfer; ++j)
                if (s.xfers[j].bits) {
                    mo = mosi_bit(frame.xfers[j], 0);
                    mi = miso_bit(frame.xfers[j], 0);
                    return true;
                }
            return false;
        };
        bool mo = false, mi = false;

        const sc_core::sc_time ta = at(seg.cs_assert);
        record(spi_wire::sck, cs, ta, pol);
        record(spi_wire::cs_n, cs, ta, false);
        if (!pha) {
            if (next_bit(seg.first_xfer, UINT64_MAX, mo, mi)) { // UINT64_MAX + 1 == bit 0
                record(spi_wire::mosi, cs, ta, mo);
                record(spi_wire::miso, cs, ta, mi);
            } else if (has_tail) {
                record(spi_wire::miso, cs, ta, frame.miso_tail[w]);
            }
        }
        for (size_t xi = seg.first_xfer; xi <= seg.last_xfer; ++xi) {
            const spi_xfer& x = frame.xfers[xi];
            const spi_xfer_schedule& xs = s.xfers[xi];
            for (uint64_t k = 0; k < xs.bits; ++k) {
                const sc_core::sc_time lead = at(edge_time(xs, k, false));
                record(spi_wire::sck, cs, lead, !pol);
                if (pha) {
                    record(spi_wire::mosi, cs, lead, mosi_bit(x, k));
                    record(spi_wire::miso, cs, lead, miso_bit(x, k));
                }
                const sc_core::sc_time trail = at(edge_time(xs, k, true));
                record(spi_wire::sck, cs, trail, pol);
                if (!pha) {
                    if (next_bit(xi, k, mo, mi)) {
                        record(spi_wire::mosi, cs, trail, mo);
                        record(spi_wire::miso, cs, trail, mi);
                    } else if (has_tail) {
                        record(spi_wire::miso, cs, trail, frame.miso_tail[w]);
                    }
                }
            }
        }
        const sc_core::sc_time td = at(seg.cs_deassert);
        record(spi_wire::cs_n, cs, td, true);
        record(spi_wire::mosi, cs, td, false);
        record(spi_wire::miso, cs, td, false);
    }
}

spi_vcd_pin_probe::spi_vcd_pin_probe(const sc_core::sc_module_name& name, spi_host& host,
                                     spi_vcd_tracer& tracer)
    : sc_core::sc_module(name), m_host(host), m_tracer(tracer) {
    SC_METHOD(sample);
    for (auto& c : host.cs_n)
        sensitive << c;
    sensitive << host.sck << host.mosi << host.miso;
    dont_initialize();
}

void spi_vcd_pin_probe::sample() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    for (unsigned i = 0; i < m_host.num_cs(); ++i)
        m_tracer.record(spi_wire::cs_n, i, now, m_host.cs_n[i].read());
    m_tracer.record(spi_wire::sck, 0, now, m_host.sck.read());
    m_tracer.record(spi_wire::mosi, 0, now, m_host.mosi.read());
    m_tracer.record(spi_wire::miso, 0, now, m_host.miso.read());
}

} // namespace nicsim::spi

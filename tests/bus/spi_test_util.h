// SPDX-License-Identifier: MIT
// Test slaves and a small VCD reader shared by the SPI tests.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "bus/spi/spi_byte_slave.h"

namespace nicsim::spi::test {

// Byte-causal slave whose MISO slot i is a hash of every MOSI slot before it (and of the select
// count), so any error in bit order, slot boundaries or causality changes the bytes. Logs every
// call in order.
class hash_slave : public sc_core::sc_module, public spi_byte_slave {
  public:
    spi_target_socket spi_in;
    std::vector<std::string> log;

    explicit hash_slave(const sc_core::sc_module_name& name, uint32_t seed = 1)
        : sc_core::sc_module(name), spi_in("spi_in", *this), m_state(seed) {}

    uint8_t spi_select() override {
        log.push_back("select@" + sc_core::sc_time_stamp().to_string());
        m_state = m_state * 31u + 7u;
        return next();
    }
    uint8_t spi_mosi_byte(uint8_t b, unsigned nbits) override {
        char buf[32];
        std::snprintf(buf, sizeof buf, "mosi %02x/%u", b, nbits);
        log.push_back(buf);
        m_state = (m_state ^ (b | nbits << 8)) * 16777619u;
        return next();
    }
    void spi_deselect() override { log.push_back("deselect"); }

  private:
    uint8_t next() {
        m_state = m_state * 1103515245u + 12345u;
        const uint8_t v = static_cast<uint8_t>(m_state >> 16);
        char buf[16];
        std::snprintf(buf, sizeof buf, "miso %02x", v);
        log.push_back(buf);
        return v;
    }
    uint32_t m_state;
};

// MISO slot 0 = `first`, slot i = MOSI slot i-1: a known answer for bit-order checks.
class echo_slave : public sc_core::sc_module, public spi_byte_slave {
  public:
    spi_target_socket spi_in;
    explicit echo_slave(const sc_core::sc_module_name& name, uint8_t first)
        : sc_core::sc_module(name), spi_in("spi_in", *this), m_first(first) {}
    uint8_t spi_select() override { return m_first; }
    uint8_t spi_mosi_byte(uint8_t b, unsigned) override { return b; }

  private:
    uint8_t m_first;
};

struct vcd_change {
    uint64_t t;
    std::string signal;
    char value;
    bool operator==(const vcd_change& o) const {
        return t == o.t && signal == o.signal && value == o.value;
    }
};

inline std::ostream& operator<<(std::ostream& os, const vcd_change& c) {
    return os << '#' << c.t << ' ' << c.signal << '=' << c.value;
}

// Parses a VCD file as spi_vcd_tracer writes it. `error` is empty when the file is well formed:
// $timescale 1ps, $var per signal, $enddefinitions, strictly increasing timestamps, value
// changes only of declared signals. The $dumpvars values are returned as changes at time 0.
struct vcd_file {
    std::vector<std::string> signals;
    std::vector<vcd_change> changes;
    std::string error;
};

inline vcd_file read_vcd(const std::string& path) {
    vcd_file f;
    std::ifstream in(path);
    if (!in) {
        f.error = "cannot open " + path;
        return f;
    }
    std::map<std::string, std::string> ids;
    std::string line;
    bool timescale = false, defs = false, have_time = false;
    uint64_t t = 0;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        std::istringstream ls(line);
        std::string tok;
        ls >> tok;
        if (!defs) {
            if (tok == "$timescale") {
                std::string v;
                ls >> v;
                timescale = v == "1ps";
            } else if (tok == "$var") {
                std::string type, width, id, name;
                ls >> type >> width >> id >> name;
                if (type != "wire" || width != "1") {
                    f.error = "unexpected $var: " + line;
                    return f;
                }
                ids[id] = name;
                f.signals.push_back(name);
            } else if (tok == "$enddefinitions") {
                defs = true;
            }
            continue;
        }
        if (tok[0] == '#') {
            const uint64_t nt = std::stoull(tok.substr(1));
            if (have_time && nt <= t) {
                f.error = "timestamp " + tok + " not increasing";
                return f;
            }
            t = nt;
            have_time = true;
        } else if (tok == "$dumpvars" || tok == "$end") {
            continue;
        } else if (tok[0] == '0' || tok[0] == '1') {
            const auto it = ids.find(tok.substr(1));
            if (it == ids.end() || !have_time) {
                f.error = "bad value change: " + line;
                return f;
            }
            f.changes.push_back({t, it->second, tok[0]});
        } else {
            f.error = "unexpected line: " + line;
            return f;
        }
    }
    if (!timescale)
        f.error = "no $timescale 1ps";
    else if (!defs)
        f.error = "no $enddefinitions";
    return f;
}

} // namespace nicsim::spi::test

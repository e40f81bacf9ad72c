// SPDX-License-Identifier: MIT
//
// Physical quantities in scenario and platform YAML: a number with an optional SI suffix.
// Grammar (docs/scenarios.md, "Units"):
//
//   quantity := number [space*] unit
//   number   := [+-] digits [ '.' digits ] [ (e|E) [+-] digits ]     (also ".5")
//
//   duration   ps ns us µs ms s                    unit REQUIRED (except a bare 0)
//   frequency  Hz kHz MHz GHz                      bare number = Hz; must be > 0
//   byte_size  B kB KB MB GB (10^3) KiB MiB GiB    bare number = bytes; whole bytes only
//   bit_rate   bps kbps Mbps Gbps, bit/s kbit/s Mbit/s Gbit/s   bare number = bit/s
//   current    A mA uA µA nA                       bare number = A
//   voltage    V mV                                bare number = V
//
// Suffixes are case-sensitive (m = milli, M = mega), so "48 Mhz" and "48mhz" are rejected rather
// than guessed. Durations are stored as integer picoseconds (the SystemC resolution nicsim uses),
// so "1.5us" is exactly 1500000 ps; a non-zero duration below 1 ps is an error.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace nicsim::config {

// Thrown by the parse_* functions; the message says what was expected (the caller adds where).
struct value_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct duration {
    std::int64_t ps = 0;
    double seconds() const { return static_cast<double>(ps) * 1e-12; }
    static duration from_ps(std::int64_t v) { return duration{v}; }
    friend bool operator==(duration a, duration b) { return a.ps == b.ps; }
    friend bool operator!=(duration a, duration b) { return a.ps != b.ps; }
    friend bool operator<(duration a, duration b) { return a.ps < b.ps; }
    friend bool operator>(duration a, duration b) { return a.ps > b.ps; }
    friend bool operator>=(duration a, duration b) { return a.ps >= b.ps; }
};

struct frequency {
    double hz = 0;
    friend bool operator==(frequency a, frequency b) { return a.hz == b.hz; }
};

struct byte_size {
    std::uint64_t bytes = 0;
    friend bool operator==(byte_size a, byte_size b) { return a.bytes == b.bytes; }
};

struct bit_rate {
    double bps = 0;
    friend bool operator==(bit_rate a, bit_rate b) { return a.bps == b.bps; }
};

struct current {
    double amperes = 0;
    friend bool operator==(current a, current b) { return a.amperes == b.amperes; }
};

struct voltage {
    double volts = 0;
    friend bool operator==(voltage a, voltage b) { return a.volts == b.volts; }
};

// Each throws value_error on malformed text or an impossible value (negative duration or size,
// frequency <= 0, negative rate/current/voltage).
duration parse_duration(const std::string& text);
frequency parse_frequency(const std::string& text);
byte_size parse_byte_size(const std::string& text);
bit_rate parse_bit_rate(const std::string& text);
current parse_current(const std::string& text);
voltage parse_voltage(const std::string& text);

// A quantity as one plain number in the unit the reports give its kind in (docs/report-schema.md:
// the SI base unit), with that unit and the suffix a report key or table column in it ends with:
// 1.5us -> {1.5e-6, "s", "_s"}, 48MHz -> {4.8e7, "Hz", "_hz"}, 64KiB -> {65536, "B", "_bytes"}.
// Tables that need numbers (a sweep's results.csv) take their settings from here.
struct plain_quantity {
    double value = 0;
    const char* unit = "";
    const char* suffix = "";
};
plain_quantity plain(duration d);  // s, _s
plain_quantity plain(frequency f); // Hz, _hz
plain_quantity plain(byte_size s); // B, _bytes
plain_quantity plain(bit_rate r);  // bit/s, _bps
plain_quantity plain(current c);   // A, _a
plain_quantity plain(voltage v);   // V, _v

// Canonical text for messages and reports, e.g. "1.5us", "48MHz", "64KiB" (exact when possible).
std::string to_string(duration d);
std::string to_string(frequency f);
std::string to_string(byte_size s);
std::string to_string(bit_rate r);

} // namespace nicsim::config

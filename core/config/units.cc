// SPDX-License-Identifier: MIT
#include "core/config/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace nicsim::config {
namespace {

struct unit_scale {
    const char* suffix;
    long double scale;
};

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

// Splits "1.5 us" into its number (1.5) and unit ("us"). Returns false when there is no number.
bool split_quantity(const std::string& raw, long double& value, std::string& unit) {
    const std::string s = trim(raw);
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
    size_t digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        ++i;
        ++digits;
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
        return false;
    // An exponent only when digits follow, so "1e" is not silently read as 1.
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-'))
            ++j;
        if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
            while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
                ++j;
            i = j;
        }
    }
    const std::string number = s.substr(0, i);
    value = std::strtold(number.c_str(), nullptr);
    size_t k = i;
    while (k < s.size() && s[k] == ' ')
        ++k;
    unit = s.substr(k);
    return std::isfinite(static_cast<double>(value));
}

// Looks the unit up; an empty unit uses bare_scale (0 = a unit is required).
long double quantity(const std::string& text, const std::vector<unit_scale>& units,
                     long double bare_scale, const char* expected) {
    long double v = 0;
    std::string unit;
    if (!split_quantity(text, v, unit))
        throw value_error(expected);
    if (unit.empty()) {
        if (bare_scale == 0 && v != 0)
            throw value_error(std::string(expected) + " (a unit is required)");
        return v * (bare_scale == 0 ? 1 : bare_scale);
    }
    for (const auto& u : units)
        if (unit == u.suffix)
            return v * u.scale;
    std::string known;
    for (const auto& u : units)
        known += (known.empty() ? "" : ", ") + std::string(u.suffix);
    throw value_error(std::string(expected) + "; unknown unit '" + unit +
                      "' (known, case-sensitive: " + known + ")");
}

std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// Picks the largest unit not above v and prints v in it.
std::string with_unit(double v, const std::vector<std::pair<const char*, double>>& units) {
    for (const auto& [suffix, scale] : units)
        if (std::fabs(v) >= scale)
            return fmt(v / scale) + suffix;
    return fmt(v / units.back().second) + units.back().first;
}

} // namespace

duration parse_duration(const std::string& text) {
    static const std::vector<unit_scale> units = {{"ps", 1},           {"ns", 1e3L}, {"us", 1e6L},
                                                  {"\xC2\xB5s", 1e6L}, {"ms", 1e9L}, {"s", 1e12L}};
    const long double ps =
        quantity(text, units, 0,
                 "expected a duration: a number with unit ps, ns, us, ms or s (e.g. 20ns, 1.5us)");
    if (ps < 0)
        throw value_error("must not be negative");
    if (ps > 9.2e18L)
        throw value_error("duration too large (limit about 106 days)");
    const long long r = std::llround(ps);
    if (r == 0 && ps != 0)
        throw value_error("duration below the 1 ps resolution");
    return duration{r};
}

frequency parse_frequency(const std::string& text) {
    static const std::vector<unit_scale> units = {
        {"Hz", 1}, {"kHz", 1e3L}, {"MHz", 1e6L}, {"GHz", 1e9L}};
    const long double hz =
        quantity(text, units, 1,
                 "expected a frequency: a number with unit Hz, kHz, MHz or GHz (e.g. 48MHz)");
    if (!(hz > 0))
        throw value_error("must be > 0");
    return frequency{static_cast<double>(hz)};
}

byte_size parse_byte_size(const std::string& text) {
    static const std::vector<unit_scale> units = {
        {"B", 1},     {"kB", 1e3L},     {"KB", 1e3L},        {"MB", 1e6L},
        {"GB", 1e9L}, {"KiB", 1024.0L}, {"MiB", 1048576.0L}, {"GiB", 1073741824.0L}};
    const long double b = quantity(text, units, 1,
                                   "expected a size: a whole number of bytes with unit B, kB, MB, "
                                   "GB, KiB, MiB or GiB (e.g. 64KiB)");
    if (b < 0)
        throw value_error("must not be negative");
    if (b != std::floor(b))
        throw value_error("must be a whole number of bytes");
    if (b > 1.8e19L)
        throw value_error("size too large");
    return byte_size{static_cast<std::uint64_t>(b)};
}

bit_rate parse_bit_rate(const std::string& text) {
    static const std::vector<unit_scale> units = {
        {"bps", 1},   {"kbps", 1e3L},   {"Mbps", 1e6L},   {"Gbps", 1e9L},
        {"bit/s", 1}, {"kbit/s", 1e3L}, {"Mbit/s", 1e6L}, {"Gbit/s", 1e9L}};
    const long double bps = quantity(text, units, 1,
                                     "expected a bit rate: a number with unit bps, kbps, Mbps, "
                                     "Gbps or bit/s, Mbit/s (e.g. 72.2Mbps)");
    if (bps < 0)
        throw value_error("must not be negative");
    return bit_rate{static_cast<double>(bps)};
}

current parse_current(const std::string& text) {
    static const std::vector<unit_scale> units = {{"A", 1},
                                                  {"mA", 1e-3L},
                                                  {"uA", 1e-6L},
                                                  {"\xC2\xB5"
                                                   "A",
                                                   1e-6L},
                                                  {"nA", 1e-9L}};
    const long double a = quantity(
        text, units, 1, "expected a current: a number with unit A, mA, uA or nA (e.g. 60.5mA)");
    if (a < 0)
        throw value_error("must not be negative");
    return current{static_cast<double>(a)};
}

voltage parse_voltage(const std::string& text) {
    static const std::vector<unit_scale> units = {{"V", 1}, {"mV", 1e-3L}};
    const long double v =
        quantity(text, units, 1, "expected a voltage: a number with unit V or mV (e.g. 3.3V)");
    if (!(v > 0))
        throw value_error("must be > 0");
    return voltage{static_cast<double>(v)};
}

std::string to_string(duration d) {
    static const std::pair<const char*, std::int64_t> units[] = {
        {"s", 1000000000000LL}, {"ms", 1000000000LL}, {"us", 1000000LL}, {"ns", 1000LL}};
    const std::int64_t v = d.ps;
    const std::int64_t mag = v < 0 ? -v : v;
    for (const auto& [suffix, scale] : units) {
        if (mag < scale)
            continue;
        std::string s = std::to_string(mag / scale);
        std::int64_t frac = mag % scale;
        if (frac != 0) {
            std::string f = std::to_string(frac);
            f.insert(0, std::to_string(scale).size() - 1 - f.size(), '0');
            while (!f.empty() && f.back() == '0')
                f.pop_back();
            s += "." + f;
        }
        return (v < 0 ? "-" : "") + s + suffix;
    }
    return std::to_string(v) + "ps";
}

std::string to_string(frequency f) {
    return with_unit(f.hz, {{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}});
}

std::string to_string(byte_size s) {
    static const std::pair<const char*, std::uint64_t> units[] = {
        {"GiB", 1ULL << 30}, {"MiB", 1ULL << 20}, {"KiB", 1ULL << 10}};
    for (const auto& [suffix, scale] : units)
        if (s.bytes >= scale && s.bytes % scale == 0)
            return std::to_string(s.bytes / scale) + suffix;
    return std::to_string(s.bytes) + "B";
}

std::string to_string(bit_rate r) {
    return with_unit(r.bps, {{"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}, {"bps", 1}});
}

// Divided, not multiplied by 1e-12: 10ms is then the double nearest 0.01, as "0.01" reads.
plain_quantity plain(duration d) { return {static_cast<double>(d.ps) / 1e12, "s", "_s"}; }
plain_quantity plain(frequency f) { return {f.hz, "Hz", "_hz"}; }
plain_quantity plain(byte_size s) { return {static_cast<double>(s.bytes), "B", "_bytes"}; }
plain_quantity plain(bit_rate r) { return {r.bps, "bit/s", "_bps"}; }
plain_quantity plain(current c) { return {c.amperes, "A", "_a"}; }
plain_quantity plain(voltage v) { return {v.volts, "V", "_v"}; }

} // namespace nicsim::config

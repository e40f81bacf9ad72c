// SPDX-License-Identifier: MIT
#include "trace/trace_common.h"

#include <cstdio>

namespace nicsim::trace {

uint64_t to_ps(const sc_core::sc_time& t) {
    static const double res_ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
    static const uint64_t per_ps = res_ps >= 1.0 ? uint64_t(res_ps + 0.5) : 0;
    if (per_ps)
        return static_cast<uint64_t>(t.value()) * per_ps;
    return static_cast<uint64_t>(static_cast<double>(t.value()) * res_ps);
}

void append_json_string(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

std::string hex(uint64_t v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, static_cast<unsigned long long>(v));
    return buf;
}

void json_args::key(std::string_view k) {
    if (!m_body.empty())
        m_body += ',';
    append_json_string(m_body, k);
    m_body += ':';
}

json_args& json_args::add(std::string_view k, std::string_view value) {
    key(k);
    append_json_string(m_body, value);
    return *this;
}

json_args& json_args::add(std::string_view k, uint64_t value) {
    key(k);
    m_body += std::to_string(value);
    return *this;
}

json_args& json_args::add_hex(std::string_view k, uint64_t value, int digits) {
    return add(k, hex(value, digits));
}

} // namespace nicsim::trace

// SPDX-License-Identifier: MIT
#include "trace/pcapng_writer.h"

#include <stdexcept>

namespace nicsim::trace {

namespace {

constexpr std::uint32_t shb_type = 0x0A0D0D0A, idb_type = 1, epb_type = 6;
constexpr std::uint16_t linktype_ethernet = 1;
constexpr std::uint16_t opt_end = 0, opt_comment = 1, if_name = 2, if_description = 3,
                        if_tsresol = 9, epb_flags = 2;

void put16(std::string& s, std::uint16_t v) {
    s.push_back(char(v & 0xff));
    s.push_back(char(v >> 8));
}
void put32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i)
        s.push_back(char((v >> (8 * i)) & 0xff));
}
void pad4(std::string& s) {
    while (s.size() % 4)
        s.push_back('\0');
}
void option(std::string& s, std::uint16_t code, const std::string& value) {
    put16(s, code);
    put16(s, static_cast<std::uint16_t>(value.size()));
    s += value;
    pad4(s);
}

} // namespace

pcapng_writer::pcapng_writer(const std::string& path, const std::string& comment,
                             size_limit limit)
    : m_out(path, std::ios::binary | std::ios::trunc), m_path(path), m_limit(std::move(limit)) {
    if (!m_out)
        throw std::runtime_error("cannot create " + path);
    std::string b;
    put32(b, 0x1A2B3C4D); // byte-order magic (little endian)
    put16(b, 1);          // version 1.0
    put16(b, 0);
    put32(b, 0xFFFFFFFF); // section length unknown (written as it goes)
    put32(b, 0xFFFFFFFF);
    option(b, opt_comment, comment);
    put32(b, opt_end); // opt_endofopt (code 0, length 0)
    block(shb_type, b);
}

unsigned pcapng_writer::add_interface(const std::string& name, const std::string& description) {
    std::string b;
    put16(b, linktype_ethernet);
    put16(b, 0);
    put32(b, 0); // snaplen: no limit
    option(b, if_name, name);
    option(b, if_description, description);
    option(b, if_tsresol, std::string(1, char(9))); // 10^-9 s
    put32(b, opt_end);
    block(idb_type, b);
    return m_interfaces++;
}

void pcapng_writer::packet(unsigned id, std::uint64_t time_ps, const std::uint8_t* data,
                           std::size_t len, direction dir, const std::string& comment) {
    if (m_closed || m_truncated) // closed: frames of the ifdown after the run are not traced
        return;
    const std::uint64_t ns = time_ps / 1000;
    std::string b;
    put32(b, id);
    put32(b, static_cast<std::uint32_t>(ns >> 32));
    put32(b, static_cast<std::uint32_t>(ns & 0xFFFFFFFFu));
    put32(b, static_cast<std::uint32_t>(len)); // captured
    put32(b, static_cast<std::uint32_t>(len)); // original
    b.append(reinterpret_cast<const char*>(data), len);
    pad4(b);
    std::string flags;
    put32(flags, dir == direction::inbound ? 1u : 2u); // bits 0-1: 01 inbound, 10 outbound
    option(b, epb_flags, flags);
    if (!comment.empty())
        option(b, opt_comment, comment);
    put32(b, opt_end);
    // Section and interface blocks always go in (they are small and come first); packets only
    // while the file stays within the limit.
    if (m_limit.limited() && m_bytes + b.size() + 12 > m_limit.max_bytes) {
        m_truncated = true;
        if (m_limit.on_reached)
            m_limit.on_reached(m_path, time_ps);
        return;
    }
    block(epb_type, b);
    ++m_packets;
}

void pcapng_writer::block(std::uint32_t type, const std::string& body) {
    const std::uint32_t total = static_cast<std::uint32_t>(body.size() + 12);
    std::string b;
    put32(b, type);
    put32(b, total);
    b += body;
    put32(b, total);
    m_out.write(b.data(), static_cast<std::streamsize>(b.size()));
    m_bytes += b.size();
}

void pcapng_writer::close() {
    if (m_closed)
        return;
    m_closed = true;
    m_out.flush();
    const bool ok = static_cast<bool>(m_out);
    m_out.close();
    if (!ok)
        throw std::runtime_error("writing " + m_path + " failed");
}

} // namespace nicsim::trace

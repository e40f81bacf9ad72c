// SPDX-License-Identifier: MIT
#include "host/traffic/frame.h"

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <stdexcept>

#include "models/common/frame_buffers.h"

namespace nicsim::traffic::frame {

namespace {

void put16(std::uint8_t* p, std::uint16_t v) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
}
void put32(std::uint8_t* p, std::uint32_t v) {
    put16(p, static_cast<std::uint16_t>(v >> 16));
    put16(p + 2, static_cast<std::uint16_t>(v));
}
std::uint16_t get16(const std::uint8_t* p) {
    return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
std::uint32_t get32(const std::uint8_t* p) {
    return (static_cast<std::uint32_t>(get16(p)) << 16) | get16(p + 2);
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Ethernet + IPv4 header for an L4 block of l4_len bytes; returns the frame with room for it.
std::vector<std::uint8_t> start_frame(const eth_fields& eth, const ipv4_fields& ip,
                                      std::uint8_t proto, std::size_t l4_len) {
    const std::size_t tot_len = ipv4_header_len + l4_len;
    if (tot_len > 0xffff)
        throw std::invalid_argument("traffic frame: IPv4 total length " + std::to_string(tot_len) +
                                    " exceeds 65535");
    // Room for the 4-byte FCS a MAC appends (like an skb's tailroom), so appending it later
    // does not reallocate and copy the whole frame.
    std::vector<std::uint8_t> f = frame_buffers::take(); // a done frame's storage, if any
    f.reserve(eth_header_len + tot_len + 4);
    f.resize(eth_header_len + tot_len, 0);
    std::copy(eth.dst.bytes.begin(), eth.dst.bytes.end(), f.begin());
    std::copy(eth.src.bytes.begin(), eth.src.bytes.end(), f.begin() + 6);
    put16(&f[12], ethertype_ipv4);
    std::uint8_t* h = &f[eth_header_len];
    h[0] = 0x45; // version 4, ihl 5
    h[1] = ip.tos;
    put16(h + 2, static_cast<std::uint16_t>(tot_len));
    put16(h + 4, ip.id);
    put16(h + 6, ip.dont_fragment ? 0x4000 : 0);
    h[8] = ip.ttl;
    h[9] = proto;
    put32(h + 12, ip.src.value);
    put32(h + 16, ip.dst.value);
    put16(h + 10, internet_checksum(h, ipv4_header_len));
    return f;
}

void copy_payload(std::uint8_t* dst, const std::uint8_t* payload, std::size_t len) {
    if (len)
        std::copy(payload, payload + len, dst);
}

} // namespace

mac_addr mac_addr::parse(const std::string& text) {
    mac_addr m;
    const auto bad = [&] {
        return std::invalid_argument("MAC address '" + text +
                                     "': expected six hex bytes like 02:00:00:00:00:01");
    };
    if (text.size() != 17)
        throw bad();
    for (int i = 0; i < 6; ++i) {
        const int hi = hex_digit(text[3 * i]), lo = hex_digit(text[3 * i + 1]);
        if (hi < 0 || lo < 0)
            throw bad();
        if (i < 5 && text[3 * i + 2] != ':' && text[3 * i + 2] != '-')
            throw bad();
        m.bytes[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    return m;
}

std::string mac_addr::str() const {
    char buf[18];
    std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", bytes[0], bytes[1], bytes[2],
                  bytes[3], bytes[4], bytes[5]);
    return buf;
}

ipv4_addr ipv4_addr::parse(const std::string& text) {
    std::uint32_t v = 0;
    std::size_t pos = 0;
    for (int i = 0; i < 4; ++i) {
        std::size_t digits = 0;
        unsigned octet = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 3) {
            octet = octet * 10 + static_cast<unsigned>(text[pos] - '0');
            ++pos;
            ++digits;
        }
        const bool sep_ok = (i < 3) ? (pos < text.size() && text[pos] == '.') : pos == text.size();
        if (digits == 0 || octet > 255 || !sep_ok)
            throw std::invalid_argument("IPv4 address '" + text +
                                        "': expected a dotted quad like 192.168.0.1");
        if (i < 3)
            ++pos;
        v = (v << 8) | octet;
    }
    return ipv4_addr{v};
}

std::string ipv4_addr::str() const {
    return std::to_string(value >> 24) + "." + std::to_string((value >> 16) & 0xff) + "." +
           std::to_string((value >> 8) & 0xff) + "." + std::to_string(value & 0xff);
}

std::uint32_t checksum_add(const std::uint8_t* data, std::size_t len, std::uint32_t sum) {
    // Every frame of a run is summed at least twice, so this loop is hot. One's-complement
    // addition is associative, so carries are folded at the end of a 64-bit accumulator.
    std::uint64_t s = sum;
    std::size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // The bulk in the machine's byte order, in four independent accumulators of 32-bit halves
    // (a half is two 16-bit words: 2^16 = 1 modulo 0xffff). RFC 1071 2(B): swapping the bytes of
    // every word swaps the bytes of the folded sum (swap(x) = 256 x modulo 0xffff), so the
    // little-endian sum is swapped once. A non-zero sum folds to 1..0xffff either way, so the
    // folded result is the big-endian loop's, bit for bit.
    if (len >= 32) {
        std::uint64_t a[4] = {0, 0, 0, 0};
        for (; i + 32 <= len; i += 32) {
            std::uint64_t w[4];
            std::memcpy(w, data + i, 32);
            for (int k = 0; k < 4; ++k)
                a[k] += (w[k] >> 32) + (w[k] & 0xffffffffu);
        }
        std::uint64_t n = a[0] + a[1] + a[2] + a[3]; // < 2^35 per KiB: no overflow
        while (n >> 16)
            n = (n & 0xffffu) + (n >> 16);
        s += __builtin_bswap16(static_cast<std::uint16_t>(n));
    }
#endif
    // Two big-endian words per step from one 8-byte load: the same additions as the 4-byte loop.
    for (; i + 8 <= len; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, data + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        s += (w >> 32) + (w & 0xffffffffu);
    }
    for (; i + 4 <= len; i += 4)
        s += (static_cast<std::uint32_t>(data[i]) << 24) |
             (static_cast<std::uint32_t>(data[i + 1]) << 16) |
             (static_cast<std::uint32_t>(data[i + 2]) << 8) | data[i + 3];
    for (; i + 1 < len; i += 2)
        s += static_cast<std::uint32_t>((data[i] << 8) | data[i + 1]);
    if (i < len)
        s += static_cast<std::uint32_t>(data[i] << 8);
    // Fold to 32 bits so chained calls cannot overflow.
    while (s >> 32)
        s = (s & 0xffffffffu) + (s >> 32);
    return static_cast<std::uint32_t>(s);
}

std::uint16_t checksum_fold(std::uint32_t sum) {
    while (sum >> 16)
        sum = (sum & 0xffffu) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum & 0xffffu);
}

std::uint32_t pseudo_header_sum(ipv4_addr src, ipv4_addr dst, std::uint8_t proto,
                                std::uint16_t l4_len) {
    std::uint8_t ph[12];
    put32(ph, src.value);
    put32(ph + 4, dst.value);
    ph[8] = 0;
    ph[9] = proto;
    put16(ph + 10, l4_len);
    return checksum_add(ph, sizeof ph);
}

std::vector<std::uint8_t> build_tcp(const eth_fields& eth, const ipv4_fields& ip,
                                    const tcp_fields& tcp, const std::uint8_t* payload,
                                    std::size_t payload_len) {
    if (tcp.options.size() % 4 != 0 || tcp.options.size() > 40)
        throw std::invalid_argument("traffic frame: TCP options must be a multiple of 4 bytes and "
                                    "at most 40, got " +
                                    std::to_string(tcp.options.size()));
    const std::size_t hlen = tcp_header_len + tcp.options.size();
    const std::size_t l4_len = hlen + payload_len;
    auto f = start_frame(eth, ip, ip_proto_tcp, l4_len);
    std::uint8_t* t = &f[eth_header_len + ipv4_header_len];
    put16(t, tcp.src_port);
    put16(t + 2, tcp.dst_port);
    put32(t + 4, tcp.seq);
    put32(t + 8, tcp.ack);
    t[12] = static_cast<std::uint8_t>((hlen / 4) << 4);
    t[13] = tcp.flags;
    put16(t + 14, tcp.window);
    std::copy(tcp.options.begin(), tcp.options.end(), t + tcp_header_len);
    copy_payload(t + hlen, payload, payload_len);
    const auto sum = checksum_add(
        t, l4_len,
        pseudo_header_sum(ip.src, ip.dst, ip_proto_tcp, static_cast<std::uint16_t>(l4_len)));
    put16(t + 16, checksum_fold(sum));
    return f;
}

std::vector<std::uint8_t> build_udp(const eth_fields& eth, const ipv4_fields& ip,
                                    std::uint16_t src_port, std::uint16_t dst_port,
                                    const std::uint8_t* payload, std::size_t payload_len) {
    const std::size_t l4_len = udp_header_len + payload_len;
    auto f = start_frame(eth, ip, ip_proto_udp, l4_len);
    std::uint8_t* u = &f[eth_header_len + ipv4_header_len];
    put16(u, src_port);
    put16(u + 2, dst_port);
    put16(u + 4, static_cast<std::uint16_t>(l4_len));
    copy_payload(u + udp_header_len, payload, payload_len);
    std::uint16_t c = checksum_fold(checksum_add(
        u, l4_len,
        pseudo_header_sum(ip.src, ip.dst, ip_proto_udp, static_cast<std::uint16_t>(l4_len))));
    if (c == 0)
        c = 0xffff; // RFC 768: a computed 0 is sent as all ones (0 means "no checksum")
    put16(u + 6, c);
    return f;
}

std::vector<std::uint8_t> build_icmp_echo(const eth_fields& eth, const ipv4_fields& ip,
                                          std::uint8_t type, std::uint16_t id, std::uint16_t seq,
                                          const std::uint8_t* payload, std::size_t payload_len) {
    const std::size_t l4_len = icmp_header_len + payload_len;
    auto f = start_frame(eth, ip, ip_proto_icmp, l4_len);
    std::uint8_t* c = &f[eth_header_len + ipv4_header_len];
    c[0] = type;
    c[1] = 0;
    put16(c + 4, id);
    put16(c + 6, seq);
    copy_payload(c + icmp_header_len, payload, payload_len);
    put16(c + 2, internet_checksum(c, l4_len)); // ICMP has no pseudo header
    return f;
}

std::vector<std::uint8_t> tcp_timestamp_option(std::uint32_t tsval, std::uint32_t tsecr) {
    std::vector<std::uint8_t> o;
    append_tcp_timestamp_option(o, tsval, tsecr);
    return o;
}

void append_tcp_timestamp_option(std::vector<std::uint8_t>& o, std::uint32_t tsval,
                                 std::uint32_t tsecr) {
    const std::size_t at = o.size();
    o.insert(o.end(), {1, 1, 8, 10, 0, 0, 0, 0, 0, 0, 0, 0});
    put32(&o[at + 4], tsval);
    put32(&o[at + 8], tsecr);
}

parsed_frame parse(const std::uint8_t* data, std::size_t len, bool verify_checksums) {
    parsed_frame p;
    const auto fail = [&](const std::string& why) {
        p.ok = false;
        p.error = why;
        return p;
    };
    if (len < eth_header_len)
        return fail("frame of " + std::to_string(len) +
                    " bytes is shorter than an Ethernet header");
    std::copy(data, data + 6, p.eth_dst.bytes.begin());
    std::copy(data + 6, data + 12, p.eth_src.bytes.begin());
    p.ethertype = get16(data + 12);
    if (p.ethertype != ethertype_ipv4) {
        p.ok = true;
        p.payload = data + eth_header_len;
        p.payload_len = len - eth_header_len;
        return p;
    }
    const std::uint8_t* h = data + eth_header_len;
    const std::size_t avail = len - eth_header_len;
    if (avail < ipv4_header_len)
        return fail("IPv4 frame truncated inside the IP header");
    if ((h[0] >> 4) != 4)
        return fail("IP version " + std::to_string(h[0] >> 4) + " in an IPv4 ethertype frame");
    p.ihl = h[0] & 0x0f;
    p.tos = h[1];
    p.tot_len = get16(h + 2);
    p.ip_id = get16(h + 4);
    p.ttl = h[8];
    p.protocol = h[9];
    p.ip_src.value = get32(h + 12);
    p.ip_dst.value = get32(h + 16);
    const std::size_t ihl_bytes = p.ihl * 4u;
    if (p.ihl < 5 || ihl_bytes > avail)
        return fail("bad IPv4 ihl " + std::to_string(p.ihl));
    if (p.tot_len < ihl_bytes || p.tot_len > avail)
        return fail("IPv4 tot_len " + std::to_string(p.tot_len) + " does not fit the " +
                    std::to_string(avail) + "-byte IP part of the frame");
    p.ip_checksum_ok = verify_checksums && internet_checksum(h, ihl_bytes) == 0;
    if ((get16(h + 6) & 0x3fff) != 0)
        return fail("fragmented IPv4 packet (fragments are not supported)");
    const std::uint8_t* l4 = h + ihl_bytes;
    const std::size_t l4_len = p.tot_len - ihl_bytes;
    const auto pseudo =
        pseudo_header_sum(p.ip_src, p.ip_dst, p.protocol, static_cast<std::uint16_t>(l4_len));
    switch (p.protocol) {
    case ip_proto_tcp: {
        if (l4_len < tcp_header_len)
            return fail("TCP segment truncated");
        p.src_port = get16(l4);
        p.dst_port = get16(l4 + 2);
        p.tcp_seq = get32(l4 + 4);
        p.tcp_ack = get32(l4 + 8);
        p.tcp_doff = l4[12] >> 4;
        p.tcp_flags = l4[13];
        p.tcp_window = get16(l4 + 14);
        const std::size_t hlen = p.tcp_doff * 4u;
        if (p.tcp_doff < 5 || hlen > l4_len)
            return fail("bad TCP doff " + std::to_string(p.tcp_doff));
        p.tcp_options = l4 + tcp_header_len;
        p.tcp_options_len = hlen - tcp_header_len;
        p.payload = l4 + hlen;
        p.payload_len = l4_len - hlen;
        p.l4_checksum_ok = verify_checksums && checksum_fold(checksum_add(l4, l4_len, pseudo)) == 0;
        break;
    }
    case ip_proto_udp: {
        if (l4_len < udp_header_len)
            return fail("UDP datagram truncated");
        p.src_port = get16(l4);
        p.dst_port = get16(l4 + 2);
        const std::uint16_t ulen = get16(l4 + 4);
        if (ulen != l4_len)
            return fail("UDP length " + std::to_string(ulen) + " disagrees with IPv4 payload " +
                        std::to_string(l4_len));
        p.payload = l4 + udp_header_len;
        p.payload_len = l4_len - udp_header_len;
        p.l4_checksum_ok =
            verify_checksums &&
            (get16(l4 + 6) == 0 || checksum_fold(checksum_add(l4, l4_len, pseudo)) == 0);
        break;
    }
    case ip_proto_icmp: {
        if (l4_len < icmp_header_len)
            return fail("ICMP message truncated");
        p.icmp_type = l4[0];
        p.icmp_code = l4[1];
        p.icmp_id = get16(l4 + 4);
        p.icmp_seq = get16(l4 + 6);
        p.payload = l4 + icmp_header_len;
        p.payload_len = l4_len - icmp_header_len;
        p.l4_checksum_ok = verify_checksums && internet_checksum(l4, l4_len) == 0;
        break;
    }
    default:
        p.payload = l4;
        p.payload_len = l4_len;
        break;
    }
    p.ok = true;
    return p;
}

void append_tcp_sack_option(std::vector<std::uint8_t>& options, const sack_block* blocks,
                            std::size_t n) {
    if (n == 0)
        return;
    if (n > max_sack_blocks)
        throw std::invalid_argument("append_tcp_sack_option: more than 4 SACK blocks");
    options.insert(options.end(), {1, 1, 5, static_cast<std::uint8_t>(2 + 8 * n)});
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = options.size();
        options.resize(at + 8);
        put32(&options[at], blocks[i].start);
        put32(&options[at + 4], blocks[i].end);
    }
}

std::size_t find_tcp_sack(const parsed_frame& f, sack_block* out) {
    const std::uint8_t* o = f.tcp_options;
    std::size_t i = 0;
    while (o && i < f.tcp_options_len) {
        const std::uint8_t kind = o[i];
        if (kind == 0)
            break;
        if (kind == 1) {
            ++i;
            continue;
        }
        if (i + 1 >= f.tcp_options_len || o[i + 1] < 2 || i + o[i + 1] > f.tcp_options_len)
            break;
        const std::uint8_t len = o[i + 1];
        if (kind == 5) {
            // tcp_parse_options: the length must be 2 + a whole number of 8-byte blocks.
            if (len < 10 || (len - 2) % 8 != 0)
                return 0;
            const std::size_t n = std::min<std::size_t>((len - 2) / 8, max_sack_blocks);
            for (std::size_t b = 0; b < n; ++b) {
                out[b].start = get32(o + i + 2 + 8 * b);
                out[b].end = get32(o + i + 6 + 8 * b);
            }
            return n;
        }
        i += len;
    }
    return 0;
}

bool find_tcp_timestamp(const parsed_frame& f, std::uint32_t& tsval, std::uint32_t& tsecr) {
    const std::uint8_t* o = f.tcp_options;
    std::size_t i = 0;
    while (o && i < f.tcp_options_len) {
        const std::uint8_t kind = o[i];
        if (kind == 0)
            break; // end of options
        if (kind == 1) {
            ++i;
            continue;
        }
        if (i + 1 >= f.tcp_options_len || o[i + 1] < 2 || i + o[i + 1] > f.tcp_options_len)
            break; // malformed
        if (kind == 8 && o[i + 1] == 10) {
            tsval = get32(o + i + 2);
            tsecr = get32(o + i + 6);
            return true;
        }
        i += o[i + 1];
    }
    return false;
}

} // namespace nicsim::traffic::frame

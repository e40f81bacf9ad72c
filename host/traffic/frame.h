// SPDX-License-Identifier: MIT
//
// Ethernet II + IPv4 + TCP/UDP/ICMP frames: small address value types, builders that produce
// wire-exact frames (network byte order, correct lengths and checksums) and one parser.
//
// The frames go through the real drivers, which read them: the WILC1000 driver picks the access
// category from the IPv4 DSCP and its TCP-ACK filter reads ihl/tot_len/protocol and TCP
// doff/seq/ack_seq; the KS8851 chip model may filter on the destination MAC. So every field is
// filled as a Linux host would fill it. Builders never pad to the 60-byte Ethernet minimum: the
// driver sees skb->len without padding, and padding is the MAC's (wire model's) business; the
// parser accepts padded frames (it trusts tot_len, not the frame length).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nicsim::traffic::frame {

constexpr std::size_t eth_header_len = 14;
constexpr std::size_t ipv4_header_len = 20; // builders never emit IP options (ihl = 5)
constexpr std::size_t tcp_header_len = 20;  // without options
constexpr std::size_t udp_header_len = 8;
constexpr std::size_t icmp_header_len = 8;    // echo request/reply header
constexpr std::size_t eth_min_frame_len = 60; // without FCS

constexpr std::uint16_t ethertype_ipv4 = 0x0800;
constexpr std::uint8_t ip_proto_icmp = 1;
constexpr std::uint8_t ip_proto_tcp = 6;
constexpr std::uint8_t ip_proto_udp = 17;

constexpr std::uint8_t icmp_echo_reply = 0;
constexpr std::uint8_t icmp_echo_request = 8;

// TCP flag bits (byte 13 of the TCP header).
constexpr std::uint8_t tcp_fin = 0x01;
constexpr std::uint8_t tcp_syn = 0x02;
constexpr std::uint8_t tcp_rst = 0x04;
constexpr std::uint8_t tcp_psh = 0x08;
constexpr std::uint8_t tcp_ack = 0x10;

struct mac_addr {
    std::array<std::uint8_t, 6> bytes{};

    // "02:00:00:00:00:01" (':' or '-' separated, hex); throws std::invalid_argument otherwise.
    static mac_addr parse(const std::string& text);
    static mac_addr broadcast() { return mac_addr{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}; }
    std::string str() const;
    bool is_broadcast() const { return *this == broadcast(); }
    bool is_multicast() const { return bytes[0] & 1u; } // group bit; includes broadcast
    friend bool operator==(const mac_addr& a, const mac_addr& b) { return a.bytes == b.bytes; }
    friend bool operator!=(const mac_addr& a, const mac_addr& b) { return !(a == b); }
};

struct ipv4_addr {
    std::uint32_t value = 0; // host byte order: 192.168.0.1 == 0xc0a80001

    // Dotted quad; throws std::invalid_argument otherwise.
    static ipv4_addr parse(const std::string& text);
    std::string str() const;
    friend bool operator==(ipv4_addr a, ipv4_addr b) { return a.value == b.value; }
    friend bool operator!=(ipv4_addr a, ipv4_addr b) { return a.value != b.value; }
};

// --- checksums (RFC 1071) ----------------------------------------------------------------------

// 32-bit one's-complement accumulation of 16-bit big-endian words (odd length: last byte is the
// high half of a zero-padded word). Chain calls by passing the previous result as `sum`.
std::uint32_t checksum_add(const std::uint8_t* data, std::size_t len, std::uint32_t sum = 0);
// Fold carries and complement: the value to store in a checksum field. A buffer that already
// contains its correct checksum folds to 0.
std::uint16_t checksum_fold(std::uint32_t sum);
inline std::uint16_t internet_checksum(const std::uint8_t* data, std::size_t len) {
    return checksum_fold(checksum_add(data, len));
}
// Sum of the IPv4 pseudo header (src, dst, zero, protocol, L4 length) for TCP/UDP.
std::uint32_t pseudo_header_sum(ipv4_addr src, ipv4_addr dst, std::uint8_t proto,
                                std::uint16_t l4_len);

// --- builders ----------------------------------------------------------------------------------

struct eth_fields {
    mac_addr dst;
    mac_addr src;
};

struct ipv4_fields {
    ipv4_addr src;
    ipv4_addr dst;
    std::uint8_t tos = 0; // DSCP << 2 | ECN; the WILC1000 driver maps DSCP to its access category
    std::uint8_t ttl = 64;
    std::uint16_t id = 0;
    bool dont_fragment = true; // Linux sets DF on TCP and (with PMTU discovery) UDP
};

struct tcp_fields {
    std::uint16_t src_port = 0;
    std::uint16_t dst_port = 0;
    std::uint32_t seq = 0;
    std::uint32_t ack = 0;
    std::uint8_t flags = tcp_ack;
    std::uint16_t window = 0; // raw field (already scaled down)
    // Raw option bytes; length must be a multiple of 4 and at most 40 (the builder throws
    // otherwise) so that doff is exact and no padding is invented.
    std::vector<std::uint8_t> options;
};

// Each builder returns the complete frame: 14 + 20 + L4 header + payload bytes, all checksums
// set. Throws std::invalid_argument if the IPv4 total length would exceed 65535.
std::vector<std::uint8_t> build_tcp(const eth_fields& eth, const ipv4_fields& ip,
                                    const tcp_fields& tcp, const std::uint8_t* payload,
                                    std::size_t payload_len);
std::vector<std::uint8_t> build_udp(const eth_fields& eth, const ipv4_fields& ip,
                                    std::uint16_t src_port, std::uint16_t dst_port,
                                    const std::uint8_t* payload, std::size_t payload_len);
std::vector<std::uint8_t> build_icmp_echo(const eth_fields& eth, const ipv4_fields& ip,
                                          std::uint8_t type, std::uint16_t id, std::uint16_t seq,
                                          const std::uint8_t* payload, std::size_t payload_len);

// TCP timestamp option as Linux sends it: NOP, NOP, kind 8, len 10, TSval, TSecr (12 bytes).
std::vector<std::uint8_t> tcp_timestamp_option(std::uint32_t tsval, std::uint32_t tsecr);
// The same appended to `options` (a reused buffer keeps its capacity: no allocation).
void append_tcp_timestamp_option(std::vector<std::uint8_t>& options, std::uint32_t tsval,
                                 std::uint32_t tsecr);

// One SACK block (RFC 2018): [start, end) in wire sequence numbers.
struct sack_block {
    std::uint32_t start = 0, end = 0;
};
constexpr std::size_t max_sack_blocks = 4; // TCP_NUM_SACKS: 4 fit in 40 option bytes

// Appends a SACK option as Linux's tcp_options_write does: NOP, NOP, kind 5, len 2 + 8n
// (n <= max_sack_blocks; the caller leaves room for the timestamps).
void append_tcp_sack_option(std::vector<std::uint8_t>& options, const sack_block* blocks,
                            std::size_t n);

// --- parser ------------------------------------------------------------------------------------

// A parsed frame; pointers point into the caller's buffer and are valid while it lives.
struct parsed_frame {
    bool ok = false; // false: `error` says why (truncated, not IPv4, bad lengths, ...)
    std::string error;

    mac_addr eth_dst, eth_src;
    std::uint16_t ethertype = 0;

    // IPv4 (valid when ethertype == ethertype_ipv4 and ok)
    std::uint8_t ihl = 0; // in 32-bit words
    std::uint8_t tos = 0;
    std::uint16_t tot_len = 0;
    std::uint16_t ip_id = 0;
    std::uint8_t ttl = 0;
    std::uint8_t protocol = 0;
    ipv4_addr ip_src, ip_dst;
    bool ip_checksum_ok = false;

    // L4
    std::uint16_t src_port = 0, dst_port = 0; // TCP/UDP
    std::uint32_t tcp_seq = 0, tcp_ack = 0;
    std::uint8_t tcp_doff = 0; // in 32-bit words
    std::uint8_t tcp_flags = 0;
    std::uint16_t tcp_window = 0;
    const std::uint8_t* tcp_options = nullptr;
    std::size_t tcp_options_len = 0;
    std::uint8_t icmp_type = 0, icmp_code = 0;
    std::uint16_t icmp_id = 0, icmp_seq = 0;
    bool l4_checksum_ok = false; // UDP checksum 0 ("none") counts as ok

    const std::uint8_t* payload = nullptr;
    std::size_t payload_len = 0;
};

// Parses Ethernet II; for IPv4 also the IP header and TCP/UDP/ICMP. Non-IPv4 frames parse
// ok with only the Ethernet fields set. Never throws. With verify_checksums == false the
// *_checksum_ok fields are left false and no checksum is computed (cheap filtering).
parsed_frame parse(const std::uint8_t* data, std::size_t len, bool verify_checksums = true);

// TSval/TSecr from a parsed TCP option block; false if no timestamp option is present.
bool find_tcp_timestamp(const parsed_frame& f, std::uint32_t& tsval, std::uint32_t& tsecr);

// The SACK blocks of a parsed TCP option block (at most max_sack_blocks, in the order sent);
// returns how many were written to `out` (0: no SACK option, or a malformed one).
std::size_t find_tcp_sack(const parsed_frame& f, sack_block* out);

} // namespace nicsim::traffic::frame

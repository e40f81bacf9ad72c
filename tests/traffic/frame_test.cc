// SPDX-License-Identifier: MIT
//
// Frame builders and parser against packets whose checksums were computed by hand (the
// one's-complement sums are spelled out next to each expectation).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "host/traffic/frame.h"
#include "host/traffic/pattern.h"

using namespace nicsim::traffic;
using namespace nicsim::traffic::frame;

namespace {

const mac_addr mac_a = mac_addr::parse("02:00:00:00:00:0a");
const mac_addr mac_b = mac_addr::parse("02:00:00:00:00:0b");
const ipv4_addr ip_a = ipv4_addr::parse("10.0.0.1");
const ipv4_addr ip_b = ipv4_addr::parse("10.0.0.2");

ipv4_fields ip_ab() {
    ipv4_fields ip;
    ip.src = ip_a;
    ip.dst = ip_b;
    ip.id = 0;
    ip.ttl = 64;
    ip.dont_fragment = true;
    return ip;
}

std::vector<std::uint8_t> bytes(std::initializer_list<int> v) {
    std::vector<std::uint8_t> out;
    for (int b : v)
        out.push_back(static_cast<std::uint8_t>(b));
    return out;
}

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& f, std::size_t from,
                                std::size_t n) {
    return std::vector<std::uint8_t>(f.begin() + from, f.begin() + from + n);
}

} // namespace

TEST(TrafficFrame, AddressesParseAndPrint) {
    EXPECT_EQ(mac_a.str(), "02:00:00:00:00:0a");
    EXPECT_EQ(mac_addr::parse("AA-bb-CC-00-11-22").str(), "aa:bb:cc:00:11:22");
    EXPECT_TRUE(mac_addr::broadcast().is_broadcast());
    EXPECT_TRUE(mac_addr::parse("01:00:5e:00:00:01").is_multicast());
    EXPECT_FALSE(mac_a.is_multicast());
    EXPECT_EQ(ip_a.value, 0x0a000001u);
    EXPECT_EQ(ipv4_addr::parse("192.168.0.199").str(), "192.168.0.199");
    EXPECT_THROW(mac_addr::parse("02:00:00:00:00"), std::invalid_argument);
    EXPECT_THROW(mac_addr::parse("02:00:00:00:00:0g"), std::invalid_argument);
    EXPECT_THROW(ipv4_addr::parse("10.0.0.256"), std::invalid_argument);
    EXPECT_THROW(ipv4_addr::parse("10.0.0"), std::invalid_argument);
    EXPECT_THROW(ipv4_addr::parse("10.0.0.1.2"), std::invalid_argument);
}

// The classic IPv4 header example (tot_len 0x73, DF, TTL 64, UDP, 192.168.0.1 -> .199) whose
// checksum is 0xb861: built here as a UDP datagram with 0x73 - 28 = 87 payload bytes.
TEST(TrafficFrame, Ipv4HeaderOfTheTextbookExample) {
    ipv4_fields ip;
    ip.src = ipv4_addr::parse("192.168.0.1");
    ip.dst = ipv4_addr::parse("192.168.0.199");
    std::vector<std::uint8_t> payload(87, 0x5a);
    const auto f = build_udp({mac_b, mac_a}, ip, 1, 2, payload.data(), payload.size());
    EXPECT_EQ(slice(f, 14, 20),
              bytes({0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                     0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7}));
}

// ICMP echo request id 0x1234 seq 1 data "abcd": 0800 + 1234 + 0001 + 6162 + 6364 = 0xdefb,
// checksum ~0xdefb = 0x2104. IP header (tot_len 32, proto 1): 4500 + 0020 + 4000 + 4001 +
// 0a00 + 0001 + 0a00 + 0002 = 0xd924 -> 0x26db.
TEST(TrafficFrame, IcmpEchoHandChecked) {
    const std::uint8_t data[] = {'a', 'b', 'c', 'd'};
    const auto f = build_icmp_echo({mac_b, mac_a}, ip_ab(), icmp_echo_request, 0x1234, 1, data, 4);
    ASSERT_EQ(f.size(), 14u + 20 + 8 + 4);
    EXPECT_EQ(slice(f, 0, 14), bytes({0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a, 0x08, 0x00}));
    EXPECT_EQ(slice(f, 14, 20), bytes({0x45, 0,    0x00, 0x20, 0, 0, 0x40, 0, 64, 1,
                                       0x26, 0xdb, 10,   0,    0, 1, 10,   0, 0,  2}));
    EXPECT_EQ(slice(f, 34, 12),
              bytes({0x08, 0x00, 0x21, 0x04, 0x12, 0x34, 0x00, 0x01, 'a', 'b', 'c', 'd'}));
}

// UDP 10.0.0.1:1024 -> 10.0.0.2:53, data "hi". Pseudo header 0a00+0001+0a00+0002+0011+000a =
// 0x141e; header 0400+0035+000a = 0x043f; data 0x6869; total 0x80c6 -> checksum 0x7f39.
// IP header (tot_len 30, proto 17): 4500+001e+4000+4011+0a00+0001+0a00+0002 = 0xd932 -> 0x26cd.
TEST(TrafficFrame, UdpHandChecked) {
    const std::uint8_t data[] = {'h', 'i'};
    const auto f = build_udp({mac_b, mac_a}, ip_ab(), 1024, 53, data, 2);
    ASSERT_EQ(f.size(), 14u + 20 + 8 + 2);
    EXPECT_EQ(f[24], 0x26);
    EXPECT_EQ(f[25], 0xcd);
    EXPECT_EQ(slice(f, 34, 10), bytes({0x04, 0x00, 0x00, 0x35, 0x00, 0x0a, 0x7f, 0x39, 'h', 'i'}));
}

// TCP 10.0.0.1:1024 -> 10.0.0.2:80, seq 1, ack 2, ACK, window 0x1000, no data. Pseudo header
// 0x141d (length 20); header 0400+0050+0001+0002+5010+1000 = 0x6463; total 0x7880 -> 0x877f.
// IP header (tot_len 40, proto 6): 4500+0028+4000+4006+0a00+0001+0a00+0002 = 0xd931 -> 0x26ce.
TEST(TrafficFrame, TcpPureAckHandChecked) {
    tcp_fields t;
    t.src_port = 1024;
    t.dst_port = 80;
    t.seq = 1;
    t.ack = 2;
    t.flags = tcp_ack;
    t.window = 0x1000;
    const auto f = build_tcp({mac_b, mac_a}, ip_ab(), t, nullptr, 0);
    ASSERT_EQ(f.size(), 14u + 20 + 20);
    EXPECT_EQ(f[24], 0x26);
    EXPECT_EQ(f[25], 0xce);
    EXPECT_EQ(slice(f, 34, 20), bytes({0x04, 0x00, 0x00, 0x50, 0,    0,    0,    1,    0, 0,
                                       0,    2,    0x50, 0x10, 0x10, 0x00, 0x87, 0x7f, 0, 0}));
}

// What the WILC1000 driver reads: DSCP from tos, and for its TCP-ACK filter ihl, tot_len,
// protocol, doff, seq, ack_seq, with tot_len == ihl*4 + doff*4 exactly for a pure ACK.
TEST(TrafficFrame, ParseRoundTripWithOptionsAndDscp) {
    tcp_fields t;
    t.src_port = 40000;
    t.dst_port = 5001;
    t.seq = 0xfffffff0u;
    t.ack = 0x12345678u;
    t.window = 32768;
    t.options = tcp_timestamp_option(1000, 2000);
    auto ip = ip_ab();
    ip.tos = 0xb8; // DSCP EF (46) -> the driver's VO queue
    const auto ack = build_tcp({mac_b, mac_a}, ip, t, nullptr, 0);
    auto p = parse(ack.data(), ack.size());
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.tos, 0xb8);
    EXPECT_EQ(p.ihl, 5);
    EXPECT_EQ(p.tcp_doff, 8);
    EXPECT_EQ(p.tot_len, p.ihl * 4 + p.tcp_doff * 4);
    EXPECT_EQ(p.protocol, ip_proto_tcp);
    EXPECT_EQ(p.tcp_seq, 0xfffffff0u);
    EXPECT_EQ(p.tcp_ack, 0x12345678u);
    EXPECT_TRUE(p.ip_checksum_ok);
    EXPECT_TRUE(p.l4_checksum_ok);
    std::uint32_t tsval = 0, tsecr = 0;
    ASSERT_TRUE(find_tcp_timestamp(p, tsval, tsecr));
    EXPECT_EQ(tsval, 1000u);
    EXPECT_EQ(tsecr, 2000u);

    // Padded to the Ethernet minimum by a MAC: still parses, tot_len wins.
    auto padded = ack;
    padded.resize(eth_min_frame_len + 6, 0);
    p = parse(padded.data(), padded.size());
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.payload_len, 0u);
    EXPECT_TRUE(p.l4_checksum_ok);

    // Data segment: payload is found and checked.
    payload_pattern pat(7);
    std::vector<std::uint8_t> data(1448);
    pat.fill(4096, data.data(), data.size());
    const auto seg = build_tcp({mac_b, mac_a}, ip, t, data.data(), data.size());
    EXPECT_EQ(seg.size(), 1514u);
    p = parse(seg.data(), seg.size());
    ASSERT_TRUE(p.ok);
    ASSERT_EQ(p.payload_len, 1448u);
    EXPECT_EQ(pat.first_mismatch(4096, p.payload, p.payload_len), 1448u);
}

TEST(TrafficFrame, CorruptionIsDetectedByTheChecksums) {
    const std::uint8_t data[] = {'h', 'i'};
    auto f = build_udp({mac_b, mac_a}, ip_ab(), 1024, 53, data, 2);
    f[43] ^= 0x01; // payload byte
    auto p = parse(f.data(), f.size());
    ASSERT_TRUE(p.ok);
    EXPECT_TRUE(p.ip_checksum_ok);
    EXPECT_FALSE(p.l4_checksum_ok);
    f[43] ^= 0x01;
    f[22] ^= 0x01; // TTL
    p = parse(f.data(), f.size());
    EXPECT_FALSE(p.ip_checksum_ok);
}

TEST(TrafficFrame, MalformedFramesAreRejectedWithReasons) {
    const std::uint8_t data[] = {'h', 'i'};
    auto f = build_udp({mac_b, mac_a}, ip_ab(), 1024, 53, data, 2);
    auto p = parse(f.data(), 10);
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.error.find("shorter than an Ethernet header"), std::string::npos);
    p = parse(f.data(), f.size() - 1); // tot_len now exceeds the frame
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.error.find("tot_len"), std::string::npos);
    tcp_fields t;
    t.options = {1, 1, 1}; // not a multiple of 4
    EXPECT_THROW(build_tcp({mac_b, mac_a}, ip_ab(), t, nullptr, 0), std::invalid_argument);
}

TEST(TrafficFrame, PatternIsSeededAndNotPeriodic) {
    payload_pattern a(1), b(2);
    int same_seed_diff = 0, shifted_equal = 0;
    for (std::uint64_t i = 0; i < 4096; ++i) {
        same_seed_diff += a.at(i) != b.at(i);
        shifted_equal += a.at(i) == a.at(i + 1448); // a segment-sized shift must not match
    }
    EXPECT_GT(same_seed_diff, 4000);
    EXPECT_LT(shifted_equal, 64); // ~1/256 by chance
    std::vector<std::uint8_t> buf(100);
    a.fill(1000, buf.data(), buf.size());
    EXPECT_EQ(a.first_mismatch(1000, buf.data(), buf.size()), 100u);
    buf[37] ^= 0x80;
    EXPECT_EQ(a.first_mismatch(1000, buf.data(), buf.size()), 37u);
}

// The SACK option as tcp_options_write lays it out (NOP, NOP, kind 5, len 2 + 8n), next to the
// timestamps, read back by find_tcp_sack; a length that is not 2 + 8n is rejected.
TEST(TrafficFrame, SackOptionRoundTripsNextToTheTimestamps) {
    std::vector<std::uint8_t> opts = tcp_timestamp_option(7, 9);
    const sack_block in[3] = {{1000, 2448}, {4000, 5448}, {0xfffffff0u, 0x10u}};
    append_tcp_sack_option(opts, in, 3);
    ASSERT_EQ(opts.size(), 12u + 4u + 24u); // 40 bytes: the most TCP can carry
    EXPECT_EQ(opts[12], 1);
    EXPECT_EQ(opts[14], 5);
    EXPECT_EQ(opts[15], 26);
    tcp_fields t;
    t.options = opts;
    const auto f = build_tcp({}, {}, t, nullptr, 0);
    const auto p = parse(f.data(), f.size());
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.tcp_doff, 15);
    sack_block out[max_sack_blocks];
    ASSERT_EQ(find_tcp_sack(p, out), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(out[i].start, in[i].start);
        EXPECT_EQ(out[i].end, in[i].end);
    }
    std::uint32_t tsval = 0, tsecr = 0;
    EXPECT_TRUE(find_tcp_timestamp(p, tsval, tsecr));
    EXPECT_EQ(tsval, 7u);

    std::vector<std::uint8_t> bad{1, 1, 5, 9, 0, 0, 0, 0, 0, 0, 0, 0}; // 9: not 2 + 8n
    t.options = bad;
    const auto g = build_tcp({}, {}, t, nullptr, 0);
    const auto q = parse(g.data(), g.size());
    ASSERT_TRUE(q.ok);
    EXPECT_EQ(find_tcp_sack(q, out), 0u);
    EXPECT_THROW(append_tcp_sack_option(opts, in, 5), std::invalid_argument);
}

// The checksum against RFC 1071's definition, one big-endian 16-bit word at a time: every length
// from 0 to 1600 at two alignments, all-zero and all-0xff data (the folded sum's two zeros), and
// chained calls with a starting sum.
TEST(TrafficFrame, ChecksumEqualsTheWordByWordDefinition) {
    auto reference = [](const std::uint8_t* d, std::size_t n, std::uint32_t start) {
        std::uint64_t s = start;
        for (std::size_t i = 0; i < n; i += 2)
            s += std::uint32_t(d[i] << 8) | (i + 1 < n ? d[i + 1] : 0);
        while (s >> 16)
            s = (s & 0xffff) + (s >> 16);
        return std::uint16_t(~s & 0xffff);
    };
    std::vector<std::uint8_t> data(1700);
    std::uint32_t x = 12345;
    for (auto& b : data)
        b = std::uint8_t((x = x * 1103515245u + 12345u) >> 24);
    const std::vector<std::uint8_t> zeros(1700, 0), ones(1700, 0xff);
    const std::uint8_t* const inputs[] = {data.data(), zeros.data(), ones.data()};
    for (std::size_t len = 0; len <= 1600; ++len)
        for (std::size_t at : {std::size_t(0), std::size_t(3)})
            for (const std::uint8_t* d : inputs)
                for (std::uint32_t start : {0u, 0x1234u, 0xfffeffffu})
                    ASSERT_EQ(checksum_fold(checksum_add(d + at, len, start)),
                              reference(d + at, len, start))
                        << len << " " << at << " " << start;
}

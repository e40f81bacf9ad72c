// SPDX-License-Identifier: MIT
// nicsim run --pcap / --pcap-peer: the frames of a run as pcapng, one file per capture point,
// read back block by block (SHB, the point's IDB, EPBs with nanosecond simulated timestamps,
// direction flags and, for the frames the model does not simulate, a comment) and checked
// against the report: every TCP segment and ACK the host sent and received is in the capture,
// at both ends, in time order, with the handshake before and the close after; a trace window
// limits it.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";

int run(const std::string& args) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' " + args + " >/dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct packet {
    unsigned iface;
    uint64_t t_ns;
    uint32_t flags;
    std::vector<uint8_t> bytes;
    std::string comment;
};
struct capture {
    std::vector<std::string> iface_names;
    std::vector<packet> packets;
    bool ok = false;
};

uint32_t u32(const std::string& s, size_t at) {
    uint32_t v;
    std::memcpy(&v, s.data() + at, 4);
    return v;
}
uint16_t u16(const std::string& s, size_t at) {
    uint16_t v;
    std::memcpy(&v, s.data() + at, 2);
    return v;
}

// A minimal pcapng reader (little-endian sections, the three block types nicsim writes).
capture read_pcapng(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    capture c;
    size_t at = 0;
    while (at + 12 <= s.size()) {
        const uint32_t type = u32(s, at), len = u32(s, at + 4);
        if (len < 12 || at + len > s.size() || u32(s, at + len - 4) != len)
            return c; // truncated or corrupt
        const size_t body = at + 8;
        if (type == 0x0A0D0D0A) {
            if (u32(s, body) != 0x1A2B3C4D)
                return c;
        } else if (type == 1) {
            EXPECT_EQ(u16(s, body), 1) << "link type must be Ethernet";
            std::string name;
            bool tsresol_ns = false;
            for (size_t o = body + 8; o + 4 <= at + len - 4;) {
                const uint16_t code = u16(s, o), olen = u16(s, o + 2);
                if (code == 0)
                    break;
                if (code == 2)
                    name = s.substr(o + 4, olen);
                if (code == 9)
                    tsresol_ns = olen == 1 && s[o + 4] == 9;
                o += 4 + ((olen + 3u) & ~3u);
            }
            EXPECT_TRUE(tsresol_ns) << "interface " << name << " must have ns timestamps";
            c.iface_names.push_back(name);
        } else if (type == 6) {
            packet pk;
            pk.iface = u32(s, body);
            pk.t_ns = (uint64_t(u32(s, body + 4)) << 32) | u32(s, body + 8);
            const uint32_t caplen = u32(s, body + 12);
            pk.bytes.assign(s.begin() + long(body + 20), s.begin() + long(body + 20 + caplen));
            for (size_t o = body + 20 + ((caplen + 3u) & ~3u); o + 4 <= at + len - 4;) {
                const uint16_t code = u16(s, o), olen = u16(s, o + 2);
                if (code == 0)
                    break;
                if (code == 2)
                    pk.flags = u32(s, o + 4);
                if (code == 1)
                    pk.comment = s.substr(o + 4, olen);
                o += 4 + ((olen + 3u) & ~3u);
            }
            c.packets.push_back(std::move(pk));
        }
        at += len;
    }
    c.ok = at == s.size();
    return c;
}

// TCP flags of a frame (Ethernet + IPv4 + TCP).
uint8_t tcp_flags(const packet& p) {
    const unsigned ihl = (p.bytes[14] & 0x0f) * 4u;
    return p.bytes[14 + ihl + 13];
}

// A KS8851 SPI TX run of 64 KiB with `sets`: every frame at each capture point, in its own file.
void expect_every_frame_captured(const std::string& sets, const std::string& tag) {
    const fs::path d = fs::path(::testing::TempDir()) / "nicsim-pcap-run";
    fs::create_directories(d);
    const fs::path pcap = d / (tag + ".pcapng"), peer_pcap = d / (tag + ".peer.pcapng"),
                   rep = d / (tag + ".json");
    ASSERT_EQ(run("run '" + configs + "ks8851-spi-iperf-tx.yaml' --set traffic.bytes=64KiB " +
                  sets + " --pcap '" + pcap.string() + "' --pcap-peer '" + peer_pcap.string() +
                  "' --json '" + rep.string() + "' --quiet"),
              0);
    std::ifstream rf(rep);
    const json r = json::parse(rf);
    const capture host = read_pcapng(pcap), peer = read_pcapng(peer_pcap);
    ASSERT_TRUE(host.ok) << "the file must end on a complete block";
    ASSERT_TRUE(peer.ok);
    ASSERT_EQ(host.iface_names, (std::vector<std::string>{"host"}));
    ASSERT_EQ(peer.iface_names, (std::vector<std::string>{"peer"}));

    // Frames per direction (pcapng epb_flags: 1 inbound, 2 outbound); the frames the model does
    // not simulate (the handshake and the close, with a comment) apart.
    struct counts {
        uint64_t out = 0, in = 0, control_out = 0, control_in = 0, payload_out = 0;
    };
    auto count = [](const capture& c) {
        counts n;
        uint64_t last_ns = 0;
        for (size_t i = 0; i < c.packets.size(); ++i) {
            const packet& p = c.packets[i];
            EXPECT_EQ(p.iface, 0u);
            EXPECT_GE(p.t_ns, last_ns) << "packets must be in time order";
            last_ns = p.t_ns;
            EXPECT_GE(p.bytes.size(), 54u);
            if (p.bytes.size() < 54)
                continue;
            EXPECT_EQ(!p.comment.empty(), i < 3 || i + 3 >= c.packets.size())
                << "the handshake and the close carry a comment, nothing else";
            if (!p.comment.empty()) {
                (p.flags == 2 ? n.control_out : n.control_in)++;
                continue;
            }
            (p.flags == 2 ? n.out : n.in)++;
            if (p.flags == 2) { // outbound: IPv4 total length - IP/TCP headers
                const unsigned ihl = (p.bytes[14] & 0x0f) * 4u;
                const unsigned tot = unsigned(p.bytes[16]) << 8 | p.bytes[17];
                const unsigned doff = (p.bytes[14 + ihl + 12] >> 4) * 4u;
                n.payload_out += tot - ihl - doff;
            }
        }
        return n;
    };
    const counts h = count(host), pe = count(peer);
    const auto& dev = r.at("devices").at(0);
    // Host out = frames the driver sent (segments incl. retransmits), host in = ACKs it got.
    EXPECT_EQ(h.out, dev.at("frames_tx").get<uint64_t>());
    EXPECT_EQ(h.in, dev.at("frames_rx").get<uint64_t>());
    // What the host sent, the peer received; what the peer sent, the host received.
    EXPECT_EQ(pe.in, h.out);
    EXPECT_EQ(pe.out, h.in);
    EXPECT_GE(h.payload_out, 65536u);
    EXPECT_GT(h.in, 0u);
    // The board connects and closes: SYN, ACK, FIN, ACK out; SYN-ACK, FIN-ACK in.
    EXPECT_EQ(h.control_out, 4u);
    EXPECT_EQ(h.control_in, 2u);
    EXPECT_EQ(pe.control_out, 2u);
    EXPECT_EQ(pe.control_in, 4u);
    // The handshake comes first, the close last.
    ASSERT_GE(host.packets.size(), 6u);
    EXPECT_EQ(tcp_flags(host.packets[0]), 0x02); // SYN
    EXPECT_EQ(tcp_flags(host.packets[1]), 0x12); // SYN-ACK
    EXPECT_EQ(tcp_flags(host.packets[2]), 0x10); // ACK
    const size_t n = host.packets.size();
    EXPECT_EQ(tcp_flags(host.packets[n - 3]), 0x11); // FIN-ACK
    EXPECT_EQ(tcp_flags(host.packets[n - 2]), 0x11);
    EXPECT_EQ(tcp_flags(host.packets[n - 1]), 0x10);
}

TEST(PcapRun, EveryFrameOfATcpRunAtBothEndsInTimeOrder) {
    expect_every_frame_captured("", "tx");
}

TEST(PcapRun, EveryStreamOfAParallelRunOpensAndClosesInTimeOrder) {
    const fs::path d = fs::path(::testing::TempDir()) / "nicsim-pcap-run";
    fs::create_directories(d);
    const fs::path pcap = d / "streams.pcapng";
    ASSERT_EQ(run("run '" + configs + "ks8851-spi-iperf-tx.yaml' --set traffic.bytes=64KiB " +
                  "--set traffic.streams=2 --pcap '" + pcap.string() + "' --quiet"),
              0);
    const capture c = read_pcapng(pcap);
    ASSERT_TRUE(c.ok);
    uint64_t last_ns = 0, syns = 0, fins = 0;
    for (const auto& p : c.packets) {
        EXPECT_GE(p.t_ns, last_ns) << "packets must be in time order";
        last_ns = p.t_ns;
        syns += tcp_flags(p) == 0x02;
        fins += (tcp_flags(p) & 0x01) != 0;
    }
    EXPECT_EQ(syns, 2u);
    EXPECT_EQ(fins, 4u);
}

TEST(PcapRun, TraceWindowLimitsTheCaptureAndABadPathFailsBeforeTheRun) {
    const fs::path d = fs::path(::testing::TempDir()) / "nicsim-pcap-window";
    fs::create_directories(d);
    const fs::path all = d / "all.pcapng", win = d / "win.pcapng";
    const std::string ping =
        "run '" + configs + "ks8851-spi-ping.yaml' --set traffic.count=5 --quiet";
    ASSERT_EQ(run(ping + " --pcap '" + all.string() + "'"), 0);
    ASSERT_EQ(run(ping + " --pcap '" + win.string() + "' --trace-window :17ms"), 0);
    const capture a = read_pcapng(all), w = read_pcapng(win);
    ASSERT_TRUE(a.ok);
    ASSERT_TRUE(w.ok);
    EXPECT_EQ(a.packets.size(), 10u); // 5 requests and 5 replies at the board
    EXPECT_GT(w.packets.size(), 0u);
    EXPECT_LT(w.packets.size(), a.packets.size());
    for (const auto& p : w.packets)
        EXPECT_LE(p.t_ns, 17000000u);
    EXPECT_NE(run(ping + " --pcap /nonexistent-dir/x.pcapng"), 0);
}

} // namespace

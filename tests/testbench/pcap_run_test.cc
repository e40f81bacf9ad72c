// SPDX-License-Identifier: MIT
// nicsim run --pcap: the frames of a run as pcapng, read back block by block (SHB, one IDB per
// capture point, EPBs with nanosecond simulated timestamps and direction flags) and checked
// against the report: every TCP segment and ACK the host sent and received is in the capture,
// at both ends, byte for byte the same frames, in time order; a trace window limits it.
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
            const size_t opts = body + 20 + ((caplen + 3u) & ~3u);
            pk.flags = u16(s, opts) == 2 ? u32(s, opts + 4) : 0;
            c.packets.push_back(std::move(pk));
        }
        at += len;
    }
    c.ok = at == s.size();
    return c;
}

// A KS8851 SPI TX run of 64 KiB with `sets`: every frame at both capture points.
void expect_every_frame_captured(const std::string& sets, const std::string& tag) {
    const fs::path d = fs::path(::testing::TempDir()) / "nicsim-pcap-run";
    fs::create_directories(d);
    const fs::path pcap = d / (tag + ".pcapng"), rep = d / (tag + ".json");
    ASSERT_EQ(run("run '" + configs + "ks8851-spi-iperf-tx.yaml' --set traffic.bytes=64KiB " +
                  sets + " --pcap '" + pcap.string() + "' --json '" + rep.string() + "' --quiet"),
              0);
    std::ifstream rf(rep);
    const json r = json::parse(rf);
    const capture c = read_pcapng(pcap);
    ASSERT_TRUE(c.ok) << "the file must end on a complete block";
    ASSERT_EQ(c.iface_names, (std::vector<std::string>{"host", "peer"}));

    // Frames per capture point and direction (pcapng epb_flags: 1 inbound, 2 outbound).
    uint64_t host_out = 0, host_in = 0, peer_out = 0, peer_in = 0;
    uint64_t last_ns = 0;
    uint64_t payload_out = 0;
    for (const auto& p : c.packets) {
        (p.iface == 0 ? (p.flags == 2 ? host_out : host_in)
                      : (p.flags == 2 ? peer_out : peer_in))++;
        EXPECT_GE(p.t_ns, last_ns) << "packets must be in time order";
        last_ns = p.t_ns;
        ASSERT_GE(p.bytes.size(), 54u);
        if (p.iface == 0 && p.flags == 2) { // host outbound: IPv4 total length - IP/TCP headers
            const unsigned ihl = (p.bytes[14] & 0x0f) * 4u;
            const unsigned tot = unsigned(p.bytes[16]) << 8 | p.bytes[17];
            const unsigned doff = (p.bytes[14 + ihl + 12] >> 4) * 4u;
            payload_out += tot - ihl - doff;
        }
    }
    const auto& dev = r.at("devices").at(0);
    // Host out = frames the driver sent (segments incl. retransmits), host in = ACKs it got.
    EXPECT_EQ(host_out, dev.at("frames_tx").get<uint64_t>());
    EXPECT_EQ(host_in, dev.at("frames_rx").get<uint64_t>());
    // What the host sent, the peer received; what the peer sent, the host received.
    EXPECT_EQ(peer_in, host_out);
    EXPECT_EQ(peer_out, host_in);
    EXPECT_GE(payload_out, 65536u);
    EXPECT_GT(host_in, 0u);
}

TEST(PcapRun, EveryFrameOfATcpRunAtBothEndsInTimeOrder) {
    expect_every_frame_captured("", "tx");
}

TEST(PcapRun, TheLinuxStackIsCapturedAtTheSamePoints) {
    // The board stack's frames into ndo_start_xmit and out of netif_rx, the peer stack's at its
    // NIC: the same two interfaces as with the fixed-window endpoints.
    expect_every_frame_captured("--set host.stack=linux", "tx-linux");
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
    EXPECT_EQ(a.packets.size(), 20u); // 5 requests and 5 replies, each at both ends
    EXPECT_GT(w.packets.size(), 0u);
    EXPECT_LT(w.packets.size(), a.packets.size());
    for (const auto& p : w.packets)
        EXPECT_LE(p.t_ns, 17000000u);
    EXPECT_NE(run(ping + " --pcap /nonexistent-dir/x.pcapng"), 0);
}

} // namespace

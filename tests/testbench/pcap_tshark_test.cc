// SPDX-License-Identifier: MIT
// nicsim run --pcap / --pcap-peer read by tshark, as a user reads them in Wireshark: a loss-free
// transfer shows no retransmission and no other TCP warning, opens with the handshake (so the
// window scale is known) and closes with FIN; a lossy fault run shows, at the sender's capture
// point, exactly the retransmissions the report counts. Skipped when tshark is not installed
// (Debian package tshark, scripts/install-deps.sh).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";

bool have_tshark() {
    return std::system("command -v tshark >/dev/null 2>&1") == 0;
}

int run(const std::string& args) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' " + args + " >/dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string output_of(const std::string& cmd) {
    std::string out;
    if (FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r")) {
        std::array<char, 4096> buf;
        while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p))
            out.append(buf.data(), n);
        pclose(p);
    }
    return out;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.empty())
            out.push_back(l);
    return out;
}

// One tshark pass over a capture: the frames matching each display filter (io,stat over the
// whole capture), the expert info and the TCP conversations as tshark prints them.
struct tshark_view {
    std::vector<std::size_t> frames;
    std::string expert, conv;
};
tshark_view read(const fs::path& pcap, const std::vector<std::string>& filters) {
    std::string io = "io,stat,0";
    for (const auto& f : filters)
        io += "," + f; // no filter here has a comma or a quote
    const std::string out = output_of("tshark -n -r '" + pcap.string() + "' -q -z '" + io +
                                      "' -z expert -z conv,tcp");
    tshark_view v;
    const std::size_t conv = out.find("TCP Conversations"), io_at = out.find("IO Statistics");
    EXPECT_NE(conv, std::string::npos) << out;
    EXPECT_NE(io_at, std::string::npos) << out;
    if (conv == std::string::npos || io_at == std::string::npos)
        return v;
    // Order of the sections: conversations, expert info, io statistics.
    const std::size_t expert = out.find("\n\n", conv);
    v.conv = out.substr(conv, expert - conv);
    v.expert = out.substr(expert, io_at - expert);
    // The one data row: "| 0.000 <> 0.183 |  6 |  9084 |  2 | 148 | ..." (frames, bytes).
    std::string row;
    for (const auto& l : lines(out.substr(io_at)))
        if (l.find("<>") != std::string::npos)
            row = l;
    std::vector<std::string> cells;
    std::istringstream in(row);
    for (std::string c; std::getline(in, c, '|');)
        cells.push_back(c);
    // cells: "", interval, then frames and bytes for each filter.
    for (std::size_t i = 0; i < filters.size(); ++i)
        v.frames.push_back(2 + 2 * i < cells.size() ? std::stoul(cells[2 + 2 * i]) : ~0ul);
    return v;
}

// Every frame Wireshark counts as sent again: retransmission (fast ones included), spurious
// retransmission, or a segment it takes for reordered.
const std::string resent =
    "tcp.analysis.retransmission || tcp.analysis.spurious_retransmission || "
    "tcp.analysis.out_of_order";

struct captured {
    fs::path board, peer;
    json report;
};

captured run_captured(const std::string& scenario, const std::string& sets,
                      const std::string& tag) {
    const fs::path d = fs::path(::testing::TempDir()) / "nicsim-pcap-tshark";
    fs::create_directories(d);
    captured c{d / (tag + ".pcapng"), d / (tag + ".peer.pcapng"), {}};
    const fs::path rep = d / (tag + ".json");
    EXPECT_EQ(run("run '" + scenario + "' " + sets + " --pcap '" + c.board.string() +
                  "' --pcap-peer '" + c.peer.string() + "' --json '" + rep.string() +
                  "' --quiet"),
              0);
    std::ifstream rf(rep);
    c.report = json::parse(rf, nullptr, false);
    return c;
}

// The capture reads clean: the handshake, with the window scale `multiplier` in its SYNs and
// applied to every later segment, the close, one conversation, no expert warning or error.
void expect_clean(const fs::path& pcap, int multiplier) {
    SCOPED_TRACE(pcap.string());
    const std::string m = std::to_string(multiplier);
    const tshark_view v =
        read(pcap, {resent, "tcp.analysis.flags && !tcp.analysis.window_update",
                    "tcp.flags.syn == 1 && tcp.flags.ack == 0 && tcp.options.wscale.multiplier == " + m,
                    "tcp.flags.syn == 1 && tcp.flags.ack == 1 && tcp.options.wscale.multiplier == " + m,
                    "tcp.flags.fin == 1", "tcp.flags.syn == 0",
                    "tcp.flags.syn == 0 && tcp.window_size_scalefactor == " + m, "tcp.stream == 0",
                    "frame"});
    ASSERT_EQ(v.frames.size(), 9u);
    EXPECT_EQ(v.frames[0], 0u) << "no retransmission";
    EXPECT_EQ(v.frames[1], 0u) << "no TCP analysis finding besides window updates";
    EXPECT_EQ(v.frames[2], 1u) << "one SYN announcing the window scale";
    EXPECT_EQ(v.frames[3], 1u) << "one SYN-ACK announcing the window scale";
    EXPECT_EQ(v.frames[4], 2u) << "a FIN each way";
    EXPECT_GT(v.frames[5], 10u);
    EXPECT_EQ(v.frames[6], v.frames[5]) << "every later window read with the scale";
    EXPECT_EQ(v.frames[7], v.frames[8]) << "one connection, every frame in it";
    std::size_t conversations = 0;
    for (const auto& l : lines(v.conv))
        conversations += l.find("<->") != std::string::npos;
    EXPECT_EQ(conversations, 1u) << v.conv;
    EXPECT_EQ(v.expert.find("Errors ("), std::string::npos) << v.expert;
    EXPECT_EQ(v.expert.find("Warns ("), std::string::npos) << v.expert;
    EXPECT_NE(v.expert.find("Chats ("), std::string::npos) << v.expert;
}

TEST(PcapTshark, ALossFreeTransferReadsCleanAtBothCapturePoints) {
    if (!have_tshark())
        GTEST_SKIP() << "tshark not installed (Debian package tshark): capture not checked";
    const captured c = run_captured(configs + "ks8851-spi-iperf-tx.yaml",
                                    "--set traffic.bytes=256KiB", "clean");
    ASSERT_EQ(c.report.at("flows").at(0).at("tcp").at("retransmits").get<int>(), 0)
        << "the scenario must be loss-free for this test";
    // tcp_rmem's 6 MiB maximum: rcv_wscale = ilog2(6 MiB) - 15 = 7 (tcp_select_initial_window).
    expect_clean(c.board, 128);
    expect_clean(c.peer, 128);
}

TEST(PcapTshark, TheHandshakeCarriesTheStacksSettings) {
    if (!have_tshark())
        GTEST_SKIP() << "tshark not installed (Debian package tshark): capture not checked";
    // A 1 MiB tcp_rmem maximum on both hosts: rcv_wscale 5; no SACK on the board.
    const captured c = run_captured(
        configs + "ks8851-spi-iperf-tx.yaml",
        "--set traffic.bytes=64KiB --set 'host.net.tcp_rmem=4096 131072 1048576' "
        "--set 'peer.net.tcp_rmem=4096 131072 1048576' --set host.net.tcp_sack=0",
        "settings");
    expect_clean(c.board, 32);
    const tshark_view v = read(c.board, {"tcp.flags.syn == 1 && tcp.option_kind == 4",
                                         "tcp.flags.syn == 1 && tcp.options.mss_val == 1460",
                                         "tcp.flags.syn == 1 && tcp.option_kind == 8"});
    ASSERT_EQ(v.frames.size(), 3u);
    EXPECT_EQ(v.frames[0], 0u) << "SACK-permitted in neither: the board's SYN does not offer it";
    EXPECT_EQ(v.frames[1], 2u) << "MSS of the 1500-byte MTU";
    EXPECT_EQ(v.frames[2], 2u) << "timestamps both ways";
}

// A lossy fault run: the retransmissions Wireshark finds at the sender's capture point (the
// board for a tx kind, --pcap-peer for an rx kind) are the ones the report counts. At the
// receiver's point a segment lost before it shows only as a gap that its resend fills.
void expect_report_retransmissions(const std::string& fault, bool board_sends) {
    SCOPED_TRACE(fault);
    const captured c = run_captured(configs + "faults/" + fault + ".yaml", "", fault);
    const auto reported = c.report.at("flows").at(0).at("tcp").at("retransmits").get<std::size_t>();
    ASSERT_GT(reported, 0u) << "the fault must make TCP resend";
    const tshark_view v = read(board_sends ? c.board : c.peer, {resent, "tcp.flags.syn == 1"});
    ASSERT_EQ(v.frames.size(), 2u);
    EXPECT_EQ(v.frames[0], reported);
    EXPECT_EQ(v.frames[1], 2u) << "the handshake";
}

TEST(PcapTshark, ALossyTxRunShowsTheReportedRetransmissionsAtTheBoard) {
    if (!have_tshark())
        GTEST_SKIP() << "tshark not installed (Debian package tshark): capture not checked";
    expect_report_retransmissions("wilc1000-spi-truncated", true);
}

TEST(PcapTshark, ALossyRxRunShowsTheReportedRetransmissionsAtThePeer) {
    if (!have_tshark())
        GTEST_SKIP() << "tshark not installed (Debian package tshark): capture not checked";
    expect_report_retransmissions("wilc1000-spi-rx-overrun", false);
}

} // namespace

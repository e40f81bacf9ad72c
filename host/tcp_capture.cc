// SPDX-License-Identifier: MIT
#include "host/tcp_capture.h"

namespace nicsim::trace {

namespace fr = traffic::frame;

namespace {

constexpr const char* open_comment =
    "nicsim: not simulated; the model opens the connection established, this is the handshake it "
    "implies (options from the two stacks' settings)";
constexpr const char* close_comment =
    "nicsim: not simulated; the close that follows the last byte acknowledged and read";

constexpr std::uint8_t opt_nop = 1, opt_mss = 2, opt_wscale = 3, opt_sack_perm = 4, opt_ts = 8;

void put32(std::vector<std::uint8_t>& o, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        o.push_back(static_cast<std::uint8_t>(v >> shift));
}

// What both ends use: an option is in the SYN-ACK (and then in use) only if the SYN offered it.
struct agreed {
    bool sack, ts, wscale;
};
agreed agree(const net::tcp_syn_fields& c, const net::tcp_syn_fields& s) {
    return {c.sack_permitted && s.sack_permitted, c.timestamps && s.timestamps,
            c.wscale >= 0 && s.wscale >= 0};
}

// tcp_options_write's SYN layout: MSS; SACK-permitted and timestamps together (or each after two
// NOPs); NOP and window scale.
std::vector<std::uint8_t> syn_options(const net::tcp_syn_fields& f, bool sack, bool ts,
                                      bool wscale, std::uint32_t tsval, std::uint32_t tsecr) {
    std::vector<std::uint8_t> o{opt_mss, 4, static_cast<std::uint8_t>(f.mss >> 8),
                                static_cast<std::uint8_t>(f.mss)};
    if (ts) {
        if (sack)
            o.insert(o.end(), {opt_sack_perm, 2, opt_ts, 10});
        else
            o.insert(o.end(), {opt_nop, opt_nop, opt_ts, 10});
        put32(o, tsval);
        put32(o, tsecr);
    } else if (sack) {
        o.insert(o.end(), {opt_nop, opt_nop, opt_sack_perm, 2});
    }
    if (wscale)
        o.insert(o.end(), {opt_nop, opt_wscale, 3, static_cast<std::uint8_t>(f.wscale)});
    return o;
}

struct segment {
    std::uint32_t seq, ack;
    std::uint8_t flags;
    std::uint16_t window;
    std::vector<std::uint8_t> options;
};

std::vector<std::uint8_t> build(const net::tcp_socket& from, const segment& s) {
    const net::tcp_socket_config& c = from.config();
    fr::tcp_fields t;
    t.src_port = c.local.port;
    t.dst_port = c.remote.port;
    t.seq = s.seq;
    t.ack = s.ack;
    t.flags = s.flags;
    t.window = s.window;
    t.options = s.options;
    const fr::ipv4_fields ip{c.local.ip, c.remote.ip, c.tos, 64, 0, true};
    return fr::build_tcp({c.remote.mac, c.local.mac}, ip, t, nullptr, 0);
}

std::vector<std::uint8_t> ts_option(bool ts, std::uint32_t tsval, std::uint32_t tsecr) {
    std::vector<std::uint8_t> o;
    if (ts)
        fr::append_tcp_timestamp_option(o, tsval, tsecr);
    return o;
}

} // namespace

std::vector<control_frame> tcp_open_frames(const net::tcp_socket& client,
                                           const net::tcp_socket& server) {
    const net::tcp_syn_fields &c = client.syn(), &s = server.syn();
    const agreed a = agree(c, s);
    const std::uint32_t c_ts = client.tsval(), s_ts = server.tsval();
    std::vector<control_frame> out;
    out.push_back({true,
                   build(client, {c.isn, 0, fr::tcp_syn, c.window,
                                  syn_options(c, c.sack_permitted, c.timestamps, c.wscale >= 0,
                                              c_ts, 0)}),
                   open_comment});
    out.push_back({false,
                   build(server, {s.isn, c.isn + 1, fr::tcp_syn | fr::tcp_ack, s.window,
                                  syn_options(s, a.sack, a.ts, a.wscale, s_ts, c_ts)}),
                   open_comment});
    out.push_back({true,
                   build(client, {c.isn + 1, s.isn + 1, fr::tcp_ack, client.window_field(),
                                  ts_option(a.ts, c_ts, s_ts)}),
                   open_comment});
    return out;
}

std::vector<control_frame> tcp_close_frames(const net::tcp_socket& client,
                                            const net::tcp_socket& server) {
    const agreed a = agree(client.syn(), server.syn());
    const std::uint32_t c_ts = client.tsval(), s_ts = server.tsval();
    const std::uint32_t c_fin = client.wire_write_end(), s_fin = server.wire_write_end();
    std::vector<control_frame> out;
    out.push_back({true,
                   build(client, {c_fin, client.wire_rcv_nxt(), fr::tcp_fin | fr::tcp_ack,
                                  client.window_field(), ts_option(a.ts, c_ts, s_ts)}),
                   close_comment});
    out.push_back({false,
                   build(server, {s_fin, server.wire_rcv_nxt() + 1, fr::tcp_fin | fr::tcp_ack,
                                  server.window_field(), ts_option(a.ts, s_ts, c_ts)}),
                   close_comment});
    out.push_back({true,
                   build(client, {c_fin + 1, s_fin + 1, fr::tcp_ack, client.window_field(),
                                  ts_option(a.ts, c_ts, s_ts)}),
                   close_comment});
    return out;
}

} // namespace nicsim::trace

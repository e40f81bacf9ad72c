// SPDX-License-Identifier: MIT
#include "host/net/net_settings.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace nicsim::net {

namespace {

std::invalid_argument bad(const std::string& key, const std::string& why) {
    return std::invalid_argument("net setting '" + key + "': " + why);
}

std::uint64_t parse_uint(const std::string& key, const std::string& v) {
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
        throw bad(key, "expected a non-negative integer, got '" + v + "'");
    return std::stoull(v);
}

bool parse_bool(const std::string& key, const std::string& v) {
    if (v == "1" || v == "true")
        return true;
    if (v == "0" || v == "false")
        return false;
    throw bad(key, "expected 0/1/true/false, got '" + v + "'");
}

sc_core::sc_time parse_time(const std::string& key, const std::string& v) {
    char* end = nullptr;
    const double n = std::strtod(v.c_str(), &end);
    const std::string unit = end ? std::string(end) : "";
    if (end == v.c_str() || n < 0)
        throw bad(key, "expected a time like 200ms, got '" + v + "'");
    if (unit == "s")
        return sc_core::sc_time(n, sc_core::SC_SEC);
    if (unit == "ms")
        return sc_core::sc_time(n, sc_core::SC_MS);
    if (unit == "us")
        return sc_core::sc_time(n, sc_core::SC_US);
    throw bad(key, "time unit must be s, ms or us, got '" + v + "'");
}

std::array<std::uint32_t, 3> parse_triple(const std::string& key, std::string v) {
    for (auto& c : v)
        if (c == ',' || c == '\t')
            c = ' ';
    std::istringstream in(v);
    std::array<std::uint32_t, 3> out{};
    std::string tok;
    for (auto& o : out) {
        if (!(in >> tok))
            throw bad(key, "expected three values 'min default max', got '" + v + "'");
        o = static_cast<std::uint32_t>(parse_uint(key, tok));
    }
    if (in >> tok)
        throw bad(key, "expected three values 'min default max', got '" + v + "'");
    return out;
}

void check_triple(const std::string& key, const std::array<std::uint32_t, 3>& t) {
    if (t[0] == 0 || t[0] > t[1] || t[1] > t[2])
        throw bad(key, "need 0 < min <= default <= max, got " + std::to_string(t[0]) + " " +
                           std::to_string(t[1]) + " " + std::to_string(t[2]));
}

} // namespace

void net_settings::validate() const {
    if (tcp_congestion_control != "cubic" && tcp_congestion_control != "reno")
        throw bad("tcp_congestion_control",
                  "'" + tcp_congestion_control + "' is not available (cubic, reno)");
    if (qdisc != "pfifo_fast" && qdisc != "fq_codel")
        throw bad("qdisc", "'" + qdisc + "' is not available (pfifo_fast, fq_codel)");
    if (tcp_limit_output_bytes == 0)
        throw bad("tcp_limit_output_bytes", "must be > 0");
    if (sk_pacing_shift > 31)
        throw bad("sk_pacing_shift", "must be 0..31, got " + std::to_string(sk_pacing_shift));
    check_triple("tcp_wmem", tcp_wmem);
    check_triple("tcp_rmem", tcp_rmem);
    if (txqueuelen == 0)
        throw bad("txqueuelen", "must be > 0 (a device without a queue is not modelled)");
    if (netdev_max_backlog == 0)
        throw bad("netdev_max_backlog", "must be > 0");
    if (wmem_default == 0 || rmem_default == 0)
        throw bad(wmem_default == 0 ? "wmem_default" : "rmem_default", "must be > 0");
    if (mtu < 68 + 52 || mtu > 65535)
        throw bad("mtu", "must be 120..65535, got " + std::to_string(mtu));
    if (tcp_init_cwnd == 0)
        throw bad("tcp_init_cwnd", "must be > 0");
    if (tcp_adv_win_scale < -31 || tcp_adv_win_scale > 31 || tcp_adv_win_scale == 0)
        throw bad("tcp_adv_win_scale", "must be -31..31 and not 0");
    if (tcp_pacing_ss_ratio == 0 || tcp_pacing_ca_ratio == 0)
        throw bad(tcp_pacing_ss_ratio == 0 ? "tcp_pacing_ss_ratio" : "tcp_pacing_ca_ratio",
                  "must be > 0");
    if (tcp_rto_min <= sc_core::SC_ZERO_TIME || tcp_rto_max < tcp_rto_min)
        throw bad("tcp_rto_min", "need 0 < tcp_rto_min <= tcp_rto_max");
    if (tcp_ato_min <= sc_core::SC_ZERO_TIME || tcp_delack_max < tcp_ato_min)
        throw bad("tcp_ato_min", "need 0 < tcp_ato_min <= tcp_delack_max");
    if (cubic_beta == 0 || cubic_beta >= 1024)
        throw bad("cubic_beta", "must be 1..1023 (/1024)");
    if (cubic_bic_scale == 0)
        throw bad("cubic_bic_scale", "must be > 0");
    if (gso && (gso_max_size < mss() || tcp_min_tso_segs == 0 || gso_max_segs == 0))
        throw bad("gso_max_size",
                  "need gso_max_size >= mss and tcp_min_tso_segs, gso_max_segs > 0");
    if (tcp_reordering == 0)
        throw bad("tcp_reordering", "must be > 0");
    if (tcp_early_retrans > 4)
        throw bad("tcp_early_retrans", "must be 0..4 (3: Linux's default, tail loss probes on)");
}

void net_settings::set(const std::string& key, const std::string& v) {
    const auto u32 = [&] { return static_cast<std::uint32_t>(parse_uint(key, v)); };
    if (key == "tcp_congestion_control")
        tcp_congestion_control = v;
    else if (key == "tcp_limit_output_bytes")
        tcp_limit_output_bytes = u32();
    else if (key == "sk_pacing_shift")
        sk_pacing_shift = u32();
    else if (key == "tcp_wmem")
        tcp_wmem = parse_triple(key, v);
    else if (key == "tcp_rmem")
        tcp_rmem = parse_triple(key, v);
    else if (key == "qdisc")
        qdisc = v;
    else if (key == "txqueuelen")
        txqueuelen = u32();
    else if (key == "mtu")
        mtu = u32();
    else if (key == "tcp_timestamps")
        tcp_timestamps = parse_bool(key, v);
    else if (key == "tcp_sack")
        tcp_sack = parse_bool(key, v);
    else if (key == "tcp_window_scaling")
        tcp_window_scaling = parse_bool(key, v);
    else if (key == "tcp_moderate_rcvbuf")
        tcp_moderate_rcvbuf = parse_bool(key, v);
    else if (key == "tcp_adv_win_scale")
        tcp_adv_win_scale = static_cast<int>(std::stol(v));
    else if (key == "tcp_pacing_ss_ratio")
        tcp_pacing_ss_ratio = u32();
    else if (key == "tcp_pacing_ca_ratio")
        tcp_pacing_ca_ratio = u32();
    else if (key == "tcp_reordering")
        tcp_reordering = u32();
    else if (key == "tcp_retries2")
        tcp_retries2 = u32();
    else if (key == "tcp_early_retrans")
        tcp_early_retrans = u32();
    else if (key == "tcp_init_cwnd")
        tcp_init_cwnd = u32();
    else if (key == "tcp_rto_min")
        tcp_rto_min = parse_time(key, v);
    else if (key == "tcp_rto_max")
        tcp_rto_max = parse_time(key, v);
    else if (key == "tcp_ato_min")
        tcp_ato_min = parse_time(key, v);
    else if (key == "tcp_delack_max")
        tcp_delack_max = parse_time(key, v);
    else if (key == "cubic_hystart")
        cubic_hystart = parse_bool(key, v);
    else if (key == "cubic_fast_convergence")
        cubic_fast_convergence = parse_bool(key, v);
    else if (key == "cubic_beta")
        cubic_beta = u32();
    else if (key == "tcp_internal_pacing")
        tcp_internal_pacing = parse_bool(key, v);
    else if (key == "netif_rx_in_caller")
        netif_rx_in_caller = parse_bool(key, v);
    else if (key == "gso")
        gso = parse_bool(key, v);
    else if (key == "gso_max_size")
        gso_max_size = u32();
    else if (key == "tcp_min_tso_segs")
        tcp_min_tso_segs = u32();
    else if (key == "tcp_tso_rtt_log")
        tcp_tso_rtt_log = u32();
    else if (key == "netdev_max_backlog")
        netdev_max_backlog = u32();
    else if (key == "wmem_default")
        wmem_default = u32();
    else if (key == "rmem_default")
        rmem_default = u32();
    else if (key == "skb_truesize_overhead")
        skb_truesize_overhead = u32();
    else
        throw bad(key, "unknown setting");
}

} // namespace nicsim::net

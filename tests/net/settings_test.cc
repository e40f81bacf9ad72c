// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "host/net/net_settings.h"

using nicsim::net::net_settings;

namespace {

// The message of the std::invalid_argument thrown by f, or "" if none.
template <class F> std::string error_of(F f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(NetSettings, DefaultsAreThoseOfLinux61) {
    net_settings s;
    EXPECT_NO_THROW(s.validate());
    EXPECT_EQ(s.tcp_congestion_control, "cubic");
    EXPECT_EQ(s.tcp_limit_output_bytes, 1048576u);
    EXPECT_EQ(s.sk_pacing_shift, 10u);
    EXPECT_EQ(s.tcp_wmem[0], 4096u);
    EXPECT_EQ(s.tcp_wmem[1], 16384u);
    EXPECT_EQ(s.tcp_wmem[2], 4194304u);
    EXPECT_EQ(s.tcp_rmem[1], 131072u);
    EXPECT_EQ(s.tcp_rmem[2], 6291456u);
    EXPECT_EQ(s.qdisc, "pfifo_fast");
    EXPECT_EQ(s.txqueuelen, 1000u);
    EXPECT_EQ(s.tcp_init_cwnd, 10u);
    EXPECT_EQ(s.tcp_rto_min, sc_core::sc_time(200, sc_core::SC_MS));
    EXPECT_EQ(s.tcp_early_retrans, 3u); // RACK and tail loss probes
    // MSS from the MTU: 1500 - 20 - 20 - 12 (timestamps), 1460 without.
    EXPECT_EQ(s.mss(), 1448u);
    s.tcp_timestamps = false;
    EXPECT_EQ(s.mss(), 1460u);
}

TEST(NetSettings, SetParsesLinuxNamesAndErrorsNameTheKey) {
    net_settings s;
    s.set("tcp_wmem", "4096 65536 8388608");
    EXPECT_EQ(s.tcp_wmem[1], 65536u);
    s.set("tcp_rmem", "4096,87380,6291456");
    EXPECT_EQ(s.tcp_rmem[1], 87380u);
    s.set("tcp_limit_output_bytes", "262144");
    EXPECT_EQ(s.tcp_limit_output_bytes, 262144u);
    s.set("tcp_rto_min", "50ms");
    EXPECT_EQ(s.tcp_rto_min, sc_core::sc_time(50, sc_core::SC_MS));
    s.set("tcp_congestion_control", "reno");
    EXPECT_NO_THROW(s.validate());

    EXPECT_NE(error_of([&] { s.set("tcp_wmem", "1 2"); }).find("'tcp_wmem'"), std::string::npos);
    EXPECT_NE(error_of([&] { s.set("sk_pacing_shfit", "8"); }).find("'sk_pacing_shfit'"),
              std::string::npos);
    EXPECT_NE(error_of([&] { s.set("txqueuelen", "-1"); }).find("'txqueuelen'"), std::string::npos);

    net_settings q;
    q.qdisc = "fq_codel";
    EXPECT_NO_THROW(q.validate());
    q.qdisc = "fq";
    const auto e = error_of([&] { q.validate(); });
    EXPECT_NE(e.find("'qdisc'"), std::string::npos);
    EXPECT_NE(e.find("pfifo_fast, fq_codel"), std::string::npos);

    net_settings w;
    w.tcp_rmem = {4096, 8192, 4096}; // default above max
    EXPECT_NE(error_of([&] { w.validate(); }).find("'tcp_rmem'"), std::string::npos);
    net_settings c;
    c.tcp_congestion_control = "bbr";
    EXPECT_NE(error_of([&] { c.validate(); }).find("'tcp_congestion_control'"), std::string::npos);
    net_settings t;
    t.set("tcp_early_retrans", "0");
    EXPECT_EQ(t.tcp_early_retrans, 0u);
    EXPECT_NO_THROW(t.validate());
    t.set("tcp_early_retrans", "5");
    EXPECT_NE(error_of([&] { t.validate(); }).find("'tcp_early_retrans'"), std::string::npos);
}

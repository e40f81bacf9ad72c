// SPDX-License-Identifier: MIT
//
// Host network-stack settings, named as in Linux 6.1 (sysctl net.ipv4.* / net.core.* / ip link /
// tc) so a scenario can say `host.net.tcp_limit_output_bytes: 262144` and mean what the kernel
// means. Values that are kernel constants or sysctl defaults cite their source; everything else is
// marked *assumption*. docs/host-stack.md has the table.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <systemc>

namespace nicsim::net {

// net_settings::netif_rx_in_caller for the running process: only a thread can run a softirq
// round (it waits in CPU charges); a method (a link's delivery) keeps the softirq thread.
inline bool softirq_runs_in_caller(bool netif_rx_in_caller) {
    const sc_core::sc_process_b* p = sc_core::sc_get_current_process_b();
    return netif_rx_in_caller && p && p->proc_kind() == sc_core::SC_THREAD_PROC_;
}

struct net_settings {
    // --- sysctls (net.ipv4.*) and their 6.1 defaults -------------------------------------------
    std::string tcp_congestion_control = "cubic";   // tcp_cong.c: CONFIG_DEFAULT_TCP_CONG
    std::uint32_t tcp_limit_output_bytes = 1048576; // tcp_ipv4.c: tcp_sk_init, 1 MiB
    std::array<std::uint32_t, 3> tcp_wmem{4096, 16384, 4194304};  // tcp.c: tcp_init
    std::array<std::uint32_t, 3> tcp_rmem{4096, 131072, 6291456}; // tcp.c: tcp_init
    bool tcp_timestamps = true;                                   // tcp_sk_init: 1
    bool tcp_window_scaling = true;                               // tcp_sk_init: 1
    bool tcp_sack = true; // tcp_sk_init: 1 (SACK blocks, RACK loss detection; 0: NewReno)
    bool tcp_moderate_rcvbuf = true;         // tcp_sk_init: 1 (tcp_rcv_space_adjust on)
    int tcp_adv_win_scale = 1;               // tcp_sk_init: 1 (half of rcvbuf is window)
    std::uint32_t tcp_pacing_ss_ratio = 200; // tcp_sk_init: 200 %
    std::uint32_t tcp_pacing_ca_ratio = 120; // tcp_sk_init: 120 %
    std::uint32_t tcp_reordering = 3;        // TCP_FASTRETRANS_THRESH
    std::uint32_t tcp_retries2 = 15;         // TCP_RETR2
    // tcp_sk_init: 3 (RACK and tail loss probes). 3 and 4 send tail loss probes
    // (tcp_schedule_loss_probe); 0-2 do not (RACK runs with SACK either way here).
    std::uint32_t tcp_early_retrans = 3;
    // --- per-socket / kernel constants ---------------------------------------------------------
    std::uint32_t sk_pacing_shift = 10;                 // sock.c: sock_init_data (mac80211 sets 8)
    std::uint32_t tcp_init_cwnd = 10;                   // include/net/tcp.h: TCP_INIT_CWND
    std::uint32_t tcp_max_quickacks = 16;               // include/net/tcp.h: TCP_MAX_QUICKACKS
    sc_core::sc_time tcp_rto_min{200, sc_core::SC_MS};  // TCP_RTO_MIN (HZ/5)
    sc_core::sc_time tcp_rto_max{120, sc_core::SC_SEC}; // TCP_RTO_MAX
    sc_core::sc_time tcp_timeout_init{1, sc_core::SC_SEC}; // TCP_TIMEOUT_INIT (before any sample)
    sc_core::sc_time tcp_ato_min{40, sc_core::SC_MS};      // TCP_ATO_MIN = TCP_DELACK_MIN
    sc_core::sc_time tcp_delack_max{200, sc_core::SC_MS};  // TCP_DELACK_MAX
    // tcp_cubic.c module parameters (defaults as in 6.1).
    bool cubic_hystart = true; // hystart=1, hystart_detect = ACK_TRAIN | DELAY
    std::uint32_t cubic_hystart_low_window = 16;
    sc_core::sc_time cubic_hystart_ack_delta{2, sc_core::SC_MS}; // hystart_ack_delta_us 2000
    bool cubic_fast_convergence = true;
    std::uint32_t cubic_beta = 717;     // /1024
    std::uint32_t cubic_bic_scale = 41; // C = bic_scale * 10 / 1024 = 0.4
    bool cubic_tcp_friendliness = true;
    // --- device / qdisc ------------------------------------------------------------------------
    std::string qdisc = "pfifo_fast"; // default_qdisc for a device with a queue; or fq_codel
    std::uint32_t txqueuelen = 1000;  // ether_setup: DEFAULT_TX_QUEUE_LEN
    std::uint32_t mtu = 1500;
    // Generic segmentation offload. TCP always builds multi-segment skbs: sk_setup_caps gives a
    // TCP socket NETIF_F_GSO even on a device without TSO, and validate_xmit_skb segments them
    // after the qdisc (tcp_gso_segment hands each segment its share of the TSQ budget). Off:
    // one skb per MSS (as with `ethtool -K dev gso off tso off`).
    bool gso = true;
    std::uint32_t gso_max_size = 65536; // GSO_LEGACY_MAX_SIZE (also HyStart's ack delay)
    std::uint32_t gso_max_segs = 65535; // GSO_MAX_SEGS
    std::uint32_t tcp_min_tso_segs = 2; // tcp_sk_init
    std::uint32_t tcp_tso_rtt_log = 9;  // tcp_sk_init (5.18+): min_rtt in 512 us units
    // net.core.netdev_max_backlog (net/core/dev.c: 1000): frames a CPU's input_pkt_queue holds;
    // enqueue_to_backlog drops the next one (softnet_stat "dropped").
    std::uint32_t netdev_max_backlog = 1000;
    // net.core.wmem_default / rmem_default: sk_sndbuf / sk_rcvbuf of a socket that sets neither
    // (iperf3 without -w; UDP does not autotune): SK_WMEM_MAX / SK_RMEM_MAX (net/core/sock.c),
    // 256 skbs of SKB_TRUESIZE(256). *assumption*: the 64-bit value, 212992 (a 32-bit ARM
    // kernel's smaller sk_buff gives 163840); it bounds a UDP sender's queue at its NIC and what
    // a UDP socket holds before it drops (docs/traffic.md "Bounded queues").
    std::uint32_t wmem_default = 212992;
    std::uint32_t rmem_default = 212992;
    // --- modelling choices ----------------------------------------------------------------------
    // Internal TCP pacing (tcp_internal_pacing) is used by Linux only when something asks for it
    // (sch_fq, BBR, SO_MAX_PACING_RATE): with pfifo_fast + cubic sk_pacing_status is
    // SK_PACING_NONE, so default off. When on, departures are spaced at sk_pacing_rate and the
    // TSQ limit is not capped by tcp_limit_output_bytes (tcp_small_queue_check).
    bool tcp_internal_pacing = false;
    // Bytes an skb costs beyond its payload in sk_wmem_alloc / sk_rmem_alloc: struct sk_buff +
    // skb_shared_info + MAX_TCP_HEADER headroom, SKB_TRUESIZE-style. *assumption*: 6.1 on x86-64
    // reports about 2.2-2.3 KB truesize for a 1448-byte segment; 768 gives 2216.
    std::uint32_t skb_truesize_overhead = 768;
    // Where netif_rx's softirq work runs. On: in the caller when that is a thread (a threaded IRQ
    // handler, a work item), at once and on its CPU time, as 6.1 does (net/core/dev.c netif_rx:
    // local_bh_disable, enqueue_to_backlog, local_bh_enable runs net_rx_action; since 5.18);
    // the board's stack, whose frames come from the real driver, has it on
    // (system/host_stacks.cc). Off: the frame waits an irq_to_thread sample for the stack's own
    // softirq thread (a NIC's interrupt raising NET_RX, as for the peer; or netif_rx from
    // process context before 5.18).
    bool netif_rx_in_caller = false;

    // Throws std::invalid_argument("net setting '<key>': ...") for the first bad value.
    void validate() const;
    // Sets one setting by its Linux name from text (the scenario loader's seam). tcp_wmem /
    // tcp_rmem take "min default max" (spaces or commas); times take "<n>ms"/"<n>us"/"<n>s";
    // booleans 0/1/true/false. Throws std::invalid_argument naming the key on an unknown key or a
    // bad value. Does not call validate() (settings may be set in any order).
    void set(const std::string& key, const std::string& value);

    // Derived values.
    // MSS from the MTU: MTU - 20 (IPv4) - 20 (TCP) - 12 (timestamp option when on).
    std::uint32_t mss() const { return mtu - 40 - (tcp_timestamps ? 12 : 0); }
    // tcp_win_from_space(): the part of a buffer that may be advertised as window.
    std::uint64_t win_from_space(std::uint64_t space) const {
        return tcp_adv_win_scale <= 0 ? space >> (-tcp_adv_win_scale)
                                      : space - (space >> tcp_adv_win_scale);
    }
    // truesize of an skb with `len` bytes of frame data.
    std::uint32_t truesize(std::uint32_t len) const { return len + skb_truesize_overhead; }
};

} // namespace nicsim::net

// SPDX-License-Identifier: MIT
//
// One established TCP connection of a host_stack: a bulk-data sender half (tcp_output.c /
// tcp_input.c's ACK path) and a receiver half (tcp_input.c's data path), over real frames built
// with host/traffic/frame.h. The connection is taken as established (ttcp/iperf time the data
// phase): both ends know the other's ISN, MSS (from the MTU) and window scale
// (tcp_select_initial_window: ilog2(max(tcp_rmem[2], rmem_max)) - 15).
//
// What is modelled, with the kernel function each part follows:
//   send buffer   sk_sndbuf starts at tcp_wmem[1], tcp_init_buffer_space/tcp_sndbuf_expand grow
//                 it (tcp_new_space on ACKs that free data); sk_wmem_queued counts truesize of
//                 the write + retransmit queues; write() blocks while it is >= sk_sndbuf and is
//                 woken at sk_stream_min_wspace (a third free).
//   transmit      tcp_write_xmit: cwnd test, receive-window test, optional internal pacing,
//                 TCP Small Queues (tsq_limit; always send if <= 1 skb is in flight, as
//                 tcp_rtx_queue_empty_or_single_skb), then one skb of tcp_tso_autosize
//                 segments (GSO) charged truesize to sk_wmem_alloc, returned by its
//                 destructor (tcp_wfree).
//   cwnd          slow start / CUBIC / Reno through congestion_control; tcp_cwnd_validate's
//                 is_cwnd_limited/max_packets_out gate growth as in tcp_is_cwnd_limited.
//   RTT / RTO     tcp_rtt_estimator (Karn: no samples from retransmitted data); RTO expiry =
//                 tcp_enter_loss: ssthresh, cwnd 1, every outstanding segment resent in order
//                 (go-back-N, as a SACK-less Linux marks all lost), exponential backoff,
//                 tcp_retries2 consecutive expiries fail the connection.
//   loss recovery with SACK (tcp_sack 1, both ends): the receiver reports its out-of-order
//                 blocks (tcp_sack_new_ofo_skb / tcp_sack_remove, newest first, 3 blocks next to
//                 the timestamps); the sender tags its queue (tcp_sacktag_write_queue), detects
//                 losses with RACK (tcp_rack_detect_loss: a segment is lost when one sent after
//                 it was delivered and rack.rtt + reo_wnd has passed; reo_wnd 0 in recovery or
//                 with tcp_reordering SACKed segments, else min_rtt/4 with the reorder timer),
//                 enters recovery once anything is lost (tcp_time_to_recover), sizes cwnd by
//                 Proportional Rate Reduction (tcp_cwnd_reduction) and resends the lost segments
//                 first (tcp_xmit_retransmit_queue); in flight = packets_out - (sacked_out +
//                 lost_out) + retrans_out. RTO marks every unSACKed segment lost
//                 (tcp_timeout_mark_lost). Without SACK: NewReno (RFC 6582) on tcp_reordering
//                 duplicate ACKs counted as Linux's emulated SACK (tcp_add_reno_sack), cwnd to
//                 ssthresh at once, partial ACKs retransmit the next hole.
//   pacing rate   tcp_update_pacing_rate on every ACK.
//   receive       in-order and out-of-order queues charged truesize to sk_rmem_alloc; window
//                 from __tcp_select_window (rcv_ssthresh grown by tcp_grow_window, never shrunk);
//                 receive-buffer autotuning tcp_rcv_space_adjust at each read with the receiver's
//                 RTT estimate from timestamps (tcp_rcv_rtt_measure_ts); delayed ACKs with
//                 quick-ack mode (tcp_incr_quickack / tcp_event_data_recv's ato, TCP_ATO_MIN,
//                 an ACK at once for every second full-sized segment, __tcp_ack_snd_check, and
//                 at once for out-of-order data); window-update ACKs after reads
//                 (tcp_cleanup_rbuf).
// Tail loss probes (tcp_tlp.cc): with SACK and tcp_early_retrans 3 or 4, a probe after about
// two round trips without an ACK, so a lost tail is repaired without waiting for the RTO.
// Left out: SYN/FIN, D-SACK and reordering detection (the links here do not reorder), undo
// (F-RTO, spurious-retransmit undo), ECN, tcp_tso_should_defer, the full
// Nagle logic (a sub-MSS tail waits while anything is in flight), the slow-start-after-idle
// restart, memory pressure.
//
// Threading: all methods run in the owning host_stack's SC_THREAD except write()/read(), which
// the application calls from its own SC_THREAD (they block), and the skb destructor, which runs in
// whatever process frees the skb (it only updates counters and notifies the stack).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "bus/common/local_time.h"
#include "host/net/net_settings.h"
#include "host/net/skb.h"
#include "host/net/stack_costs.h"
#include "host/net/tcp_cc.h"
#include "host/net/tcp_rtt.h"
#include "host/traffic/frame.h"
#include "host/traffic/pattern.h"

namespace nicsim::net {

struct tcp_addr {
    traffic::frame::mac_addr mac;
    traffic::frame::ipv4_addr ip;
    std::uint16_t port = 0;
};

struct tcp_socket_config {
    tcp_addr local, remote;
    std::uint64_t seed = 1; // ISNs, IP ids, timestamp bases, payload pattern
    std::uint8_t tos = 0;
    std::uint32_t priority = 0; // skb->priority (pfifo_fast band)
    // The two ends of one connection use the same seed and opposite `client` flags: the client's
    // ISN/pattern for its outgoing data is the server's incoming one and vice versa.
    bool client = true;
    // The peer's window-scale shift (to read its window field); -1: the same rule as ours on the
    // same settings (both hosts alike).
    int peer_wscale = -1;
    // Whether the peer's SYN said SACK-permitted; -1: as our own tcp_sack (both hosts alike).
    int peer_sack = -1;
};

// What one end's SYN (the client's) or SYN-ACK (the server's) carries, as tcp_connect /
// tcp_make_synack write it from the socket's settings (tcp_syn_options, tcp_synack_options). The
// model opens its connections established, so no SYN is ever sent; a capture shows the handshake
// from these (host/tcp_capture.h).
struct tcp_syn_fields {
    std::uint32_t isn = 0;
    std::uint16_t mss = 0;       // MSS option: the MTU - 40 (tcp_advertise_mss), no TS option
    std::uint16_t window = 0;    // the window field, never scaled in a SYN (RFC 7323)
    int wscale = -1;             // window-scale option (rcv_wscale); -1: not sent
    bool sack_permitted = false; // tcp_sack
    bool timestamps = false;     // tcp_timestamps
};

// Counters of one socket (both halves).
struct tcp_stats {
    std::uint64_t bytes_written = 0; // accepted by write()
    std::uint64_t bytes_acked = 0;   // snd_una
    std::uint64_t bytes_read = 0;    // returned by read(), in order, checked against the pattern
    std::uint64_t segments_sent = 0; // data segments incl. retransmissions
    std::uint64_t retransmits = 0;
    std::uint64_t fast_retransmits = 0;
    std::uint64_t timeouts = 0;
    std::uint64_t acks_sent = 0;
    std::uint64_t acks_received = 0;
    std::uint64_t dup_acks = 0;
    std::uint64_t segments_received = 0;
    std::uint64_t out_of_order = 0;
    std::uint64_t duplicates = 0;
    std::uint64_t pattern_errors = 0;
    std::uint64_t checksum_errors = 0;
    std::uint64_t tsq_throttled = 0;   // times tcp_write_xmit stopped at the TSQ limit
    std::uint64_t quick_acks = 0;      // ACKs sent at once because of quick-ack mode
    std::uint64_t delayed_acks = 0;    // ACKs sent by the delayed-ACK timer
    std::uint64_t sacked_segments = 0; // segments newly SACKed by the peer (sender side)
    std::uint64_t rack_lost = 0;       // times RACK marked a segment (or its resend) lost
    std::uint64_t tlp_probes = 0;      // tail loss probes sent (LINUX_MIB_TCPLOSSPROBES)
    std::uint64_t sack_acks_sent = 0;  // ACKs sent carrying SACK blocks (receiver side)
    // snd_cwnd (segments) at the first ACK after slow start ended (HyStart, or a loss); 0 while
    // the flow has not left it. A flow that TSQ, not cwnd, limits keeps this cwnd: it grows only
    // while cwnd-limited (tcp_is_cwnd_limited).
    std::uint32_t slow_start_exit_cwnd = 0;
};

class tcp_socket {
  public:
    using xmit_fn = std::function<void(skb_ptr)>; // dev_queue_xmit of the owning stack
    using notify_fn = std::function<void()>;      // wakes the owning stack's thread

    struct env {
        xmit_fn xmit;                       // dev_queue_xmit (required)
        notify_fn notify;                   // wake the stack thread (required)
        cpu_cost_fn cpu_cost;               // may be empty
        const stack_costs* costs = nullptr; // may be null (free)
    };
    tcp_socket(const net_settings& cfg, const tcp_socket_config& sc, env e);

    // --- stack-thread side ---------------------------------------------------------------------
    // Processes one parsed frame for this connection (data and/or ACK).
    void on_segment(const traffic::frame::parsed_frame& f);
    // tcp_write_xmit: sends what cwnd, rwnd, TSQ and pacing allow.
    void push();
    // Runs expired timers (RTO, delayed ACK); returns the next deadline or SC_ZERO_TIME if none.
    void run_timers();
    sc_core::sc_time next_deadline() const;
    bool accepts(const traffic::frame::parsed_frame& f) const;

    // --- application side (blocking, from an application SC_THREAD) ---------------------------
    // How much write() may take now without blocking (0: sk_stream_memory_free is false).
    std::uint64_t write_space() const;
    // Appends n bytes of the payload pattern to the stream (the app never needs real bytes: both
    // ends derive them from the seed). Returns bytes taken (may be < n: the caller waits).
    std::uint64_t append(std::uint64_t n);
    std::uint64_t readable() const { return m_rcv_nxt - m_copied_seq; }
    // Consumes up to n in-order bytes (tcp_recvmsg) and runs tcp_rcv_space_adjust and the
    // window-update check. Returns bytes consumed.
    std::uint64_t consume(std::uint64_t n);
    // The application's sleeps, from its SC_THREAD: sk_stream_wait_memory until the write space
    // wake-up, sk_wait_data until data arrives (or the socket fails). The socket counts the
    // sleepers: its wake-ups notify only while a task sleeps, as sk_stream_write_space and
    // sock_def_readable test skwq_has_sleeper.
    void sleep_for_write_space() { sleep_on(m_write_space, m_write_sleepers); }
    void sleep_for_data() { sleep_on(m_data_ready, m_data_sleepers); }
    // lock_sock for a reader (tcp_recvmsg): waits while a softirq processes a segment of this
    // socket (bh_lock_sock in tcp_v4_rcv). Without it a reader running between the segment's
    // data and the end of its processing (the ACK it sends costs CPU time) would take the data
    // and then be woken for it with nothing left to read. The other direction (segments going
    // to the socket backlog while the application holds the lock) is not modelled.
    void lock_sock();

    // --- observation ---------------------------------------------------------------------------
    const tcp_stats& stats() const { return m_stats; }
    const cc_state& cc() const { return m_cc; }
    const congestion_control& cc_algo() const { return *m_ca; }
    std::uint64_t srtt_us() const { return m_rtt.srtt_us(); }
    std::uint64_t mdev_us() const { return m_rtt.mdev_us(); }
    std::uint64_t rto_us() const { return m_rtt.rto_us(); }
    std::uint64_t pacing_rate() const { return m_cc.pacing_rate; }
    std::uint64_t wmem_alloc() const { return m_wmem->alloc; } // bytes below TCP (TSQ)
    std::uint64_t wmem_queued() const;
    std::uint64_t skb_frees() const { return m_wmem->frees; } // destructors run so far
    std::uint64_t sndbuf() const { return m_sndbuf; }
    std::uint64_t rcvbuf() const { return m_rcvbuf; }
    std::uint64_t rmem_alloc() const { return m_rmem_alloc; }
    std::uint64_t rcv_wnd() const { return m_rcv_wnd; } // last advertised, bytes
    std::uint64_t window_clamp() const { return m_window_clamp; }
    std::uint64_t rcv_rtt_us() const { return m_rcv_rtt8 >> 3; }
    std::uint32_t packets_out() const;
    std::uint32_t mss() const { return m_mss; }
    std::uint32_t segment_truesize() const { return m_seg_truesize; }
    // The TSQ limit for the last skb sent (its truesize enters max(2 * truesize, ...)).
    std::uint64_t tsq_limit_now(unsigned factor = 0) const;
    std::uint32_t last_skb_truesize() const { return m_last_truesize; }
    // Segments per GSO skb now (tcp_tso_segs); 1 without GSO.
    std::uint32_t tso_segs() const;
    // Segments of the next new-data skb at `off` (full segments only) within `quota`.
    std::uint32_t new_data_segs(std::uint64_t off, std::uint64_t quota) const;
    std::uint64_t min_rtt_us() const { return m_min_rtt_us; }
    bool in_recovery() const { return m_in_recovery; }
    bool sack_ok() const { return m_sack_ok; }
    std::uint32_t sacked_out() const { return m_sacked_out; }
    std::uint32_t lost_out() const { return m_lost_out; }
    std::uint32_t retrans_out() const { return m_retrans_out; }
    // The receiver's SACK blocks as stream offsets [start, end), newest first.
    const std::vector<std::pair<std::uint64_t, std::uint64_t>>& sack_blocks() const {
        return m_sack_blocks;
    }
    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    unsigned wscale() const { return m_wscale; }

    // --- for a capture of the connection (host/tcp_capture.h) ----------------------
    const tcp_socket_config& config() const { return m_sc; }
    const tcp_syn_fields& syn() const { return m_syn; }
    std::uint32_t tsval() const { return now_ts(); }
    // Wire sequence numbers: the one after the last byte the application wrote (a FIN's), and
    // rcv_nxt (the next byte expected, what an ACK says).
    std::uint32_t wire_write_end() const { return wire_seq_out(m_write_seq); }
    std::uint32_t wire_rcv_nxt() const { return wire_seq_in(m_rcv_nxt); }
    // The window last advertised, as the header field: what is left of it from rcv_nxt, scaled.
    std::uint16_t window_field() const;

  private:
    // Socket code follows the local-time rule (bus/common/local_time.h): it reads the time with
    // local_time::now(), and a waiter is woken at SystemC time, caught up first.
    // Only a sleeping task is woken (skwq_has_sleeper in sk_stream_write_space and
    // sock_def_readable): with none, no notification and no sync either, which a decoupled
    // thread would pay with a context switch (tcp_check_space runs for every ACK, data_ready for
    // every segment). The count is exact at the caller's local time: no other process ran since
    // its offset began (bus/common/local_time.h).
    static void notify_sleepers(sc_core::sc_event& e, unsigned sleepers) {
        if (!sleepers)
            return;
        local_time::sync();
        e.notify(sc_core::SC_ZERO_TIME);
    }
    // The caller checked its condition at its local time; sync() lets no other process run
    // before that time (bus/common/local_time.h), so the condition still holds when it sleeps.
    static void sleep_on(const sc_core::sc_event& e, unsigned& sleepers) {
        local_time::sync();
        ++sleepers;
        sc_core::wait(e);
        --sleepers;
    }
    // Bytes below TCP; shared with every in-flight skb's destructor so the socket may go first.
    struct wmem_account {
        std::uint64_t alloc = 0;
        bool throttled = false; // TSQ_THROTTLED
        notify_fn notify;
        std::uint64_t frees = 0;
    };

    // sender
    // Sends `segs` consecutive segments from `off` as one skb (a GSO skb when segs > 1).
    void send_skb(std::uint64_t off, std::uint32_t segs, bool retransmit);
    void send_segment(std::uint64_t off, bool retransmit) { send_skb(off, 1, retransmit); }
    void process_segment(const traffic::frame::parsed_frame& f); // on_segment, socket owned
    void on_ack(const traffic::frame::parsed_frame& f);
    void enter_recovery();
    void on_rto();
    void cwnd_validate(bool is_cwnd_limited);
    bool is_cwnd_limited() const;
    void check_space();
    void arm_rto();
    std::uint32_t in_flight() const;
    // receiver
    void on_data(const traffic::frame::parsed_frame& f, std::uint64_t off);
    void event_data_recv(std::uint32_t len, std::uint32_t truesize);
    void measure_rcv_mss(std::uint32_t len);
    void incr_quickack(std::uint32_t max_quickacks);
    void ack_check(bool ofo);
    void send_ack();
    std::uint32_t select_window();
    void rcv_rtt_update(std::uint64_t sample_us);
    void rcv_space_adjust();
    void fail(const std::string& why);
    void charge(sc_core::sc_time t, cpu_context c);
    std::uint64_t raw_select_window();

    std::uint32_t now_ts() const; // TCP timestamp clock (ms, 6.1 TCP_TS_HZ 1000)
    std::uint64_t now_us() const;
    // Microseconds from `since` to now (0 if since is not in the past).
    static std::uint64_t elapsed_us(const sc_core::sc_time& since);
    // TCP Small Queues for an skb of `payload` bytes: true (and the socket marked throttled) when
    // it must wait for a destructor to return budget.
    bool tsq_throttles(std::uint64_t payload, bool retrans);
    std::uint32_t wire_seq_out(std::uint64_t off) const {
        return m_isn_out + 1 + (std::uint32_t)off;
    }
    std::uint32_t wire_seq_in(std::uint64_t off) const { return m_isn_in + 1 + (std::uint32_t)off; }
    std::vector<std::uint8_t> build(std::uint32_t seq, std::uint8_t flags, const std::uint8_t* p,
                                    std::size_t len);
    traffic::frame::tcp_fields m_hdr; // build()'s header: its options buffer is reused

    const net_settings& m_cfg;
    tcp_socket_config m_sc;
    env m_env;
    unsigned m_peer_wscale;
    std::uint16_t m_last_peer_window = 0;
    bool m_in_loss = false;
    std::uint32_t m_packets_out = 0;
    std::uint64_t m_snd_sml = 0; // snd_sml: end of the last sub-MSS segment sent (Minshall)
    std::uint32_t m_rcv_rtt_last_tsecr = 0;
    bool m_window_update_wanted = false;
    std::uint32_t m_last_truesize = 0;
    std::uint64_t m_last_skb_start = 0; // first offset of the newest skb in the rtx queue
    std::uint64_t m_min_rtt_us = 0;     // tcp_min_rtt (a global minimum; Linux: 5-minute window)
    std::unique_ptr<congestion_control> m_ca;
    traffic::payload_pattern m_out_pattern, m_in_pattern;
    std::uint32_t m_isn_out, m_isn_in;
    std::uint16_t m_ip_id;
    std::uint32_t m_ts_base;
    std::uint32_t m_mss;
    std::uint32_t m_seg_truesize;
    unsigned m_wscale; // ours (rcv_wscale); the peer uses the same rule, so the same value
    tcp_syn_fields m_syn;
    std::vector<std::uint8_t> m_scratch;
    std::vector<std::vector<std::uint8_t>> m_frames; // send_skb's frames (a member: see there)
    std::string m_error;
    tcp_stats m_stats;

    // --- sender state ---
    cc_state m_cc;
    tcp_rtt_estimator m_rtt;
    std::shared_ptr<wmem_account> m_wmem;
    std::uint64_t m_write_seq = 0; // bytes appended by the app
    std::uint64_t m_snd_una = 0, m_snd_nxt = 0;
    std::uint64_t m_high_sent = 0;   // highest offset ever sent (snd_nxt before go-back-N)
    std::uint64_t m_snd_wnd = 65535; // peer's advertised window, bytes
    std::uint64_t m_sndbuf;
    struct sent_seg {
        std::uint64_t start, end;
        sc_core::sc_time sent;
        bool retransmitted;       // TCPCB_EVER_RETRANS (Karn)
        bool sacked = false;      // TCPCB_SACKED_ACKED
        bool lost = false;        // TCPCB_LOST
        bool retrans_out = false; // TCPCB_SACKED_RETRANS: a retransmission still out
    };
    std::deque<sent_seg> m_rtx; // [snd_una, high_sent), by start
    // SACK and RACK (tcp_sacktag_write_queue, tcp_rack_*, tcp_cwnd_reduction).
    struct sack_tag_result {
        std::uint32_t newly_sacked = 0;
        bool have_rtt = false;
        sc_core::sc_time first_sent, last_sent; // send times of the first/last newly SACKed
    };
    sack_tag_result sack_tag(const traffic::frame::parsed_frame& f);
    void rack_advance(const sent_seg& s);
    void rack_detect_loss();
    void mark_lost(sent_seg& s);
    void sack_fastretrans(std::uint32_t acked_sacked, bool una_advanced);
    void xmit_retransmit_queue();
    void cwnd_reduction(std::uint32_t newly_acked_sacked, bool una_advanced);
    // TCP_TIMEOUT_MIN_US (include/net/tcp.h), and usecs_to_jiffies rounding for the timers. The
    // jiffy is an assumption: CONFIG_HZ=250 (Debian's kernels), 4 ms.
    static constexpr std::uint64_t timeout_min_us = 2000;
    static constexpr std::uint64_t jiffy_us = 4000;
    static std::uint64_t jiffies_us(std::uint64_t us) {
        return (us + jiffy_us - 1) / jiffy_us * jiffy_us;
    }
    // Tail loss probes (tcp_tlp.cc).
    bool schedule_loss_probe(bool advancing_rto);
    void send_loss_probe();
    void process_tlp_ack(std::uint64_t acked_off, bool una_advanced, std::uint32_t newly_sacked,
                         bool not_dup);
    void receiver_sack_add(std::uint64_t start, std::uint64_t end);
    void receiver_sack_remove();
    std::uint32_t m_sacked_out = 0; // SACKed segments (without SACK: duplicate ACKs, emulated)
    bool m_sack_ok;                 // tcp_sack on both ends (rx_opt.sack_ok)
    std::uint32_t m_lost_out = 0, m_retrans_out = 0;
    std::uint32_t m_prior_cwnd = 0, m_prr_delivered = 0, m_prr_out = 0; // PRR
    // RACK: the most recently sent segment known delivered, and its RTT.
    bool m_rack_advanced = false;
    sc_core::sc_time m_rack_mstamp;
    std::uint64_t m_rack_end = 0;
    std::uint64_t m_rack_rtt_us = 0;
    bool m_reo_armed = false; // ICSK_TIME_REO_TIMEOUT
    sc_core::sc_time m_reo_deadline;
    bool m_tlp_armed = false; // ICSK_TIME_LOSS_PROBE (before the RTO, which stays armed here)
    sc_core::sc_time m_tlp_deadline;
    bool m_tlp_out = false;       // tlp_high_seq != 0: a probe is out
    std::uint64_t m_tlp_high = 0; // tlp_high_seq (snd_nxt when the probe went)
    bool m_tlp_retrans = false;   // the probe resent the last segment
    std::uint32_t m_dupacks = 0;
    bool m_in_recovery = false;
    std::uint64_t m_recover = 0; // high_seq: recovery ends when snd_una passes it
    bool m_rto_armed = false;
    sc_core::sc_time m_rto_deadline;
    unsigned m_backoff = 0;
    std::uint64_t m_rto_cur_us;
    std::uint32_t m_ts_recent = 0;  // peer's last TSval (echoed in TSecr)
    bool m_is_cwnd_limited = false; // tcp_sock.is_cwnd_limited
    std::uint32_t m_max_packets_out = 0;
    std::uint64_t m_cwnd_usage_seq = 0;
    sc_core::sc_time m_next_departure; // internal pacing (tcp_wstamp_ns)
    sc_core::sc_event m_write_space;
    unsigned m_write_sleepers = 0;

    // --- receiver state ---
    std::uint64_t m_rcv_nxt = 0, m_copied_seq = 0, m_rcv_wup = 0;
    std::uint64_t m_rcv_wnd;
    std::uint64_t m_rcv_ssthresh;
    std::uint64_t m_window_clamp;
    std::uint64_t m_rcvbuf;
    std::uint64_t m_rmem_alloc = 0;
    std::map<std::uint64_t, std::pair<std::uint64_t, std::uint32_t>>
        m_ofo;                                                          // start -> (end, truesize)
    std::deque<std::pair<std::uint64_t, std::uint32_t>> m_rcv_queue;    // (end, truesize) in order
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_sack_blocks; // rx_opt selective_acks
    std::uint64_t m_rcvq_space = 0, m_rcvq_seq = 0;
    std::uint64_t m_rcvq_time_us = 0;
    std::uint64_t m_rcv_rtt8 = 0;
    std::uint32_t m_rcv_tsval_recent = 0; // our TSval echoed by the peer (for rcv RTT)
    std::uint32_t m_quick = 0;            // icsk_ack.quick
    std::uint64_t m_ato_us = 0;           // icsk_ack.ato (0: no data yet)
    std::uint64_t m_lrcvtime_us = 0;
    bool m_ack_pending = false;
    bool m_ack_pushed = false;         // ICSK_ACK_PUSHED, cleared by any ACK sent
    std::uint32_t m_last_seg_size = 0; // icsk_ack.last_seg_size
    sc_core::sc_time m_delack_deadline;
    sc_core::sc_event m_data_ready;
    unsigned m_data_sleepers = 0;
    bool m_bh_owned = false; // a softirq processes a segment (bh_lock_sock held)
    sc_core::sc_event m_bh_released;
    unsigned m_lock_waiters = 0;
};

} // namespace nicsim::net

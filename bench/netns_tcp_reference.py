#!/usr/bin/env python3
"""Real-kernel reference for nicsim's host TCP stack (issue 10, deliverable 3).

Builds two network namespaces joined by one veth pair, shapes the link, runs one bulk
TCP flow with CUBIC for a fixed time and writes one JSON per (link shape,
net.ipv4.tcp_limit_output_bytes).  Python 3 standard library only; needs root, ip, tc,
ethtool and iptables (installed with apt-get when missing and running as root).

Topology and where each part of the shape sits (see docs/host-stack-vs-linux.md):

    ns "tx" (sender)                                  ns "rx" (receiver)
    python sender --> TCP --> tbf (rate) --> veth ==> veth --> TCP --> python receiver
                                                            |
    TCP <-- veth <========================================  +-- OUTPUT: NFQUEUE delay
                                                                line (2 x one-way delay)

* Rate: a tbf on the SENDER's veth egress (the rate limiter must sit where TCP Small
  Queues can see it: the skbs waiting in tbf still hold their sk_wmem_alloc charge, so
  the tbf backlog IS the TSQ-bounded backlog).  tbf does not orphan skbs.  veth does not
  orphan either (skb_scrub_packet keeps skb->sk); the charge is returned when the
  receiver's ip_rcv_core() calls skb_orphan(), i.e. right after the frame leaves tbf.
* Delay: netem would be the usual tool, but (a) netem_enqueue() calls
  skb_orphan_partial() whenever latency/jitter/rate are set, which returns the TSQ
  budget at enqueue and defeats TSQ if netem sat on the sender's egress, and (b) the
  kernel this runs on may not have netem at all (CONFIG_NET_SCH_NETEM is not set on the
  machine the committed results come from; no fq, no fq_codel either).  So the delay is
  a delay line in the RECEIVER namespace: iptables OUTPUT -> NFQUEUE, and a small
  nfnetlink_queue client below that holds each packet's verdict for the whole round-trip
  propagation delay (2 x one-way delay).  Only the receiver's packets (ACKs, SYN-ACK)
  pass through it; the data path is all in-kernel.  For one bulk flow the sender sees
  exactly the same RTT as with the delay split d/d, so goodput, cwnd and the sender's
  qdisc backlog are the same; only the receiver sees data d earlier.
* Offloads: TSO/GSO/GRO off on both veth ends (ethtool -K) AND gso_max_segs 1 on the
  sender's veth.  ethtool alone is not enough: sk_setup_caps() always adds NETIF_F_GSO
  for TCP sockets, so TCP would still build multi-segment skbs (tcp_tso_autosize, at
  least tcp_min_tso_segs = 2) and software-segment them after the qdisc; with
  gso_max_segs 1, sk_gso_max_segs = 1 and every skb TCP sends is one MSS, as in a stack
  without GSO (and as in nicsim).

Base RTT (used for "cwnd at the end of RTT k"): RTT0 = 2 * one_way_delay +
1514 B * 8 / rate (serialisation of one full-size frame in tbf; tbf counts the 14 B
Ethernet header, IP and TCP headers; ACK serialisation is not shaped).  t0 is the
moment connect() returns in the sender; cwnd_per_rtt[k-1] = tcpi_snd_cwnd of the last
sample taken at or before t0 + k * RTT0, k = 1..10.

Sampling: a sampler process (forked from the sender, sharing the socket) reads
getsockopt(TCP_INFO) -- the same struct `ss -tin` prints -- and the tbf's
TCA_STATS (rtnetlink, what `tc -s qdisc` prints) every --fine-us microseconds during
the first 12 base RTTs (at least 60 ms), then every --sample-us.  Independently, `ss
-tinm` and `tc -s qdisc` are run every --ss-interval-ms (10 ms) as a cross-check; their
means are in the JSON under "crosscheck".

Exit codes: 0 ok, 2 usage, 4 network namespaces not available (not root, or `ip netns
add` refused), 5 a required tool missing, 6 a run failed, 7 the kernel lacks a feature the
lab needs (veth, tbf, NFQUEUE, TCP_INFO/TCP_CONGESTION cubic).
"""
import argparse
import collections
import ctypes
import json
import os
import re
import select
import shutil
import signal
import statistics
import socket
import struct
import subprocess
import sys
import tempfile
import time

EXIT_USAGE, EXIT_NO_NETNS, EXIT_NO_TOOL, EXIT_RUN_FAILED, EXIT_NO_FEATURE = 2, 4, 5, 6, 7
FRAME = 1514          # bytes on the wire (as tbf counts them) of one full-size segment
PORT = 5201
TX_ADDR, RX_ADDR = "192.0.2.1", "192.0.2.2"   # TEST-NET-1, only inside the namespaces
SHAPES_DEFAULT = "12mbit:1ms,20mbit:5ms,100mbit:0.2ms"
LIMITS_DEFAULT = "1048576,4096"

# Every sysctl the comparison depends on, set explicitly in BOTH namespaces, with the value
# used.  The value is Linux 6.1's default (net/ipv4/tcp_ipv4.c tcp_sk_init(), net/ipv4/tcp.c
# tcp_init()) except tcp_congestion_control (cubic: the kernel here defaults to bbr) and
# tcp_limit_output_bytes (the swept parameter).
SYSCTLS = collections.OrderedDict([
    ("net.ipv4.tcp_congestion_control", "cubic"),
    ("net.ipv4.tcp_wmem", "4096 16384 4194304"),
    ("net.ipv4.tcp_rmem", "4096 131072 6291456"),
    ("net.ipv4.tcp_timestamps", "1"),
    ("net.ipv4.tcp_sack", "1"),
    ("net.ipv4.tcp_dsack", "1"),
    ("net.ipv4.tcp_window_scaling", "1"),
    ("net.ipv4.tcp_slow_start_after_idle", "1"),
    ("net.ipv4.tcp_no_metrics_save", "1"),   # 6.1 default 0; 1 so runs do not inherit metrics
    ("net.ipv4.tcp_autocorking", "1"),
    ("net.ipv4.tcp_pacing_ss_ratio", "200"),
    ("net.ipv4.tcp_pacing_ca_ratio", "120"),
    ("net.ipv4.tcp_notsent_lowat", "4294967295"),
    ("net.ipv4.tcp_min_tso_segs", "2"),
    ("net.ipv4.tcp_tso_win_divisor", "3"),
    ("net.ipv4.tcp_ecn", "2"),
    ("net.ipv4.tcp_early_retrans", "3"),
    ("net.ipv4.tcp_recovery", "1"),
    ("net.ipv4.tcp_frto", "2"),
    ("net.ipv4.tcp_reordering", "3"),
    ("net.ipv4.tcp_moderate_rcvbuf", "1"),
    ("net.ipv4.tcp_adv_win_scale", "1"),
    ("net.ipv4.tcp_app_win", "31"),
    ("net.ipv4.tcp_min_rtt_wlen", "300"),
    ("net.ipv4.tcp_mtu_probing", "0"),
    ("net.ipv4.tcp_fastopen", "1"),
    ("net.ipv4.tcp_comp_sack_nr", "44"),
    ("net.ipv4.tcp_comp_sack_delay_ns", "1000000"),
    ("net.ipv4.tcp_retrans_collapse", "1"),
    ("net.ipv4.tcp_thin_linear_timeouts", "0"),
    ("net.ipv4.tcp_shrink_window", "0"),
    # Knobs newer than 6.1, set to what 6.1 does without them (sysctl -w fails on 6.1 itself,
    # which is recorded under sysctls_refused and harmless there):
    ("net.ipv4.tcp_backlog_ack_defer", "0"),   # 6.8+: defer ACKs while the backlog is processed
    ("net.ipv4.tcp_rto_min_us", "200000"),      # 6.1: TCP_RTO_MIN = HZ/5
    ("net.ipv4.tcp_pingpong_thresh", "1"),      # 6.1: TCP_PINGPONG_THRESH 1
    ("net.ipv4.tcp_plb_enabled", "0"),
    ("net.ipv4.tcp_limit_output_bytes", None),       # per run
])
# Linux 6.1 defaults of the sysctls above, and of the ones only recorded (for the
# "differs from 6.1" report).  Sources: tcp_sk_init() and tcp_init() in the 6.1 tree,
# net/core/sock.c (SK_WMEM_MAX/SK_RMEM_MAX = 212992), sch_generic default pfifo_fast.
LINUX61_DEFAULTS = dict(SYSCTLS)
LINUX61_DEFAULTS.update({
    "net.ipv4.tcp_congestion_control": "cubic",
    "net.ipv4.tcp_no_metrics_save": "0",
    "net.ipv4.tcp_limit_output_bytes": "1048576",
    "net.core.default_qdisc": "pfifo_fast",
    "net.core.wmem_default": "212992",
    "net.core.rmem_default": "212992",
    "net.core.wmem_max": "212992",
    "net.core.rmem_max": "212992",
})
RECORDED_ONLY = ["net.core.default_qdisc", "net.core.wmem_default", "net.core.rmem_default",
                 "net.core.wmem_max", "net.core.rmem_max", "net.ipv4.tcp_allowed_congestion_control"]
CUBIC_PARAMS_61 = {"beta": "717", "bic_scale": "41", "fast_convergence": "1", "hystart": "1",
                   "hystart_ack_delta_us": "2000", "hystart_detect": "3",
                   "hystart_low_window": "16", "initial_ssthresh": "0", "tcp_friendliness": "1"}


def log(*a):
    print("netns_tcp_reference:", *a, file=sys.stderr, flush=True)


def mono():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def set_timerslack_ns(ns):
    """Timers (sleep, select) of this process fire within ns instead of the 50 us default."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(29, ctypes.c_ulong(ns), 0, 0, 0)   # PR_SET_TIMERSLACK
    except OSError:
        pass


def parse_rate(s):
    m = re.fullmatch(r"([0-9.]+)\s*(k|m|g)?(bit|bps)?", s.strip().lower())
    if not m:
        raise ValueError("bad rate %r (e.g. 12mbit)" % s)
    mult = {"k": 1e3, "m": 1e6, "g": 1e9, None: 1}[m.group(2)]
    return float(m.group(1)) * mult


def parse_delay(s):
    m = re.fullmatch(r"([0-9.]+)\s*(us|ms|s)?", s.strip().lower())
    if not m:
        raise ValueError("bad delay %r (e.g. 1ms)" % s)
    return float(m.group(1)) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, None: 1e-3}[m.group(2)]


def shape_name(rate_bps, delay_s):
    r = ("%gmbit" % (rate_bps / 1e6))
    d = ("%gms" % (delay_s * 1e3))
    return "%s-%s" % (r, d)


# ---------------------------------------------------------------------------------------
# struct tcp_info (include/uapi/linux/tcp.h), the fields `ss -tin` prints
TCPI_FMT = "=8B24I4Q6I4Q2I2Q"
TCPI_NAMES = ("state ca_state retransmits probes backoff options wscale flags "
              "rto ato snd_mss rcv_mss unacked sacked lost retrans fackets last_data_sent "
              "last_ack_sent last_data_recv last_ack_recv pmtu rcv_ssthresh rtt rttvar "
              "snd_ssthresh snd_cwnd advmss reordering rcv_rtt rcv_space total_retrans "
              "pacing_rate max_pacing_rate bytes_acked bytes_received segs_out segs_in "
              "notsent_bytes min_rtt data_segs_in data_segs_out delivery_rate busy_time "
              "rwnd_limited sndbuf_limited delivered delivered_ce bytes_sent bytes_retrans").split()
TCPI_LEN = struct.calcsize(TCPI_FMT)


def tcp_info(sock):
    raw = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCPI_LEN)
    raw = raw.ljust(TCPI_LEN, b"\0")
    return dict(zip(TCPI_NAMES, struct.unpack(TCPI_FMT, raw)))


# ---------------------------------------------------------------------------------------
# rtnetlink qdisc stats (what `tc -s qdisc show` prints), without forking tc
RTM_GETQDISC, NLM_F_REQUEST, NLM_F_DUMP, NLMSG_DONE, NLMSG_ERROR = 38, 1, 0x300, 3, 2
TCA_KIND, TCA_STATS = 1, 3


class QdiscStats:
    def __init__(self, ifindex):
        self.ifindex = ifindex
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        self.sock.bind((0, 0))
        self.seq = 0

    def root(self):
        """(backlog_bytes, qlen_pkts, drops, packets) of the root qdisc of ifindex."""
        self.seq += 1
        tcm = struct.pack("=BxxxiIII", socket.AF_UNSPEC, self.ifindex, 0, 0, 0)
        hdr = struct.pack("=IHHII", 16 + len(tcm), RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP,
                          self.seq, 0)
        self.sock.send(hdr + tcm)
        found = None
        while True:
            data = self.sock.recv(65536)
            off = 0
            while off + 16 <= len(data):
                ln, typ, _fl, _seq, _pid = struct.unpack_from("=IHHII", data, off)
                if typ == NLMSG_DONE:
                    return found
                if typ == NLMSG_ERROR:
                    raise OSError("rtnetlink error")
                if typ == 36:  # RTM_NEWQDISC
                    _fam, ifi, _h, parent, _info = struct.unpack_from("=BxxxiIII", data, off + 16)
                    if ifi == self.ifindex and parent == 0xFFFFFFFF:
                        a = off + 16 + 20
                        while a + 4 <= off + ln:
                            alen, atype = struct.unpack_from("=HH", data, a)
                            if alen < 4:
                                break
                            if atype == TCA_STATS:
                                (_b, pk, dr, _ov, _bps, _pps, ql, bl) = struct.unpack_from(
                                    "=QIIIIIII", data, a + 4)
                                found = (bl, ql, dr, pk)
                            a += (alen + 3) & ~3
                off += (ln + 3) & ~3


# ---------------------------------------------------------------------------------------
# Roles run inside the namespaces (ip netns exec NS python3 this-file --role ...)

def set_fifo(prio):
    """SCHED_FIFO for the roles of a run: on a shared, loaded machine a SCHED_OTHER sender
    was seen to start writing 4-6 ms after connect() returned (100 Mbit/s: 10 base RTTs),
    which is the scheduler, not TCP.  Every role sleeps or blocks most of the time, so this
    takes little CPU from anyone.  Returns the policy actually in force."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(prio))
        return "SCHED_FIFO %d" % prio
    except (OSError, AttributeError):
        return "SCHED_OTHER"


def role_receiver(args):
    set_fifo(2)
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((RX_ADDR, PORT))
    ls.listen(1)
    print("READY", flush=True)
    ls.settimeout(args.timeout)
    conn, _ = ls.accept()
    conn.settimeout(args.timeout)
    buf = bytearray(1 << 18)
    total, t_first, t_last = 0, None, None
    while True:
        n = conn.recv_into(buf)
        if n == 0:
            break
        now = mono()
        if t_first is None:
            t_first = now
        t_last = now
        total += n
    print(json.dumps({"bytes": total, "t_first": t_first, "t_last": t_last}), flush=True)


def sampler_loop(sock, qs, t0_fd, args, out_path):
    """Sample TCP_INFO and the tbf stats from before connect() until t0 + duration.

    t0 (connect() returned in the parent) arrives on the non-blocking pipe t0_fd; times are
    absolute CLOCK_MONOTONIC seconds, the analysis subtracts t0.  SCHED_FIFO (below the
    delay line) so that the sample times hold on a loaded machine; it sleeps between
    samples, so it takes at most ~60 % of a core during the fine phase and ~3 % after."""
    set_timerslack_ns(1000)
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(5))
    except (OSError, AttributeError):
        pass
    t0 = None
    fine_until = t_end = mono() + 60.0
    rows = []
    nxt = mono()
    while True:
        now = mono()
        if now >= t_end:
            break
        if t0 is None:
            try:
                data = os.read(t0_fd, 64)
                if data:
                    t0 = float(data.decode())
                    fine_until = t0 + max(12 * args.rtt0, 0.060)
                    t_end = t0 + args.duration
            except BlockingIOError:
                pass
        ti = tcp_info(sock)
        bl, ql, dr, _pk = qs.root() or (0, 0, 0, 0)
        rows.append((now, ti["snd_cwnd"], ti["rtt"], ti["rttvar"], ti["min_rtt"],
                     ti["pacing_rate"], ti["delivery_rate"], ti["bytes_acked"],
                     ti["total_retrans"], ti["notsent_bytes"], ti["unacked"],
                     ti["snd_ssthresh"], ti["ca_state"], bl, ql, dr, ti["snd_mss"]))
        step = (args.fine_us if now < fine_until else args.sample_us) * 1e-6
        nxt += step
        delay = nxt - mono()
        if delay > 0:
            time.sleep(delay)
        else:
            nxt = mono()
    cols = ("t cwnd srtt_us rttvar_us min_rtt_us pacing_rate delivery_rate bytes_acked "
            "total_retrans notsent unacked ssthresh ca_state qdisc_backlog_bytes "
            "qdisc_backlog_pkts qdisc_drops snd_mss").split()
    with open(out_path, "w") as f:
        json.dump({"columns": cols, "rows": rows}, f)


def role_sender(args):
    sched = set_fifo(2)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    cc_how = "sysctl"
    try:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, b"cubic")
        cc_how = "setsockopt(TCP_CONGESTION)"
    except OSError as e:
        log("setsockopt(TCP_CONGESTION, cubic) refused:", e)
    qs = QdiscStats(socket.if_nametoindex(args.dev))
    rfd, wfd = os.pipe()
    os.set_blocking(rfd, False)
    pid = os.fork()
    if pid == 0:
        os.close(wfd)
        code = 0
        try:
            sampler_loop(s, qs, rfd, args, args.samples)
        except BaseException as e:  # noqa: BLE001 - report and leave
            log("sampler failed:", repr(e))
            code = 1
        os._exit(code)
    os.close(rfd)
    time.sleep(0.005)           # let the sampler take a few samples of the closed socket
    s.settimeout(args.timeout)
    s.connect((RX_ADDR, PORT))
    t0 = mono()
    os.write(wfd, repr(t0).encode())
    os.close(wfd)
    cc = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16).split(b"\0")[0].decode()
    buf = b"\xa5" * 65536
    t_end = t0 + args.duration
    sent = 0
    try:
        while mono() < t_end:
            sent += s.send(buf)
    finally:
        _, st = os.waitpid(pid, 0)
    ti = tcp_info(s)
    s.shutdown(socket.SHUT_WR)
    s.settimeout(5)
    try:
        while s.recv(4096):
            pass
    except OSError:
        pass
    s.close()
    print(json.dumps({"t0": t0, "cc": cc, "cc_how": cc_how, "app_bytes_written": sent,
                      "scheduler": sched,
                      "sampler_status": st, "final_tcp_info": ti}), flush=True)


# nfnetlink_queue delay line ------------------------------------------------------------
NFNL_SUBSYS_QUEUE = 3
NFQNL_MSG_PACKET, NFQNL_MSG_VERDICT, NFQNL_MSG_CONFIG, NFQNL_MSG_VERDICT_BATCH = 0, 1, 2, 3
NFQA_CFG_CMD, NFQA_CFG_PARAMS, NFQA_CFG_QUEUE_MAXLEN = 1, 2, 3
NFQA_PACKET_HDR, NFQA_VERDICT_HDR = 1, 2
NF_ACCEPT = 1
NETLINK_NETFILTER = 12


def _nla(atype, payload):
    ln = 4 + len(payload)
    return struct.pack("=HH", ln, atype) + payload + b"\0" * (((ln + 3) & ~3) - ln)


def _nfq(msg, attrs, queue, family=socket.AF_UNSPEC, flags=NLM_F_REQUEST, seq=0):
    body = struct.pack("=BBH", family, 0, socket.htons(queue)) + attrs
    return struct.pack("=IHHII", 16 + len(body), (NFNL_SUBSYS_QUEUE << 8) | msg, flags,
                       seq, 0) + body


def role_delayline(args):
    """Hold every packet queued to NFQUEUE args.queue for args.hold seconds, then accept."""
    set_timerslack_ns(1000)
    # The delay line's own wake-up latency adds to the emulated delay: run it SCHED_FIFO so
    # the other processes of the run (and of other users of the machine) do not delay it.
    rt = "SCHED_OTHER"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        rt = "SCHED_FIFO 10"
    except (OSError, AttributeError):
        pass
    hold = args.hold
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    try:
        s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)   # SO_RCVBUFFORCE
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((0, 0))
    q = args.queue

    def cfg(attrs, seq):
        s.send(_nfq(NFQNL_MSG_CONFIG, attrs, q, flags=NLM_F_REQUEST | 4, seq=seq))  # NLM_F_ACK
        data = s.recv(65536)
        ln, typ = struct.unpack_from("=IH", data, 0)
        if typ == NLMSG_ERROR:
            err = struct.unpack_from("=i", data, 16)[0]
            if err != 0:
                raise OSError(-err, "nfqueue config: " + os.strerror(-err))

    cfg(_nla(NFQA_CFG_CMD, struct.pack("=BxH", 1, socket.htons(socket.AF_INET))), 1)  # BIND
    cfg(_nla(NFQA_CFG_PARAMS, struct.pack("!IB", 0, 1)), 2)           # COPY_META, no payload
    cfg(_nla(NFQA_CFG_QUEUE_MAXLEN, struct.pack("!I", 100000)), 3)
    s.setblocking(False)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    print("READY", flush=True)
    pending = collections.deque()
    n_pkts, n_verdicts, enobufs = 0, 0, 0
    lateness = []

    def verdict(pid):
        s.send(_nfq(NFQNL_MSG_VERDICT_BATCH,
                    _nla(NFQA_VERDICT_HDR, struct.pack("!II", NF_ACCEPT, pid)), q))

    while not stop:
        now = mono()
        timeout = (pending[0][0] + hold - now) if pending else 0.05
        if timeout > 0:
            try:
                select.select([s], [], [], timeout)
            except InterruptedError:
                continue
        while True:
            try:
                data = s.recv(1 << 16)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == 105:   # ENOBUFS: the kernel dropped queue messages
                    enobufs += 1
                    continue
                raise
            t_rx = mono()
            off = 0
            while off + 16 <= len(data):
                ln, typ = struct.unpack_from("=IH", data, off)
                if typ == (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET:
                    a = off + 20
                    while a + 4 <= off + ln:
                        alen, atype = struct.unpack_from("=HH", data, a)
                        if alen < 4:
                            break
                        if (atype & 0x7fff) == NFQA_PACKET_HDR:
                            pending.append((t_rx, struct.unpack_from("!I", data, a + 4)[0]))
                            n_pkts += 1
                            break
                        a += (alen + 3) & ~3
                off += (ln + 3) & ~3
        now = mono()
        last = None
        while pending and pending[0][0] + hold <= now:
            t_rx, last = pending.popleft()
            if len(lateness) < 200000:
                lateness.append(now - t_rx - hold)
        if last is not None:
            verdict(last)
            n_verdicts += 1
    if pending:
        verdict(pending[-1][1])
    lateness.sort()
    pct = (lambda p: lateness[min(len(lateness) - 1, int(p * len(lateness)))] * 1e6
           if lateness else None)
    print(json.dumps({"scheduler": rt, "packets": n_pkts, "verdict_msgs": n_verdicts, "enobufs": enobufs,
                      "hold_us": hold * 1e6,
                      "late_us_mean": (sum(lateness) / len(lateness) * 1e6) if lateness else None,
                      "late_us_p50": pct(0.5), "late_us_p99": pct(0.99)}), flush=True)


def role_ss_sampler(args):
    """Every args.interval_ms: `ss -tinm` of the flow and `tc -s qdisc` of the sender veth."""
    set_timerslack_ns(1000)
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    rows = []
    nxt = mono()
    t_end = mono() + args.duration
    while not stop and mono() < t_end:
        t = mono()
        ss = subprocess.run(["ss", "-tinmH", "state", "established", "dst", RX_ADDR],
                            capture_output=True, text=True).stdout
        tc = subprocess.run(["tc", "-s", "qdisc", "show", "dev", args.dev],
                            capture_output=True, text=True).stdout
        row = {"t": t}
        for key, rx in (("cwnd", r"\bcwnd:(\d+)"), ("rtt_ms", r"\brtt:([0-9.]+)/"),
                        ("unacked", r"\bunacked:(\d+)"), ("notsent", r"\bnotsent:(\d+)"),
                        ("wmem_alloc", r"skmem:\([^)]*?\bt(\d+)"),
                        ("bytes_acked", r"\bbytes_acked:(\d+)"),
                        ("retrans_total", r"\bretrans:\d+/(\d+)")):
            m = re.search(rx, ss)
            if m:
                row[key] = float(m.group(1))
        m = re.search(r"backlog (\d+)b (\d+)p", tc)
        if m:
            row["backlog_bytes"], row["backlog_pkts"] = int(m.group(1)), int(m.group(2))
        rows.append(row)
        nxt += args.interval_ms * 1e-3
        d = nxt - mono()
        if d > 0:
            time.sleep(d)
        else:
            nxt = mono()
    print(json.dumps(rows), flush=True)


# ---------------------------------------------------------------------------------------
# Orchestration (root namespace)

class Failure(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


def run(cmd, check=True, code=EXIT_RUN_FAILED, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if check and p.returncode != 0:
        raise Failure(code, "command failed (%d): %s\n%s" % (
            p.returncode, " ".join(cmd), p.stderr.strip()))
    return p


class Lab:
    """Two namespaces joined by a veth pair; removed by close() (also on signals)."""

    def __init__(self, tag):
        self.tx, self.rx = "nicsim-tx-%s" % tag, "nicsim-rx-%s" % tag
        self.created, self.procs = [], []

    def ns(self, ns, *cmd):
        return ["ip", "netns", "exec", ns] + list(cmd)

    def up(self, rate_bps, delay_s, limit_bytes, burst_s):
        # tbf bucket: two full frames or burst_s worth of rate, whichever is larger.  One
        # frame (the strict serialiser) loses capacity whenever tbf's hrtimer watchdog fires
        # late (a loaded 2-core VM: 100 Mbit/s came out at 83 Mbit/s with a 1600 B bucket).
        self.burst = max(2 * FRAME, int(rate_bps * burst_s / 8))
        for ns in (self.tx, self.rx):
            p = run(["ip", "netns", "add", ns], check=False)
            if p.returncode != 0:
                raise Failure(EXIT_NO_NETNS, "network namespaces not available: `ip netns "
                              "add` failed: %s" % (p.stderr.strip() or p.returncode))
            self.created.append(ns)
        run(["ip", "link", "add", "vtx", "netns", self.tx, "type", "veth",
             "peer", "name", "vrx", "netns", self.rx], code=EXIT_NO_FEATURE)
        for ns, dev, addr in ((self.tx, "vtx", TX_ADDR), (self.rx, "vrx", RX_ADDR)):
            run(self.ns(ns, "ip", "link", "set", "lo", "up"))
            run(self.ns(ns, "ip", "addr", "add", addr + "/24", "dev", dev))
            run(self.ns(ns, "ethtool", "-K", dev, "tso", "off", "gso", "off", "gro", "off"))
            run(self.ns(ns, "ip", "link", "set", dev, "gso_max_segs", "1", "up"))
        self.fresh = self.read_sysctls(self.tx)
        applied = {}
        for ns in (self.tx, self.rx):
            for k, v in SYSCTLS.items():
                if v is None:
                    v = str(limit_bytes)
                p = run(self.ns(ns, "sysctl", "-q", "-w", "%s=%s" % (k, v)), check=False)
                if p.returncode != 0:
                    if k not in applied:
                        log("sysctl refused: %s=%s: %s" % (k, v, p.stderr.strip()))
                    applied[k] = "REFUSED: " + p.stderr.strip()
        self.applied = self.read_sysctls(self.tx)
        self.applied_rx = self.read_sysctls(self.rx)
        self.refused = applied
        # rate: tbf on the sender's egress; burst just above one frame so frames leave one by
        # one at the shaped rate; limit = 1000 full frames (like txqueuelen 1000).
        run(self.ns(self.tx, "tc", "qdisc", "replace", "dev", "vtx", "root", "handle", "1:",
                    "tbf", "rate", "%dbit" % rate_bps, "burst", str(self.burst),
                    "limit", str(1000 * FRAME)), code=EXIT_NO_FEATURE)
        # ACK path: receiver egress unshaped (pfifo_fast, the 6.1 default), delayed 2*d by the
        # NFQUEUE delay line.
        run(self.ns(self.rx, "tc", "qdisc", "replace", "dev", "vrx", "root", "pfifo_fast"))

    def read_sysctls(self, ns):
        keys = [k for k in SYSCTLS] + RECORDED_ONLY
        out = {}
        p = run(self.ns(ns, "sysctl", "-e") + keys, check=False)
        for line in p.stdout.splitlines():
            if " = " in line:
                k, v = line.split(" = ", 1)
                out[k.strip()] = " ".join(v.split())
        return out

    def spawn(self, ns, role_args):
        # own process group: close() ends the role and what it forked (the sampler) together
        p = subprocess.Popen(self.ns(ns, sys.executable, os.path.abspath(__file__)) + role_args,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def close(self):
        for p in self.procs:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)   # the group this run started (pgid = p.pid)
                except ProcessLookupError:
                    break
                try:
                    p.wait(timeout=3)
                    time.sleep(0.05)
                except subprocess.TimeoutExpired:
                    continue
        for ns in reversed(self.created):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.created = []


def wait_ready(p, what, timeout=10, code=EXIT_RUN_FAILED):
    r, _, _ = select.select([p.stdout], [], [], timeout)
    line = p.stdout.readline().strip() if r else ""
    if line != "READY":
        err = p.stderr.read() if p.poll() is not None else ""
        raise Failure(code, "%s did not start: %s %s" % (what, line, err.strip()[-500:]))


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else None


def one_run(rate_bps, delay_s, limit, args, tag):
    rtt0 = 2 * delay_s + FRAME * 8 / rate_bps
    lab = Lab(tag)
    try:
        lab.up(rate_bps, delay_s, limit, args.tbf_burst_ms * 1e-3)
        load0 = os.getloadavg()
        dl = lab.spawn(lab.rx, ["--role", "delayline", "--hold", repr(2 * delay_s)])
        wait_ready(dl, "NFQUEUE delay line (kernel needs CONFIG_NETFILTER_NETLINK_QUEUE)",
                   code=EXIT_NO_FEATURE)
        run(lab.ns(lab.rx, "iptables", "-w", "-A", "OUTPUT", "-o", "vrx", "-j", "NFQUEUE",
                   "--queue-num", "0"), code=EXIT_NO_FEATURE)
        rcv = lab.spawn(lab.rx, ["--role", "receiver", "--timeout", str(args.duration + 30)])
        wait_ready(rcv, "receiver")
        ssp = None
        if args.ss_interval_ms > 0:
            ssp = lab.spawn(lab.tx, ["--role", "ss-sampler", "--dev", "vtx",
                                     "--interval-ms", str(args.ss_interval_ms),
                                     "--duration", str(args.duration + 1)])
        samples_path = os.path.join(args.tmp, "samples-%s.json" % tag)
        snd = lab.spawn(lab.tx, ["--role", "sender", "--dev", "vtx", "--duration",
                                 str(args.duration), "--rtt0", repr(rtt0), "--fine-us",
                                 str(args.fine_us), "--sample-us", str(args.sample_us),
                                 "--samples", samples_path, "--timeout", "20"])
        s_out, s_err = snd.communicate(timeout=args.duration + 60)
        if snd.returncode != 0:
            raise Failure(EXIT_RUN_FAILED, "sender failed: " + s_err)
        r_out, r_err = rcv.communicate(timeout=30)
        if rcv.returncode != 0:
            raise Failure(EXIT_RUN_FAILED, "receiver failed: " + r_err)
        ss_rows = []
        if ssp:
            ssp.terminate()
            o, _ = ssp.communicate(timeout=10)
            ss_rows = json.loads(o) if o.strip() else []
        ipt = run(lab.ns(lab.rx, "iptables", "-w", "-L", "OUTPUT", "-v", "-n", "-x")).stdout
        dl.terminate()
        d_out, _ = dl.communicate(timeout=10)
        tc_final = run(lab.ns(lab.tx, "tc", "-s", "qdisc", "show", "dev", "vtx")).stdout
        sender = json.loads(s_out.strip().splitlines()[-1])
        receiver = json.loads(r_out.strip().splitlines()[-1])
        delayline = json.loads(d_out.strip().splitlines()[-1]) if d_out.strip() else {}
        with open(samples_path) as f:
            smp = json.load(f)
        os.unlink(samples_path)
        cubic = {}
        for k in CUBIC_PARAMS_61:
            try:
                with open("/sys/module/tcp_cubic/parameters/" + k) as f:
                    cubic[k] = f.read().strip()
            except OSError:
                cubic[k] = None
        res = analyse(rate_bps, delay_s, limit, rtt0, args, lab, sender, receiver, smp,
                      ss_rows, delayline, ipt, tc_final, cubic)
        res["loadavg_before_after"] = [load0, os.getloadavg()]
        return res
    finally:
        lab.close()


def analyse(rate_bps, delay_s, limit, rtt0, args, lab, sender, receiver, smp, ss_rows,
            delayline, ipt, tc_final, cubic):
    c = {n: i for i, n in enumerate(smp["columns"])}
    t0 = sender["t0"]
    pre = [r for r in smp["rows"] if r[0] < t0]
    rows = [[r[0] - t0] + list(r[1:]) for r in smp["rows"] if r[0] >= t0]
    if pre:   # the last sample before connect() returned stands for t = 0
        rows.insert(0, [0.0] + list(pre[-1][1:]))
    if not rows:
        raise Failure(EXIT_RUN_FAILED, "no samples")
    col = lambda r, n: r[c[n]]  # noqa: E731
    cwnd_per_rtt = []
    for k in range(1, 11):
        tk = k * rtt0
        prior = [r for r in rows if col(r, "t") <= tk]
        cwnd_per_rtt.append(col(prior[-1], "cwnd") if prior else None)
    steady = [r for r in rows if col(r, "t") >= args.steady_after]
    if len(steady) < 10:
        steady = rows[len(rows) // 2:]
    last = rows[-1]
    first = rows[0]

    def tmean(name, rs):
        # time-weighted mean over the sample intervals
        tot, acc = 0.0, 0.0
        for a, b in zip(rs, rs[1:]):
            dt = col(b, "t") - col(a, "t")
            tot += dt
            acc += dt * col(a, name)
        return acc / tot if tot > 0 else mean(col(r, name) for r in rs)

    dur = col(last, "t")
    goodput = 8 * (col(last, "bytes_acked") - col(first, "bytes_acked")) / (dur - col(first, "t"))
    st_dt = col(steady[-1], "t") - col(steady[0], "t")
    goodput_steady = (8 * (col(steady[-1], "bytes_acked") - col(steady[0], "bytes_acked")) / st_dt
                      if st_dt > 0 else None)
    ss_steady = [r for r in ss_rows if r["t"] - sender["t0"] >= args.steady_after]
    intervals = [b["t"] - a["t"] for a, b in zip(ss_rows, ss_rows[1:])]
    fresh, applied = lab.fresh, lab.applied
    differ = {}
    for k in list(SYSCTLS) + RECORDED_ONLY:
        d61 = LINUX61_DEFAULTS.get(k)
        if d61 is not None and fresh.get(k) is not None and " ".join(d61.split()) != fresh[k]:
            differ[k] = {"linux_6_1": d61, "this_kernel_fresh_netns": fresh[k]}
    for k, v in cubic.items():
        if v is not None and v != CUBIC_PARAMS_61[k]:
            differ["tcp_cubic." + k] = {"linux_6_1": CUBIC_PARAMS_61[k], "this_kernel": v}
    m = re.search(r"OUTPUT.*?\n.*?\n\s*(\d+)\s+(\d+)\s+NFQUEUE", ipt, re.S)
    return {
        "shape": {"rate_bps": rate_bps, "one_way_delay_s": delay_s,
                  "name": shape_name(rate_bps, delay_s),
                  "delay_placement": "2*one_way_delay on the receiver's egress (ACK path) "
                                     "by an NFQUEUE delay line; data path unshaped in delay",
                  "rate_placement": "tbf on the sender's veth egress, burst %d B, "
                                    "limit %d B" % (lab.burst, 1000 * FRAME)},
        "tcp_limit_output_bytes": limit,
        "duration_s": args.duration,
        "steady_after_s": args.steady_after,
        "base_rtt_s": rtt0,
        "base_rtt_definition": "2*one_way_delay + 1514*8/rate",
        "cwnd_per_rtt_definition": "tcpi_snd_cwnd at t0 + k*base_rtt, k=1..10, t0 = connect() "
                                   "returned (last sample at or before that time)",
        "goodput_bps": goodput,
        "goodput_definition": "8 * tcpi_bytes_acked / time, from t0 to the end of the run",
        "goodput_steady_bps": goodput_steady,
        "receiver_bytes": receiver["bytes"],
        "cwnd_per_rtt": cwnd_per_rtt,
        "cwnd_steady_mean": tmean("cwnd", steady),
        "early_samples": {"columns": ["t_us", "cwnd", "srtt_us", "bytes_acked", "unacked",
                                      "qdisc_backlog_pkts", "ssthresh"],
                          "rows": [[round(col(r, "t") * 1e6, 1), col(r, "cwnd"), col(r, "srtt_us"),
                                    col(r, "bytes_acked"), col(r, "unacked"),
                                    col(r, "qdisc_backlog_pkts"), col(r, "ssthresh")]
                                   for r in rows if col(r, "t") <= 12 * rtt0]},
        "qdisc_backlog_bytes_mean": tmean("qdisc_backlog_bytes", steady),
        "qdisc_backlog_pkts_mean": tmean("qdisc_backlog_pkts", steady),
        "qdisc_backlog_pkts_max": max(col(r, "qdisc_backlog_pkts") for r in steady),
        "qdisc_drops": col(last, "qdisc_drops"),
        "srtt_us": tmean("srtt_us", steady),
        "srtt_us_final": col(last, "srtt_us"),
        "min_rtt_us": col(last, "min_rtt_us"),
        "pacing_rate_bps_mean": 8 * tmean("pacing_rate", steady),
        "delivery_rate_bps_mean": 8 * tmean("delivery_rate", steady),
        "notsent_bytes_mean": tmean("notsent", steady),
        "unacked_mean": tmean("unacked", steady),
        "ssthresh_final": col(last, "ssthresh"),
        "snd_mss": col(last, "snd_mss"),
        "retransmits": col(last, "total_retrans"),
        "congestion_control": sender["cc"],
        "congestion_control_set_by": sender["cc_how"],
        "scheduling": {"sender": sender.get("scheduler"), "receiver": "SCHED_FIFO 2 if allowed",
                       "sampler": "SCHED_FIFO 5 if allowed",
                       "delay_line": delayline.get("scheduler")},
        "kernel": os.uname().release,
        "kernel_version": os.uname().version,
        "sysctls": applied,
        "sysctls_receiver": lab.applied_rx,
        "sysctls_refused": lab.refused,
        "sysctl_defaults_differing_from_linux_6_1": differ,
        "tcp_cubic_module_params": cubic,
        "samples": {"count": len(rows), "fine_interval_us": args.fine_us,
                    "early_gap_us_median": (sorted(
                        1e6 * (col(b, "t") - col(a, "t")) for a, b in zip(rows, rows[1:])
                        if col(b, "t") <= 12 * rtt0) or [None])[
                        len([1 for b in rows[1:] if col(b, "t") <= 12 * rtt0]) // 2],
                    "interval_us": args.sample_us,
                    "source": "getsockopt(TCP_INFO) + rtnetlink TCA_STATS of the tbf"},
        "crosscheck": {
            "source": "`ss -tinmH` and `tc -s qdisc show dev vtx` every %g ms" % args.ss_interval_ms,
            "count": len(ss_rows),
            "interval_ms_mean": 1e3 * mean(intervals) if intervals else None,
            "qdisc_backlog_bytes_mean": mean(r["backlog_bytes"] for r in ss_steady
                                             if "backlog_bytes" in r),
            "qdisc_backlog_pkts_mean": mean(r["backlog_pkts"] for r in ss_steady
                                            if "backlog_pkts" in r),
            "cwnd_mean": mean(r["cwnd"] for r in ss_steady if "cwnd" in r),
            "srtt_us_mean": (1e3 * mean(r["rtt_ms"] for r in ss_steady if "rtt_ms" in r)
                             if any("rtt_ms" in r for r in ss_steady) else None),
            "sk_wmem_alloc_mean": mean(r["wmem_alloc"] for r in ss_steady if "wmem_alloc" in r),
            "notsent_mean": mean(r.get("notsent", 0) for r in ss_steady),
            "unacked_mean": mean(r["unacked"] for r in ss_steady if "unacked" in r),
        },
        "delay_line": dict(delayline, iptables_pkts=int(m.group(1)) if m else None),
        "tc_final": tc_final.strip(),
    }


MEDIAN_KEYS = ["goodput_bps", "goodput_steady_bps", "qdisc_backlog_bytes_mean",
               "qdisc_backlog_pkts_mean", "srtt_us", "cwnd_steady_mean", "pacing_rate_bps_mean",
               "delivery_rate_bps_mean", "notsent_bytes_mean", "unacked_mean", "min_rtt_us"]


def combine(runs):
    """--repeat N: medians over the runs; the full record of the run nearest the median
    goodput is kept (early_samples, crosscheck, tc_final...), every run's values listed."""
    if len(runs) == 1:
        return runs[0]
    gmed = statistics.median(r["goodput_bps"] for r in runs)
    res = dict(min(runs, key=lambda r: abs(r["goodput_bps"] - gmed)))
    rep = {"n": len(runs), "statistic": "median over the runs; cwnd_per_rtt: element-wise "
           "median_low; retransmits: max; other fields from the run nearest the median goodput"}
    for k in MEDIAN_KEYS:
        vals = [r[k] for r in runs]
        rep[k] = vals
        if None not in vals:
            res[k] = statistics.median(vals)
    rep["cwnd_per_rtt"] = [r["cwnd_per_rtt"] for r in runs]
    res["cwnd_per_rtt"] = [statistics.median_low([c[i] for c in rep["cwnd_per_rtt"]
                                                  if c[i] is not None] or [None])
                           for i in range(10)]
    rep["retransmits"] = [r["retransmits"] for r in runs]
    res["retransmits"] = max(rep["retransmits"])
    res["repeats"] = rep
    return res


def ensure_tools():
    need = {"ip": "iproute2", "tc": "iproute2", "ss": "iproute2", "ethtool": "ethtool",
            "iptables": "iptables", "sysctl": "procps"}
    missing = sorted({pkg for tool, pkg in need.items() if not shutil.which(tool)})
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        log("installing", " ".join(missing))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing,
                       env=env, capture_output=True)
        missing = sorted({pkg for tool, pkg in need.items() if not shutil.which(tool)})
    if missing:
        raise Failure(EXIT_NO_TOOL, "missing packages: " + " ".join(missing))


def main_orchestrate(args):
    if os.geteuid() != 0:
        raise Failure(EXIT_NO_NETNS, "network namespaces not available: must run as root "
                      "(CAP_SYS_ADMIN and CAP_NET_ADMIN)")
    ensure_tools()
    shapes = []
    for item in args.shapes.split(","):
        r, d = item.split(":")
        shapes.append((parse_rate(r), parse_delay(d)))
    limits = [int(x) for x in args.limits.split(",")]
    os.makedirs(args.out_dir, exist_ok=True)
    args.tmp = tempfile.mkdtemp(prefix="netns-tcp-")
    results = []
    for rate, delay in shapes:
        for limit in limits:
            tag = "%d" % os.getpid()
            log("run %s tcp_limit_output_bytes=%d for %gs" % (shape_name(rate, delay), limit,
                                                                args.duration))
            runs = []
            for i in range(args.repeat):
                runs.append(one_run(rate, delay, limit, args, tag))
                if args.repeat > 1:
                    log("  run %d/%d: goodput %.3f Mbit/s, cwnd/RTT %s, backlog %.0f B" % (
                        i + 1, args.repeat, runs[-1]["goodput_bps"] / 1e6,
                        runs[-1]["cwnd_per_rtt"], runs[-1]["qdisc_backlog_bytes_mean"]))
            res = combine(runs)
            res["command"] = " ".join([os.path.relpath(__file__)] + sys.argv[1:])
            path = os.path.join(args.out_dir, "%s-tlob%d.json" % (shape_name(rate, delay), limit))
            with open(path, "w") as f:
                json.dump(res, f, indent=1, sort_keys=True)
                f.write("\n")
            log("  goodput %.3f Mbit/s, cwnd/RTT %s, backlog %.0f B / %.2f pkts, srtt %.0f us, "
                "retrans %d -> %s" % (res["goodput_bps"] / 1e6, res["cwnd_per_rtt"],
                                      res["qdisc_backlog_bytes_mean"],
                                      res["qdisc_backlog_pkts_mean"], res["srtt_us"],
                                      res["retransmits"], path))
            results.append(res)
    shutil.rmtree(args.tmp, ignore_errors=True)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--role", default="orchestrate",
                    choices=["orchestrate", "sender", "receiver", "delayline", "ss-sampler"])
    ap.add_argument("--shapes", default=SHAPES_DEFAULT,
                    help="comma list RATE:ONE_WAY_DELAY (default %(default)s)")
    ap.add_argument("--limits", default=LIMITS_DEFAULT,
                    help="tcp_limit_output_bytes values (default %(default)s)")
    ap.add_argument("--duration", type=float, default=10.0, help="seconds of bulk transfer")
    ap.add_argument("--steady-after", type=float, default=2.0,
                    help="steady state starts this many seconds after connect")
    ap.add_argument("--fine-us", type=float, default=50.0,
                    help="TCP_INFO/qdisc sample interval in the first 12 base RTTs")
    ap.add_argument("--sample-us", type=float, default=1000.0,
                    help="TCP_INFO/qdisc sample interval afterwards")
    ap.add_argument("--ss-interval-ms", type=float, default=10.0,
                    help="`ss -tinm` + `tc -s qdisc` cross-check interval, 0 = off")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per (shape, limit); the JSON holds medians and every run")
    ap.add_argument("--tbf-burst-ms", type=float, default=0.5,
                    help="tbf bucket = max(2 frames, rate x this) (default %(default)s ms)")
    ap.add_argument("--out-dir", default="bench/results/netns-tcp")
    # role arguments
    ap.add_argument("--dev", default="vtx")
    ap.add_argument("--rtt0", type=float, default=0.003)
    ap.add_argument("--samples")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--hold", type=float, default=0.002)
    ap.add_argument("--queue", type=int, default=0)
    ap.add_argument("--interval-ms", type=float, default=10.0)
    args = ap.parse_args()
    if args.role == "sender":
        return role_sender(args)
    if args.role == "receiver":
        return role_receiver(args)
    if args.role == "delayline":
        return role_delayline(args)
    if args.role == "ss-sampler":
        return role_ss_sampler(args)

    def on_signal(signum, _frame):
        raise KeyboardInterrupt("signal %d" % signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        main_orchestrate(args)
    except Failure as e:
        log(str(e))
        sys.exit(e.code)
    except KeyboardInterrupt as e:
        log("interrupted (%s); namespaces removed" % e)
        sys.exit(130)
    except ValueError as e:
        log(str(e))
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    main()

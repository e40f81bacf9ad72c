#!/usr/bin/env bash
# Short real-kernel TCP reference (bench/netns_tcp_reference.py): one link shape, both
# tcp_limit_output_bytes values, 3 s each (~15 s wall).  Asserts only that the measurement
# itself is sane:
#   - goodput at least a quarter of the shaped rate and not above it (load-tolerant; see the check),
#   - the small tcp_limit_output_bytes gives a clearly smaller steady qdisc backlog
#     (less than half) than the default -- TSQ at work on the sender's tbf,
#   - cwnd per RTT non-decreasing over the first 10 RTTs, and every TCP_INFO sample taken
#     in slow start non-decreasing.
# Exits 77 (CTest SKIP_RETURN_CODE) with "SKIPPED: network namespaces not available (...)"
# when this machine cannot create network namespaces (not root, no CAP_SYS_ADMIN, a
# container that forbids them) or the kernel lacks a feature the lab needs.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${1:-$here/../..}"
ref="$root/bench/netns_tcp_reference.py"
# 100 Mbit/s so the default tcp_limit_output_bytes lets a backlog build that the small one
# prevents; 2 ms each way so slow start lasts several sampling periods of the reference's ss
# poller (at 0.2 ms it was over before the first sample on a 2-core machine: no cwnd per RTT).
SHAPE="${NETNS_SMOKE_SHAPE:-100mbit:2ms}"
LIMITS="1048576,4096"

skip() { echo "SKIPPED: $*"; exit 77; }

command -v python3 >/dev/null || { echo "FAIL: python3 missing (scripts/install-deps.sh)"; exit 1; }
[ "$(id -u)" -eq 0 ] || skip "network namespaces not available (not root: needs CAP_SYS_ADMIN and CAP_NET_ADMIN)"
command -v ip >/dev/null || { echo "FAIL: ip (iproute2) missing (scripts/install-deps.sh)"; exit 1; }
probe="nicsim-probe-$$"
if ! err=$(ip netns add "$probe" 2>&1); then
    skip "network namespaces not available (ip netns add: ${err:-refused})"
fi
ip netns del "$probe" 2>/dev/null

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
python3 "$ref" --shapes "$SHAPE" --limits "$LIMITS" --duration 3 --steady-after 1 \
    --out-dir "$out" 2> "$out/log"
rc=$?
grep -v "sysctl refused" "$out/log"
case $rc in
    0) ;;
    4) skip "network namespaces not available ($(tail -1 "$out/log"))" ;;
    7) skip "network namespaces usable but the kernel lacks a feature ($(tail -1 "$out/log"))" ;;
    *) echo "FAIL: netns_tcp_reference.py exited $rc"; exit 1 ;;
esac

python3 - "$out" "$SHAPE" <<'PY'
import glob, json, os, sys
out, shape = sys.argv[1], sys.argv[2]
res = {}
for p in glob.glob(os.path.join(out, "*.json")):
    d = json.load(open(p))
    res[d["tcp_limit_output_bytes"]] = d
fails, checks = [], 0
def check(ok, what):
    global checks
    checks += 1
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)
check(sorted(res) == [4096, 1048576], "one result per limit: %s" % sorted(res))
for lim, d in sorted(res.items()):
    rate = d["shape"]["rate_bps"]
    g = d["goodput_bps"]
    # A quarter, not the 5 % the full reference meets on an idle machine: this runs beside the
    # rest of ctest (and after an ASan suite), and the user-space ACK delay line and tbf's timer
    # lose throughput with the host's load (seen at 100 Mbit/s: 89.3 Mbit/s in CI, 73.5 in a
    # fresh-clone make test, 45.0 in another with srtt 10.6 ms on the 2 ms path). Goodput is a
    # host-speed figure; the check only shows that the lab carries the flow and shapes the link
    # (the upper bound). The TSQ backlog and cwnd checks below are the measurement's substance.
    check(0.25 * rate <= g <= 1.005 * rate,
          "limit %d: goodput %.2f Mbit/s at least a quarter of %.0f Mbit/s"
          % (lim, g / 1e6, rate / 1e6))
    c = d["cwnd_per_rtt"]
    check(None not in c and all(a <= b for a, b in zip(c, c[1:])),
          "limit %d: cwnd per RTT non-decreasing %s" % (lim, c))
    es = d["early_samples"]
    i_c, i_s = es["columns"].index("cwnd"), es["columns"].index("ssthresh")
    ss = [r[i_c] for r in es["rows"] if r[i_s] >= 0x7fffffff]
    check(len(ss) > 0 and all(a <= b for a, b in zip(ss, ss[1:])),
          "limit %d: cwnd non-decreasing in slow start (%d samples, %s..%s)"
          % (lim, len(ss), ss[0] if ss else None, ss[-1] if ss else None))
    check(d["congestion_control"] == "cubic", "limit %d: socket runs %s" % (lim, d["congestion_control"]))
if len(res) == 2:
    big, small = res[1048576]["qdisc_backlog_bytes_mean"], res[4096]["qdisc_backlog_bytes_mean"]
    check(small < 0.5 * big, "steady backlog with limit 4096 (%.0f B) < half of limit 1048576 (%.0f B)"
          % (small, big))
print("%d passed, %d failed" % (checks - len(fails), len(fails)))
sys.exit(1 if fails else 0)
PY

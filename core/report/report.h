// SPDX-License-Identifier: MIT
//
// The result of one run, as measured. The runner fills the raw counts; ratios (per-frame bus
// cost, average power, totals) are derived by the functions below so the text and JSON outputs
// cannot disagree. Everything except `host` is a function of the scenario and the build, so two
// runs of the same scenario produce identical reports apart from `host`.
// JSON keys and units: docs/report-schema.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nicsim::report {

// Round-trip times of a ping flow, in milliseconds, as `ping` prints them (iputils: min, avg,
// max over the replies, mdev = population standard deviation).
struct rtt_report {
    double min_ms = 0;
    double avg_ms = 0;
    double max_ms = 0;
    double mdev_ms = 0;
};

// How TCP repaired losses in a flow over the linux host stack: the sending socket's counters.
struct tcp_report {
    bool sack = false;                 // SACK negotiated (both hosts' host.net/peer.net tcp_sack)
    std::uint64_t retransmits = 0;     // data segments sent again
    std::uint64_t fast_recoveries = 0; // recoveries entered from SACKs or duplicate ACKs
    std::uint64_t timeouts = 0;        // retransmission timeouts (RTO)
    std::uint64_t sacked_segments = 0; // segments the receiver reported held out of order
    // The sender at the end of the flow (added within schema 2; null/0 when absent).
    std::uint32_t cwnd = 0;                 // snd_cwnd, segments
    std::uint32_t slow_start_exit_cwnd = 0; // snd_cwnd when slow start ended; 0: never
    std::uint64_t tsq_limit_bytes = 0;      // TCP Small Queues limit of the last skb
    std::uint64_t tail_loss_probes = 0;     // probes sent (TLP, tcp_send_loss_probe)
};

// Where a UDP flow's receiving host dropped datagrams, as Linux counts them
// (docs/traffic.md "Bounded queues").
struct udp_report {
    std::uint64_t rcvbuf_errors = 0; // socket receive buffer full (UDP RcvbufErrors)
    std::uint64_t backlog_drops = 0; // netdev_max_backlog exceeded (softnet_stat dropped)
};

struct flow_report {
    std::string name;         // e.g. "ttcp"
    std::string kind;         // traffic kind, e.g. "ttcp_tx"
    std::string direction;    // "tx" (host → peer) or "rx" (peer → host)
    std::uint64_t bytes = 0;  // application payload delivered intact to the receiving application
    std::uint64_t frames = 0; // data frames of this flow that crossed the device
    double active_time_s = 0; // first payload byte sent → last payload byte delivered
    double goodput_bps = 0;   // bytes * 8 / active_time_s (application payload bits per second)
    std::optional<rtt_report> rtt; // ping flows with at least one reply; JSON `rtt_ms` (else null)
    // UDP datagrams / ping echo requests sent, and distinct intact datagrams / replies received;
    // none for TCP flows, which count bytes (JSON null).
    std::optional<std::uint64_t> packets_sent;
    std::optional<std::uint64_t> packets_received;
    // Simulated time the receiving side last accepted a frame of the flow; none if it never did.
    // Tells a stalled run (early) from a slow one (just before the end).
    std::optional<double> last_progress_s;
    // TCP flows over the linux host stack (host.stack: linux); JSON `tcp` (else null).
    std::optional<tcp_report> tcp;
    // UDP flows; JSON `udp` (else null).
    std::optional<udp_report> udp;
};

struct power_state_report {
    std::string state; // state name within its meter, e.g. "listen", "sleep"
    double time_s = 0; // chip time spent in the state
    // Supply current used for the state; none: not modelled (no source gives one; JSON null).
    std::optional<double> current_a;
    std::optional<double> energy_j; // time_s * current_a * supply voltage; none without a current
};

// One energy meter of a chip (ns-3's device energy model): a part that changes state on its
// own, e.g. the WILC1000's "radio" and "host_interface". Its states cover the whole run.
struct meter_report {
    std::string name;
    double supply_voltage_v = 0;
    std::vector<power_state_report> states;
};

// 802.11 power save as the station's firmware ran it (WILC1000: wilc1000_station_ps.h).
struct power_save_part {
    std::uint64_t dozes = 0;          // entries into doze
    std::uint64_t beacon_wakeups = 0; // woke for a DTIM beacon
    std::uint64_t tim_wakeups = 0;    // the beacon's TIM said frames were buffered: left power save
    std::uint64_t uplink_wakeups = 0; // woke the radio for a frame from the host
    std::uint64_t beacons_missed = 0; // no beacon by TBTT + timeout
    std::uint64_t frames_missed = 0;  // frames lost while the radio dozed
    std::uint64_t null_frames = 0;    // null-data frames sent (PM bit only)
};

// How the host's chip wake-ups went (WILC1000: wilc1000_power.h wake_stats): what each wake
// request found, how long the chip had slept, how many CLK_STATUS polls the host made.
struct histogram_bucket {
    double from = 0;  // the bucket holds values in [from, below)
    double below = 0;
    std::uint64_t count = 0;
};
struct wake_part {
    std::uint64_t requests = 0;      // wake requests (WAKEUP written 0 -> 1)
    std::uint64_t found_running = 0; // the clock still ran: ready at once
    std::uint64_t found_waking = 0;  // a start-up was under way
    std::uint64_t found_asleep = 0;  // the clock was gated: the oscillator had to start
    std::uint64_t found_deep = 0;    // ... from deep sleep
    std::vector<histogram_bucket> asleep_us;        // time asleep before found_asleep requests
    std::vector<histogram_bucket> clk_status_polls; // CLK_STATUS reads per request until ready
};

// The station's association as its firmware ran it (WILC1000: wilc1000_join.h).
struct association_part {
    std::string state;                     // idle, joining, unanswered, associated
    std::optional<double> associated_at_s; // when the firmware reported it connected
    std::uint64_t join_requests = 0;       // WID_JOIN_REQ_EXTENDED received
};

struct device_report {
    std::string name; // instance name, e.g. "wlan0"
    std::string type; // "wilc1000", "ks8851"
    std::string bus;  // "spi", "sdio", "par"
    double bus_clock_hz = 0;
    std::uint64_t frames_tx = 0; // frames host → device (crossed the host bus)
    std::uint64_t frames_rx = 0; // frames device → host
    std::uint64_t irqs = 0;      // interrupts the driver handled (threaded handler runs)
    std::uint64_t wakeups = 0;   // host-initiated chip wake-ups
    double wake_time_s = 0;      // time from wake request to clock ready, summed
    // TX batches the driver handed the chip (WILC1000: VMM allocations granted, one per
    // wilc_wlan_handle_txq round); none for chips that take frames one at a time.
    std::optional<std::uint64_t> tx_batches;
    // The driver's TCP ACK filter was on when the run ended (WILC1000: switched by the link
    // speed of the driver's 5 s statistics query); none for drivers without one.
    std::optional<bool> tcp_ack_filter;
    std::optional<association_part> association; // none: not a wireless station
    std::vector<meter_report> meters;            // empty: no power model
    double supply_voltage_v = 0;                 // the meters' supply (they share one)
    bool power_is_proxy = true; // currents are proxy values (e.g. ATWILC3000 for ATWILC1000)
    std::string power_source;   // where the currents come from
    std::uint64_t bus_transactions = 0; // bus transactions (SPI messages / SDIO commands)
    std::uint64_t bus_bytes = 0;        // bytes clocked on the bus, both directions
    double bus_busy_s = 0;              // time the bus was occupied (CS asserted / command active)
    // Transactions by command kind where the bus has several (sdio: "cmd52", "cmd53"), in a fixed
    // order; empty for buses with one kind. The counts add up to bus_transactions.
    std::vector<std::pair<std::string, std::uint64_t>> bus_commands;
    // 802.11 power save; none for chips without it (wired ones).
    std::optional<power_save_part> power_save;
    // Chip wake-ups as a distribution; none for chips without a sleep handshake.
    std::optional<wake_part> wake;
};

struct finding {
    double time_s = 0;    // simulated time
    std::string source;   // who reported it: a chip's device type or one of finding_sources()
    std::string severity; // "info", "warning", "error"; "benign": a known driver line
    std::string message;
};

// The sources a run reports findings under besides the chip, which uses its device type
// ("wilc1000"): driver, verdict, fault, nicsim, lx_emul, trace. `expect: findings.SOURCE` is
// checked against this list (config/expect.cc) so a misspelt source is an error, not a count
// of zero: a new source must be added here (and to docs/report-schema.md findings[].source).
const std::vector<std::string>& finding_sources();

// One injected fault (scenario faults[], docs/faults.md): what was asked, what the model did
// and how the run came out of it.
struct fault_report {
    std::string kind;
    std::string trigger;             // the trigger as configured, e.g. "after 200 SPI messages"
    std::string unit;                // what opportunities are ("" for a window fault)
    std::uint64_t opportunities = 0; // times the model asked (window faults: 0)
    std::uint64_t injected = 0;      // times the fault hit
    std::optional<double> first_s;   // first and last injection (none if it never hit)
    std::optional<double> last_s;
    // What the models did, by effect text, with counts ("CRC7 status returned" x 3).
    std::vector<std::pair<std::string, std::uint64_t>> effects;
    // The driver's error/warning lines from the first injection on (distinct lines, total).
    std::uint64_t driver_errors = 0;
    std::vector<std::pair<std::string, std::uint64_t>> driver_lines; // first few distinct
    // "recovered": the traffic delivered what it asked for after the fault; "not recovered":
    // it did not (the verdict findings say how far it got); "not injected": the fault never
    // hit; "run failed": the run ended with an error (exit 2).
    std::string outcome;
    std::string reaction; // one sentence: what the driver did
};

// Non-deterministic measurements of the simulator process itself; kept in one block.
struct host_info {
    double wall_time_s = 0;
    double peak_rss_mb = 0;
    // Where the simulation kernel's time went (bench/README.md): SystemC delta cycles, and the
    // decoupled time steps taken locally vs. by a wait (bus/common/local_time.h).
    std::uint64_t delta_cycles = 0;
    std::uint64_t local_time_steps = 0;
    std::uint64_t local_time_waits = 0;
};

struct run_info {
    std::string scenario; // scenario name
    std::string scenario_file;
    std::string platform; // platform profile name
    std::string device;   // device type
    std::string bus;
    double bus_clock_hz = 0;        // device.bus_clock as requested
    double bus_clock_actual_hz = 0; // what the controller driver's divider makes of it
    std::string driver_variant;
    bool power_save = false;
    std::string traffic; // traffic kind
    std::uint64_t seed = 0;
    // The --set overrides the run was validated with, in order, without trace.* (traces never
    // change the report): with scenario_file they say exactly what ran (sweeps check a point
    // file against them before trusting it).
    std::vector<std::string> overrides;
    std::string nicsim_version; // filled by the CLI from build_info
    std::string kernel_version;
    // driver.source runs only (empty otherwise, and then absent from the JSON): the kernel
    // tree's driver directory the plug-in was compiled from and the SHA-256 it is cached under.
    std::string driver_source;
    std::string driver_source_sha256;
};

// The SPI controller driver's CPU work (report::host_cpu_spi_controller).
struct spi_controller_part {
    std::uint64_t messages = 0; // spi_sync messages
    std::uint64_t irqs = 0;     // completion interrupts
    std::uint64_t sleeps = 0;   // waits that slept: two context switches each
    double cpu_s = 0;           // CPU time, part of report::host_cpu_busy_s
};

struct report {
    run_info run;
    double sim_time_s = 0;  // simulated time at the end of the run
    std::string end_reason; // "traffic complete", "duration limit", ...
    std::vector<flow_report> flows;
    std::vector<device_report> devices;
    unsigned host_cpu_cores = 0;
    double host_cpu_busy_s = 0; // CPU time charged on all cores together
    // Parts of host_cpu_busy_s that the kernel-API emulation charges for work it runs natively:
    // the real driver's code (by the basic blocks it executed), context switches, hard IRQs.
    std::uint64_t host_cpu_driver_blocks = 0;
    double host_cpu_driver_code_s = 0;
    std::uint64_t host_cpu_context_switches = 0;
    double host_cpu_context_switch_s = 0;
    std::uint64_t host_cpu_hardirqs = 0;
    double host_cpu_hardirq_s = 0;
    // The SPI controller driver's part of host_cpu_busy_s (software path per message, its
    // completion interrupts and the caller's context switches), where the board's policy
    // models it (spi_host.cpu_cost: atmel_spi); empty elsewhere.
    std::optional<spi_controller_part> host_cpu_spi_controller;
    // skbs alive in the kernel-API emulation when the run ended (in driver queues, chip-bound
    // or not yet consumed): a number that grows with the run's length is a leak.
    std::uint64_t skbs_in_flight = 0;
    // skbs still allocated after the ifdown that follows the run (ndo_stop frees what the driver
    // holds): the driver's leaks. Null when no ifdown ran (a failed, interrupted or hooked run,
    // or an ifdown that did not complete: a finding says why).
    std::optional<std::uint64_t> skbs_leaked;
    std::vector<finding> findings;
    // Injected faults (only present when the scenario has `faults:`).
    std::vector<fault_report> faults;
    host_info host;
};

// ---- derived values (not stored, so they cannot go stale) -------------------------------------

struct totals {
    std::uint64_t bytes = 0;
    std::uint64_t frames = 0;
    double goodput_bps = 0; // the flow's; of several (iperf -P streams): combine_streams'
};
totals compute_totals(const report& r);
// The streams of one iperf -P transfer as one flow, like iperf3's [SUM] line: bytes and frames
// summed, the longest stream's active time, goodput = bytes over it, the latest progress.
// Name, kind and direction are the first stream's.
flow_report combine_streams(const std::vector<flow_report>& streams);

std::uint64_t frames(const device_report& d);                             // frames_tx + frames_rx
std::optional<double> bus_transactions_per_frame(const device_report& d); // none if no frames
std::optional<double> bus_bytes_per_frame(const device_report& d);
std::optional<double> frames_per_irq(const device_report& d); // frames / irqs; none if no irqs
// frames_tx / tx_batches; none without batches.
std::optional<double> frames_per_tx_batch(const device_report& d);
double bus_utilisation(const device_report& d, double sim_time_s); // busy / sim time, 0..1
// Energy: the sum over the meter's states; none when a state it spent time in has no current
// (not modelled), and none for a device without meters or with such a meter.
std::optional<double> energy_j(const meter_report& m);
std::optional<double> avg_power_w(const meter_report& m, double sim_time_s); // energy / sim time
std::optional<double> energy_j(const device_report& d);                      // sum over the meters
std::optional<double> avg_power_w(const device_report& d, double sim_time_s);
// Every meter's states in one list (meter order, then state order), each with its meter's name.
std::vector<std::pair<std::string, power_state_report>> power_states(const device_report& d);
// busy / (cores * sim time), 0..1
double host_cpu_busy_share(const report& r);

} // namespace nicsim::report

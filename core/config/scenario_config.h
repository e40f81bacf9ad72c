// SPDX-License-Identifier: MIT
//
// One simulation run as the YAML scenario describes it, validated (by load_scenario in
// config_loader.h) before anything is built: only these structs reach the testbench composition
// and the models. Every key, unit and default is documented in docs/scenarios.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/expectation.h"
#include "core/config/units.h"

namespace nicsim::config {

enum class bus_type { spi, sdio, par };
// How the chip's interrupt reaches the host: a dedicated GPIO line (spi->irq set), SDIO in-band
// (DAT1) interrupt, or none wired (the driver's no-IRQ path, spi->irq = 0).
enum class irq_mode { gpio, in_band, none };
// idle: no flow at all; the run lasts traffic.start + duration (power of an idle interface).
enum class traffic_kind { ttcp_tx, ttcp_rx, udp_tx, udp_rx, ping, iperf_tx, iperf_rx, idle };

const char* to_string(bus_type);
const char* to_string(irq_mode);
const char* to_string(traffic_kind);
bool is_tcp(traffic_kind);
bool is_tx(traffic_kind); // host → peer (ping counts as tx: the host sends the requests)

// Optional per-state supply current overrides for the chip's energy accounting. Empty means the
// chip model's own table (whose values are proxies, named as such in the report).
struct device_power_config {
    double supply_voltage_v = 0;                   // device.power.supply_voltage; 0 = model's
    std::map<std::string, double> state_current_a; // device.power.currents.<state>
};

struct device_config {
    std::string type;             // device.type: a device binding linked into this binary
    bus_type bus = bus_type::spi; // device.bus: spi | sdio | par
    // device.bus_clock: SCK (spi) or SD clock (sdio) the driver requests (spi-max-frequency);
    // unused for par. Default and maximum per device and bus: its binding (docs/scenarios.md).
    frequency bus_clock;
    // device.bus_width: SDIO data lines, 1 or 4 (sdio only; default 4, what the MMC core picks
    // for a card that supports it).
    unsigned bus_width = 4;
    irq_mode irq =
        irq_mode::gpio;        // device.irq: gpio | in_band | none; default gpio (sdio: in_band)
    device_power_config power; // device.power
    // device.timing.<key>: chip timing overrides, the keys the device's binding names (unset =
    // the chip model's calibrated default, see docs/models/<chip>.md).
    std::map<std::string, duration> timing;
    // device.buffers.<key>: chip memory sizes, the keys the device's binding names (unset = the
    // chip model's assumption, see docs/models/<chip>.md).
    std::map<std::string, byte_size> buffers;
    // device.firmware.<key>: the firmware behaviour chosen (unset = the binding's default).
    std::map<std::string, std::string> firmware;
};

// The kernel trees nicsim builds drivers from (driver.kernel), the default first.
inline const std::vector<std::string>& kernel_names() {
    static const std::vector<std::string> names = {"6.1", "6.12"};
    return names;
}

struct driver_config {
    std::string variant = "pristine"; // driver.variant: a variant built into this binary
    std::string kernel = "6.1";       // driver.kernel: the kernel tree the driver comes from
    bool power_save = false;          // driver.power_save: chip sleep (drivers that have it)
    // driver.module_params: name → value text, names/types checked per driver
    // (the device binding lists them, device_catalog.h).
    std::map<std::string, std::string> module_params;
    // driver.source: a kernel tree (its root or the driver's directory) whose driver files are
    // compiled into a plug-in at run time instead of a built-in build (tools/driver_source.h;
    // `nicsim run --driver-src`). "" = the built-in build.
    std::string source;
    // Set by the run once the plug-in is loaded: the key its modules registered under.
    std::string source_key;
    // With driver.source: the kernel series of that tree ("6.1", "6.12"), set with source_key.
    std::string source_kernel;

    // The key the build's modules and bus drivers registered under
    // (kernel/include/nicsim/driver_variant.h): the variant for the default kernel tree,
    // "<variant>@<kernel>" for another, the plug-in's for driver.source.
    std::string build_key() const {
        if (!source_key.empty())
            return source_key;
        return kernel == kernel_names().front() ? variant : variant + "@" + kernel;
    }
};

struct traffic_config {
    traffic_kind kind = traffic_kind::ttcp_tx; // traffic.kind
    // traffic.bytes: application payload to move (ttcp/udp/iperf); 0 = until duration ends.
    byte_size bytes;
    byte_size write_size; // traffic.write_size: bytes per application write (ttcp -l; 8KiB)
    // traffic.streams: parallel TCP connections (iperf3 -P; iperf kinds, host.stack linux; 1).
    std::uint32_t streams = 1;
    byte_size segment_size;      // traffic.segment_size: TCP MSS (1460B)
    byte_size window;            // traffic.window: TCP receive window (64KiB)
    byte_size datagram_size;     // traffic.datagram_size: UDP payload per datagram (1472B)
    bit_rate rate{1e6};          // traffic.rate: UDP load (iperf3's 1Mbps; 0 = unlimited)
    // traffic.max_loss: the share of datagrams an until-duration UDP flow (bytes 0) may lose,
    // 0…1 (0.1); more fails the verdict (exit 4). With bytes > 0 every datagram must arrive.
    double max_loss = 0.1;
    std::uint64_t count = 0;     // traffic.count: ping requests (10)
    duration interval;           // traffic.interval: ping period (1s)
    byte_size payload_size;      // traffic.payload_size: ping payload (56B)
    bool ping_from_peer = false; // traffic.from: peer = the far host pings the board (board)
    // traffic.adaptive: ping -A, the next request as soon as the reply is in (true); false:
    // plain ping, one request per interval.
    bool ping_adaptive = true;
    duration start; // traffic.start: delay after interface-up before traffic starts
};

struct link_config {
    // link.phy_rate: PHY bit rate of the air or wire (default: the device binding's medium).
    bit_rate phy_rate;
    // link.mac_efficiency: share of phy_rate left for MAC payload after preambles, IFS, ACKs and
    // contention, in (0, 1]. Default: the device binding's (docs/scenarios.md).
    double mac_efficiency = 1.0;
    duration latency; // link.latency: one-way delay through the peer (100us, assumption)
    // 802.11 media only (device_keys::wireless; docs/models/air.md "Access point"):
    // link.associated: the access point answers the station's join, so runs start associated
    // (true), or never answers (false: up but not associated).
    bool associated = true;
    // link.beacon_interval: the AP's beacon spacing (102.4ms = 100 TU; 0 = no beacons).
    duration beacon_interval;
    // link.dtim_period: every n-th beacon is a DTIM beacon (2, hostapd's default).
    unsigned dtim_period = 2;
    // link.ssid / link.channel: the AP's BSS, which the driver's join request names (empty / 0:
    // the air model's defaults, models/air/air_bss.h).
    std::string ssid;
    unsigned channel = 0;
};

// The network stacks of the two hosts (docs/host-stack.md).
struct host_config {
    // host.stack: "linux" (host/net: TCP with congestion control, TSQ, qdisc, named CPU
    // costs, seeded jitter) or "fixed_window" (host/traffic: the closed-form TCP with a
    // fixed window and one per-packet cost, kernel.per_packet_stack_cost).
    std::string stack = "linux";
    // host.net.<name>: the board's settings by their Linux names (net_settings.h), as text;
    // peer.net.<name>: the far host's. Checked by the loader.
    std::map<std::string, std::string> net, peer_net;
};

struct trace_config {
    std::string vcd;                    // trace.vcd: VCD waveform file ("" = off)
    std::string vcd_format = "gtkwave"; // trace.vcd_format: gtkwave | sigrok (docs/traces.md)
    std::string timeline;               // trace.timeline: Trace Event JSON file ("" = off)
    std::string log;                    // trace.log: one line per transaction ("" = off)
    std::string pcap;      // trace.pcap: pcapng capture at the board's netdev ("" = off)
    std::string pcap_peer; // trace.pcap_peer: pcapng capture at the far host ("" = off)
    duration window_start;              // trace.window_start: trace only from here ...
    duration window_end;                // trace.window_end: ... to here (0 = end of run)
    // trace.max_size (--trace-max-size): the largest each trace file may grow (0 = no limit)
    byte_size max_size{std::uint64_t(1) << 30};

    // The trace files, each as {"trace.<key>", path} (path "" = off), in one order for every
    // place that names or checks them.
    std::vector<std::pair<std::string, std::string>> files() const {
        return {{"trace.vcd", vcd},
                {"trace.timeline", timeline},
                {"trace.log", log},
                {"trace.pcap", pcap},
                {"trace.pcap_peer", pcap_peer}};
    }
};

// sim: how the simulation kernel runs the model, not what it models.
struct sim_config {
    // sim.quantum: how far a driver thread may run ahead of SystemC time between two points
    // where another process could see it (bus/common/local_time.h); 0 = exact mode, every bus
    // phase and busy-wait a wait(). Decoupling is exact either way; this only bounds the offset.
    duration quantum = duration::from_ps(1'000'000'000); // 1 ms
};

// faults[]: one fault to inject (docs/faults.md). The trigger opens the fault's window: at a
// simulated time (`at`), or at the opportunity after the first `after` ones (the kind's unit:
// SPI messages, frames, ...), else at the start. Inside the window (`for` long, else until the
// end) each opportunity is hit with `probability` (seeded from the scenario seed), at most
// `count` times (default: once for a one-shot fault, unbounded with `for` or `probability`).
struct fault_config {
    std::string kind;                   // faults[].kind: a kind the device's binding offers
    std::optional<duration> at;         // faults[].at
    std::optional<std::uint64_t> after; // faults[].after
    std::optional<double> probability;  // faults[].probability, in (0, 1]
    std::optional<duration> window;     // faults[].for
    std::optional<std::uint64_t> count; // faults[].count, >= 1
    std::string unit;                   // what `after` counts (from the binding)
    bool level = false;                 // a window fault (no opportunities)
    std::string where;                  // "file:line:col" or the --set argument
};

struct scenario_config {
    std::string name;        // name: printed in reports (default: file name without .yaml)
    std::string description; // description: free text
    std::string source_file; // set by the loader: the scenario file
    duration duration_limit; // duration: simulated time limit (required)
    std::uint64_t seed = 1;  // seed: for every pseudo-random choice in the run
    std::string platform;    // platform: the resolved platform profile file
    device_config device;
    driver_config driver;
    traffic_config traffic;
    link_config link;
    host_config host;
    trace_config trace;
    sim_config sim;
    std::vector<fault_config> faults; // faults: (docs/faults.md)
    std::vector<expectation> expect;  // expect: checked by `nicsim check` (expect.h)
};

} // namespace nicsim::config

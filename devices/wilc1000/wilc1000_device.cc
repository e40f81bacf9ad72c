// SPDX-License-Identifier: MIT
#include "devices/wilc1000/wilc1000_device.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "host/board/bus_clock.h"
#include "bus/common/local_time.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "models/wilc1000/wilc1000_fw_image.h"
#include "devices/chip_findings.h"
#include "devices/meter_report.h"
#include "devices/netdev_support.h"
#include "core/run_error.h"
#include "host/traffic_session.h"

namespace nicsim::bindings {

using board::to_sc;

namespace {

// The scenario's device.timing / device.power overrides applied to the chip parameters.
wilc::params chip_params_for(const config::device_config& dev, wilc::params p) {
    const std::pair<const char*, sc_core::sc_time*> timing[] = {
        {"wake_latency", &p.wake_latency},
        {"sleep_entry_delay", &p.sleep_entry_delay},
        {"deep_sleep_after", &p.deep_sleep_after},
        {"deep_wake_latency", &p.deep_wake_latency},
        {"boot_delay", &p.boot_delay},
        {"ps_dynamic_timeout", &p.ps_dynamic_timeout},
        {"ps_wake_ahead", &p.ps_wake_ahead},
        {"ps_radio_wake_time", &p.ps_radio_wake_time},
        {"ps_beacon_timeout", &p.ps_beacon_timeout}};
    for (const auto& [key, field] : timing)
        if (auto it = dev.timing.find(key); it != dev.timing.end())
            *field = to_sc(it->second);
    if (auto it = dev.buffers.find("rx_aggregation"); it != dev.buffers.end())
        p.rx_aggregation_bytes = uint32_t(it->second.bytes);
    if (auto it = dev.firmware.find("ps_wake"); it != dev.firmware.end())
        p.ps_wake = it->second == "listen_interval" ? wilc::params::ps_wake_policy::listen_interval
                                                    : wilc::params::ps_wake_policy::dtim;
    if (dev.power.supply_voltage_v > 0)
        p.supply_voltage_v = dev.power.supply_voltage_v;
    // State names are unique across the two meters (wilc1000_keys.cc lists them).
    const std::pair<const char*, double*> currents[] = {
        {"tx", &p.radio_tx_current_a},         {"rx", &p.radio_rx_current_a},
        {"listen", &p.radio_listen_current_a}, {"doze", &p.radio_doze_current_a},
        {"off", &p.radio_off_current_a},       {"awake", &p.host_if_awake_current_a},
        {"sleep", &p.host_if_sleep_current_a}, {"waking", &p.host_if_waking_current_a}};
    for (const auto& [state, amps] : dev.power.state_current_a) {
        const auto it = std::find_if(std::begin(currents), std::end(currents),
                                     [&](const auto& c) { return state == c.first; });
        if (it == std::end(currents))
            throw run_error("device.power.currents: unknown wilc1000 power state '" + state + "'");
        *it->second = amps;
    }
    return p;
}

air_link_params air_params(const config::link_config& l) {
    air_link_params p;
    if (l.phy_rate.bps > 0)
        p.phy_rate_bps = l.phy_rate.bps;
    p.mac_efficiency = l.mac_efficiency;
    p.associated = l.associated;
    p.beacon_interval = to_sc(l.beacon_interval);
    p.dtim_period = l.dtim_period;
    if (!l.ssid.empty())
        p.bss.ssid = l.ssid;
    if (l.channel)
        p.bss.channel = l.channel;
    p.record_peer_rx = false; // copies of every delivered frame are for model tests only
    return p;
}

// The far host behind the access point.
const std::array<uint8_t, 6> peer_mac = {0x02, 0x00, 0x00, 0x00, 0xb0, 0x01};

// What cfg80211's scan table would hold for the AP: its BSS and beacon parameters.
lx_bus_wilc_bss bss_of(const air_link_params& p) {
    lx_bus_wilc_bss b{};
    std::copy(p.bss.bssid.begin(), p.bss.bssid.end(), b.bssid);
    b.ssid_len = uint8_t(std::min<size_t>(p.bss.ssid.size(), sizeof b.ssid));
    std::copy_n(p.bss.ssid.begin(), b.ssid_len, b.ssid);
    b.channel = uint8_t(p.bss.channel);
    // The beacon's Beacon Interval field is in TU (1024 us).
    b.beacon_interval = uint16_t(p.beacon_interval.to_seconds() / 1024e-6 + 0.5);
    b.dtim_period = uint8_t(p.dtim_period);
    b.capability = p.bss.capability;
    b.n_rates = uint8_t(std::min<size_t>(p.bss.rates.size(), sizeof b.rates));
    std::copy_n(p.bss.rates.begin(), b.n_rates, b.rates);
    b.ht = p.bss.ht;
    b.wmm = p.bss.wmm;
    b.uapsd = p.bss.uapsd;
    return b;
}

// How often the user (a script waiting for wpa_cli's CTRL-EVENT-CONNECTED) checks whether the
// connect finished. Assumption: 100 us bounds the delay it adds to the start of the traffic.
const sc_core::sc_time connect_poll(100, sc_core::SC_US);
// Give up waiting after the driver's own connect timeout (hif.c WILC_HIF_CONNECT_TIMEOUT_MS,
// 9.5 s) has certainly fired.
const sc_core::sc_time connect_wait_limit(10, sc_core::SC_SEC);

} // namespace

wilc1000_device::wilc1000_device(board::board& b, const config::scenario_config& sc,
                                 const wilc::params& p)
    : m_board(b), m_sc(sc), m_params(chip_params_for(sc.device, p)) {}

void wilc1000_device::create_chip() {
    m_air = std::make_unique<air_link>("air", air_params(m_sc.link));
    m_chip = std::make_unique<wilc1000>("wilc1000", m_params);
    m_chip->attach_air(*m_air);
}

// Host = the station (the chip's MAC, which the driver reads from the firmware); peer = the far
// host behind the access point.
traffic::endpoint_addr wilc1000_device::host_addr() const {
    return endpoint_addr_of(m_params.mac_addr, 0xc0a80102, 40000);
}
traffic::endpoint_addr wilc1000_device::peer_addr() const {
    return endpoint_addr_of(peer_mac, 0xc0a80101, 5001);
}

void wilc1000_device::bind_traffic(traffic_session& traffic) {
    // How often the application retries while the driver has stopped the netdev queue.
    // Assumption: the real stack is woken by netif_wake_queue; 50 us bounds the extra delay.
    const sc_core::sc_time queue_stopped_poll(50, sc_core::SC_US);
    bind_host_to_driver(traffic, m_board.cpu(), m_ndev, m_board.profile().kernel,
                        queue_stopped_poll);
    const sc_core::sc_time latency = to_sc(m_sc.link.latency);
    air_link& air = *m_air;
    traffic.bind_peer(
        [&air, latency](std::vector<uint8_t> f) {
            air.peer_send(std::move(f), sc_core::sc_time_stamp() + latency);
        },
        {[&air] { return air.peer_queue_depth(); }, &air.peer_taken_event()});
    air.set_peer_sink(
        [&traffic](const air_frame& f) { traffic.peer_rx(f.bytes.data(), f.bytes.size()); });
}

std::string wilc1000_device::bring_up(traffic_session& traffic) {
    // insmod: module parameters, then module_init (registers the spi/sdio drivers).
    if (std::string err = load_driver_modules("wilc1000", m_sc.driver); !err.empty())
        return err;
    // /lib/firmware/atmel/wilc1000_wifi_firmware-1.bin: the chip model's well-formed image.
    // request_firmware() hands out this buffer without copying: it lives as long as the device.
    m_firmware = wilc::make_firmware_image(m_params);
    lx_bus_firmware_register("atmel/wilc1000_wifi_firmware-1.bin", m_firmware.data(),
                             m_firmware.size());
    if (std::string err = probe(); !err.empty())
        return err;

    // ip link set wlan0 up: firmware download, start, the init config exchange, MAC query.
    // The registry key of the scenario's build (kernel × variant).
    const std::string variant = m_sc.driver.build_key();
    if (std::string err = open_netdev(modname(), variant, traffic, m_ndev); !err.empty())
        return err;
    // Stand-ins for cfg80211 (docs/driver-build.md), in the order a user types them after
    // `ip link set wlan0 up`: `iw dev wlan0 connect <ssid>` (docs/models/wilc1000.md "Connect
    // sequence"), then `iw dev wlan0 set power_save on`.
    const lx_bus_wilc_ops* ops = lx_bus_wilc_ops_find(variant.c_str());
    if (!ops)
        return "wilc1000 glue of variant '" + variant + "' is not linked";
    // The join WIDs now, the firmware's 'I' after its join.
    const lx_bus_wilc_bss bss = bss_of(m_air->params());
    if (int ret = ops->connect(m_ndev, &bss))
        return "connect (WID_JOIN_REQ_EXTENDED) failed: " + std::to_string(ret);
    if (m_sc.link.associated) {
        // The user waits for the connect event. The driver calls return on local time
        // (bus/common/local_time.h): sync before reading the clock.
        local_time::sync();
        const sc_core::sc_time give_up = sc_core::sc_time_stamp() + connect_wait_limit;
        while (!ops->connected(m_ndev)) {
            local_time::sync();
            if (sc_core::sc_time_stamp() >= give_up)
                return "not connected " + connect_wait_limit.to_string() +
                       " after the join request (the driver's connect timer gave up)";
            sc_core::wait(connect_poll);
        }
        m_connected_at = sc_core::sc_time_stamp();
    } // else the AP never answers: the run goes on unassociated, as configured
    if (m_sc.driver.power_save) {
        if (int ret = ops->set_power_mgmt(m_ndev, 1))
            return "enabling power save (WID_POWER_MANAGEMENT) failed: " + std::to_string(ret);
    }
    return {};
}

const char* wilc1000_device::register_name(uint32_t addr) const {
    const auto* r = m_chip->core.registers().find(0, addr);
    return r ? r->name() : nullptr;
}

namespace {

// The model's log2 buckets as report buckets, empty ones left out. Bucket 0 holds [0, 1).
std::vector<report::histogram_bucket>
buckets_of(const std::array<uint64_t, wilc::wake_stats::buckets>& h) {
    std::vector<report::histogram_bucket> out;
    for (size_t i = 0; i < h.size(); ++i)
        if (h[i])
            out.push_back({i == 0 ? 0.0 : std::ldexp(1.0, int(i) - 1), std::ldexp(1.0, int(i)), h[i]});
    return out;
}

report::wake_part wake_part_of(const wilc::wake_stats& w) {
    return {w.requests,     w.found_running,      w.found_waking, w.found_asleep,
            w.found_deep,   buckets_of(w.asleep_us), buckets_of(w.polls)};
}

} // namespace

void wilc1000_device::fill_report(report::report& r) const {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "wilc1000";
    d.bus = config::to_string(m_sc.device.bus);
    d.bus_clock_hz =
        board::actual_bus_clock_hz(m_board.profile(), m_sc.device.bus, m_sc.device.bus_clock);
    d.type = "wilc1000";
    const auto& cs = m_chip->core.stats();
    d.frames_tx = cs.tx_frames_to_air;
    d.frames_rx = cs.rx_frames_from_air - cs.rx_frames_dropped;
    auto& pm = m_chip->power();
    d.wakeups = pm.host_wake_requests();
    d.wake_time_s = pm.waking_time(now).to_seconds();
    d.tx_batches = cs.vmm_alloc_requests - cs.vmm_alloc_full;
    // The driver's own flag (vif->ack_filter.enabled), read through the glue of the variant.
    if (const lx_bus_wilc_ops* ops = lx_bus_wilc_ops_find(m_sc.driver.build_key().c_str());
        ops && ops->tcp_ack_filter && m_ndev)
        d.tcp_ack_filter = ops->tcp_ack_filter(m_ndev) != 0;
    const auto& js = m_chip->core.join_statistics();
    d.association = report::association_part{
        wilc::to_string(m_chip->core.join()),
        js.associations ? std::optional<double>(js.associated_at.to_seconds()) : std::nullopt,
        js.requests};
    const auto& ps = m_chip->core.power_save().stats();
    d.power_save = report::power_save_part{ps.dozes,          ps.beacon_wakeups, ps.tim_wakeups,
                                           ps.uplink_wakeups, ps.beacons_missed, ps.frames_missed,
                                           ps.null_frames};
    d.wake = wake_part_of(pm.wakes());
    d.supply_voltage_v = m_params.supply_voltage_v;
    d.power_is_proxy = true;
    d.power_source = "ATWILC3000 table (docs/sources.md#wilc1000-currents)";
    for (const energy_meter* m : {&pm.radio(now), &pm.host_if(now)})
        d.meters.push_back(meter_report_of(*m, now));
    fill_bus_report(d);
    r.devices.push_back(d);
    append_chip_findings(m_chip->findings(), "wilc1000", r.findings);
}

} // namespace nicsim::bindings

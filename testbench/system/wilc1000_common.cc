// SPDX-License-Identifier: MIT
#include "testbench/system/wilc1000_common.h"

#include "driver/include/nicsim/lx_bus.h"
#include "testbench/runner.h"
#include "testbench/system/system_common.h"
#include "testbench/system/traffic_session.h"

namespace nicsim::system {

wilc::params wilc_chip_params_for(const config::device_config& dev, wilc::params p) {
    const auto& t = dev.timing;
    if (t.wake_latency)
        p.wake_latency = to_sc(*t.wake_latency);
    if (t.sleep_entry_delay)
        p.sleep_entry_delay = to_sc(*t.sleep_entry_delay);
    if (t.deep_sleep_after)
        p.deep_sleep_after = to_sc(*t.deep_sleep_after);
    if (t.deep_wake_latency)
        p.deep_wake_latency = to_sc(*t.deep_wake_latency);
    if (t.boot_delay)
        p.boot_delay = to_sc(*t.boot_delay);
    if (dev.power.supply_voltage_v > 0)
        p.supply_voltage_v = dev.power.supply_voltage_v;
    for (const auto& [state, amps] : dev.power.state_current_a) {
        if (state == "sleep")
            p.sleep_current_a = amps;
        else if (state == "idle")
            p.idle_current_a = amps;
        else if (state == "wakeup")
            p.wakeup_current_a = amps;
        else if (state == "rx")
            p.rx_current_a = amps;
        else if (state == "tx")
            p.tx_current_a = amps;
        else
            throw run_error("device.power.currents: unknown wilc1000 power state '" + state + "'");
    }
    return p;
}

air_link_params wilc_air_params(const config::link_config& l) {
    air_link_params p;
    if (l.phy_rate.bps > 0)
        p.phy_rate_bps = l.phy_rate.bps;
    p.mac_efficiency = l.mac_efficiency;
    p.record_peer_rx = false; // copies of every delivered frame are for model tests only
    return p;
}

std::string wilc_bring_up_netdev(const char* module, const config::scenario_config& sc,
                                 const wilc::params& chip, traffic_session& traffic,
                                 ::net_device*& ndev) {
    const std::string variant = sc.driver.variant;
    ndev = lx_bus_netdev_find(module, variant.c_str(), 0);
    if (!ndev)
        return std::string(module) + " probe registered no network device";
    lx_emul_netdev_set_rx_sink(
        ndev,
        [](void* ctx, ::net_device*, const uint8_t* frame, size_t len) {
            static_cast<traffic_session*>(ctx)->host_side().receive(frame, len);
        },
        &traffic);

    // ip link set wlan0 up: firmware download, start, the init config exchange, MAC query.
    if (int ret = lx_emul_netdev_open(ndev))
        return "ndo_open (ifup) of " + std::string(lx_bus_netdev_name(ndev)) +
               " failed: " + std::to_string(ret) + " (see the driver log above)";
    // Stand-in for cfg80211 connect + NETDEV_UP power-save handling (docs/driver-build.md).
    const lx_bus_wilc_ops* ops = lx_bus_wilc_ops_find(variant.c_str());
    if (!ops)
        return "wilc1000 glue of variant '" + variant + "' is not linked";
    ops->set_bssid(ndev, chip.bssid.data());
    if (sc.driver.power_save) {
        if (int ret = ops->set_power_mgmt(ndev, 1))
            return "enabling power save (WID_POWER_MANAGEMENT) failed: " + std::to_string(ret);
    }
    return {};
}

void wilc_bind_traffic(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                       const config::platform_profile& pf, const config::scenario_config& sc,
                       air_link& air) {
    // How often the application retries while the driver has stopped the netdev queue.
    // Assumption: the real stack is woken by netif_wake_queue; 50 us bounds the extra delay.
    const sc_core::sc_time queue_stopped_poll(50, sc_core::SC_US);
    traffic.host_side().bind(host_traffic_port(cpu, ndev, pf.kernel, queue_stopped_poll));
    traffic::port peer;
    const sc_core::sc_time latency = to_sc(sc.link.latency);
    peer.send = [&air, latency](std::vector<uint8_t> f) {
        air.peer_send(std::move(f), sc_core::sc_time_stamp() + latency);
    };
    traffic.peer_side().bind(peer);
    air.set_peer_sink([&traffic](const air_frame& f) {
        traffic.peer_side().receive(f.bytes.data(), f.bytes.size());
    });
}

void wilc_fill_device_report(wilc1000& chip, const wilc::params& p, sc_core::sc_time now,
                             report::device_report& d) {
    d.type = "wilc1000";
    const auto& cs = chip.core.stats();
    d.frames_tx = cs.tx_frames_to_air;
    d.frames_rx = cs.rx_frames_from_air - cs.rx_frames_dropped;
    auto& pm = chip.power();
    d.wakeups = pm.host_wake_requests();
    d.wake_time_s = pm.waking_time(now).to_seconds();
    d.supply_voltage_v = p.supply_voltage_v;
    d.power_is_proxy = true;
    d.power_source = "ATWILC3000 table (hardware-facts.md §1.3)";
    for (size_t i = 0; i < size_t(wilc::energy_state::count_); ++i) {
        const auto s = static_cast<wilc::energy_state>(i);
        report::power_state_report ps;
        ps.state = wilc::to_string(s);
        ps.time_s = pm.time_in(s, now).to_seconds();
        ps.current_a = pm.current_a(s);
        ps.energy_j = ps.time_s * ps.current_a * p.supply_voltage_v;
        d.power_states.push_back(ps);
    }
}

} // namespace nicsim::system

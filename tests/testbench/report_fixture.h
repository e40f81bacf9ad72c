// SPDX-License-Identifier: MIT
// A report with known numbers for renderer/writer tests.
#pragma once

#include "core/report/report.h"

namespace nicsim::test {

inline report::report sample_report(bool power_save) {
    report::report r;
    r.run.scenario = "wilc1000-spi-ttcp-tx";
    r.run.scenario_file = "configs/wilc1000-spi-ttcp-tx.yaml";
    r.run.platform = "sama5-class";
    r.run.device = "wilc1000";
    r.run.bus = "spi";
    r.run.bus_clock_hz = 48e6;
    r.run.driver_variant = "pristine";
    r.run.power_save = power_save;
    r.run.traffic = "ttcp_tx";
    r.run.seed = 1;
    r.run.nicsim_version = "0.1.0";
    r.run.kernel_version = "6.1.192";
    r.sim_time_s = 40.0;
    r.end_reason = "traffic complete";
    report::flow_report f;
    f.name = "ttcp";
    f.kind = "ttcp_tx";
    f.direction = "tx";
    f.bytes = 16777216;
    f.frames = 11492;
    f.active_time_s = 40.0;
    // 16 MiB in 40 s: 409.6 KiB/s = 3.3554432 Mbit/s
    f.goodput_bps = 16777216.0 * 8 / 40.0 * (power_save ? 1.0 : 3.75);
    if (power_save) // one variant with TCP's loss repair, one without (null)
        f.tcp = report::tcp_report{true, 12, 3, 1, 40, 0, 0, 0, 2};
    r.flows.push_back(f);
    report::device_report d;
    d.name = "wlan0";
    d.type = "wilc1000";
    d.bus = "spi";
    d.bus_clock_hz = 48e6;
    d.frames_tx = 11492;
    d.frames_rx = 5746;
    d.wakeups = power_save ? 17238 : 0;
    d.wake_time_s = power_save ? 1.25 : 0;
    d.meters = {{"radio", 3.3, {{"listen", 40.0, 0.0841, 40.0 * 0.0841 * 3.3}}},
                {"host_interface",
                 3.3,
                 {{"awake", 30.0, 0.0605, 30.0 * 0.0605 * 3.3},
                  {"sleep", 10.0, 0.0014, 10.0 * 0.0014 * 3.3}}}};
    d.supply_voltage_v = 3.3;
    d.power_is_proxy = true;
    d.power_source = "ATWILC3000 datasheet table";
    d.bus_transactions = 103428; // 6 per frame
    d.bus_bytes = 34476000;      // 2000 per frame
    d.bus_busy_s = 10.0;         // 25 %
    if (power_save) {
        d.power_save = report::power_save_part{120, 100, 7, 13, 1, 0, 134};
        // 300 wake requests: 290 found the clock running (1 poll each), 10 asleep for
        // 512-1023 us (3 polls each).
        d.wake = report::wake_part{
            300, 290, 0, 10, 0, {{512, 1024, 10}}, {{1, 2, 290}, {2, 4, 10}}};
    }
    r.devices.push_back(d);
    r.host_cpu_cores = 1;
    r.host_cpu_busy_s = 30.0; // 75 %
    r.host_cpu_driver_blocks = 1000000;
    r.host_cpu_driver_code_s = 0.016; // 0.04 % of 40 s
    r.host_cpu_context_switches = 2000;
    r.host_cpu_context_switch_s = 0.02;
    r.host_cpu_hardirqs = 500;
    r.host_cpu_hardirq_s = 0.0025;
    r.host_cpu_spi_controller = report::spi_controller_part{1000, 1500, 1000, 8.0}; // 20 %
    r.skbs_in_flight = 3;
    if (power_save) // the other sample stands for a run without the ifdown check (null)
        r.skbs_leaked = 1;
    r.findings.push_back({12.5, "wilc1000.spi", "warning", "CRC7 error in command 0xc3"});
    r.host.wall_time_s = 0.25;
    r.host.peak_rss_mb = 42.5;
    return r;
}

} // namespace nicsim::test

// SPDX-License-Identifier: MIT
#include "testbench/system/system_common.h"

#include <vector>

#include "driver/include/lx_kit/lx_emul_api.h"
#include "driver/include/lx_kit/runtime.h"
#include "driver/include/nicsim/lx_bus.h"

namespace nicsim::system {

using sc_core::sc_time;

spi::spi_host_timing spi_host_timing_of(const config::spi_host_config& c) {
    spi::spi_host_timing t;
    t.per_message_overhead = sc_core::SC_ZERO_TIME; // charged on the CPU by cpu_spi_port
    t.per_transfer_overhead = to_sc(c.per_transfer_overhead);
    t.cs_setup = to_sc(c.cs_setup);
    t.cs_hold = to_sc(c.cs_hold);
    t.cs_inactive_min = to_sc(c.cs_inactive_min);
    t.inter_transfer_gap = to_sc(c.inter_transfer_gap);
    t.inter_word_gap_cycles = c.inter_word_gap_cycles;
    t.inter_word_gap = to_sc(c.inter_word_gap);
    t.dma_threshold_bytes = c.dma_threshold.bytes;
    t.dma_setup = to_sc(c.dma_setup);
    t.max_speed_hz = static_cast<uint32_t>(c.max_speed.hz);
    return t;
}

traffic::endpoint_addr endpoint_addr_of(const std::array<uint8_t, 6>& mac, uint32_t ip,
                                        uint16_t port) {
    traffic::endpoint_addr a;
    a.mac.bytes = mac;
    a.ip.value = ip;
    a.port = port;
    return a;
}

void apply_kernel_platform(const config::platform_profile& pf, host_cpu& cpu) {
    auto& kp = lx_kit::params();
    kp.hz = pf.cpu.hz;
    kp.usleep_slack_ns = static_cast<uint64_t>(pf.kernel.timer_slack.ps / 1000);
    kp.irq_latency_ns = static_cast<uint64_t>(pf.kernel.irq_to_thread_latency.ps / 1000);
    lx_kit::set_busy_hook([&cpu](const char*, sc_time, uint64_t ns) {
        cpu.charge(sc_time(static_cast<double>(ns), sc_core::SC_NS));
    });
}

std::string load_driver_modules(const std::string& family, const config::driver_config& drv) {
    std::vector<int> mods;
    for (int i = 0; i < lx_emul_module_count(); ++i)
        if (drv.variant == lx_emul_module_variant(i) &&
            std::string(lx_emul_module_name(i)).rfind(family, 0) == 0)
            mods.push_back(i);
    if (mods.empty())
        return "driver variant '" + drv.variant + "' of " + family + " is not linked";
    for (const auto& [param, value] : drv.module_params) {
        bool set = false;
        for (int i : mods)
            if (lx_emul_module_param_set(i, param.c_str(), value.c_str()) == 0)
                set = true;
        if (!set)
            return "driver.module_params: " + family + "/" + drv.variant + " has no parameter '" +
                   param + "'";
    }
    for (int i : mods)
        if (!lx_emul_module_initialized(i) && lx_emul_module_init(i) != 0)
            return std::string("module_init failed: ") + lx_emul_module_name(i);
    return {};
}

traffic::port host_traffic_port(host_cpu& cpu, ::net_device* const& ndev,
                                const config::kernel_timing& k, sc_time retry_poll) {
    traffic::port host;
    host.send = [&ndev, retry_poll](std::vector<uint8_t> f) {
        struct lx_bus_netdev_state st {};
        for (;;) {
            lx_bus_netdev_state(ndev, &st);
            if (!st.queue_stopped && lx_emul_netdev_xmit(ndev, f.data(), f.size()) == 0)
                return;
            sc_core::wait(retry_poll);
        }
    };
    host.cpu_cost = [&cpu](sc_time t) { cpu.run(t); };
    host.cost.per_tx_frame = to_sc(k.per_packet_stack_cost);
    host.cost.per_rx_frame = to_sc(k.per_packet_stack_cost);
    host.cost.per_payload_byte = to_sc(k.per_byte_stack_cost);
    return host;
}

} // namespace nicsim::system

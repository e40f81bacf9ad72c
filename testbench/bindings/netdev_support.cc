// SPDX-License-Identifier: MIT
#include "testbench/bindings/netdev_support.h"

#include <vector>

#include "driver/include/lx_kit/lx_emul_api.h"
#include "driver/include/lx_kit/runtime.h"
#include "driver/include/nicsim/lx_bus.h"
#include "testbench/board/board.h"
#include "testbench/system/traffic_session.h"

namespace nicsim::bindings {

using board::to_sc;

using sc_core::sc_time;

traffic::endpoint_addr endpoint_addr_of(const std::array<uint8_t, 6>& mac, uint32_t ip,
                                        uint16_t port) {
    traffic::endpoint_addr a;
    a.mac.bytes = mac;
    a.ip.value = ip;
    a.port = port;
    return a;
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

std::string open_netdev(const char* modname, const std::string& variant, traffic_session& traffic,
                        ::net_device*& ndev) {
    ndev = lx_bus_netdev_find(modname, variant.c_str(), 0);
    if (!ndev)
        return std::string(modname) + " probe registered no network device";
    lx_emul_netdev_set_rx_sink(
        ndev,
        [](void* ctx, ::net_device*, const uint8_t* frame, size_t len) {
            static_cast<traffic_session*>(ctx)->host_side().receive(frame, len);
        },
        &traffic);
    if (int r = lx_emul_netdev_open(ndev))
        return "ndo_open (ifup) of " + std::string(lx_bus_netdev_name(ndev)) +
               " failed: " + std::to_string(r) + " (see the driver log above)";
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

} // namespace nicsim::bindings

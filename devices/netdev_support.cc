// SPDX-License-Identifier: MIT
#include "devices/netdev_support.h"

#include <memory>
#include <vector>

#include "bus/common/local_time.h"
#include "kernel/include/lx_kit/lx_emul_api.h"
#include "kernel/include/lx_kit/runtime.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "host/board/board.h"
#include "host/traffic_session.h"

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
    const std::string key = drv.build_key();
    for (int i = 0; i < lx_emul_module_count(); ++i)
        if (key == lx_emul_module_variant(i) &&
            std::string(lx_emul_module_name(i)).rfind(family, 0) == 0)
            mods.push_back(i);
    if (mods.empty())
        return "driver variant '" + drv.variant + "' of " + family + " (kernel " + drv.kernel +
               ") is not linked";
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
            lx_kit::charge_driver_code(); // the driver's RX path up to here ran first
            // At the driver's local time: the receiver syncs before it wakes anyone.
            static_cast<traffic_session*>(ctx)->host_rx(frame, len);
        },
        &traffic);
    if (traffic.uses_stack())
        lx_emul_netdev_set_queue_wake(
            ndev,
            [](void* ctx, ::net_device*) {
                lx_kit::charge_driver_code();
                local_time::sync();
                static_cast<traffic_session*>(ctx)->board_stack().netif_wake_queue();
            },
            &traffic);
    if (int r = lx_emul_netdev_open(ndev))
        return "ndo_open (ifup) of " + std::string(lx_bus_netdev_name(ndev)) +
               " failed: " + std::to_string(r) + " (see the driver log above)";
    return {};
}

int close_netdev(::net_device* ndev, sc_time settle, sc_time step) {
    const int rc = lx_emul_netdev_stop(ndev);
    await_skbs_freed(settle, step);
    return rc;
}

void await_skbs_freed(sc_time limit, sc_time step) {
    for (sc_time waited; lx_emul_skb_live_count() > 0 && waited < limit; waited += step)
        sc_core::wait(step);
}

traffic::port host_traffic_port(host_cpu& cpu, ::net_device* const& ndev,
                                const config::kernel_timing& k, sc_time retry_poll) {
    traffic::port host;
    // The frame waits in the port (reachable), not on the sending thread's stack: a run that
    // ends while the queue is stopped must not hide it from LeakSanitizer.
    auto pending = std::make_shared<std::vector<uint8_t>>();
    host.send = [&ndev, retry_poll, pending](std::vector<uint8_t> f) {
        *pending = std::move(f);
        struct lx_bus_netdev_state st {};
        for (;;) {
            lx_bus_netdev_state(ndev, &st);
            if (!st.queue_stopped &&
                lx_emul_netdev_xmit(ndev, pending->data(), pending->size()) == 0)
                break;
            sc_core::wait(retry_poll);
        }
        pending->clear();
    };
    host.cpu_cost = [&cpu](sc_time t) { cpu.run(t); };
    host.cost.per_tx_frame = to_sc(k.per_packet_stack_cost);
    host.cost.per_rx_frame = to_sc(k.per_packet_stack_cost);
    host.cost.per_payload_byte = to_sc(k.per_byte_stack_cost);
    return host;
}

namespace {

// The board stack's netdev: each skb goes to ndo_start_xmit and stays here until the driver
// frees it (kfree_skb/consume_skb run the cookie's on_free), when destroying it runs the stack's
// destructor (tcp_wfree).
struct driver_netdev {
    ::net_device* const& ndev;
    const traffic_session& traffic;
    // The skbs the driver holds, by cookie: a handful at most (the driver's TX queue), so a
    // vector searched from the back; a map allocated a node per frame.
    std::vector<std::pair<uint64_t, net::skb_ptr>> owned;
    std::vector<std::pair<uint64_t, net::skb_ptr>>::iterator find(uint64_t cookie) {
        for (auto it = owned.end(); it != owned.begin();)
            if ((--it)->first == cookie)
                return it;
        return owned.end();
    }
    uint64_t next_cookie = 0;
    std::vector<uint8_t> m_captured; // xmit's copy for the capture tap

    static void on_free(void* ctx, uint64_t cookie) {
        auto& self = *static_cast<driver_netdev*>(ctx);
        // The driver's TX path up to kfree_skb ran first. No sync: the budget tcp_wfree returns
        // is state no other process sees before this thread's local time, and its wake-up of
        // the stack (host_stack::kick) syncs itself (bus/common/local_time.h).
        lx_kit::charge_driver_code();
        auto it = self.find(cookie);
        if (it == self.owned.end())
            return;
        net::skb_ptr s = std::move(it->second);
        self.owned.erase(it);
        // s goes out of scope here: the destructor returns the budget.
    }

    net::netdev_tx xmit(net::skb_ptr& s) {
        if (!ndev)
            return net::netdev_tx::busy;
        const uint64_t cookie = ++next_cookie;
        net::skb* raw = s.get();
        // The capture needs the bytes after the call, when the driver may have freed the skb.
        // In a member (xmit does not nest: the qdisc runs one at a time), not on the calling
        // thread's stack: a run that ends while the driver has it would hide it from
        // LeakSanitizer.
        const auto& tap = traffic.host_tap();
        std::vector<uint8_t>& captured = m_captured;
        captured.clear();
        if (tap)
            captured = raw->data;
        // Owned here before the call: the driver may free it before ndo_start_xmit returns.
        owned.emplace_back(cookie, std::move(s));
        const int rc = lx_emul_netdev_xmit_owned(ndev, raw->data.data(), raw->data.size(),
                                                 &driver_netdev::on_free, this, cookie);
        if (rc != 0) { // NETDEV_TX_BUSY: the skb is the qdisc's again (dev_requeue_skb)
            auto it = find(cookie);
            s = std::move(it->second);
            owned.erase(it);
            return net::netdev_tx::busy;
        }
        if (tap)
            tap(true, captured.data(), captured.size());
        return net::netdev_tx::ok;
    }
};

} // namespace

void bind_host_to_driver(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                         const config::kernel_timing& k, sc_time retry_poll) {
    if (traffic.idle())
        return;
    if (!traffic.uses_stack()) {
        traffic.host_side().bind(host_traffic_port(cpu, ndev, k, retry_poll));
        return;
    }
    auto dev = std::make_shared<driver_netdev>(driver_netdev{ndev, traffic, {}, 0, {}});
    net::netdev_port p;
    p.xmit = [dev](net::skb_ptr& s) { return dev->xmit(s); };
    p.queue_stopped = [&ndev] {
        struct lx_bus_netdev_state st {};
        if (!ndev)
            return true;
        lx_bus_netdev_state(ndev, &st);
        return st.queue_stopped != 0;
    };
    traffic.board_stack().attach(p);
    // The host stack follows the local-time rule: its CPU work advances the calling thread's
    // local time, and it syncs before waking anyone or entering the driver.
    traffic.board_stack().set_cpu_cost([&cpu](sc_time t, net::cpu_context c) {
        cpu.advance(t, c == net::cpu_context::process ? cpu_class::application : cpu_class::kernel);
    });
}

} // namespace nicsim::bindings

// SPDX-License-Identifier: MIT
#include "devices/ethernet_link.h"

#include "kernel/include/nicsim/lx_bus.h"
#include "devices/netdev_support.h"
#include "host/traffic_session.h"

namespace nicsim::bindings {

using namespace sc_core;

namespace {
// ifup -> carrier: the real stack waits for link before TX. Bound for the wait.
const sc_time carrier_timeout(5, SC_SEC);
// Carrier -> the application starts. Assumption: a person or script starts iperf/ping some time
// after `ip link set up`; 10 ms lets the driver's rx-mode work (KS8851: its RXPSI handshake,
// RXCR1 briefly has RXE = 0, dropping frames) finish, so the traffic does not start into it.
const sc_time ifup_settle(10, SC_MS);
// How often the application retries a frame the driver refused (queue stopped until the driver
// wakes it, or NETDEV_TX_BUSY, which the real kernel retries from net_tx_action at once).
// Assumption: 20 us bounds the extra delay of either.
const sc_time tx_retry_poll(20, SC_US);
} // namespace

std::string wait_for_carrier(::net_device* ndev, const eth::eth_wire& wire) {
    const sc_time deadline = sc_time_stamp() + carrier_timeout;
    struct lx_bus_netdev_state st {};
    for (;;) {
        lx_bus_netdev_state(ndev, &st);
        if (st.carrier)
            break;
        if (sc_time_stamp() >= deadline)
            return std::string(lx_bus_netdev_name(ndev)) + ": no carrier " +
                   carrier_timeout.to_string() + " after ifup (link " +
                   (wire.link_up() ? "up" : "down") + " on the wire)";
        wait(sc_time(1, SC_MS));
    }
    wait(ifup_settle);
    return {};
}

void bind_ethernet_traffic(traffic_session& traffic, host_cpu& cpu, ::net_device* const& ndev,
                           const config::kernel_timing& k, eth::eth_wire& wire, sc_time latency) {
    bind_host_to_driver(traffic, cpu, ndev, k, tx_retry_poll);
    traffic.bind_peer(
        [&wire, latency](std::vector<uint8_t> f) {
            wire.peer_send(std::move(f), sc_time_stamp() + latency);
        },
        {[&wire] { return wire.peer_queue_depth(); }, &wire.peer_taken_event()});
    wire.set_peer_sink([&traffic](const eth::eth_frame& f) {
        // Without the FCS; the MAC's pad stays (IPv4 total length tells the stack the end).
        traffic.peer_rx(f.bytes.data(), f.bytes.size() - 4);
    });
}

} // namespace nicsim::bindings

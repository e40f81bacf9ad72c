// SPDX-License-Identifier: MIT
#include "core/config/scenario_config.h"

namespace nicsim::config {

const char* to_string(bus_type b) {
    switch (b) {
    case bus_type::spi:
        return "spi";
    case bus_type::sdio:
        return "sdio";
    case bus_type::par:
        return "par";
    }
    return "?";
}
const char* to_string(irq_mode m) {
    switch (m) {
    case irq_mode::gpio:
        return "gpio";
    case irq_mode::in_band:
        return "in_band";
    case irq_mode::none:
        return "none";
    }
    return "?";
}
const char* to_string(traffic_kind k) {
    switch (k) {
    case traffic_kind::ttcp_tx:
        return "ttcp_tx";
    case traffic_kind::ttcp_rx:
        return "ttcp_rx";
    case traffic_kind::udp_tx:
        return "udp_tx";
    case traffic_kind::udp_rx:
        return "udp_rx";
    case traffic_kind::ping:
        return "ping";
    case traffic_kind::iperf_tx:
        return "iperf_tx";
    case traffic_kind::iperf_rx:
        return "iperf_rx";
    case traffic_kind::idle:
        return "idle";
    }
    return "?";
}
bool is_tcp(traffic_kind k) {
    return k == traffic_kind::ttcp_tx || k == traffic_kind::ttcp_rx ||
           k == traffic_kind::iperf_tx || k == traffic_kind::iperf_rx;
}
bool is_tx(traffic_kind k) {
    return k == traffic_kind::ttcp_tx || k == traffic_kind::udp_tx || k == traffic_kind::iperf_tx ||
           k == traffic_kind::ping;
}

} // namespace nicsim::config

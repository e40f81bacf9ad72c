// SPDX-License-Identifier: MIT
// The ENC28J60's scenario keys, for the loader (core/config/device_catalog.h).
#include "core/config/device_catalog.h"

namespace nicsim::bindings {

const config::device_keys& enc28j60_keys() {
    using config::bus_type;
    using config::irq_mode;
    static const config::device_keys k = [] {
        config::device_keys d;
        d.type = "enc28j60";
        // SPI only. Maximum 20 MHz: the datasheet (DS39662), as the kernel's device-tree binding
        // (Documentation/devicetree/bindings/net/microchip,enc28j60.txt) repeats. Default 12 MHz:
        // the spi-max-frequency of that binding's example, which board designs use because the
        // datasheet's 20 MHz needs a clean layout. The driver needs INT on a GPIO: it has no
        // polled mode.
        d.buses.push_back({bus_type::spi,
                           12e6,
                           20e6,
                           {irq_mode::gpio},
                           irq_mode::gpio,
                           "the enc28j60 driver needs INT on a GPIO (falling edge)"});
        // enc28j60.c: module_param_named(debug, debug.msg_enable, int, 0)
        d.module_params = {{"debug", "int"}};
        d.default_phy_rate_bps = 10e6;  // 10BASE-T only
        d.default_mac_efficiency = 1.0; // Ethernet framing, preamble and IFG are in the wire model
        d.fault_kinds = {{"link_down", "", {}}}; // docs/faults.md
        return d;
    }();
    return k;
}

} // namespace nicsim::bindings

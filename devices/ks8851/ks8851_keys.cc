// SPDX-License-Identifier: MIT
// The KS8851's scenario keys, for the loader (core/config/device_catalog.h).
#include "core/config/device_catalog.h"

namespace nicsim::bindings {

const config::device_keys& ks8851_keys() {
    using config::bus_type;
    using config::irq_mode;
    static const config::device_keys k = [] {
        config::device_keys d;
        d.type = "ks8851";
        // KSZ8851SNL: SPI up to 40 MHz (docs/sources.md#ks8851); the KSZ8851-16MLL's parallel bus
        // has no clock. The driver needs INTRN on a GPIO (checked at attach, it has no polled
        // mode).
        d.buses.push_back({bus_type::spi,
                           25e6,
                           40e6,
                           {irq_mode::gpio, irq_mode::none},
                           irq_mode::gpio,
                           "the ks8851 driver needs INTRN on a GPIO"});
        d.buses.push_back({bus_type::par,
                           0,
                           0,
                           {irq_mode::gpio, irq_mode::none},
                           irq_mode::gpio,
                           "the ks8851 driver needs INTRN on a GPIO"});
        // The chip model's meter states (models/ks8851/ks8851_power.h): device.power.currents
        // takes a current per state as the scenario's assumption (none is sourced).
        d.power_states = {"active",          "idle",        "link_down", "energy_detect",
                          "soft_power_down", "power_saving"};
        // ks8851_spi.c / ks8851_par.c: module_param_named(message, ...)
        d.module_params = {{"message", "int"}};
        d.default_phy_rate_bps = 100e6; // 100BASE-TX
        d.default_mac_efficiency = 1.0; // Ethernet framing, preamble and IFG are in the wire model
        // Fault kinds (docs/faults.md): kind, what `after` counts ("" = window fault).
        d.fault_kinds = {
            {"rx_overrun", "received frames", {}},
            {"fifo_corruption", "received frames", {}},
            {"tx_buffer_full", "TXMIR reads", {}},
            {"irq_stuck", "", {}, true},
            {"irq_missed", "interrupt assertions", {}, true},
            {"link_down", "", {}},
        };
        return d;
    }();
    return k;
}

} // namespace nicsim::bindings

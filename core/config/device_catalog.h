// SPDX-License-Identifier: MIT
// What the scenario loader needs to know about each device type, told by the device bindings
// (devices/<chip>/<chip>_keys.cc) and collected into a generated table: the buses
// the chip has (with its bus-clock default and datasheet maximum, and which interrupt wirings
// its driver supports on each), its named power states and timing overrides, whether its driver
// has chip sleep, its module parameters, and the link defaults of its medium. The loader knows
// no chip: it validates device.*, driver.* and link.* against these entries.
#pragma once

#include <string>
#include <vector>

#include "core/config/scenario_config.h"

namespace nicsim::config {

struct bus_keys {
    bus_type bus = bus_type::spi;
    double default_clock_hz = 0;     // device.bus_clock default (0: the bus has no clock)
    double max_clock_hz = 0;         // device.bus_clock maximum (datasheet)
    std::vector<irq_mode> irq_modes; // device.irq values the driver supports on this bus
    irq_mode default_irq = irq_mode::gpio;
    std::string irq_note; // why other irq modes are refused (shown in the error)
};

struct module_param_keys {
    std::string name;
    std::string type; // "bool" or "int"
};

// A fault kind the device's models offer (docs/faults.md).
struct fault_kind_keys {
    std::string kind;
    // What `after` counts ("SPI messages", "frames from the air"); empty for a window fault,
    // which has no opportunities (only `at` and `for` apply).
    std::string unit;
    std::vector<bus_type> buses; // empty: every bus of the device
    bool needs_gpio_irq = false; // the IRQ pin faults: device.irq gpio
    bool needs_power_save = false;
};

struct device_keys {
    std::string type; // device.type
    std::vector<bus_keys> buses;
    std::vector<std::string> power_states; // device.power.currents.<state>
    std::vector<std::string> timing_keys;  // device.timing.<key> (durations)
    // device.buffers.<key>: a chip memory size, its bounds and where they come from.
    struct size_key {
        std::string name;
        std::uint64_t min = 0, max = 0;
        std::string why;
    };
    std::vector<size_key> buffer_keys;
    // device.firmware.<key>: a named choice of the chip firmware's behaviour, its values
    // (the first is the default).
    struct choice_key {
        std::string name;
        std::vector<std::string> values;
    };
    std::vector<choice_key> firmware_keys;
    bool chip_sleep = false; // driver.power_save is meaningful
    bool wireless = false;   // an 802.11 medium: link.associated/beacon_interval/dtim_period
    std::vector<module_param_keys> module_params; // pristine driver's module parameters
    double default_phy_rate_bps = 0;              // link.phy_rate default
    double default_mac_efficiency = 1.0;          // link.mac_efficiency default
    std::vector<fault_kind_keys> fault_kinds;     // faults[].kind

    const bus_keys* find_bus(bus_type b) const {
        for (const auto& k : buses)
            if (k.bus == b)
                return &k;
        return nullptr;
    }
};

struct device_catalog {
    std::vector<const device_keys*> devices;
    const device_keys* find(const std::string& type) const {
        for (const auto* d : devices)
            if (d->type == type)
                return d;
        return nullptr;
    }
    // The bindings linked into this binary (generated table, devices/CMakeLists.txt).
    static const device_catalog& linked();
};

} // namespace nicsim::config

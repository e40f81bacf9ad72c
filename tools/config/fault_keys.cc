// SPDX-License-Identifier: MIT
#include "tools/config/fault_keys.h"

#include <algorithm>

namespace nicsim::config {

namespace {

std::string buses_of(const fault_kind_keys& k) {
    std::vector<std::string> names;
    for (bus_type b : k.buses)
        names.push_back(to_string(b));
    return yaml_reader::join(names);
}

// The kinds that apply to this device on this bus, for the error message.
std::vector<std::string> kinds_for(const device_keys& keys, bus_type bus) {
    std::vector<std::string> out;
    for (const auto& k : keys.fault_kinds)
        if (k.buses.empty() || std::find(k.buses.begin(), k.buses.end(), bus) != k.buses.end())
            out.push_back(k.kind);
    return out;
}

} // namespace

std::vector<fault_config> read_faults(yaml_reader& root, const YAML::Node& node,
                                      const std::shared_ptr<yaml_source>& src,
                                      const device_keys& keys, const scenario_config& sc) {
    std::vector<fault_config> out;
    if (!root.has("faults") || !node.IsDefined() || node.IsNull())
        return out;
    if (!node.IsSequence())
        root.fail("faults", "expected a list of faults, e.g. [{kind: rx_overrun, at: 50ms}]");
    std::vector<std::string> all;
    for (const auto& k : keys.fault_kinds)
        all.push_back(k.kind);
    if (all.empty())
        root.fail("faults", "the " + sc.device.type + " model offers no fault kinds");
    for (std::size_t i = 0; i < node.size(); ++i) {
        const std::string path = "faults[" + std::to_string(i) + "]";
        yaml_reader r(node[i], path, path, src);
        fault_config f;
        f.where = src->where(node[i].Mark(), path);
        f.kind = r.one_of("kind", all);
        const fault_kind_keys& k =
            *std::find_if(keys.fault_kinds.begin(), keys.fault_kinds.end(),
                          [&](const fault_kind_keys& x) { return x.kind == f.kind; });
        if (!k.buses.empty() &&
            std::find(k.buses.begin(), k.buses.end(), sc.device.bus) == k.buses.end())
            r.fail("kind",
                   f.kind + " applies to " + sc.device.type + " on " + buses_of(k) +
                       " only (this scenario: " + to_string(sc.device.bus) +
                       "; kinds here: " + yaml_reader::join(kinds_for(keys, sc.device.bus)) + ")");
        if (k.needs_gpio_irq && sc.device.irq != irq_mode::gpio)
            r.fail("kind", f.kind + " acts on the interrupt pin: needs device.irq gpio");
        if (k.needs_power_save && !sc.driver.power_save)
            r.fail("kind", f.kind + " needs driver.power_save: true (only with chip sleep does the "
                                    "driver wake the chip and poll CLK_STATUS)");
        f.unit = k.unit;
        f.level = k.unit.empty();
        if (r.has("at"))
            f.at = r.required<duration>("at");
        if (r.has("after")) {
            if (f.level)
                r.fail("after", f.kind + " is a window fault with no opportunities to count: "
                                         "use at (and for)");
            if (f.at)
                r.fail("after", "at and after both open the window: give one of them");
            f.after = r.required<std::uint64_t>("after");
        }
        if (r.has("probability")) {
            if (f.level)
                r.fail("probability", f.kind + " is a window fault: use at (and for)");
            f.probability = r.required<double>("probability", fraction_in_0_1());
        }
        if (r.has("for"))
            f.window = r.required<duration>("for", positive<duration>());
        if (r.has("count")) {
            if (f.level)
                r.fail("count", f.kind + " is a window fault: use at (and for)");
            f.count = r.required<std::uint64_t>("count", at_least<std::uint64_t>(1));
        }
        r.reject_unknown_keys("for kind " + f.kind);
        out.push_back(std::move(f));
    }
    return out;
}

} // namespace nicsim::config

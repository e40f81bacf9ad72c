// SPDX-License-Identifier: MIT
// The scenario's `faults:` list (docs/faults.md), read against the fault kinds the device's
// binding offers (device_keys::fault_kinds). Kept out of config_loader.cc so the loader only
// calls it.
#pragma once

#include <memory>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/config/device_catalog.h"
#include "core/config/scenario_config.h"
#include "tools/config/yaml_reader.h"

namespace nicsim::config {

// `root` is the scenario's top-level reader (the key `faults` is marked as known), `node` the
// value of `faults` (may be undefined). Throws config_error naming file:line and the key.
std::vector<fault_config> read_faults(yaml_reader& root, const YAML::Node& node,
                                      const std::shared_ptr<yaml_source>& src,
                                      const device_keys& keys, const scenario_config& sc);

} // namespace nicsim::config

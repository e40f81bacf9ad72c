// SPDX-License-Identifier: MIT
//
// YAML files → validated config structs. This is the only place scenario and platform YAML is
// interpreted; everything downstream sees scenario_config / platform_profile. All problems are
// reported as config_error with file:line:column (or the --set argument) and the key path.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/config/device_catalog.h"
#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"
#include "tools/config/yaml_reader.h"

namespace nicsim::config {

struct load_options {
    // "key.path=value" assignments, applied to the YAML tree before validation, in order.
    std::vector<std::string> overrides;
    // Driver variants built into this binary (nicsim::known_driver_variants()): "driver/name"
    // for one driver's variant (kernel/patches/<driver>/<name>/), a bare name for any driver;
    // "pristine" is always accepted, so an empty list means "only pristine".
    std::vector<std::string> known_variants;
    // Driver builds of this binary (nicsim::add_known_drivers()): "kernel/driver/variant" each,
    // and "kernel/driver" → why that driver has no build for that kernel. Empty = no registry
    // linked: driver.kernel is then checked against the kernel names only.
    std::vector<std::string> known_builds;
    std::map<std::string, std::string> unbuilt_drivers;
    // Directory with platforms/*.yaml searched after the scenario's own directory; empty =
    // default_configs_dir().
    std::string configs_dir;
    // The device types scenarios may name and their keys; null = device_catalog::linked().
    const device_catalog* devices = nullptr;
};

struct loaded_scenario {
    scenario_config scenario;
    platform_profile platform; // the profile file with the scenario's platform overrides applied
};

loaded_scenario load_scenario(const std::string& file, const load_options& options = {});

// A platform profile on its own (every key required); overrides are paths inside the profile
// ("spi_host.cs_setup=20ns").
platform_profile load_platform(const std::string& file,
                               const std::vector<std::string>& overrides = {});

enum class config_kind { scenario, platform };
// A file whose top level has `spi_host` or `cpu` and no `device` is a platform profile.
config_kind detect_config_kind(const std::string& file);

// $NICSIM_CONFIGS_DIR if set, else <binary>/../share/nicsim/configs when it exists (an installed
// nicsim), else the source tree's configs/ (compiled in).
std::string default_configs_dir();

} // namespace nicsim::config

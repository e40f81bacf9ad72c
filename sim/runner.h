// SPDX-License-Identifier: MIT
//
// The seam between the CLI and the simulation: the CLI validates the scenario, then hands the
// typed configs to run_scenario(), which builds platform + bus + chip + peer + driver + traffic,
// runs SystemC once and returns the report. The CLI fills report.host (wall time, peak RSS) and
// the build facts in report.run afterwards.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/config/platform_profile.h"
#include "core/config/scenario_config.h"
#include "core/report/report.h"
#include "core/run_error.h"

namespace nicsim {

namespace config {
struct load_options;
}

// Runs one scenario; throws run_error on a failure before the simulation started. A run that
// fails once it has started returns its report so far instead: end_reason "run failed", the
// error as the last finding ("run failed: ..."), so nothing it measured is lost. Not a throw:
// unwinding right after the coroutine-based simulation leaves AddressSanitizer's stack
// poisoning stale for the caller's later frames (seen on writing that report). SystemC cannot
// restart after sc_start, so a process runs at most one scenario.
report::report run_scenario(const config::scenario_config& scenario,
                            const config::platform_profile& platform);

// Driver variants built into this binary, for validation and `nicsim --version`. The default
// implementation returns what was registered with set_driver_variant_lister() (none yet).
std::vector<std::string> known_driver_variants();
using driver_variant_lister = std::vector<std::string> (*)();
void set_driver_variant_lister(driver_variant_lister lister);

// Driver builds of this binary, kernel × driver × variant (kernel/include/nicsim/driver_variant.h).
struct driver_build {
    std::string kernel;         // "6.1", "6.12"
    std::string kernel_version; // "6.12.118"
    std::string driver;         // "ks8851"
    std::string variant;        // "pristine"
    std::string patches;        // "<patch file> <sha256>\n" per patch
};
struct driver_builds {
    std::vector<driver_build> built;
    std::map<std::string, std::string> unbuilt; // "kernel/driver" → why it is not built
};
driver_builds known_driver_builds(); // empty without a registered lister
using driver_build_lister = driver_builds (*)();
void set_driver_build_lister(driver_build_lister lister);

// load_options' known_variants, known_builds and unbuilt_drivers from the registered listers.
void add_known_drivers(config::load_options& o);

} // namespace nicsim

// SPDX-License-Identifier: MIT
//
// The composition root: the board, the scenario's device binding, run once.
#include "sim/runner.h"

#include <algorithm>

#include "kernel/include/nicsim/driver_variant.h"
#include "sim/device_system.h"

namespace nicsim {

namespace {
// The variants linked into this binary (the generated table of kernel/CMakeLists.txt), as
// "driver/name": a variant exists for its own driver only.
std::vector<std::string> linked_variants() {
    std::vector<std::string> names;
    for (const auto* const* v = nicsim_driver_variants; *v; ++v) {
        std::string name = std::string((*v)->driver) + "/" + (*v)->name;
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name); // once, whatever the kernels it is built for
    }
    return names;
}
// Every build (kernel × driver × variant) and the drivers a kernel has no build of.
driver_builds linked_builds() {
    driver_builds b;
    for (const auto* const* v = nicsim_driver_variants; *v; ++v)
        b.built.push_back(
            {(*v)->kernel, (*v)->kernel_version, (*v)->driver, (*v)->name, (*v)->patches});
    for (const auto* u = nicsim_driver_unbuilt; u->kernel; ++u)
        b.unbuilt[std::string(u->kernel) + "/" + u->driver] = u->why;
    return b;
}
const bool registered =
    (set_driver_variant_lister(&linked_variants), set_driver_build_lister(&linked_builds), true);
} // namespace

report::report run_scenario(const config::scenario_config& scenario,
                            const config::platform_profile& platform) {
    // No throw after the simulation: unwinding right after the coroutine-based simulation trips
    // AddressSanitizer's stale stack poisoning (see device_system::run(std::string&)).
    std::string error;
    report::report r;
    if (!scenario.driver.source.empty() && scenario.driver.source_key.empty())
        throw run_error("driver.source: the tree's plug-in is not loaded (nicsim run loads it, "
                        "tools/driver_source.h)");
    {
        device_system system("system", scenario, platform);
        r = system.run(error);
    }
    return r; // on error: the report so far (end_reason "run failed", see runner.h)
}

} // namespace nicsim

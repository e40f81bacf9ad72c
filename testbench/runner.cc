// SPDX-License-Identifier: MIT
//
// Placeholder runner: the composition of chips, driver and traffic is not written yet, so every
// scenario ends with a run_error naming what is missing (exit code 2 from the CLI).
#include "testbench/runner.h"

namespace nicsim {

report::report run_scenario(const config::scenario_config& scenario,
                            const config::platform_profile& /*platform*/) {
    throw run_error(std::string("not implemented yet: ") + config::to_string(scenario.device.type) +
                    "/" + config::to_string(scenario.device.bus));
}

} // namespace nicsim

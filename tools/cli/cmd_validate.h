// SPDX-License-Identifier: MIT
//
// The `nicsim validate` subcommand (docs/validate.md): predictions vs published measurements.
// Exit codes: 0 every check within tolerance, 1 bad input (validation file, scenario, command
// line), 2 a run failed, 3 a prediction outside its tolerance.
#pragma once

#include "tools/cli/cmd_sweep.h"

namespace nicsim::cli {

inline constexpr int exit_check_failed = 3;

subcommand add_validate_command(CLI::App& app);

} // namespace nicsim::cli

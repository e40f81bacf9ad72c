// SPDX-License-Identifier: MIT
//
// The `nicsim calibrate` subcommand (docs/your-board.md): a profile fitted to a user's
// measurements. Exit codes: 0 fitted and written, every residual within its tolerance; 1 bad
// input (measurement file, profile, --key/--tie, more keys than measurements, an output that is
// a shipped profile), nothing run or written; 2 a run failed, nothing written; 3 written, but a
// residual is outside its measurement's tolerance (exit_check_failed).
#pragma once

#include "tools/cli/cmd_sweep.h"

namespace nicsim::cli {

subcommand add_calibrate_command(CLI::App& app);

} // namespace nicsim::cli

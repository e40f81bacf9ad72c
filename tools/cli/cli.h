// SPDX-License-Identifier: MIT
//
// The `nicsim` command line. Exit codes (docs/scenarios.md "Exit codes"):
//   0  success (also --help, --version)
//   1  configuration or input error: bad command line, unreadable/invalid YAML or JSON
//   2  run error: the simulation could not complete (run_error), or an internal error;
//      sweep: a point failed or is missing
//   3  validate: a prediction outside its tolerance; check: an expectation not met
//      (exit_check_failed, cmd_validate.h)
//   4  run: completed and reported, but delivered less than its traffic asked for (verdict.h)
//   130 / 143  run: interrupted by SIGINT / SIGTERM, the report so far written
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace nicsim::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_config_error = 1;
inline constexpr int exit_run_error = 2;
inline constexpr int exit_traffic_short = 4;

// args[0] is the program name. Output goes to out/err (std::cout/std::cerr from main).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The text `nicsim --version` prints.
std::string version_text();

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
//
// The `nicsim check` subcommand (docs/driver-testing.md): runs each scenario (its own `nicsim
// run` process) and checks the scenario's `expect:` list against the report. Exit codes: 0 every
// expectation met, 1 bad input (scenario, expectation, command line), 2 a run failed without a
// report and no expectation asked for that, 3 an expectation not met (exit_check_failed).
#pragma once

#include <string>
#include <vector>

#include "tools/cli/cmd_sweep.h"

namespace nicsim::cli {

subcommand add_check_command(CLI::App& app);

// One scenario file's outcome, as the JUnit writer sees it.
struct check_case {
    std::string name;   // the expectation as written, "(implied)" marks exit_code == 0
    std::string where;  // file:line:col
    std::string actual; // "totals.goodput_bps = 2380842.7"
    bool pass = false;
    bool error = false; // could not be evaluated: the run wrote no report
};
struct check_suite {
    std::string name; // scenario name
    std::string file;
    int exit_code = 0;
    double wall_s = 0;
    std::string stderr_text; // the run's stderr when it failed
    std::vector<check_case> cases;
};

// JUnit XML: one <testsuite> per scenario file, one <testcase> per expectation.
std::string junit_xml(const std::vector<check_suite>& suites);

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
//
// CLI11 validators for numeric options whose messages name the range a user can type.
// CLI::PositiveNumber prints its upper bound, the largest double, as 300 digits
// ("--jobs: Value 0 not in range 0.000000 to 179769313486231570814527…").
#pragma once

#include <CLI/CLI.hpp>

namespace nicsim::cli {

// -j/--jobs: a whole number of processes, 1 or more.
CLI::Validator process_count();

// A positive, finite number (e.g. -i/--interval SECONDS).
CLI::Validator positive_number();

} // namespace nicsim::cli

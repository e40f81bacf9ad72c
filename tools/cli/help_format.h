// SPDX-License-Identifier: MIT
//
// `nicsim --help` and each subcommand's help fit the terminal, at most 100 columns: option and
// subcommand descriptions wrap inside their column, the descriptions above them to the width;
// each command's footer (its examples) is written to fit 100 columns (help_test checks it).
#pragma once

#include <cstddef>
#include <memory>

namespace CLI {
class Formatter;
}

namespace nicsim::cli {

inline constexpr std::size_t help_max_columns = 100;

// The formatter for the App: set it before adding subcommands (they take their parent's).
// `columns`: the width to fit (the terminal's, capped at help_max_columns).
std::shared_ptr<CLI::Formatter> wrapping_help_formatter(std::size_t columns);

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
//
// The `nicsim sweep` subcommand (docs/sweep.md). Registered on the CLI11 app by cli.cc; the
// options live in the returned object until the command runs.
#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace nicsim::cli {

struct subcommand {
    CLI::App* cmd = nullptr; // true-ish (*cmd) when the user chose it
    std::function<int(std::ostream& out, std::ostream& err)> run;
};

subcommand add_sweep_command(CLI::App& app);

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
//
// The command line's own definition (the CLI11 App tree) as data, for the files generated from
// it: the bash completion (`nicsim completion bash`) and the man page (`nicsim completion man`).
// Generating them from the App means a new subcommand or option reaches both without an edit.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace nicsim::cli {

// What a value of an option or positional is, from its type name (the metavar in --help, set
// with ->type_name()): the completion offers matching files, directories or the members.
struct value_kind {
    enum kind { none, free, any_file, yaml, json, dir, member } k = none;
    std::vector<std::string> members; // for member, from a CLI::IsMember check
};

struct cli_option {
    std::vector<std::string> names; // "-j", "--jobs"; empty for a positional
    std::string positional;         // its name, for a positional
    std::string metavar;            // e.g. FILE, YAML, N:POSITIVE; empty for a flag
    std::string description;
    value_kind value;
    bool required = false;
    bool repeated = false; // may be given more than once / takes several values
};

struct cli_command {
    std::string name; // empty for the top level
    std::string description;
    std::vector<cli_option> options; // the options first, then the positionals in order
};

// The top level first, then each visible subcommand (hidden ones, group "", are left out).
std::vector<cli_command> walk_cli(const CLI::App& app);

std::string bash_completion(const std::vector<cli_command>& cmds);
std::string man_page(const std::vector<cli_command>& cmds, const std::string& version);

} // namespace nicsim::cli

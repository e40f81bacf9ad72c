// SPDX-License-Identifier: MIT
#include "tools/cli/cli_walk.h"

#include <CLI/CLI.hpp>

namespace nicsim::cli {
namespace {

// CLI11 2.1 keeps no list of an IsMember check's members; its description ("{a,b}") is the
// part of the type name after the ':' that says them.
std::vector<std::string> members_of(const std::string& type_name) {
    const auto open = type_name.find('{');
    const auto close = type_name.rfind('}');
    std::vector<std::string> out;
    if (open == std::string::npos || close == std::string::npos || close < open)
        return out;
    std::string item;
    for (const char c : type_name.substr(open + 1, close - open - 1)) {
        if (c == ',') {
            out.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    if (!item.empty())
        out.push_back(item);
    return out;
}

value_kind kind_of(const std::string& type_name) {
    value_kind v;
    v.members = members_of(type_name);
    if (!v.members.empty()) {
        v.k = value_kind::member;
        return v;
    }
    const std::string base = type_name.substr(0, type_name.find(':'));
    if (base == "FILE" || base == "PATH")
        v.k = value_kind::any_file;
    else if (base == "YAML")
        v.k = value_kind::yaml;
    else if (base == "JSON")
        v.k = value_kind::json;
    else if (base == "DIR")
        v.k = value_kind::dir;
    else
        v.k = value_kind::free;
    return v;
}

cli_option option_of(const CLI::Option& o) {
    cli_option c;
    for (const auto& s : o.get_snames())
        c.names.push_back("-" + s);
    for (const auto& l : o.get_lnames())
        c.names.push_back("--" + l);
    if (!o.nonpositional())
        c.positional = o.get_name();
    c.description = o.get_description();
    c.required = o.get_required();
    c.repeated = o.get_expected_max() > 1 || o.get_items_expected_max() > 1 ||
                 o.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
    // A flag (--quiet, --help) takes no value: CLI11 gives it no items and no type name.
    if (o.get_items_expected_max() > 0 && !o.get_type_name().empty()) {
        c.metavar = o.get_type_name();
        c.value = kind_of(c.metavar);
    }
    return c;
}

cli_command command_of(const CLI::App& a) {
    cli_command c{a.get_name(), a.get_description(), {}};
    std::vector<cli_option> positionals;
    for (const CLI::Option* o : a.get_options()) {
        if (o->get_group().empty()) // hidden
            continue;
        (o->nonpositional() ? c.options : positionals).push_back(option_of(*o));
    }
    c.options.insert(c.options.end(), positionals.begin(), positionals.end());
    return c;
}

} // namespace

std::vector<cli_command> walk_cli(const CLI::App& app) {
    std::vector<cli_command> out{command_of(app)};
    out.front().name.clear();
    // Option groups are nameless subcommands; hidden subcommands have an empty group.
    for (const CLI::App* s :
         app.get_subcommands([](const CLI::App* s) { return !s->get_name().empty(); }))
        if (!s->get_group().empty())
            out.push_back(command_of(*s));
    return out;
}

} // namespace nicsim::cli

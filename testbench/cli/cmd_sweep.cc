// SPDX-License-Identifier: MIT
#include "testbench/cli/cmd_sweep.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include <CLI/CLI.hpp>

#include "testbench/cli/cli.h"
#include "testbench/cli/option_checks.h"
#include "testbench/config/yaml_reader.h"
#include "testbench/sweep/process_pool.h"
#include "testbench/sweep/sweep.h"

namespace nicsim::cli {
namespace {

struct sweep_args {
    std::string file;
    unsigned jobs = 0;
    std::string out_dir;
    bool emit = false;
    std::vector<std::string> merge;
};

int run_sweep_command(const sweep_args& a, std::ostream& out, std::ostream& err) {
    sweep::sweep_spec spec;
    try {
        spec = sweep::load_sweep_spec(a.file);
        sweep::check_points(spec);
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    }
    sweep::sweep_options o;
    o.out_dir = a.out_dir.empty() ? "sweep-" + spec.stem : a.out_dir;
    o.jobs = a.jobs ? a.jobs : sweep::default_jobs();
    o.tty = &out == &std::cout && isatty(STDOUT_FILENO);
    try {
        o.exe = sweep::self_exe();
        if (a.emit) {
            out << sweep::emit_commands(spec, o);
            return exit_ok;
        }
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    } catch (const std::exception& e) {
        err << "nicsim sweep: " << e.what() << "\n";
        return exit_run_error;
    }
    try {
        const sweep::sweep_summary s = a.merge.empty() ? sweep::run_sweep(spec, o, out)
                                                       : sweep::merge_sweep(spec, a.merge, o, out);
        out << "wrote";
        for (const auto& f : s.written)
            out << " " << f;
        out << "\n";
        if (s.failed || s.missing) {
            err << "nicsim sweep: " << s.failed << " failed and " << s.missing << " missing of "
                << s.total << " points\n";
            return exit_run_error;
        }
    } catch (const std::exception& e) {
        err << "nicsim sweep: " << e.what() << "\n";
        return exit_run_error;
    }
    return exit_ok;
}

} // namespace

subcommand add_sweep_command(CLI::App& app) {
    auto a = std::make_shared<sweep_args>();
    CLI::App* c = app.add_subcommand(
        "sweep", "run a scenario over a grid or list of --set values, one process per point");
    c->add_option("sweep", a->file, "sweep YAML file (docs/sweep.md)")
        ->required()
        ->type_name("YAML");
    c->add_option("-j,--jobs", a->jobs, "points run at once (default: hardware threads)")
        ->type_name("N")
        ->check(process_count());
    c->add_option("--out", a->out_dir, "output directory (default: sweep-<file stem>)")
        ->type_name("DIR");
    c->add_flag("--emit-commands", a->emit,
                "print one shell command per point (writing <out>/points/<id>.json) instead of "
                "running");
    c->add_option("--merge", a->merge,
                  "combine point files found in these directories (DIR/points/ or DIR/) into "
                  "<out>")
        ->type_name("DIR")
        ->expected(1, CLI::detail::expected_max_vector_size)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c->get_option("--emit-commands")->excludes(c->get_option("--merge"));
    return {c,
            [a](std::ostream& out, std::ostream& err) { return run_sweep_command(*a, out, err); }};
}

} // namespace nicsim::cli

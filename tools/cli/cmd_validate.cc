// SPDX-License-Identifier: MIT
#include "tools/cli/cmd_validate.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "tools/cli/cli.h"
#include "tools/cli/option_checks.h"
#include "tools/config/config_loader.h"
#include "tools/report/text_layout.h"
#include "tools/sweep/process_pool.h"
#include "tools/validate/validation.h"

namespace nicsim::cli {
namespace {

struct validate_args {
    std::string path;
    unsigned jobs = 0;
};

int run_validate_command(const validate_args& a, std::ostream& out, std::ostream& err) {
    const std::string path =
        a.path.empty()
            ? (std::filesystem::path(config::default_configs_dir()) / "validation").string()
            : a.path;
    std::vector<validate::check> checks;
    try {
        checks = validate::load_checks(path);
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    }
    validate::options o;
    o.jobs = a.jobs ? a.jobs : sweep::default_jobs();
    o.tty = &out == &std::cout && isatty(STDOUT_FILENO);
    std::vector<validate::outcome> res;
    try {
        o.exe = sweep::self_exe();
        res = validate::run_checks(checks, o, out);
    } catch (const std::exception& e) {
        err << "nicsim validate: " << e.what() << "\n";
        return exit_run_error;
    }
    // The notes under the table wrap to the terminal, at most 100 columns (100 into a file).
    out << "\n"
        << validate::render_table(checks, res,
                                  report::columns_up_to(o.tty ? STDOUT_FILENO : -1, 100));
    bool errors = false, fails = false;
    for (const auto& r : res) {
        errors = errors || !r.problem.empty();
        fails = fails || (r.problem.empty() && !r.pass);
    }
    if (errors)
        return exit_run_error;
    return fails ? exit_check_failed : exit_ok;
}

} // namespace

subcommand add_validate_command(CLI::App& app) {
    auto a = std::make_shared<validate_args>();
    CLI::App* c = app.add_subcommand(
        "validate", "run the validation points (predicted vs measured, docs/validate.md)");
    c->footer("Examples:\n"
              "  nicsim validate                       # every point in configs/validation\n"
              "  nicsim validate configs/validation -j 2");
    c->add_option("dir", a->path,
                  "validation directory or file (default: <configs>/validation, configs = "
                  "$NICSIM_CONFIGS_DIR or the source tree's)")
        ->type_name("PATH");
    c->add_option("-j,--jobs", a->jobs, "runs at once (default: hardware threads)")
        ->type_name("N")
        ->check(process_count());
    return {c, [a](std::ostream& out, std::ostream& err) {
                return run_validate_command(*a, out, err);
            }};
}

} // namespace nicsim::cli

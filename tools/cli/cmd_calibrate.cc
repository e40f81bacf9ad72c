// SPDX-License-Identifier: MIT
#include "tools/cli/cmd_calibrate.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "tools/calibrate/calibrate.h"
#include "tools/cli/cli.h"
#include "tools/cli/cmd_validate.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/output_paths.h"
#include "tools/config/config_loader.h"
#include "tools/sweep/process_pool.h"

namespace nicsim::cli {
namespace {

int run_calibrate_command(calibrate::request r, std::ostream& out, std::ostream& err) {
    calibrate::plan p;
    try {
        p = calibrate::make_plan(r);
    } catch (const config::config_error& e) {
        err << "nicsim calibrate: " << e.what() << "\n";
        return exit_config_error;
    }
    // Checked before the runs: a profile that cannot be written after the fit is the fit lost.
    const std::string why = r.output == "-" ? std::string("-: calibrate writes a file, not stdout")
                                            : output_path_problem(r.output);
    if (!why.empty()) {
        err << "nicsim calibrate: -o " << why << "\n";
        return exit_config_error;
    }
    calibrate::result res;
    try {
        r.exe = sweep::self_exe();
        if (!r.jobs)
            r.jobs = sweep::default_jobs();
        res = calibrate::run(p, r, out);
    } catch (const std::exception& e) {
        err << "nicsim calibrate: " << e.what() << "\nnothing written\n";
        return exit_run_error;
    }
    out << calibrate::render(p, res);
    try {
        calibrate::write_profile(p, res);
    } catch (const std::exception& e) {
        err << "nicsim calibrate: " << e.what() << "\n";
        return exit_run_error;
    }
    // A relative platform path is looked up beside the scenario: the hint gives the absolute one.
    out << "\nwrote " << p.output << " (profile '" << p.name << "'; use it with --set platform="
        << std::filesystem::absolute(p.output).lexically_normal().string() << ")\n";
    try {
        calibrate::predict_others(p, r, res, out);
        out << calibrate::render_others(p, res);
    } catch (const std::exception& e) {
        err << "nicsim calibrate: --predict: " << e.what() << " (the profile is written)\n";
        return exit_run_error;
    }
    if (!calibrate::within_tolerance(p, res)) {
        err << "nicsim calibrate: a residual is outside its measurement's tolerance (above)\n";
        return exit_check_failed;
    }
    return exit_ok;
}

} // namespace

subcommand add_calibrate_command(CLI::App& app) {
    auto r = std::make_shared<calibrate::request>();
    CLI::App* c = app.add_subcommand(
        "calibrate", "fit profile keys to your measurements and write a new profile "
                     "(docs/your-board.md)");
    c->add_option("measurements", r->measurements,
                  "measurement files or directories (the validation format, docs/validate.md)")
        ->required()
        ->type_name("PATH");
    c->add_option("-o,--output", r->output, "the new profile to write")
        ->required()
        ->type_name("FILE");
    c->add_option("--profile", r->profile,
                  "the profile to start from (default: the one the measurements' scenarios name)")
        ->type_name("FILE");
    c->add_option("--key", r->keys,
                  "a profile key to fit, with optional bounds (default: a quarter to four times "
                  "its value); default: the profile's assumptions that move the measurements most, "
                  "at most one per measurement")
        ->type_name("KEY[=LO:HI]")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c->add_option("--tie", r->ties, "a key that follows a fitted one: KEY=FACTOR*FITTED_KEY")
        ->type_name("KEY=F*KEY")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c->add_option("--predict", r->predict,
                  "also print this scenario's prediction with the fitted profile and its "
                  "elasticity to each key (METRIC default: rtt_avg_ms for ping, else goodput_kbps)")
        ->type_name("SCENARIO[:METRIC]")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c->add_option("--name", r->name, "the new profile's name (default: <profile>-calibrated)")
        ->type_name("NAME");
    c->add_option("-j,--jobs", r->jobs, "runs at once (default: hardware threads)")
        ->type_name("N")
        ->check(process_count());
    return {c, [r](std::ostream& out, std::ostream& err) {
                return run_calibrate_command(*r, out, err);
            }};
}

} // namespace nicsim::cli

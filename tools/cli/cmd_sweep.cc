// SPDX-License-Identifier: MIT
#include "tools/cli/cmd_sweep.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include <CLI/CLI.hpp>

#include "tools/cli/cli.h"
#include "tools/cli/option_checks.h"
#include "core/config/units.h"
#include "tools/config/yaml_reader.h"
#include "tools/sweep/process_pool.h"
#include "tools/sweep/sweep.h"

namespace nicsim::cli {
namespace {
namespace fs = std::filesystem;

struct sweep_args {
    std::string file;
    unsigned jobs = 0;
    std::string out_dir;
    bool emit = false;
    std::vector<std::string> merge;
    std::string timeout; // --timeout DURATION
};

// "checking points: 12000 of 1000000" about every 2 s once the check has taken 1 s: a large grid
// shows at once that it is working (on a terminal redrawn in place).
class check_progress {
  public:
    check_progress(std::ostream& out, bool tty) : out_(out), tty_(tty) {}
    void operator()(size_t done, size_t total) {
        const auto now = std::chrono::steady_clock::now();
        if (now - start_ < std::chrono::seconds(1) ||
            (shown_ && now - last_ < std::chrono::seconds(2) && done < total))
            return;
        if (!shown_ && done == total)
            return; // finished before a line was due
        out_ << (tty_ ? "\r\033[K" : "") << "checking points: " << done << " of " << total
             << (tty_ && done < total ? "" : "\n") << std::flush;
        shown_ = true;
        last_ = now;
    }

  private:
    std::ostream& out_;
    bool tty_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

int run_sweep_command(const sweep_args& a, std::ostream& out, std::ostream& err) {
    sweep::sweep_spec spec;
    sweep::sweep_options o;
    o.tty = &out == &std::cout && isatty(STDOUT_FILENO);
    // With --emit-commands stdout carries the commands: what the sweep says goes to stderr.
    std::ostream& say = a.emit ? err : out;
    try {
        if (!a.timeout.empty()) {
            try {
                o.timeout_s = config::parse_duration(a.timeout).seconds();
            } catch (const std::exception& e) {
                throw config::config_error("nicsim sweep: --timeout " + a.timeout + ": " +
                                           e.what());
            }
            if (o.timeout_s <= 0)
                throw config::config_error("nicsim sweep: --timeout " + a.timeout +
                                           ": must be > 0");
        }
        // Its size at once: a large grid takes a while to expand and to check.
        spec = sweep::load_sweep_spec(a.file, [&](size_t n) {
            if (!a.emit)
                say << fs::path(a.file).stem().string() << ": " << n << " points\n" << std::flush;
        });
        check_progress progress(say, o.tty && !a.emit);
        sweep::check_points(spec, std::ref(progress));
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    }
    o.out_dir = a.out_dir.empty() ? "sweep-" + spec.stem : a.out_dir;
    o.jobs = a.jobs ? a.jobs : sweep::default_jobs();
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
    c->footer("Examples:\n"
              "  nicsim sweep configs/studies/wilc1000-power-save.yaml -j 2   # run or resume\n"
              "  nicsim sweep study.yaml --emit-commands --out /scratch/s > cmds.txt  # clusters\n"
              "  nicsim sweep study.yaml --merge /scratch/s --out results\n"
              "Sweep files, results and plots: docs/sweep.md.");
    c->add_option("sweep", a->file, "sweep YAML file (docs/sweep.md)")
        ->required()
        ->type_name("YAML");
    c->add_option("-j,--jobs", a->jobs, "points run at once (default: hardware threads)")
        ->type_name("N")
        ->check(process_count());
    c->add_option("--out", a->out_dir, "output directory (default: sweep-<file stem>)")
        ->type_name("DIR");
    c->add_option("--timeout", a->timeout,
                  "wall-clock limit of each point (e.g. 600s): a point still running then is "
                  "stopped and recorded as failed (default: the sweep file's timeout:, else none)")
        ->type_name("DURATION");
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

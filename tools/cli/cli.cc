// SPDX-License-Identifier: MIT
#include "tools/cli/cli.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sys/resource.h>
#include <utility>

#include <CLI/CLI.hpp>

#include "bus/common/local_time.h"
#include "host/board/bus_clock.h"
#include "tools/build_info.h"
#include "tools/cli/cli_walk.h"
#include "tools/cli/cmd_calibrate.h"
#include "tools/cli/cmd_check.h"
#include "tools/cli/cmd_sweep.h"
#include "tools/cli/cmd_validate.h"
#include "tools/cli/help_format.h"
#include "tools/cli/run_progress.h"
#include "tools/cli/schema_gen.h"
#include "tools/cli/output_paths.h"
#include "tools/cli/option_checks.h"
#include "tools/config/config_loader.h"
#include "tools/driver_source.h"
#include "tools/report/json_writer.h"
#include "tools/report/text_layout.h"
#include "tools/report/text_renderer.h"
#include "tools/report/verdict.h"
#include "sim/runner.h"
#include "sim/interrupt.h"

namespace nicsim::cli {
namespace {

double peak_rss_mb() {
    struct rusage ru {};
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return static_cast<double>(ru.ru_maxrss) / 1024.0; // Linux reports KiB
}

// The deterministic identification of the run, from the validated configs and the build.
void fill_run_info(report::report& r, const config::scenario_config& s,
                   const config::platform_profile& p, const std::vector<std::string>& sets) {
    r.run.scenario = s.name;
    r.run.scenario_file = s.source_file;
    r.run.platform = p.name;
    r.run.device = s.device.type;
    r.run.bus = config::to_string(s.device.bus);
    r.run.bus_clock_hz = s.device.bus_clock.hz;
    r.run.bus_clock_actual_hz = board::actual_bus_clock_hz(p, s.device.bus, s.device.bus_clock);
    r.run.driver_variant = s.driver.variant;
    r.run.power_save = s.driver.power_save;
    r.run.traffic = config::to_string(s.traffic.kind);
    r.run.seed = s.seed;
    r.run.overrides = sets;
    r.run.nicsim_version = build_info::nicsim_version;
    // The exact version of the tree the scenario's driver came from (driver.kernel).
    const build_info::kernel_tree* tree = build_info::find_kernel_tree(s.driver.kernel.c_str());
    r.run.kernel_version = tree ? tree->version : build_info::kernel_trees[0].version;
    if (const driver_source::plugin* p = driver_source::loaded()) { // driver.source
        r.run.driver_variant = "source:" + p->sha256.substr(0, 12);
        r.run.kernel_version = p->kernel_version;
        r.run.driver_source = p->driver_dir;
        r.run.driver_source_sha256 = p->sha256;
    }
}

config::load_options options_with(const std::vector<std::string>& sets) {
    config::load_options o;
    o.overrides = sets;
    add_known_drivers(o);
    return o;
}

// --vcd/--timeline/--log/--pcap/--pcap-peer/--trace-window are shorthands for --set trace.<key>=VALUE, applied
// after the user's --set so they win. False (with `why`) for a malformed window.
bool add_trace_sets(std::vector<std::string>& sets, const std::string& vcd,
                    const std::string& timeline, const std::string& log, const std::string& pcap,
                    const std::string& pcap_peer, const std::string& window, std::string& why) {
    if (!pcap.empty())
        sets.push_back("trace.pcap=" + pcap);
    if (!pcap_peer.empty())
        sets.push_back("trace.pcap_peer=" + pcap_peer);
    if (!vcd.empty())
        sets.push_back("trace.vcd=" + vcd);
    if (!timeline.empty())
        sets.push_back("trace.timeline=" + timeline);
    if (!log.empty())
        sets.push_back("trace.log=" + log);
    if (window.empty())
        return true;
    const auto colon = window.find(':');
    if (colon == std::string::npos) {
        why = "expected START:END (either side may be empty, e.g. 1.5s:2s, 200ms:, :10ms), got '" +
              window + "'";
        return false;
    }
    if (const std::string start = window.substr(0, colon); !start.empty())
        sets.push_back("trace.window_start=" + start);
    if (const std::string end = window.substr(colon + 1); !end.empty())
        sets.push_back("trace.window_end=" + end);
    return true;
}

// The output files of a run (--json, the traces), labelled as the user named them; checked
// before the run starts.
using output_list = std::vector<std::pair<std::string, std::string>>;

bool outputs_writable(output_list outputs, const config::trace_config& trace, std::ostream& err) {
    // Trace files set in the scenario (not by a flag) are named by their key.
    for (const auto& [key, path] : trace.files()) {
        bool by_flag = false;
        for (const auto& o : outputs)
            by_flag |= o.second == path;
        if (!by_flag)
            outputs.emplace_back(key, path);
    }
    bool ok = true;
    for (const auto& [label, path] : outputs)
        if (!path.empty())
            if (const std::string why = output_path_problem(path); !why.empty()) {
                err << "nicsim run: " << label << " " << why << "\n";
                ok = false;
            }
    return ok;
}

// Writes the text report and/or the JSON report. False (with the reason on err) on a write
// error: a report that did not reach its file or stdout is not a successful run.
bool write_outputs(const report::report& rep, const std::string& json_file, bool quiet,
                   std::ostream& out, std::ostream& err) {
    errno = 0;
    if (!quiet && json_file != "-") {
        out << report::render_text(rep, report::terminal_columns(1)) << std::flush;
        if (!out) {
            err << "nicsim: cannot write the report to stdout"
                << (errno ? std::string(": ") + std::strerror(errno) : "") << "\n";
            return false;
        }
    }
    if (json_file == "-") {
        out << report::write_json(rep) << std::flush;
        if (!out) {
            err << "nicsim: cannot write the JSON report to stdout"
                << (errno ? std::string(": ") + std::strerror(errno) : "") << "\n";
            return false;
        }
    } else if (!json_file.empty()) {
        try {
            report::write_json_file(rep, json_file);
        } catch (const std::exception& e) {
            err << "nicsim: " << e.what() << "\n";
            return false;
        }
    }
    return true;
}

int cmd_run(const std::string& file, const std::vector<std::string>& sets,
            const std::vector<std::string>& recorded_sets, const std::string& json_file,
            const output_list& trace_flags, bool quiet, double interval_s, std::ostream& out,
            std::ostream& err) {
    // From here on SIGINT/SIGTERM end the run at its next time slice with the report so far.
    system::catch_interrupts();
    config::loaded_scenario cfg;
    try {
        cfg = config::load_scenario(file, options_with(sets));
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    }
    output_list outputs = trace_flags;
    outputs.emplace_back("--json", json_file);
    if (!outputs_writable(outputs, cfg.scenario.trace, err))
        return exit_config_error;
    for (const auto& f : remove_stale_spill_files(cfg.scenario.trace.vcd))
        err << "nicsim: removed " << f << ", left by a run of this VCD that was killed\n";
    if (!cfg.scenario.driver.source.empty()) { // a user's tree: compile or take from the cache
        const build_info::kernel_tree* tree =
            build_info::find_kernel_tree(cfg.scenario.driver.kernel.c_str());
        try {
            const driver_source::plugin& p = driver_source::load(
                cfg.scenario.driver.source, cfg.scenario.device.type,
                tree ? tree->version : build_info::kernel_trees[0].version, err);
            cfg.scenario.driver.source_key = p.key;
            // "6.1.192" -> "6.1": how findings name the driver's kernel.
            const auto dot = p.kernel_version.find('.', p.kernel_version.find('.') + 1);
            cfg.scenario.driver.source_kernel = p.kernel_version.substr(0, dot);
        } catch (const driver_source::plugin_error& e) {
            err << "nicsim: " << e.what() << "\n";
            return exit_config_error;
        }
    }
    report::report rep;
    std::string failure; // a run that failed after it started still writes its report
    const auto t0 = std::chrono::steady_clock::now();
    try {
        // Interval lines go where the report goes, unless stdout carries the JSON.
        const progress_scope progress(interval_s, !quiet && stderr_is_terminal(),
                                      json_file == "-" ? err : out, err,
                                      cfg.scenario.traffic.bytes.bytes);
        rep = run_scenario(cfg.scenario, cfg.platform);
    } catch (const run_error& e) {
        err << "nicsim: run failed: " << e.what() << "\n";
        return exit_run_error;
    } catch (const std::exception& e) {
        err << "nicsim: internal error: " << e.what() << "\n";
        return exit_run_error;
    }
    const auto t1 = std::chrono::steady_clock::now();
    if (rep.end_reason == "run failed") { // the report so far; the error is its last finding
        static const std::string prefix = "run failed: ";
        failure = rep.findings.empty() ? std::string("unknown error") : rep.findings.back().message;
        if (failure.compare(0, prefix.size(), prefix) == 0)
            failure.erase(0, prefix.size());
    }
    fill_run_info(rep, cfg.scenario, cfg.platform, recorded_sets);
    rep.host.wall_time_s = std::chrono::duration<double>(t1 - t0).count();
    rep.host.peak_rss_mb = peak_rss_mb();
    rep.host.delta_cycles = sc_core::sc_delta_count();
    rep.host.local_time_steps = local_time::local_advances();
    rep.host.local_time_waits = local_time::waits();
    const int sig = system::interrupt_signal();
    const bool interrupted = rep.end_reason == "interrupted";
    // An interrupted or failed run fell short by definition; its verdict would only repeat that.
    const bool delivered =
        interrupted || !failure.empty() || report::judge(cfg.scenario.traffic, rep);

    if (!write_outputs(rep, json_file, quiet, out, err))
        return exit_run_error;
    if (!failure.empty()) {
        err << "nicsim: run failed: " << failure << "\n";
        return exit_run_error;
    }
    if (interrupted) {
        err << "nicsim: interrupted by " << system::signal_name(sig) << " at " << rep.sim_time_s
            << " s simulated; the report covers the run so far\n";
        return 128 + sig;
    }
    if (!delivered) {
        err << "nicsim: the run delivered less than its traffic asked for:\n";
        for (const auto& f : rep.findings)
            if ((f.source == "verdict" || f.source == "fault") && f.severity == "error")
                err << "  " << f.message << "\n";
        return exit_traffic_short;
    }
    return exit_ok;
}

int cmd_validate(const std::string& file, const std::vector<std::string>& sets, std::ostream& out,
                 std::ostream& err) {
    try {
        if (config::detect_config_kind(file) == config::config_kind::platform) {
            const auto p = config::load_platform(file, sets);
            out << "ok: " << file << ": platform profile '" << p.name << "'\n";
        } else {
            const auto l = config::load_scenario(file, options_with(sets));
            out << "ok: " << file << ": scenario '" << l.scenario.name << "' ("
                << l.scenario.device.type << "/" << config::to_string(l.scenario.device.bus) << ", "
                << config::to_string(l.scenario.traffic.kind) << ", platform '" << l.platform.name
                << "' from " << l.scenario.platform << ")\n";
        }
    } catch (const config::config_error& e) {
        err << e.what() << "\n";
        return exit_config_error;
    }
    return exit_ok;
}

int cmd_compare(const std::vector<std::string>& files, const std::vector<std::string>& labels,
                std::ostream& out, std::ostream& err) {
    std::vector<report::report> reports;
    try {
        for (const auto& f : files)
            reports.push_back(report::read_json_file(f));
    } catch (const std::exception& e) {
        err << "nicsim: " << e.what() << "\n";
        return exit_config_error;
    }
    if (!labels.empty() && labels.size() != files.size()) {
        err << "nicsim compare: " << labels.size() << " labels for " << files.size()
            << " reports\n";
        return exit_config_error;
    }
    out << report::render_side_by_side(reports, labels, report::terminal_columns(1));
    return exit_ok;
}

} // namespace

std::string version_text() {
    std::string s = std::string("nicsim ") + build_info::nicsim_version + "\n";
    for (const auto* t = build_info::kernel_trees; t->kernel; ++t)
        s += std::string("kernel ") + t->version + " from " + t->origin + "\n";
    for (const auto* t = build_info::kernel_trees; t->kernel; ++t) {
        s += std::string("driver source files of kernel ") + t->kernel +
             " (sha256, as `sha256sum` prints them, paths in the kernel tree):\n";
        for (const auto* f = t->files; f->path; ++f)
            s += std::string("  ") + f->sha256 + "  " + f->path + "\n";
    }
    // kernel × driver × variant, with the hash of every patch a variant applies.
    const driver_builds builds = known_driver_builds();
    s += "driver builds (driver.kernel / device.type / driver.variant):\n";
    for (const auto& b : builds.built) {
        s += "  " + b.kernel + " (" + b.kernel_version + ")  " + b.driver + "  " + b.variant + "\n";
        for (size_t at = 0; at < b.patches.size();) {
            size_t nl = b.patches.find('\n', at);
            if (nl == std::string::npos)
                nl = b.patches.size();
            // "<patch file> <sha256>" → "<sha256>  <patch file>", as sha256sum prints it.
            const std::string line = b.patches.substr(at, nl - at);
            const size_t sp = line.rfind(' ');
            if (sp != std::string::npos)
                s += "      patch " + line.substr(sp + 1) + "  " + line.substr(0, sp) + "\n";
            at = nl + 1;
        }
    }
    for (const auto& [what, why] : builds.unbuilt)
        s += "  not built: " + what + ": " + why + "\n";
    const auto variants = known_driver_variants();
    s += "driver variants: ";
    if (variants.empty())
        s += "pristine (no variant registry linked)";
    for (size_t i = 0; i < variants.size(); ++i)
        s += (i ? ", " : "") + variants[i];
    s += "\n";
    return s;
}

namespace {
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{"nicsim: cycle-level simulator of SPI/SDIO-attached network chips running the "
                 "real Linux drivers",
                 "nicsim"};
    app.formatter(wrapping_help_formatter(report::columns_up_to(1, help_max_columns)));
    app.footer("Examples (in the source tree; docs/ explains each command):\n"
               "  nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=true\n"
               "  nicsim run configs/ks8851-spi-iperf-rx.yaml --json out.json\n"
               "  nicsim compare a.json b.json\n"
               "  nicsim sweep configs/studies/wilc1000-power-save.yaml -j 2\n"
               "  nicsim validate\n"
               "  nicsim check examples/ks8851-ping-check.yaml --junit j.xml\n"
               "'nicsim COMMAND --help' lists a command's options.");
    app.require_subcommand(0, 1);
    bool version = false;
    app.add_flag("--version", version, "print version, kernel and driver source hashes");

    std::string run_file, json_file;
    std::vector<std::string> run_sets;
    bool quiet = false;
    CLI::App* run_cmd = app.add_subcommand("run", "validate and run a scenario");
    run_cmd->footer(
        "Examples:\n"
        "  nicsim run configs/wilc1000-spi-ttcp-tx.yaml                    # the text report\n"
        "  nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=true -q "
        "--json p.json\n"
        "  nicsim run configs/ks8851-spi-iperf-rx.yaml --set duration=1s -i 0.1      "
        "# like iperf3 -i\n"
        "  nicsim run configs/wilc1000-sdio-ttcp-tx.yaml --vcd w.vcd --trace-window :20ms\n"
        "  nicsim run configs/wilc1000-spi-ttcp-tx.yaml --driver-src ~/linux         "
        "# your driver tree\n"
        "Keys for --set: docs/scenarios.md; traces: docs/traces.md.");
    run_cmd->add_option("scenario", run_file, "scenario YAML file")->required()->type_name("YAML");
    run_cmd
        ->add_option("--set", run_sets, "override a scenario key before validation: key.path=value")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    run_cmd->add_option("--json", json_file, "also write the report as JSON to FILE ('-' = stdout)")
        ->type_name("FILE");
    run_cmd->add_flag("-q,--quiet", quiet, "do not print the text report");
    double interval_s = 0;
    run_cmd
        ->add_option("-i,--interval", interval_s,
                     "print transfer and bitrate every SECONDS of simulated time (iperf3 -i)")
        ->type_name("SECONDS")
        ->check(positive_number());
    std::string vcd_file, timeline_file, log_file, pcap_file, pcap_peer_file, trace_window,
        trace_max_size; // docs/traces.md
    run_cmd
        ->add_option("--vcd", vcd_file,
                     "write a VCD waveform (bus pins, IRQ, power) to FILE (FILE.fst: GTKWave FST)")
        ->type_name("FILE");
    std::string vcd_format;
    run_cmd
        ->add_option("--vcd-format", vcd_format,
                     "gtkwave (default, with a .gtkw save file) or sigrok (PulseView, sigrok-cli)")
        ->check(CLI::IsMember({"gtkwave", "sigrok"}));
    run_cmd
        ->add_option("--timeline", timeline_file,
                     "write a Trace Event JSON timeline (Perfetto, chrome://tracing) to FILE")
        ->type_name("FILE");
    run_cmd->add_option("--log", log_file, "write one line per bus transaction to FILE")
        ->type_name("FILE");
    run_cmd
        ->add_option("--pcap", pcap_file,
                     "write the frames at the board's netdev as pcapng to FILE (Wireshark)")
        ->type_name("FILE");
    run_cmd
        ->add_option("--pcap-peer", pcap_peer_file,
                     "write the frames at the far host as pcapng to FILE (Wireshark)")
        ->type_name("FILE");
    run_cmd
        ->add_option("--trace-window", trace_window,
                     "limit the traces to START:END simulated time (e.g. 1.5s:2s, 200ms:)")
        ->type_name("START:END");
    run_cmd
        ->add_option("--trace-max-size", trace_max_size,
                     "largest size of each trace file (default 1GiB, 0 = no limit; e.g. 100MB)")
        ->type_name("SIZE");
    std::string driver_src; // docs/driver-changes.md
    run_cmd
        ->add_option("--driver-src", driver_src,
                     "compile the scenario's driver from the kernel tree DIR (driver.source)")
        ->type_name("DIR");

    std::string val_file;
    std::vector<std::string> val_sets;
    CLI::App* val_cmd = app.add_subcommand(
        "validate-config", "only parse and validate a scenario or platform profile");
    val_cmd->footer("Examples:\n"
                    "  nicsim validate-config configs/ks8851-spi-iperf-rx.yaml\n"
                    "  nicsim validate-config configs/ks8851-spi-iperf-rx.yaml "
                    "--set device.bus_clock=20MHz\n"
                    "  nicsim validate-config configs/platforms/sama5-class.yaml");
    val_cmd->add_option("file", val_file, "scenario or platform profile YAML file")
        ->required()
        ->type_name("YAML");
    val_cmd->add_option("--set", val_sets, "override a key before validation: key.path=value")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

    std::vector<std::string> cmp_files, cmp_labels;
    CLI::App* cmp_cmd =
        app.add_subcommand("compare", "print JSON reports (from run --json) side by side");
    cmp_cmd->footer("Example:\n"
                    "  nicsim compare off.json on.json --label 'sleep off' --label 'sleep on'");
    cmp_cmd->add_option("reports", cmp_files, "JSON report files")->required()->type_name("JSON");
    cmp_cmd->add_option("--label", cmp_labels, "column label, once per report, in order")
        ->type_name("LABEL")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

    const subcommand sweep_cmd = add_sweep_command(app);
    const subcommand validate_cmd = add_validate_command(app);
    const subcommand check_cmd = add_check_command(app);
    const subcommand calibrate_cmd = add_calibrate_command(app);

    // Hidden (group ""): what the build installs, generated from this very App.
    std::string gen_what;
    std::vector<std::string> gen_files;
    CLI::App* gen_cmd = app.add_subcommand(
        "generate", "print the bash completion, the man page or the scenario JSON Schema");
    gen_cmd->group("");
    gen_cmd->add_option("what", gen_what)
        ->required()
        ->check(CLI::IsMember({"bash-completion", "man", "schema"}));
    gen_cmd->add_option("files", gen_files, "schema: the exemplar scenarios to load")
        ->type_name("YAML");

    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e, out, err);
        return rc == 0 ? exit_ok : exit_config_error;
    }

    if (version) {
        out << version_text();
        return exit_ok;
    }
    if (*run_cmd) {
        // The report records the user's overrides, without trace.*: traces never change it.
        std::vector<std::string> recorded;
        for (const auto& a : run_sets)
            if (a.rfind("trace.", 0) != 0)
                recorded.push_back(a);
        std::string why;
        if (!driver_src.empty()) // not an override: the report names the tree itself
            run_sets.push_back("driver.source=" + driver_src);
        if (!vcd_format.empty())
            run_sets.push_back("trace.vcd_format=" + vcd_format);
        if (!trace_max_size.empty())
            run_sets.push_back("trace.max_size=" + trace_max_size);
        if (!add_trace_sets(run_sets, vcd_file, timeline_file, log_file, pcap_file,
                            pcap_peer_file, trace_window, why)) {
            err << "nicsim run: --trace-window: " << why << "\n";
            return exit_config_error;
        }
        const output_list trace_flags = {{"--vcd (trace.vcd)", vcd_file},
                                         {"--timeline (trace.timeline)", timeline_file},
                                         {"--log (trace.log)", log_file},
                                         {"--pcap (trace.pcap)", pcap_file},
                                         {"--pcap-peer (trace.pcap_peer)", pcap_peer_file}};
        return cmd_run(run_file, run_sets, recorded, json_file, trace_flags, quiet, interval_s, out,
                       err);
    }
    if (*gen_cmd && gen_what == "schema")
        return cmd_generate_schema(gen_files, out, err);
    if (*gen_cmd) {
        const auto cmds = walk_cli(app);
        out << (gen_what == "man" ? man_page(cmds, build_info::nicsim_version)
                                  : bash_completion(cmds));
        return exit_ok;
    }
    if (*val_cmd)
        return cmd_validate(val_file, val_sets, out, err);
    if (*cmp_cmd)
        return cmd_compare(cmp_files, cmp_labels, out, err);
    if (*sweep_cmd.cmd)
        return sweep_cmd.run(out, err);
    if (*validate_cmd.cmd)
        return validate_cmd.run(out, err);
    if (*check_cmd.cmd)
        return check_cmd.run(out, err);
    if (*calibrate_cmd.cmd)
        return calibrate_cmd.run(out, err);
    out << app.help();
    return exit_config_error;
}
} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    // Nothing may escape to SystemC's sc_main wrapper, which reports it as "E549 uncaught
    // exception" without saying what the user did.
    try {
        return run_cli(args, out, err);
    } catch (const std::exception& e) {
        err << "nicsim: internal error: " << e.what() << "\n";
        return exit_run_error;
    }
}

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
//
// `nicsim sweep`: run every point of a sweep file as its own `nicsim run` process (resuming from
// the point files already in the output directory), print commands for an external scheduler
// instead, or merge point files from several directories. docs/sweep.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tools/sweep/results.h"
#include "tools/sweep/sweep_spec.h"

namespace nicsim::sweep {

struct sweep_options {
    std::string out_dir; // results and points/ go here
    unsigned jobs = 1;   // parallel processes
    std::string exe;     // the nicsim binary the points run with (absolute path)
    bool tty = false;    // progress as a bar redrawn in place
    double timeout_s = 0; // --timeout: wall-clock limit of one point (0: the sweep file's)
};

// The limit a point runs under: --timeout, else the sweep file's `timeout:` (0: none).
double point_timeout_s(const sweep_spec& spec, const sweep_options& o);

struct sweep_summary {
    size_t total = 0;
    size_t already = 0; // found done in points/
    size_t ran = 0;
    size_t failed = 0;
    size_t missing = 0; // merge: no point file in any directory
    std::vector<std::string> written;
};

// <dir>/points/<id>.json (done) and <id>.failed.json (last failure).
std::string point_file(const std::string& out_dir, const point& p);
std::string failure_file(const std::string& out_dir, const point& p);

// <dir>/traces/<id>.<name>: the point's own file for a trace its scenario writes as `name`.
std::string trace_file(const std::string& out_dir, const point& p, const std::string& name);

// The argv of `nicsim run` for a point, writing its report to json_file and its traces
// (point::traces) to trace_file(out_dir, …).
std::vector<std::string> run_command(const sweep_spec& spec, const point& p, const std::string& exe,
                                     const std::string& json_file, const std::string& out_dir);

// Runs the points not yet done, then writes results and plots; messages on out.
sweep_summary run_sweep(const sweep_spec& spec, const sweep_options& o, std::ostream& out);

// One shell command per line and point (absolute paths, every argument quoted for a POSIX
// shell) writing <out_dir>/points/<id>.json; config_error when a path would need a control
// character in the line.
std::string emit_commands(const sweep_spec& spec, const sweep_options& o);

// Collects point files from dirs (each DIR/points/<id>.json or DIR/<id>.json; the first found
// wins) and writes results and plots to o.out_dir.
sweep_summary merge_sweep(const sweep_spec& spec, const std::vector<std::string>& dirs,
                          const sweep_options& o, std::ostream& out);

// Reads the outcome of a point from out_dir/points (missing when neither file is there, or
// the point file is not a report of this point: see sweep.cc read_point_report).
point_outcome read_outcome(const std::string& out_dir, const sweep_spec& spec, const point& p);

// Quotes s for a POSIX shell.
std::string shell_quote(const std::string& s);

} // namespace nicsim::sweep

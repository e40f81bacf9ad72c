// SPDX-License-Identifier: MIT
//
// A sweep file (docs/sweep.md) and its expansion into points. A point is the list of --set
// assignments that distinguishes it from the base scenario; its id is a readable slug of those
// assignments plus a hash of everything that determines the run (base, fixed set, overrides), so
// a finished point can be recognised when the same sweep is run again.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/units.h"

namespace nicsim::sweep {

// The column of a sweep whose values are scenario files (an axis `key: base`, or `base:` in a
// point): each point runs its own base scenario; the column shows the file's stem.
inline constexpr const char* k_base_key = "base";

// One "key.path=value" override; value is YAML text as --set takes it. A setting with the key
// k_base_key is no override: its value is the stem of the point's base scenario.
struct assignment {
    assignment() = default;
    assignment(std::string k, std::string v) : key(std::move(k)), value(std::move(v)) {}

    std::string key;
    std::string value;
    // What the scenario loader decoded value as, when it reads key as a quantity (48MHz as
    // 4.8e7 Hz): filled in a point's settings by check_points(), for results.csv.
    std::optional<config::plain_quantity> quantity;
    std::string text() const { return key + "=" + value; }
};

struct axis {
    std::string key;
    std::vector<std::string> values;
    std::string where; // "file:line:col" of the axis, for messages
};

struct point {
    size_t index = 0;                 // position in sweep order
    std::vector<assignment> settings; // the axis (or points:) values, in column order
    std::string id;                   // stable file-name-safe id
    std::string where;                // "file:line:col" the point comes from
    std::string base_as_written;      // its base scenario as written (`base:` or a base value)
    std::string base;                 // absolute path of its base scenario
    // The trace files its run writes ({"trace.pcap", "cap.pcapng"}: key, file name without
    // directory), filled by check_points(). Every point writes its own (sweep.h trace_file),
    // never the one name of the scenario that all points would share.
    std::vector<assignment> traces;
};

struct sweep_spec {
    std::string file;                 // the sweep file as given
    std::string stem;                 // its name without directory and extension
    std::string base_as_written;      // `base:` text ("" when every point has its own base)
    std::string base;                 // absolute path of the base scenario ("" likewise)
    std::vector<assignment> fixed;    // `set:`, applied before every point's settings
    std::vector<axis> axes;           // grid form (empty when `points:` is used)
    std::vector<std::string> columns; // the keys that vary, in column order
    std::vector<point> points;        // expanded, in sweep order
    std::vector<std::string> metrics; // to plot (defaults filled in)
    std::string compare;              // `compare:`, a column to tabulate A/B ("" = none)
    double timeout_s = 0;             // `timeout:`, wall-clock limit of one point (0 = none)
};

// At most this many points (a grid's product of axis sizes): each is a process and a file.
inline constexpr size_t k_max_points = 100'000'000;

// Parses and expands a sweep file; config_error (file:line:col) on any problem. Does not check
// the overrides against the scenario schema: see check_points(). on_size(points), when given, is
// called as soon as the number of points is known, before they are expanded.
sweep_spec load_sweep_spec(const std::string& file, const std::function<void(size_t)>& on_size = {});

// Loads the base scenario with every point's overrides, as `nicsim run` would, so a key or value
// that --set rejects fails here, before anything runs (config_error naming the point); records
// each point's trace files in point::traces and, for each of its settings the loader decodes as
// a quantity, that quantity (assignment::quantity). progress(done, total), when given, is called after
// each point (a grid of 10^6 points takes a while).
void check_points(sweep_spec& spec,
                  const std::function<void(size_t, size_t)>& progress = {});

// A point's report records its overrides without trace.* (as `nicsim run` records them): the
// trace files never change a run.
bool is_trace_key(const std::string& key);

// The full --set list of a point: fixed settings, then the point's own (without its base).
std::vector<assignment> overrides_of(const sweep_spec& spec, const point& p);

// The id of a point with these settings (exposed for tests).
std::string point_id(const std::string& base_as_written, const std::vector<assignment>& fixed,
                     const std::vector<assignment>& settings);

} // namespace nicsim::sweep

// SPDX-License-Identifier: MIT
//
// A platform profile as text, for `nicsim calibrate`: where each value stands, how its comments
// mark it (assumption / calibrated), and the profile rewritten with fitted values, every other
// line (comments included) kept as written.
//
// Marking rule (docs/your-board.md): a value's own comment is its trailing `# ...` and the
// comment lines directly above its key. It is *calibrated* when that comment begins with
// "calibrated" (the trailing one first), *assumption* when it says "assumption" anywhere. A key
// without a comment of its own shares the marking of the sibling key on the line above it, or,
// as the first key of a section, of its section's key (one comment for a run of keys).
#pragma once

#include <string>
#include <vector>

namespace nicsim::calibrate {

enum class marking { none, assumption, calibrated };
const char* to_string(marking m);

struct profile_value {
    std::string path;   // "spi_host.per_message_overhead"
    std::string text;   // the scalar as written, "14.5us"
    size_t line = 0;    // 0-based line and column of the scalar
    size_t column = 0;
    size_t end = 0;     // column just past the scalar
    marking mark = marking::none;
};

struct profile_text {
    std::string file;
    std::vector<std::string> lines;
    std::vector<profile_value> values; // every scalar leaf of the mappings, in file order
    std::vector<std::string> sections; // the top-level keys

    const profile_value* find(const std::string& path) const;
};

// Reads and indexes a profile; config_error (file:line:col) when it is not YAML.
profile_text read_profile_text(const std::string& file);

// A number with an optional unit suffix, as the profiles write values ("14.5us", "1200MHz", "6").
struct quantity {
    double number = 0;
    std::string unit;
    bool integer = false; // digits only, no unit: the loader takes it as an integer
};
// False when text does not start with a number.
bool parse_quantity(const std::string& text, quantity& q);
std::string format_quantity(double number, const std::string& unit, bool integer);

struct replacement {
    std::string path;
    std::string text;    // the new scalar
    std::string comment; // the trailing comment it gets (replacing any trailing one)
};

// The profile with the replacements, `name:` set to name, and header lines inserted after the
// first comment line (the licence line) or at the top.
std::string rewrite_profile(const profile_text& p, const std::vector<replacement>& r,
                            const std::string& name, const std::vector<std::string>& header);

} // namespace nicsim::calibrate

// SPDX-License-Identifier: MIT
//
// Report → JSON with a fixed key order (docs/report-schema.md). Numbers are written in the
// shortest form that reads back to the same double, so identical reports give byte-identical
// files; the non-deterministic `host` block is always the last key.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/report/report.h"

namespace nicsim::report {

inline constexpr int json_schema_version = 2;

nlohmann::ordered_json to_json(const report& r);
std::string write_json(const report& r); // 2-space indented, trailing newline
// Writes to file ("-" = stdout); throws std::runtime_error naming the file on failure.
void write_json_file(const report& r, const std::string& file);

// JSON (as written by write_json) → report, for `nicsim compare`. Derived keys are ignored
// (they are recomputed); throws std::runtime_error naming the file and the missing/bad key.
report read_json(const std::string& text, const std::string& name);
report read_json_file(const std::string& file);

} // namespace nicsim::report

// SPDX-License-Identifier: MIT
//
// `expect:` in scenario files: expectations on the run's JSON report, checked by `nicsim check`
// (docs/driver-testing.md). One expectation is one string:
//
//   expectation := path op value [tolerance]
//   path        := segment ('.' segment)*            a report key (docs/report-schema.md)
//   segment     := name ['[' index ']']              index: 0, 1, … or an element's name/state
//   op          := '==' | '!=' | '<' | '<=' | '>' | '>='
//   value       := number [unit] | number '%' | true | false | word | "text" | 'text'
//   tolerance   := ('±' | '+-') number '%'            only after '==': |actual − value| ≤ % of
//   value
//
// Paths are the report's JSON keys: `totals.goodput_bps`, `devices[0].wakeups`,
// `flows[tcp].active_time_s`, `devices[wlan0].power_states[sleep].time_s`,
// `faults[link_down].outcome` (an index names an element by its name, state, kind or effect). A
// name that is not a top-level key is looked up in `totals`, then in the one device (`devices[0]`),
// then in the one flow (`flows[0]`): `goodput_bps` = `totals.goodput_bps`, `wakeups` =
// `devices[0].wakeups`. Two names are not report keys: `exit_code` (of `nicsim run`: 0, 2 or 4;
// without an expectation on it, `exit_code == 0` is implied) and `findings[.SOURCE][.SEVERITY]`,
// the number of findings (of that source, of that severity): `findings.error`,
// `findings.driver.warning`, `findings.benign` (driver lines known to be benign,
// system/benign_driver_lines.h); SOURCE is the scenario's chip (its device.type) or one of
// report::finding_sources(). Every path is checked here: one that names nothing is an error, never
// a count or value of nothing. Units are those of the scenario loader (docs/scenarios.md "Units")
// and follow the key's unit suffix: `_bps` bit rates, `_s` and `rtt_ms.*` durations, `_hz`
// frequencies, `_a` currents, `_v` voltages, `bytes` sizes, `%` for the 0…1 shares; a bare number
// is in the report's unit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/config/expectation.h"

namespace nicsim::config {

const char* to_string(expect_op op);

// Parses and checks one expectation against the report's keys; throws value_error saying what is
// wrong (the caller adds where). device_type is the scenario's device.type, the one chip whose
// findings `findings.CHIP` may count ("" = none).
expectation parse_expectation(const std::string& text, const std::string& device_type = "");

// A report key naming a number, written as an expectation's path (shorthands and element names
// included: `devices[wlan0].wakeups`, `power_save.dozes`), resolved to its report path; throws
// value_error naming what is wrong (unknown key with a suggestion, a list, text). Not
// `exit_code` or `findings…`, which no report holds. For sweep plots (docs/sweep.md).
std::string resolve_number_key(const std::string& path);
// The number at a resolved path of a report: nullopt when the report lacks it or it is null.
std::optional<double> number_at(const nlohmann::json& report, const std::string& resolved);

// The report's leaf keys with array indices as "[]" ("devices[].wakeups"), from the JSON writer.
const std::vector<std::string>& report_fields();

struct expect_result {
    bool pass = false;
    std::string actual; // the value found ("2380842.71", "null", "absent: …")
};

// Evaluates e against a report (null when the run wrote none) and the run's exit code.
expect_result evaluate(const expectation& e, const nlohmann::json& report, int exit_code);

class yaml_reader;
// The scenario's `expect:` key (a list of strings, or one string); config_error naming the file,
// line and key (`expect[2]`) of the first bad item (expect_key.cc). device_type as for
// parse_expectation.
std::vector<expectation> read_expect_key(yaml_reader& scenario_root,
                                         const std::string& device_type);

// True when some expectation of the list is on exit_code (else `exit_code == 0` is implied).
bool mentions_exit_code(const std::vector<expectation>& list);

} // namespace nicsim::config

// SPDX-License-Identifier: MIT
//
// One `expect:` item of a scenario as the typed scenario carries it (scenario_config.h); its
// grammar, parsing and evaluation against a report are the tool chain's (expect.h).
#pragma once

#include <string>

namespace nicsim::config {

enum class expect_op { eq, ne, lt, le, gt, ge };

struct expectation {
    std::string text;     // as written
    std::string where;    // file:line:col of the list item, or the --set argument
    std::string path;     // as written
    std::string resolved; // the report path it names ("totals.goodput_bps"), after shorthands
    expect_op op = expect_op::eq;
    enum class value_kind { number, text, boolean } kind = value_kind::number;
    double number = 0;         // in the report's unit
    std::string text_value;    // value_kind::text
    bool bool_value = false;   // value_kind::boolean
    double tolerance_pct = -1; // ± %, or < 0 for none
};

} // namespace nicsim::config

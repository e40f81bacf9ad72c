// SPDX-License-Identifier: MIT
//
// `nicsim generate schema FILE...` (hidden, like the completion and the man page): loads each
// exemplar scenario with the real loader under a schema_recorder and prints the JSON Schema of
// what the loader asked for (tools/config/schema_recorder.h). docs/scenario.schema.json is
// its output over every shipped scenario; the test scenario_schema_accepts_configs keeps it so.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace nicsim::cli {

// Exit 0 with the schema on out; 1 (err names the file) when an exemplar does not load or none
// is given.
int cmd_generate_schema(const std::vector<std::string>& files, std::ostream& out,
                        std::ostream& err);

} // namespace nicsim::cli

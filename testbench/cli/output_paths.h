// SPDX-License-Identifier: MIT
// Output files (--json, the traces) are checked before a run starts: a report that cannot be
// written after a ten-minute run is ten minutes lost.
#pragma once

#include <string>

namespace nicsim::cli {

// "" when `file` can be created or overwritten ("-" = stdout always can), else why not, naming
// the file or its directory. Does not create anything.
std::string output_path_problem(const std::string& file);

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
// Output files (--json, the traces) are checked before a run starts: a report that cannot be
// written after a ten-minute run is ten minutes lost.
#pragma once

#include <string>
#include <vector>

namespace nicsim::cli {

// "" when `file` can be created or overwritten ("-" = stdout always can), else why not, naming
// the file or its directory. Does not create anything.
std::string output_path_problem(const std::string& file);

// A VCD trace is written through one spill file per bus, `<vcd>.<bus>.part` (and an FST through
// `<fst>.vcd.part`), merged into `vcd` when the run ends. A run killed with SIGKILL leaves them
// (and an empty `vcd`). Removes those of `vcd` before a run that writes it again; returns the
// names removed. Only names of that form are touched.
std::vector<std::string> remove_stale_spill_files(const std::string& vcd);

} // namespace nicsim::cli

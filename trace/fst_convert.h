// SPDX-License-Identifier: MIT
// FST output for --vcd FILE.fst: the VCD is written as usual and converted by GTKWave's own
// vcd2fst (Debian package gtkwave) when it is complete. FST is GTKWave's compressed, indexed
// format: a long run's waveform opens in a fraction of the VCD's time and size.
#pragma once

#include <string>

namespace nicsim::trace {

// True when `path` names an FST file (ends in ".fst").
bool is_fst_path(const std::string& path);

// The vcd2fst executable found in PATH; throws std::runtime_error saying what to install.
std::string find_vcd2fst();

// Runs `vcd2fst -v VCD -f FST` and removes VCD on success. On failure keeps the VCD as
// FST-without-.fst + ".vcd" and throws std::runtime_error naming both files and vcd2fst's exit.
void vcd_to_fst(const std::string& vcd2fst, const std::string& vcd, const std::string& fst);

} // namespace nicsim::trace

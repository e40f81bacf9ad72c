// SPDX-License-Identifier: MIT
//
// Entry point of the `nicsim` executable.
//
// libsystemc.so has its own main() that prints SystemC's copyright banner on stderr and then calls
// sc_main(). We define main() (the executable's definition wins over the shared library's) only to
// turn the banner off unless the user asked for it, then hand over to SystemC's own start-up,
// sc_elab_and_sim(), so its set-up and exception reporting stay intact; it calls sc_main(), which
// is the real CLI entry.
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "tools/cli/cli.h"

// As declared in sysc/kernel/sc_externs.h (C linkage).
extern "C" int sc_main(int argc, char** argv);
namespace sc_core {
extern "C" int sc_elab_and_sim(int argc, char* argv[]);
}

extern "C" int sc_main(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    return nicsim::cli::run(args, std::cout, std::cerr);
}

int main(int argc, char** argv) {
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", /*overwrite=*/0);
    return sc_core::sc_elab_and_sim(argc, argv);
}

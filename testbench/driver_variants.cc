// SPDX-License-Identifier: MIT
//
// Driver variants known to this binary. Two sources, in order:
//  1. a lister registered with set_driver_variant_lister() (the composition root can register
//     exactly what it can run);
//  2. the generated table nicsim_driver_variants[] (driver/include/nicsim/driver_variant.h),
//     referenced weakly so the testbench links with or without the driver build. Caveat: a weak
//     reference does not pull an archive member in; the table counts only when something else
//     links the object that defines it.
#include <algorithm>

#include "driver/include/nicsim/driver_variant.h"
#include "testbench/runner.h"

extern "C" {
extern const struct nicsim_driver_variant* const nicsim_driver_variants[] __attribute__((weak));
}

namespace nicsim {
namespace {
driver_variant_lister g_lister = nullptr;
}

void set_driver_variant_lister(driver_variant_lister lister) {
    g_lister = lister;
}

std::vector<std::string> known_driver_variants() {
    if (g_lister)
        return g_lister();
    std::vector<std::string> names;
    if (nicsim_driver_variants == nullptr)
        return names;
    for (const auto* const* v = nicsim_driver_variants; *v; ++v)
        if (std::find(names.begin(), names.end(), (*v)->name) == names.end())
            names.emplace_back((*v)->name);
    return names;
}

} // namespace nicsim

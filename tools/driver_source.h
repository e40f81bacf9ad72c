// A user's kernel tree at run time (driver.source, `nicsim run --driver-src PATH`): the scenario's
// driver files of that tree compiled exactly as the built-in builds (kernel/CMakeLists.txt
// records compiler, flags, headers, glue and file lists into the binary) into a plug-in, cached
// by the hash of every file the compiler read and checked against its build's record before it
// is loaded (plugin_cache.h), loaded with dlopen. Its modules register under their own key
// ("source@<hash>"), which driver_config::build_key() then names. docs/driver-changes.md.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace nicsim::driver_source {

// What kernel/CMakeLists.txt records (generated nicsim_plugin_recipe.cc).
namespace recipe {
struct driver_files {
    const char* driver;  // "wilc1000"
    const char* kdir;    // its directory in the kernel tree
    const char* sources; // "file.c=modname ..." (KBUILD_MODNAME per file)
    const char* glue;    // "file.c ..." in <glue_dir>/<driver>/
};
extern const char* const c_compiler;
extern const char* const linker;
extern const char* const objcopy;
extern const char* const nm;
extern const char* const c_flags[]; // null-terminated, as the built-in driver builds
extern const char* const include_dir;
extern const char* const glue_dir;
extern const driver_files drivers[]; // terminated by a null driver
} // namespace recipe

// The tree does not compile, a file is missing, the plug-in does not load: the message says
// which and why (the compiler's first error).
struct plugin_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct plugin {
    std::string tree;           // the kernel tree root as given (absolute)
    std::string driver_dir;     // the driver's directory compiled from
    std::string sha256;         // of everything the plug-in was built from: the recipe, this
                                // executable, every file the compiler read (the cache key)
    std::string key;            // the module registry key: "source@<first 12 of sha256>"
    std::string kernel_version; // the tree's Makefile version, e.g. "6.1.192"
    std::string path;           // the cached shared object
    bool cached = false;        // true: taken from the cache, nothing compiled
    // Kernel functions the tree calls that the emulation lacks: generated dummies that stop the
    // run with their name when called.
    std::vector<std::string> missing;
};

// Compiles (or finds in the cache) and loads the `driver` files of the kernel tree `tree`
// (its root, or the driver's directory itself). `fallback_version` ("6.1.192"): the kernel
// version when the tree has no top-level Makefile. Progress and the missing-function report go
// to `log`. Throws plugin_error. At most one plug-in per process.
const plugin& load(const std::string& tree, const std::string& driver,
                   const std::string& fallback_version, std::ostream& log);

// The plug-in loaded by this process, or nullptr.
const plugin* loaded();

// SHA-256 of `data` as 64 hex digits.
std::string sha256_hex(const std::string& data);

} // namespace nicsim::driver_source

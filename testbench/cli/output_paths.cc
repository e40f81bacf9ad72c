// SPDX-License-Identifier: MIT
#include "testbench/cli/output_paths.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace nicsim::cli {

namespace fs = std::filesystem;

std::string output_path_problem(const std::string& file) {
    if (file == "-")
        return {};
    if (file.empty())
        return "empty file name";
    std::error_code ec;
    const fs::path p(file);
    if (fs::is_directory(p, ec))
        return file + ": is a directory";
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::exists(dir, ec))
        return file + ": directory '" + dir.string() + "' does not exist";
    if (!fs::is_directory(dir, ec))
        return file + ": '" + dir.string() + "' is not a directory";
    if (fs::exists(p, ec)) {
        if (access(file.c_str(), W_OK) != 0)
            return file + ": not writable: " + std::strerror(errno);
    } else if (access(dir.c_str(), W_OK | X_OK) != 0) {
        return file + ": cannot create a file in '" + dir.string() + "': " + std::strerror(errno);
    }
    return {};
}

} // namespace nicsim::cli

// SPDX-License-Identifier: MIT
#include "tools/cli/output_paths.h"

#include <cctype>
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

std::vector<std::string> remove_stale_spill_files(const std::string& vcd) {
    std::vector<std::string> removed;
    if (vcd.empty() || vcd == "-")
        return removed;
    const fs::path p(vcd);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    const std::string prefix = p.filename().string() + ".", suffix = ".part";
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.size() <= prefix.size() + suffix.size() || n.compare(0, prefix.size(), prefix) != 0 ||
            n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        // The middle is a bus name (spi0, sdio0) or "vcd" (an FST's VCD): letters and digits.
        const std::string mid =
            n.substr(prefix.size(), n.size() - prefix.size() - suffix.size());
        bool bus_name = true;
        for (const char c : mid)
            bus_name = bus_name && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        std::error_code rm;
        if (bus_name && it->is_regular_file(rm) && fs::remove(it->path(), rm))
            removed.push_back(it->path().string());
    }
    return removed;
}

} // namespace nicsim::cli

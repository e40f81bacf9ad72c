// SPDX-License-Identifier: MIT
// The file-parser targets' input as a file: the loaders take a path, so the input is written to
// a memfd that the loader opens by its /proc path (no disk, no leftovers).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace nicsim::fuzz {

// Replaces the content of this process's one in-memory file with `text`; returns its path.
inline std::string as_file(const std::string& text) {
    static const int fd = memfd_create("fuzz-input.yaml", 0);
    if (fd < 0) {
        std::perror("memfd_create");
        std::abort();
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text.data(), text.size(), 0) != ssize_t(text.size()))
        std::abort();
    return "/proc/self/fd/" + std::to_string(fd);
}

// `text` with every "@CONFIGS@" replaced by `dir`: seeds name shipped scenarios that way, as the
// files they stand for name them relative to themselves.
inline std::string with_configs_dir(std::string text, const std::string& dir) {
    const std::string tag = "@CONFIGS@";
    for (size_t at = text.find(tag); at != std::string::npos; at = text.find(tag, at + dir.size()))
        text.replace(at, tag.size(), dir);
    return text;
}

} // namespace nicsim::fuzz

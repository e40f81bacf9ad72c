// SPDX-License-Identifier: MIT
//
// Reading a file the user named (a scenario, platform profile, sweep or validation file, a JSON
// report or sweep point file, a driver source or header of driver.source) whole. Such a file
// must end: a FIFO blocks its reader until someone writes, /dev/zero never ends, and a huge file
// would be read into memory before anything could say it is wrong. So only regular files are
// read (opened without waiting for a FIFO's writer), and at most a limit per kind of file; both
// are an input_file_error naming the file.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace nicsim::io {

struct input_file_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Limits, far above any real file of the kind (the shipped scenarios are a few KiB, a report
// some hundred KiB, the largest kernel driver source some MiB).
inline constexpr std::uint64_t max_yaml_bytes = std::uint64_t(16) << 20;    // 16 MiB
inline constexpr std::uint64_t max_report_bytes = std::uint64_t(256) << 20; // 256 MiB
inline constexpr std::uint64_t max_source_bytes = std::uint64_t(64) << 20;  // 64 MiB

// The file's contents. input_file_error "FILE: cannot open: …", "FILE: is a FIFO, not a regular
// file …", "FILE: 17 MiB, more than the 16 MiB …" (what names the kind: "a YAML file").
std::string read_input_file(const std::string& file, std::uint64_t max_bytes, const char* what);

} // namespace nicsim::io

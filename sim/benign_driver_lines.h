// SPDX-License-Identifier: MIT
// Driver log lines at KERN_WARNING or above that the upstream driver prints on a healthy run:
// known by the chip, the source file and function, and the printk format of the statement
// (stable across kernel versions where its line number is not). The report keeps each one as a
// finding of severity `benign`, so `findings.error == 0` holds on a clean run while the line
// stays visible and countable (`findings.benign`). The table is docs/driver-testing.md "Benign
// driver lines"; a line is added only with the reason the driver's behaviour is healthy.
#pragma once

#include <string>
#include <vector>

namespace nicsim {

struct benign_line {
    std::string chip;     // device.type
    std::string file;     // kernel source file, in the driver's directory
    std::string function; // the function that prints it
    std::string format;   // the printk format, without its trailing newline
    std::string why;      // why a healthy run prints it
};

const std::vector<benign_line>& benign_driver_lines();

// The entry of `chip` whose format matches `text` (the line without its "device: " prefix), or
// null.
const benign_line* find_benign_line(const std::string& chip, const std::string& text);

// Whether `text` is what `format` prints: %d/%i/%u/%x/%X (with flags, width and length) match a
// number, %s any text, %% a '%'; everything else literally.
bool matches_format(const std::string& format, const std::string& text);

} // namespace nicsim

// SPDX-License-Identifier: MIT
// Fitting text to a terminal: its width (COLUMNS, else the terminal's, else 80) and word
// wrapping that keeps "value  unit" groups (separated by two spaces) together where it can.
#pragma once

#include <string>
#include <vector>

namespace nicsim::report {

// COLUMNS if set to a positive number, else the width of the terminal on `fd`, else 80; never
// below 40 (narrower layouts are not readable).
std::size_t terminal_columns(int fd);

// For text that reads best at a bounded width (help, validate's notes): terminal_columns(fd)
// capped at `max`, and `max` itself when neither COLUMNS nor a terminal says otherwise.
std::size_t columns_up_to(int fd, std::size_t max);

// Lines of at most `width` characters (display columns; UTF-8 sequences count once). Breaks at
// double spaces first, then at single spaces; a word longer than the width is cut.
std::vector<std::string> wrap(const std::string& text, std::size_t width);

// Display width of UTF-8 text (code points; the reports use no wide characters).
std::size_t display_width(const std::string& s);

std::string pad_right(const std::string& s, std::size_t w);
std::string pad_left(const std::string& s, std::size_t w);

} // namespace nicsim::report

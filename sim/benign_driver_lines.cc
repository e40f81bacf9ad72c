// SPDX-License-Identifier: MIT
#include "sim/benign_driver_lines.h"

#include <cctype>
#include <regex>

namespace nicsim {

const std::vector<benign_line>& benign_driver_lines() {
    static const std::vector<benign_line> table = {
        {"wilc1000", "sdio.c", "wilc_sdio_init", "chipid (%08x)",
         "the chip ID read at probe is logged with dev_err although the read succeeded; the "
         "failure has its own line (\"Fail cmd read chip id...\")"},
    };
    return table;
}

namespace {

// The format as a regular expression (ECMAScript).
std::string format_regex(const std::string& format) {
    std::string re;
    for (std::size_t i = 0; i < format.size(); ++i) {
        const char c = format[i];
        if (c == '%' && i + 1 < format.size()) {
            std::size_t j = i + 1;
            if (format[j] == '%') {
                re += '%';
                i = j;
                continue;
            }
            while (j < format.size() && std::string("-+ #0").find(format[j]) != std::string::npos)
                ++j;
            while (j < format.size() &&
                   (std::isdigit(static_cast<unsigned char>(format[j])) || format[j] == '.'))
                ++j;
            while (j < format.size() && std::string("hlzjt").find(format[j]) != std::string::npos)
                ++j;
            if (j < format.size()) {
                const char conv = format[j];
                if (conv == 'x' || conv == 'X') {
                    re += "[ 0-9a-fA-F]+";
                    i = j;
                    continue;
                }
                if (conv == 'd' || conv == 'i' || conv == 'u') {
                    re += " *-?[0-9]+";
                    i = j;
                    continue;
                }
                if (conv == 's') {
                    re += ".*";
                    i = j;
                    continue;
                }
            }
        }
        if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos)
            re += '\\';
        re += c;
    }
    return re;
}

} // namespace

bool matches_format(const std::string& format, const std::string& text) {
    return std::regex_match(text, std::regex(format_regex(format)));
}

const benign_line* find_benign_line(const std::string& chip, const std::string& text) {
    for (const auto& b : benign_driver_lines())
        if (b.chip == chip && matches_format(b.format, text))
            return &b;
    return nullptr;
}

} // namespace nicsim

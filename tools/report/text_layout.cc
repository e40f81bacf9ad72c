// SPDX-License-Identifier: MIT
#include "tools/report/text_layout.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

namespace nicsim::report {

std::size_t terminal_columns(int fd) {
    std::size_t w = 80;
    if (const char* c = std::getenv("COLUMNS"); c && std::atoi(c) > 0)
        w = static_cast<std::size_t>(std::atoi(c));
    else if (winsize ws{}; isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        w = ws.ws_col;
    return std::max<std::size_t>(w, 40);
}

std::size_t columns_up_to(int fd, std::size_t max) {
    const char* c = std::getenv("COLUMNS");
    if (!(c && std::atoi(c) > 0) && !isatty(fd))
        return max;
    return std::min(terminal_columns(fd), max);
}

std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80; // count lead bytes only
    return n;
}

std::string pad_right(const std::string& s, std::size_t w) {
    const std::size_t d = display_width(s);
    return d >= w ? s : s + std::string(w - d, ' ');
}
std::string pad_left(const std::string& s, std::size_t w) {
    const std::size_t d = display_width(s);
    return d >= w ? s : std::string(w - d, ' ') + s;
}

namespace {

// Splits at `sep`, dropping empty pieces.
std::vector<std::string> split(const std::string& s, const std::string& sep) {
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        const std::size_t next = s.find(sep, pos);
        std::string piece =
            s.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
        if (!piece.empty())
            out.push_back(piece);
        if (next == std::string::npos)
            break;
        pos = next + sep.size();
    }
    return out;
}

// The first `w` display columns of `s`, as a byte count.
std::size_t bytes_for(const std::string& s, std::size_t w) {
    std::size_t cols = 0, i = 0;
    for (; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
            if (cols == w)
                break;
            ++cols;
        }
    }
    return i;
}

// Greedy fill of `pieces` joined by `sep` into lines of at most `width`.
std::vector<std::string> fill(const std::vector<std::string>& pieces, const std::string& sep,
                              std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    for (const auto& p : pieces) {
        if (line.empty())
            line = p;
        else if (display_width(line) + sep.size() + display_width(p) <= width)
            line += sep + p;
        else {
            lines.push_back(line);
            line = p;
        }
    }
    if (!line.empty())
        lines.push_back(line);
    return lines;
}

} // namespace

std::vector<std::string> wrap(const std::string& text, std::size_t width) {
    width = std::max<std::size_t>(width, 1);
    if (display_width(text) <= width)
        return {text};
    std::vector<std::string> out;
    for (const auto& group : fill(split(text, "  "), "  ", width)) {
        if (display_width(group) <= width) {
            out.push_back(group);
            continue;
        }
        // A parenthesised part stays on one line when it fits: "(0.0 %)", not "(0.0" + "%)".
        std::vector<std::string> atoms;
        int depth = 0;
        auto numeric = [](const std::string& w) {
            return !w.empty() && (std::isdigit(static_cast<unsigned char>(w[0])) ||
                                  (w.size() > 1 && w[0] == '(' &&
                                   std::isdigit(static_cast<unsigned char>(w[1]))));
        };
        // And a unit stays with its number: "84.10 mA", not "84.10" + "mA".
        auto unit_of = [&](const std::string& prev, const std::string& w) {
            return numeric(prev) && display_width(w) <= 6 && !numeric(w) && w[0] != '(';
        };
        for (const auto& word : split(group, " ")) {
            const bool glue =
                depth > 0 ||
                (!atoms.empty() && unit_of(atoms.back().substr(atoms.back().rfind(' ') + 1), word));
            if (glue && display_width(atoms.back()) + 1 + display_width(word) <= width)
                atoms.back() += " " + word;
            else
                atoms.push_back(word);
            for (char c : word)
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            depth = std::max(depth, 0);
        }
        for (auto line : fill(atoms, " ", width)) {
            while (display_width(line) > width) {       // a word longer than the width: cut it,
                std::size_t n = bytes_for(line, width); // after a path separator if there is one
                const std::size_t sep = line.find_last_of("/#_-", n - 1);
                if (sep != std::string::npos && sep > 0)
                    n = sep + 1;
                out.push_back(line.substr(0, n));
                line = line.substr(n);
            }
            out.push_back(line);
        }
    }
    return out;
}

} // namespace nicsim::report

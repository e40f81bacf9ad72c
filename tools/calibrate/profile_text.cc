// SPDX-License-Identifier: MIT
#include "tools/calibrate/profile_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "tools/config/yaml_reader.h"
#include "tools/io/input_file.h"

namespace nicsim::calibrate {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos)
        return "";
    return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

bool is_comment_line(const std::string& l) {
    const std::string t = trim(l);
    return !t.empty() && t[0] == '#';
}

// The trailing comment of a line from column `from` on ("" when none): a '#' after whitespace.
std::string trailing_comment(const std::string& line, size_t from) {
    for (size_t i = std::max<size_t>(from, 1); i < line.size(); ++i)
        if (line[i] == '#' && (line[i - 1] == ' ' || line[i - 1] == '\t'))
            return line.substr(i + 1);
    return "";
}

// The marking a comment gives, or nullopt-like `has` false when there is no comment.
struct comment_mark {
    bool has = false;
    marking mark = marking::none;
};

comment_mark judge(const std::string& first, const std::string& all) {
    comment_mark c;
    c.has = !trim(all).empty();
    const std::string f = lower(trim(first));
    if (f.rfind("calibrated", 0) == 0)
        c.mark = marking::calibrated;
    else if (lower(all).find("assumption") != std::string::npos)
        c.mark = marking::assumption;
    return c;
}

// A key's own comment: its trailing comment, then the comment lines directly above it.
comment_mark own_comment(const std::vector<std::string>& lines, size_t key_line, size_t after) {
    const std::string trail = trailing_comment(lines[key_line], after);
    if (!trim(trail).empty()) {
        const comment_mark c = judge(trail, trail);
        if (c.mark != marking::none)
            return c;
    }
    std::vector<std::string> block;
    for (size_t l = key_line; l-- > 0 && is_comment_line(lines[l]);)
        block.insert(block.begin(), trim(lines[l]).substr(1));
    std::string all = trail;
    for (const auto& b : block)
        all += "\n" + b;
    return judge(block.empty() ? trail : block.front(), all);
}

class indexer {
  public:
    explicit indexer(profile_text& p) : p_(p) {}

    // Walks a mapping; returns the last line any of its entries occupies.
    size_t walk(const YAML::Node& map, const std::string& prefix, marking section_mark,
                size_t section_line, bool top) {
        size_t last_line = section_line;
        marking prev_mark = section_mark;
        size_t prev_last = section_line;
        bool first = true;
        for (auto it = map.begin(); it != map.end(); ++it) {
            const YAML::Node k = it->first, v = it->second; // copies: `->` yields a temporary
            const std::string key = k.Scalar();
            const size_t key_line = size_t(k.Mark().line);
            if (top)
                p_.sections.push_back(key);
            size_t after = size_t(k.Mark().column) + key.size();
            profile_value pv;
            const bool scalar = v.IsScalar() && v.Mark().line >= 0 &&
                                size_t(v.Mark().line) < p_.lines.size();
            if (scalar) {
                pv.path = prefix + key;
                pv.text = v.Scalar();
                pv.line = size_t(v.Mark().line);
                pv.column = size_t(v.Mark().column);
                pv.end = pv.column + pv.text.size();
                if (pv.column <= p_.lines[pv.line].size() &&
                    p_.lines[pv.line].compare(pv.column, pv.text.size(), pv.text) == 0)
                    after = pv.end;
                else
                    pv.text.clear(); // quoted or folded: not a value calibrate rewrites
            }
            comment_mark own = own_comment(p_.lines, key_line, after);
            marking mark = own.mark;
            if (!own.has) {
                // One comment for a run of keys: the sibling above, or the section's key.
                if (key_line > 0 && prev_last == key_line - 1)
                    mark = prev_mark;
                else
                    mark = first ? section_mark : marking::none;
            }
            size_t last = key_line;
            if (v.IsMap())
                last = std::max(last, walk(v, prefix + key + ".", mark, key_line, false));
            else if (scalar && !pv.text.empty()) {
                pv.mark = mark;
                p_.values.push_back(pv);
                last = std::max(last, pv.line);
            } else if (v.IsSequence() || !scalar) {
                last = std::max(last, key_line);
            }
            prev_mark = mark;
            prev_last = last;
            last_line = std::max(last_line, last);
            first = false;
        }
        return last_line;
    }

  private:
    profile_text& p_;
};

} // namespace

const char* to_string(marking m) {
    switch (m) {
    case marking::assumption: return "assumption";
    case marking::calibrated: return "calibrated";
    case marking::none: break;
    }
    return "sourced";
}

const profile_value* profile_text::find(const std::string& path) const {
    for (const auto& v : values)
        if (v.path == path)
            return &v;
    return nullptr;
}

profile_text read_profile_text(const std::string& file) {
    profile_text p;
    p.file = file;
    const YAML::Node root = config::load_yaml_file(file);
    std::istringstream in(io::read_input_file(file, io::max_yaml_bytes, "a platform profile"));
    for (std::string l; std::getline(in, l);)
        p.lines.push_back(l);
    if (root.IsMap())
        indexer(p).walk(root, "", marking::none, size_t(-1), true);
    return p;
}

bool parse_quantity(const std::string& text, quantity& q) {
    const char* s = text.c_str();
    char* end = nullptr;
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.' ||
                          s[0] == '-' || s[0] == '+'))
        return false;
    q.number = std::strtod(s, &end);
    if (end == s || !std::isfinite(q.number))
        return false;
    q.unit = trim(end);
    for (unsigned char c : q.unit)
        if (!std::isalpha(c) && c != '/' && c != '%')
            return false;
    q.integer = q.unit.empty() && text.find_first_not_of("+-0123456789") == std::string::npos;
    return true;
}

std::string format_quantity(double number, const std::string& unit, bool integer) {
    char buf[40];
    if (integer)
        std::snprintf(buf, sizeof buf, "%.0f", number);
    else
        std::snprintf(buf, sizeof buf, "%.6g", number);
    return buf + unit;
}

std::string rewrite_profile(const profile_text& p, const std::vector<replacement>& r,
                            const std::string& name, const std::vector<std::string>& header) {
    std::vector<std::string> lines = p.lines;
    auto set_scalar = [&](const profile_value& v, const std::string& text,
                          const std::string& comment) {
        std::string& l = lines[v.line];
        std::string rest = l.substr(v.end);
        if (!comment.empty()) {
            const std::string old = trailing_comment(l, v.end);
            if (!old.empty())
                rest = rest.substr(0, rest.size() - old.size() - 1);
            rest = trim(rest).empty() ? "  # " + comment : rest + "  # " + comment;
        }
        l = l.substr(0, v.column) + text + rest;
    };
    for (const auto& x : r)
        if (const profile_value* v = p.find(x.path))
            set_scalar(*v, x.text, x.comment);
    if (const profile_value* v = p.find("name"))
        set_scalar(*v, name, "");
    size_t at = !lines.empty() && is_comment_line(lines[0]) ? 1 : 0;
    for (const auto& h : header)
        lines.insert(lines.begin() + long(at++), "# " + h);
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

} // namespace nicsim::calibrate

// SPDX-License-Identifier: MIT
#include "tools/plugin_cache.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/driver_source.h"
#include "tools/io/input_file.h"

namespace nicsim::driver_source::cache {
namespace fs = std::filesystem;
namespace {

const char* const record_magic = "nicsim plug-in record 1";
const char* const deps_magic = "nicsim plug-in dependencies 1";

bool make_dirs(const std::string& path, mode_t mode) {
    for (std::size_t i = 1; i <= path.size(); ++i)
        if (i == path.size() || path[i] == '/') {
            const std::string p = path.substr(0, i);
            if (mkdir(p.c_str(), mode) != 0 && errno != EEXIST)
                return false;
        }
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

[[noreturn]] void fail(const std::string& dir, const std::string& why) {
    throw plugin_error("driver.source: cannot use the plug-in cache " + dir + ": " + why);
}

// ${TMPDIR:-/tmp}/nicsim-<uid>: a name anyone can predict, so it is only used when it is
// provably this user's alone (another user could otherwise plant a plug-in in it).
std::string private_dir() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = tmp && *tmp == '/' ? tmp : "/tmp";
    const std::string dir = base + "/nicsim-" + std::to_string(geteuid());
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        fail(dir, std::strerror(errno));
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0)
        fail(dir, std::strerror(errno));
    if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode))
        fail(dir, "it is not a directory (a symbolic link or another file is refused)");
    if (st.st_uid != geteuid())
        fail(dir, "it is owned by uid " + std::to_string(st.st_uid) + ", not by this user (uid " +
                      std::to_string(geteuid()) + ")");
    if ((st.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
        fail(dir, std::string("its mode is ") + mode +
                      ", others may write or read it (HOME is unset, so nicsim uses this private "
                      "directory, which must have mode 0700; remove it or set HOME or "
                      "XDG_CACHE_HOME)");
    }
    return dir + "/plugins";
}

std::string text_of(const std::string& file) {
    try {
        return io::read_input_file(file, io::max_source_bytes, "a plug-in cache file");
    } catch (const io::input_file_error&) {
        return {};
    }
}

void write_atomic(const std::string& file, const std::string& text) {
    const std::string tmp = file + ".tmp." + std::to_string(getpid());
    {
        std::ofstream o(tmp, std::ios::binary | std::ios::trunc);
        o << text;
        if (!o.flush())
            throw plugin_error("driver.source: cannot write " + tmp);
    }
    if (std::rename(tmp.c_str(), file.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        throw plugin_error("driver.source: cannot write " + file + ": " + std::strerror(e));
    }
}

std::vector<std::string> lines_after(const std::string& text, const char* magic) {
    std::istringstream in(text);
    std::string l;
    if (!std::getline(in, l) || l != magic)
        return {};
    std::vector<std::string> out;
    while (std::getline(in, l))
        out.push_back(l);
    return out;
}

} // namespace

std::string directory() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    std::string dir;
    if (xdg && *xdg == '/') // the XDG spec ignores a relative path
        dir = std::string(xdg) + "/nicsim/plugins";
    else if (home && *home)
        dir = std::string(home) + "/.cache/nicsim/plugins";
    else
        dir = private_dir();
    if (!make_dirs(dir, 0700))
        fail(dir, std::strerror(errno));
    return dir;
}

std::vector<std::string> parse_dependencies(const std::string& make_rule) {
    // Words of the rule, with "\<newline>" a separator and "\ " a space inside a name.
    std::vector<std::string> words;
    std::string w;
    for (std::size_t i = 0; i < make_rule.size(); ++i) {
        const char c = make_rule[i];
        if (c == '\\' && i + 1 < make_rule.size() && make_rule[i + 1] == ' ') {
            w += ' ';
            ++i;
        } else if (c == '\\' && i + 1 < make_rule.size() && make_rule[i + 1] == '\n') {
            ++i;
            if (!w.empty())
                words.push_back(std::move(w)), w.clear();
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (!w.empty())
                words.push_back(std::move(w)), w.clear();
        } else {
            w += c;
        }
    }
    if (!w.empty())
        words.push_back(std::move(w));
    std::vector<std::string> files;
    std::set<std::string> seen;
    bool after_target = false;
    for (auto& word : words) {
        if (!after_target) { // "obj.o:" or "obj.o" ":"
            if (!word.empty() && word.back() == ':')
                after_target = true;
            continue;
        }
        if (word == ":") // a second rule (-MP's phony targets are not asked for)
            continue;
        const std::string abs = fs::absolute(word).lexically_normal().string();
        if (seen.insert(abs).second)
            files.push_back(abs);
    }
    return files;
}

std::optional<std::string> key_over(const std::string& base,
                                    const std::vector<std::string>& files) {
    std::string material = "nicsim plug-in key 1\n" + base + "\n";
    for (const auto& f : files) {
        std::string content;
        try {
            content = io::read_input_file(f, io::max_source_bytes, "a driver source file");
        } catch (const io::input_file_error&) {
            return std::nullopt;
        }
        material += f + "\n" + sha256_hex(content) + "\n";
    }
    return sha256_hex(material);
}

record record_of(const std::string& object, std::vector<std::string> missing) {
    const std::string bytes = io::read_input_file(object, io::max_report_bytes, "a plug-in");
    record r;
    r.size = bytes.size();
    r.sha256 = sha256_hex(bytes);
    r.missing = std::move(missing);
    return r;
}

std::string mismatch(const std::string& object, const record& r) {
    // Size first, from stat: a truncated object is told without reading it.
    struct stat st {};
    if (stat(object.c_str(), &st) != 0)
        return std::string("cannot read it: ") + std::strerror(errno);
    if (!S_ISREG(st.st_mode))
        return "it is not a regular file";
    if (static_cast<std::uint64_t>(st.st_size) != r.size)
        return std::to_string(st.st_size) + " bytes, the build recorded " +
               std::to_string(r.size);
    std::string bytes;
    try {
        bytes = io::read_input_file(object, io::max_report_bytes, "a plug-in");
    } catch (const io::input_file_error& e) {
        return e.what();
    }
    if (sha256_hex(bytes) != r.sha256)
        return "its SHA-256 is not the one the build recorded";
    return {};
}

std::optional<record> read_record(const std::string& file) {
    const auto lines = lines_after(text_of(file), record_magic);
    record r;
    bool size = false;
    for (const auto& l : lines) {
        const auto sp = l.find(' ');
        const std::string k = l.substr(0, sp), v = sp == std::string::npos ? "" : l.substr(sp + 1);
        if (k == "size") {
            char* end = nullptr;
            r.size = std::strtoull(v.c_str(), &end, 10);
            size = !v.empty() && *end == '\0';
        } else if (k == "sha256") {
            r.sha256 = v;
        } else if (k == "missing" && !v.empty()) {
            r.missing.push_back(v);
        }
    }
    if (!size || r.sha256.size() != 64)
        return std::nullopt;
    return r;
}

std::vector<std::string> read_deps(const std::string& file) {
    return lines_after(text_of(file), deps_magic);
}

void write_record(const std::string& file, const record& r) {
    std::string t = std::string(record_magic) + "\nsize " + std::to_string(r.size) + "\nsha256 " +
                    r.sha256 + "\n";
    for (const auto& m : r.missing)
        t += "missing " + m + "\n";
    write_atomic(file, t);
}

void write_deps(const std::string& file, const std::vector<std::string>& files) {
    std::string t = std::string(deps_magic) + "\n";
    for (const auto& f : files)
        t += f + "\n";
    write_atomic(file, t);
}

} // namespace nicsim::driver_source::cache

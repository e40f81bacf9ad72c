// SPDX-License-Identifier: MIT
#include "tools/config/yaml_reader.h"

#include "tools/config/schema_recorder.h"
#include "tools/io/input_file.h"

#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string_view>

namespace nicsim::config {
namespace {

std::string position(const std::string& file, const YAML::Mark& m) {
    if (m.is_null())
        return file;
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// Levenshtein distance, for "did you mean" hints on short key names.
size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min(
                {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

bool similar(const std::string& a, const std::string& b) {
    const size_t d = edit_distance(a, b);
    return d <= 2 && d < std::max(a.size(), b.size());
}

const char* kind_name(const YAML::Node& n) {
    if (n.IsMap())
        return "a mapping";
    if (n.IsSequence())
        return "a list";
    if (n.IsNull())
        return "nothing";
    return "a scalar";
}

std::string strip(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

} // namespace

check_fn<double> fraction_in_0_1() {
    return [](const double& v) {
        return v > 0 && v <= 1 ? std::string() : std::string("must be in (0, 1]");
    };
}

namespace {
thread_local const override_quantity_listener::callback* t_quantity_listener = nullptr;
} // namespace

override_quantity_listener::override_quantity_listener(callback on)
    : m_on(std::move(on)), m_prev(t_quantity_listener) {
    t_quantity_listener = &m_on;
}
override_quantity_listener::~override_quantity_listener() { t_quantity_listener = m_prev; }
const override_quantity_listener::callback* override_quantity_listener::active() {
    return t_quantity_listener;
}

void yaml_reader::tell_listener(const std::string& key, const plain_quantity& q) const {
    const auto* on = override_quantity_listener::active();
    if (!on)
        return;
    // Only a value a --set wrote at exactly this path: never one of the file, or of another
    // document (the platform profile) that happens to have the same path.
    const std::string path = key_path(key);
    if (source_->overrides.count(path))
        (*on)(path, q);
}

std::string yaml_source::where(const YAML::Mark& mark, const std::string& path) const {
    for (const auto& [p, text] : overrides)
        if (path == p || (path.size() > p.size() && path.compare(0, p.size(), p) == 0 &&
                          (path[p.size()] == '.' || path[p.size()] == '[')))
            return text;
    return position(file, mark);
}

yaml_reader::yaml_reader(const YAML::Node& node, std::string path, std::string what,
                         std::shared_ptr<const yaml_source> source)
    : node_(node), mark_(node.Mark()), path_(std::move(path)), what_(std::move(what)),
      source_(std::move(source)) {
    if (auto* rec = schema_recorder::active())
        rec->mapping(path_);
    const std::string name = path_.empty() ? what_ : path_;
    if (node_.IsNull())
        return;
    if (!node_.IsMap())
        throw config_error(source_->where(mark_, path_) + ": " + name + ": expected a mapping of " +
                           "keys, got " + kind_name(node_));
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        const YAML::Node k = it->first;
        if (!k.IsScalar())
            throw config_error(source_->where(k.Mark(), path_) + ": " + name +
                               ": keys must be plain names");
        const auto [at, fresh] = index_.emplace(k.Scalar(), entries_.size());
        if (!fresh) {
            const std::string kpath = path_.empty() ? k.Scalar() : path_ + "." + k.Scalar();
            throw config_error(source_->where(k.Mark(), kpath) + ": duplicate key '" + k.Scalar() +
                               "' in " + name + " (first at " +
                               source_->where(entries_[at->second].key_mark, kpath) + ")");
        }
        entries_.push_back(entry{k.Scalar(), k.Mark(), it->second});
    }
}

bool yaml_reader::recording() {
    return schema_recorder::active() != nullptr;
}

void yaml_reader::note_scalar(const std::string& key, const char* expected, bool required,
                              const std::vector<std::string>* enum_values) const {
    if (auto* rec = schema_recorder::active())
        rec->scalar(path_, key, expected, required, enum_values);
}

void yaml_reader::note_object(const std::string& key, bool required) const {
    if (auto* rec = schema_recorder::active())
        rec->object(path_, key, required);
}

bool yaml_reader::was_asked(const std::string& key) const {
    return asked_set_.count(key) != 0;
}

const yaml_reader::entry* yaml_reader::lookup(const std::string& key) {
    if (asked_set_.insert(key).second)
        asked_.push_back(key);
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &entries_[it->second];
}

bool yaml_reader::has(const std::string& key) {
    return lookup(key) != nullptr;
}

std::string yaml_reader::key_path(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
}

std::string yaml_reader::where_value(const std::string& key, const YAML::Node& n) const {
    return source_->where(n.Mark(), key_path(key));
}

void yaml_reader::fail_missing(const std::string& key) {
    std::string msg = source_->where(mark_, path_) + ": missing required key '" + key + "' in " +
                      (path_.empty() ? what_ : path_);
    for (const auto& e : entries_)
        if (!was_asked(e.key) && similar(e.key, key))
            msg += "; is '" + e.key + "' at " + source_->where(e.key_mark, key_path(e.key)) +
                   " a misspelling?";
    throw config_error(msg);
}

void yaml_reader::fail_value(const std::string& key, const YAML::Node& n,
                             const std::string& message) const {
    throw config_error(where_value(key, n) + ": " + key_path(key) + ": " + message);
}

void yaml_reader::fail(const std::string& key, const std::string& message) {
    const entry* e = lookup(key);
    if (!e)
        throw config_error(source_->where(mark_, path_) + ": " + key_path(key) + ": " + message);
    fail_value(key, e->value, message);
}

void yaml_reader::fail_key(const std::string& key, const std::string& message) {
    if (const auto it = index_.find(key); it != index_.end())
        throw config_error(source_->where(entries_[it->second].key_mark, key_path(key)) + ": " +
                           message);
    throw config_error(source_->where(mark_, path_) + ": " + message);
}

std::string yaml_reader::scalar_text(const std::string& key, const YAML::Node& n,
                                     const std::string& expected) const {
    if (!n.IsScalar())
        fail_value(key, n, "expected " + expected + ", got " + kind_name(n));
    return n.Scalar();
}

std::string yaml_reader::one_of(const std::string& key, const std::vector<std::string>& known,
                                std::optional<std::string> fallback) {
    note_scalar(key, "a string", !fallback, &known);
    const entry* e = lookup(key);
    if (!e) {
        if (fallback)
            return *fallback;
        fail_missing(key);
    }
    const std::string s = convert<std::string>(key, e->value, {});
    if (std::find(known.begin(), known.end(), s) == known.end())
        fail_value(key, e->value, "unknown value '" + s + "' (known: " + join(known) + ")");
    return s;
}

yaml_reader yaml_reader::child(const std::string& key) {
    note_object(key, true);
    const entry* e = lookup(key);
    if (!e)
        fail_missing(key);
    return yaml_reader(e->value, key_path(key), key, source_);
}

std::optional<yaml_reader> yaml_reader::optional_child(const std::string& key) {
    note_object(key, false);
    const entry* e = lookup(key);
    if (!e)
        return std::nullopt;
    return yaml_reader(e->value, key_path(key), key, source_);
}

yaml_reader yaml_reader::child_or_empty(const std::string& key) {
    note_object(key, false);
    const entry* e = lookup(key);
    return yaml_reader(e ? e->value : YAML::Node(), key_path(key), key, source_);
}

std::vector<yaml_reader::located_scalar> yaml_reader::scalar_list(const std::string& key) {
    std::vector<located_scalar> out;
    if (auto* rec = schema_recorder::active())
        rec->list(path_, key);
    const entry* e = lookup(key);
    if (!e)
        return out;
    if (e->value.IsScalar()) {
        out.push_back({e->value.Scalar(), where_value(key, e->value)});
        return out;
    }
    if (!e->value.IsSequence())
        fail_value(key, e->value,
                   std::string("expected a list of strings, got ") + kind_name(e->value));
    for (std::size_t i = 0; i < e->value.size(); ++i) {
        const YAML::Node item = e->value[i];
        if (!item.IsScalar())
            throw config_error(where_value(key, item) + ": " + key_path(key) + "[" +
                               std::to_string(i) + "]: expected a string, got " + kind_name(item));
        out.push_back({item.Scalar(), where_value(key, item)});
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> yaml_reader::scalar_entries() {
    std::vector<std::pair<std::string, std::string>> out;
    if (auto* rec = schema_recorder::active())
        rec->free_map(path_);
    for (const auto& e : entries_) {
        lookup(e.key);
        out.emplace_back(e.key, scalar_text(e.key, e.value, "a scalar value"));
    }
    return out;
}

void yaml_reader::reject_unknown_keys(const std::string& note) {
    // The first few are listed, the rest counted: a generated file with 200 000 stray keys
    // gets a readable message, and building it stays linear.
    constexpr size_t listed = 20;
    std::vector<std::string> lines;
    size_t unlisted = 0;
    const std::string name = path_.empty() ? what_ : path_;
    for (const auto& e : entries_) {
        if (was_asked(e.key))
            continue;
        if (lines.size() == listed) {
            ++unlisted;
            continue;
        }
        std::string line = source_->where(e.key_mark, key_path(e.key)) + ": unknown key '" + e.key +
                           "' in " + name;
        if (!note.empty())
            line += " " + note;
        line += " (expected one of: " + join(asked_) + ")";
        for (const auto& a : asked_)
            if (similar(e.key, a)) {
                line += "; did you mean '" + a + "'?";
                break;
            }
        lines.push_back(line);
    }
    if (lines.empty())
        return;
    std::string msg = lines.front();
    for (size_t i = 1; i < lines.size(); ++i)
        msg += "\n" + lines[i];
    if (unlisted)
        msg += "\n... and " + std::to_string(unlisted) + " more unknown keys in " + name;
    throw config_error(msg);
}

std::string yaml_reader::join(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

// ---- decoders ---------------------------------------------------------------------------------

bool decode<bool>::from(const std::string& s) {
    // YAML 1.2 core schema booleans only: "yes"/"on" are not guessed.
    if (s == "true" || s == "True" || s == "TRUE")
        return true;
    if (s == "false" || s == "False" || s == "FALSE")
        return false;
    throw value_error(std::string("expected ") + expected());
}

namespace {
template <class I> I parse_integer(const std::string& raw, const char* expected) {
    const std::string s = strip(raw);
    const char* b = s.data();
    const char* e = s.data() + s.size();
    int base = 10;
    bool neg = false;
    if (b != e && (*b == '+' || *b == '-')) {
        neg = *b == '-';
        ++b;
    }
    if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
        base = 16;
        b += 2;
    }
    unsigned long long mag = 0;
    const auto r = std::from_chars(b, e, mag, base);
    if (b == e || r.ec == std::errc::invalid_argument || r.ptr != e)
        throw value_error(std::string("expected ") + expected);
    if (r.ec == std::errc::result_out_of_range)
        throw value_error("integer out of range");
    if (neg) {
        if (!std::numeric_limits<I>::is_signed) {
            if (mag != 0)
                throw value_error(std::string("expected ") + expected);
            return 0;
        }
        if (mag > static_cast<unsigned long long>(std::numeric_limits<I>::max()) + 1ULL)
            throw value_error("integer out of range");
        return static_cast<I>(-static_cast<long long>(mag - 1) - 1);
    }
    if (mag > static_cast<unsigned long long>(std::numeric_limits<I>::max()))
        throw value_error("integer out of range");
    return static_cast<I>(mag);
}
} // namespace

std::int64_t decode<std::int64_t>::from(const std::string& s) {
    return parse_integer<std::int64_t>(s, expected());
}
std::uint64_t decode<std::uint64_t>::from(const std::string& s) {
    return parse_integer<std::uint64_t>(s, expected());
}
unsigned decode<unsigned>::from(const std::string& s) {
    return parse_integer<unsigned>(s, expected());
}
int decode<int>::from(const std::string& s) {
    return parse_integer<int>(s, expected());
}

double decode<double>::from(const std::string& raw) {
    const std::string s = strip(raw);
    if (s.empty())
        throw value_error(std::string("expected ") + expected());
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v) || errno == ERANGE)
        throw value_error(std::string("expected ") + expected());
    return v;
}

// ---- files and overrides ----------------------------------------------------------------------

namespace {
bool clean_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u < 0x80) {
            if ((u < 0x20 && u != '\t' && u != '\r' && u != '\n') || u == 0x7f)
                return false;
            ++i;
            continue;
        }
        const std::size_t n = u >= 0xc2 && u <= 0xdf   ? 2
                              : u >= 0xe0 && u <= 0xef ? 3
                              : u >= 0xf0 && u <= 0xf4 ? 4
                                                       : 0;
        if (n == 0 || i + n > text.size())
            return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80)
                return false;
        i += n;
    }
    return true;
}
} // namespace

std::string shorten_comment_lines(const std::string& text) {
    // Text that is not clean UTF-8 (a control character, a NUL that ends yaml-cpp's input, a
    // UTF-16 byte order mark, a broken sequence that may swallow a line break) is parsed as it
    // is: what yaml-cpp makes of it is not this function's to guess.
    if (!clean_utf8(text))
        return text;
    std::string out;
    out.reserve(text.size());
    long block_parent = -1; // inside a block scalar: the indentation of the line that opened it
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + pos, end - pos);
        const std::size_t indent = line.find_first_not_of(' ');
        const bool blank =
            indent == std::string_view::npos || line[indent] == '\n' || line[indent] == '\r';
        if (block_parent >= 0 && (blank || long(indent) > block_parent)) {
            out.append(line); // block scalar content: a '#' here is text
            pos = end;
            continue;
        }
        block_parent = -1;
        // Only comments of ASCII: a line with other bytes (which may not be valid UTF-8) stays
        // as it is, as do the few non-ASCII ones of the shipped configs.
        const auto plain = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
        if (!blank && line[indent] == '#' && std::all_of(line.begin(), line.end(), plain)) {
            out.append(line.substr(0, indent + 1));
            if (line.back() == '\n')
                out.push_back('\n');
            pos = end;
            continue;
        }
        out.append(line);
        pos = end;
        if (blank)
            continue;
        const auto dq = std::count(line.begin(), line.end(), '"');
        if (dq % 2 || std::count(line.begin(), line.end(), '\'') % 2 ||
            (dq && line.find('\\') != std::string_view::npos)) { // "...\" hides a quote
            out.append(text, pos, std::string::npos);            // maybe a multi-line quoted scalar
            break;
        }
        // A block scalar indicator ends the line (before an optional comment): | or > with
        // optional chomping/indentation indicators, after ": ", "- " or alone.
        std::string_view body = line.substr(0, line.find_last_not_of("\r\n") + 1);
        const std::size_t hash = body.find(" #");
        if (hash != std::string_view::npos)
            body = body.substr(0, hash);
        body = body.substr(0, body.find_last_not_of(' ') + 1);
        const std::size_t ind = body.find_last_of("|>");
        if (ind != std::string_view::npos &&
            body.find_first_not_of("+-0123456789", ind + 1) == std::string_view::npos &&
            (ind == indent || body[ind - 1] == ' '))
            block_parent = long(indent);
    }
    return out;
}

// yaml-cpp stops at its nesting limit with the message "bad file" (its DepthGuard); no real
// input nests lists and mappings that deep. Its mark is where the parser had read to, not where
// the limit was crossed, so only the line is given.
namespace {
std::string too_deep(const std::string& where, const YAML::DeepRecursion& e) {
    return where + (e.mark.is_null() ? "" : ":" + std::to_string(e.mark.line + 1)) +
           ": YAML nested too deeply (lists and mappings inside each other; the parser stops "
           "at depth " +
           std::to_string(e.depth()) + ", a scenario needs a handful)";
}
} // namespace

YAML::Node load_yaml_file(const std::string& file) {
    // An ifstream opens a directory without complaint; reading it then fails deep in yaml-cpp.
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw config_error(file + ": is a directory, not a scenario file (give a .yaml file)");
    std::string text;
    try {
        text = io::read_input_file(file, io::max_yaml_bytes, "a YAML file");
    } catch (const io::input_file_error& e) {
        throw config_error(e.what());
    }
    try {
        return YAML::Load(shorten_comment_lines(text));
    } catch (const YAML::DeepRecursion& e) {
        throw config_error(too_deep(file, e));
    } catch (const YAML::ParserException& e) {
        throw config_error(position(file, e.mark) + ": YAML syntax error: " + e.msg);
    } catch (const YAML::Exception& e) {
        throw config_error(file + ": cannot read as YAML: " + e.msg);
    }
}

void apply_override(YAML::Node& root, const std::string& assignment, yaml_source& source) {
    const std::string text = "--set " + assignment;
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw config_error(text + ": expected key.path=value");
    const std::string path = strip(assignment.substr(0, eq));
    const std::string raw = assignment.substr(eq + 1);

    std::vector<std::string> keys;
    size_t start = 0;
    while (true) {
        const auto dot = path.find('.', start);
        keys.push_back(
            path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (keys.back().empty())
            throw config_error(text + ": empty key in '" + path + "'");
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }

    YAML::Node value;
    try {
        value = raw.empty() ? YAML::Node(std::string()) : YAML::Load(raw);
    } catch (const YAML::DeepRecursion& e) {
        throw config_error(too_deep(text, e));
    } catch (const YAML::ParserException& e) {
        throw config_error(text + ": value is not valid YAML: " + e.msg);
    }

    if (root.IsNull())
        root = YAML::Node(YAML::NodeType::Map);
    YAML::Node cur = root;
    std::string sofar;
    for (size_t i = 0; i < keys.size(); ++i) {
        if (!cur.IsMap())
            throw config_error(text + ": '" + (sofar.empty() ? std::string("(root)") : sofar) +
                               "' is " + kind_name(cur) + ", not a mapping");
        sofar += (sofar.empty() ? "" : ".") + keys[i];
        const YAML::Node& ccur = cur;
        const bool exists = static_cast<bool>(ccur[keys[i]]);
        if (i + 1 == keys.size()) {
            cur[keys[i]] = value;
            source.overrides[sofar] = text;
            break;
        }
        if (!exists) {
            cur[keys[i]] = YAML::Node(YAML::NodeType::Map);
            source.overrides[sofar] = text;
        }
        YAML::Node next = cur[keys[i]];
        cur.reset(next);
    }
}

} // namespace nicsim::config

// SPDX-License-Identifier: MIT
//
// A small schema reader over one YAML mapping: typed required/optional lookups with units, range
// checks, enum names, and a final reject_unknown_keys() that reports every key nobody asked for.
// Every error is a config_error whose message starts with where the offending text is:
//
//   scenario.yaml:7:3: unknown key 'power_sav' in driver (expected one of: variant, power_save,
//   ...) scenario.yaml:5:17: device.bus_clock: expected a frequency ..., got 'fast'
//   --set driver.power_save=maybe: driver.power_save: expected a boolean (true or false), got
//   'maybe'
//
// The keys a reader "expects" are exactly those the parsing code asked about, so the list in the
// unknown-key message can never drift from the code. Values set by --set carry no file position;
// yaml_source remembers which paths they created and names the --set argument instead.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/config/units.h"

namespace nicsim::config {

// Invalid configuration or input; the message is complete and user-facing (may span lines).
struct config_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What every reader of one document shares: the file name and the paths --set created.
struct yaml_source {
    std::string file;
    // Dotted path created or replaced by a --set → the argument text ("--set a.b=c").
    std::map<std::string, std::string> overrides;

    // "file:line:col" for a node, or "--set a.b=c" when path lies in what an override created.
    std::string where(const YAML::Mark& mark, const std::string& path) const;
};

// A check on a decoded value: returns an empty string when fine, else what is wrong.
template <class T> using check_fn = std::function<std::string(const T&)>;

template <class T> check_fn<T> positive() {
    return [](const T& v) { return v > T{} ? std::string() : std::string("must be > 0"); };
}
template <class T> check_fn<T> at_least(T lo) {
    return
        [lo](const T& v) { return v >= lo ? std::string() : "must be >= " + std::to_string(lo); };
}
check_fn<double> fraction_in_0_1(); // 0 < v <= 1

// Scalar decoding: decode<T>::from(text) returns the value or throws value_error saying what was
// expected. Specialised for bool, std::string, integers, double and the units.h quantities.
template <class T> struct decode;

// While alive, tells `on` of every quantity (units.h) whose text a --set gave exactly, with its
// dotted key path and the value the reader decoded: so a sweep learns from the loader itself
// which of its settings are quantities and what number each is (tools/sweep/sweep_spec.h
// check_points). One per thread at a time.
class override_quantity_listener {
  public:
    using callback = std::function<void(const std::string& path, const plain_quantity& q)>;
    explicit override_quantity_listener(callback on);
    ~override_quantity_listener();
    override_quantity_listener(const override_quantity_listener&) = delete;
    override_quantity_listener& operator=(const override_quantity_listener&) = delete;
    static const callback* active();

  private:
    callback m_on;
    const callback* m_prev;
};

// Whether units.h has plain(T): the quantities a listener hears of.
template <class T, class = void> struct is_quantity : std::false_type {};
template <class T>
struct is_quantity<T, std::void_t<decltype(plain(std::declval<const T&>()))>> : std::true_type {};

class yaml_reader {
  public:
    // node must be a mapping (or null, read as empty); path is the dotted key path ("" at the
    // root), what is the name used in messages ("scenario", "driver", "spi_host").
    yaml_reader(const YAML::Node& node, std::string path, std::string what,
                std::shared_ptr<const yaml_source> source);

    const std::string& path() const { return path_; }
    const yaml_source& source() const { return *source_; }

    bool has(const std::string& key);

    template <class T> T required(const std::string& key, check_fn<T> check = {}) {
        note_scalar(key, decode<T>::expected(), true, nullptr);
        const entry* e = lookup(key);
        if (!e)
            fail_missing(key);
        return convert<T>(key, e->value, check);
    }

    template <class T> T optional(const std::string& key, T fallback, check_fn<T> check = {}) {
        note_scalar(key, decode<T>::expected(), false, nullptr);
        const entry* e = lookup(key);
        return e ? convert<T>(key, e->value, check) : fallback;
    }

    // required (fallback empty) or optional (fallback set) string mapped through names.
    template <class E>
    E enumerated(const std::string& key, const std::vector<std::pair<std::string, E>>& names,
                 std::optional<E> fallback = std::nullopt) {
        if (recording()) {
            std::vector<std::string> all;
            for (const auto& n : names)
                all.push_back(n.first);
            note_scalar(key, "a string", !fallback, &all);
        }
        const entry* e = lookup(key);
        if (!e) {
            if (fallback)
                return *fallback;
            fail_missing(key);
        }
        const std::string s = convert<std::string>(key, e->value, {});
        std::vector<std::string> known;
        for (const auto& [name, value] : names) {
            if (name == s)
                return value;
            known.push_back(name);
        }
        fail_value(key, e->value, "unknown value '" + s + "' (known: " + join(known) + ")");
    }

    // A string that must be one of known (e.g. driver variants from a registry).
    std::string one_of(const std::string& key, const std::vector<std::string>& known,
                       std::optional<std::string> fallback = std::nullopt);

    yaml_reader child(const std::string& key);
    std::optional<yaml_reader> optional_child(const std::string& key);
    // The child mapping, or an empty one (every optional key takes its default) when absent.
    yaml_reader child_or_empty(const std::string& key);

    // Free-form mapping (e.g. module parameters): every (key, scalar text) pair, in file order.
    // The caller validates them with fail_entry().
    std::vector<std::pair<std::string, std::string>> scalar_entries();

    // A list of scalars (a single scalar reads as a one-element list), each with where it is
    // ("file:line:col" or the --set argument); empty when the key is absent.
    struct located_scalar {
        std::string text;
        std::string where;
    };
    std::vector<located_scalar> scalar_list(const std::string& key);

    // Errors located at a key's value (or at the mapping when the key is absent).
    [[noreturn]] void fail(const std::string& key, const std::string& message);
    // Error for a key of this mapping itself (e.g. an unknown module parameter name).
    [[noreturn]] void fail_key(const std::string& key, const std::string& message);

    // Throws one config_error listing every key of this mapping that was never asked for, with
    // its position and the expected keys; note is appended (e.g. "for traffic kind udp_tx").
    void reject_unknown_keys(const std::string& note = "");

    static std::string join(const std::vector<std::string>& items);

  private:
    struct entry {
        std::string key;
        YAML::Mark key_mark;
        YAML::Node value;
    };

    const entry* lookup(const std::string& key);
    // What the loader asks, for the schema (tools/config/schema_recorder.h); no-ops unless a
    // recorder is active.
    static bool recording();
    void note_scalar(const std::string& key, const char* expected, bool required,
                     const std::vector<std::string>* enum_values) const;
    void note_object(const std::string& key, bool required) const;
    bool was_asked(const std::string& key) const;
    std::string key_path(const std::string& key) const;
    std::string where_value(const std::string& key, const YAML::Node& n) const;
    [[noreturn]] void fail_missing(const std::string& key);
    void tell_listener(const std::string& key, const plain_quantity& q) const;
    [[noreturn]] void fail_value(const std::string& key, const YAML::Node& n,
                                 const std::string& message) const;
    std::string scalar_text(const std::string& key, const YAML::Node& n,
                            const std::string& expected) const;

    template <class T> T convert(const std::string& key, const YAML::Node& n, check_fn<T> check) {
        const std::string text = scalar_text(key, n, decode<T>::expected());
        T v;
        try {
            v = decode<T>::from(text);
        } catch (const value_error& e) {
            fail_value(key, n, std::string(e.what()) + ", got '" + text + "'");
        }
        if (check) {
            const std::string problem = check(v);
            if (!problem.empty())
                fail_value(key, n, problem + " (got '" + text + "')");
        }
        if constexpr (is_quantity<T>::value)
            tell_listener(key, plain(v));
        return v;
    }

    YAML::Node node_;
    YAML::Mark mark_;
    std::string path_;
    std::string what_;
    std::shared_ptr<const yaml_source> source_;
    std::vector<entry> entries_;
    std::unordered_map<std::string, size_t> index_; // key -> entries_ index (linear checks)
    std::vector<std::string> asked_;                // in the order the parser asked, for messages
    std::unordered_set<std::string> asked_set_;
};

// ---- decoders ---------------------------------------------------------------------------------

template <> struct decode<std::string> {
    static const char* expected() { return "a string"; }
    static std::string from(const std::string& s) { return s; }
};
template <> struct decode<bool> {
    static const char* expected() { return "a boolean (true or false)"; }
    static bool from(const std::string& s);
};
template <> struct decode<std::int64_t> {
    static const char* expected() { return "an integer"; }
    static std::int64_t from(const std::string& s);
};
template <> struct decode<std::uint64_t> {
    static const char* expected() { return "a non-negative integer"; }
    static std::uint64_t from(const std::string& s);
};
template <> struct decode<unsigned> {
    static const char* expected() { return "a non-negative integer"; }
    static unsigned from(const std::string& s);
};
template <> struct decode<int> {
    static const char* expected() { return "an integer"; }
    static int from(const std::string& s);
};
template <> struct decode<double> {
    static const char* expected() { return "a number"; }
    static double from(const std::string& s);
};
template <> struct decode<duration> {
    static const char* expected() { return "a duration (e.g. 20ns, 1.5us)"; }
    static duration from(const std::string& s) { return parse_duration(s); }
};
template <> struct decode<frequency> {
    static const char* expected() { return "a frequency (e.g. 48MHz)"; }
    static frequency from(const std::string& s) { return parse_frequency(s); }
};
template <> struct decode<byte_size> {
    static const char* expected() { return "a size (e.g. 64KiB)"; }
    static byte_size from(const std::string& s) { return parse_byte_size(s); }
};
template <> struct decode<bit_rate> {
    static const char* expected() { return "a bit rate (e.g. 72.2Mbps)"; }
    static bit_rate from(const std::string& s) { return parse_bit_rate(s); }
};
template <> struct decode<current> {
    static const char* expected() { return "a current (e.g. 60.5mA)"; }
    static current from(const std::string& s) { return parse_current(s); }
};
template <> struct decode<voltage> {
    static const char* expected() { return "a voltage (e.g. 3.3V)"; }
    static voltage from(const std::string& s) { return parse_voltage(s); }
};

// Loads a YAML file as a mapping (config_error with file:line:col on syntax errors).
YAML::Node load_yaml_file(const std::string& file);

// The text with every full-line comment of printable ASCII cut to its '#', where that is certain
// to be a comment:
// not inside a block scalar (`key: |`), and nowhere after a line with an odd number of quotes
// or with a backslash beside a double quote (either may open a multi-line quoted scalar). The YAML
// it means and every line and column stay the same; yaml-cpp's scanner spends hundreds of
// instructions per character, and the documented platform profiles are mostly comments
// (load_yaml_file parses this text).
std::string shorten_comment_lines(const std::string& text);

// Applies "--set key.path=value" to root before validation. The value is parsed as YAML (so
// "--set traffic.bytes=1MiB" is a scalar and "--set device={type: chip}" a mapping); missing
// intermediate mappings are created. Records what it created in source.overrides.
void apply_override(YAML::Node& root, const std::string& assignment, yaml_source& source);

} // namespace nicsim::config

// The driver-source plug-in cache (driver_source.h, docs/driver-changes.md "The cache"): where it
// lives, what keys a plug-in, and the record that lets a cached object be checked before it is
// loaded. A plug-in is code this process runs: a damaged object (a truncated file maps pages
// past its end: SIGBUS on load), a stale one (a header it was built from changed) or one in a
// directory someone else can write must never be loaded.
//
// Files in the cache directory:
//   <base>.deps   every file the last build from this base key read (the compiler's -MD output)
//   <key>.so      the plug-in; <key> covers the base and the content of every file in .deps
//   <key>.record  its size and SHA-256 at build time and the generated dummies' names
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nicsim::driver_source::cache {

// $XDG_CACHE_HOME/nicsim/plugins, else $HOME/.cache/nicsim/plugins, else (HOME unset or empty)
// the private ${TMPDIR:-/tmp}/nicsim-<uid>/plugins: nicsim-<uid> is created with mode 0700 and
// must be a directory (no symlink) owned by this user with no group or other permissions, or
// plugin_error says what is wrong with it. Creates the directory. Throws plugin_error.
std::string directory();

// The files a compiler's dependency output (`-MD -MF`, a make rule "obj: src hdr …" with
// backslash continuations and escaped spaces) names, absolute, in order, without duplicates.
std::vector<std::string> parse_dependencies(const std::string& make_rule);

// The key of a plug-in: SHA-256 over `base` and each file's path and content. nullopt when a file
// cannot be read any more (deleted or moved: the build that recorded it is stale).
std::optional<std::string> key_over(const std::string& base, const std::vector<std::string>& files);

// What a build recorded about its object.
struct record {
    std::uint64_t size = 0;
    std::string sha256;               // of the object's bytes
    std::vector<std::string> missing; // kernel functions that became generated dummies
};

// The record of `object` as it is now (its size and hash); missing as given.
record record_of(const std::string& object, std::vector<std::string> missing);

// "" when `object` matches `r`, else why not ("1234 bytes, the build recorded 5678").
std::string mismatch(const std::string& object, const record& r);

// A .record or .deps file; nullopt when there is none or it is not one.
std::optional<record> read_record(const std::string& file);
std::vector<std::string> read_deps(const std::string& file);

// Written whole under a temporary name and renamed into place, so a reader never sees half.
void write_record(const std::string& file, const record& r);
void write_deps(const std::string& file, const std::vector<std::string>& files);

} // namespace nicsim::driver_source::cache

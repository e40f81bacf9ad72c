// SPDX-License-Identifier: MIT
// The driver-source plug-in cache (tools/plugin_cache.h, issue 36 item 4): the compiler's
// dependency output is read whole (a header in a subdirectory, continuation lines, escaped
// spaces), the key covers every listed file's content, a cached object is checked against the
// record of its build (a truncated or same-size altered object is told apart), and with HOME
// unset the cache is a private per-user directory that must be this user's with mode 0700.
// The whole path through `nicsim run --driver-src` is tests/system/driver_source.py
// (cache-verify, cache-private-dir).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tools/driver_source.h"
#include "tools/plugin_cache.h"

namespace fs = std::filesystem;
namespace cache = nicsim::driver_source::cache;
using nicsim::driver_source::plugin_error;

namespace {

struct scratch {
    fs::path dir;
    scratch() {
        char t[] = "/tmp/nicsim-plugin-cache-test-XXXXXX";
        dir = mkdtemp(t);
    }
    ~scratch() { fs::remove_all(dir); }
    std::string file(const std::string& name, const std::string& text) const {
        const fs::path p = dir / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

unsigned mode_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
}

TEST(PluginCache, ParsesEveryFileOfTheDependencyOutput) {
    const auto files = cache::parse_dependencies(
        "/w/0.o: /t/wilc1000/wlan.c /t/wilc1000/wlan.h \\\n"
        "  /t/wilc1000/sub/nested.h /inc/linux/types.h\\\n"
        " /t/my\\ dir/x.h /t/wilc1000/wlan.h\n");
    const std::vector<std::string> expected = {"/t/wilc1000/wlan.c", "/t/wilc1000/wlan.h",
                                               "/t/wilc1000/sub/nested.h", "/inc/linux/types.h",
                                               "/t/my dir/x.h"};
    EXPECT_EQ(files, expected);
    // A relative name (a relative -I) is made absolute: the key must not depend on the cwd.
    const auto rel = cache::parse_dependencies("0.o: sub/a.h\n");
    ASSERT_EQ(rel.size(), 1u);
    EXPECT_EQ(rel[0], (fs::current_path() / "sub/a.h").string());
    EXPECT_TRUE(cache::parse_dependencies("").empty());
}

TEST(PluginCache, KeyCoversTheContentOfEveryFile) {
    const scratch s;
    const std::string src = s.file("wlan.c", "#include \"sub/nested.h\"\n");
    const std::string hdr = s.file("sub/nested.h", "#define X 1\n");
    const auto k1 = cache::key_over("base", {src, hdr});
    ASSERT_TRUE(k1);
    EXPECT_EQ(k1->size(), 64u);
    EXPECT_EQ(cache::key_over("base", {src, hdr}), k1);
    s.file("sub/nested.h", "#define X 2\n"); // an edit of a header in a subdirectory
    const auto k2 = cache::key_over("base", {src, hdr});
    ASSERT_TRUE(k2);
    EXPECT_NE(*k2, *k1);
    EXPECT_NE(cache::key_over("other base", {src, hdr}), k2);
    fs::remove(hdr); // a file the last build read is gone: its record is stale
    EXPECT_FALSE(cache::key_over("base", {src, hdr}));
}

TEST(PluginCache, RecordTellsADamagedObject) {
    const scratch s;
    const std::string so = s.file("k.so", std::string(4096, 'x') + "ELF");
    const cache::record r = cache::record_of(so, {"devm_regulator_get_enable"});
    EXPECT_EQ(r.size, 4099u);
    const std::string rec = (s.dir / "k.record").string();
    cache::write_record(rec, r);
    const auto back = cache::read_record(rec);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->size, r.size);
    EXPECT_EQ(back->sha256, r.sha256);
    EXPECT_EQ(back->missing, r.missing);
    EXPECT_EQ(cache::mismatch(so, *back), "");

    fs::resize_file(so, 100); // truncated: loading it would map pages past its end (SIGBUS)
    EXPECT_EQ(cache::mismatch(so, *back), "100 bytes, the build recorded 4099");
    s.file("k.so", std::string(4096, 'y') + "ELF"); // same size, other bytes
    EXPECT_EQ(cache::mismatch(so, *back), "its SHA-256 is not the one the build recorded");
    fs::remove(so);
    EXPECT_NE(cache::mismatch(so, *back), "");

    s.file("bad.record", "nicsim plug-in record 1\nsize 12x\nsha256 00\n");
    EXPECT_FALSE(cache::read_record((s.dir / "bad.record").string()));
    EXPECT_FALSE(cache::read_record((s.dir / "none.record").string()));
}

TEST(PluginCache, DepsRoundTrip) {
    const scratch s;
    const std::string f = (s.dir / "b.deps").string();
    cache::write_deps(f, {"/a/b.c", "/a/sub/c.h"});
    EXPECT_EQ(cache::read_deps(f), (std::vector<std::string>{"/a/b.c", "/a/sub/c.h"}));
    s.file("junk.deps", "not a list\n/a/b.c\n");
    EXPECT_TRUE(cache::read_deps((s.dir / "junk.deps").string()).empty());
}

TEST(PluginCache, XdgAndHomeAreUsedAsGiven) {
    const scratch s;
    setenv("XDG_CACHE_HOME", (s.dir / "xdg").c_str(), 1);
    EXPECT_EQ(cache::directory(), (s.dir / "xdg/nicsim/plugins").string());
    setenv("XDG_CACHE_HOME", "relative", 1); // ignored, as the XDG spec says
    setenv("HOME", (s.dir / "home").c_str(), 1);
    EXPECT_EQ(cache::directory(), (s.dir / "home/.cache/nicsim/plugins").string());
    EXPECT_TRUE(fs::is_directory(s.dir / "home/.cache/nicsim/plugins"));
}

TEST(PluginCache, HomeUnsetGivesAPrivateDirectory) {
    const scratch s;
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    setenv("TMPDIR", s.dir.c_str(), 1);
    const std::string mine = (s.dir / ("nicsim-" + std::to_string(geteuid()))).string();
    EXPECT_EQ(cache::directory(), mine + "/plugins");
    EXPECT_EQ(mode_of(mine), 0700u);
    EXPECT_EQ(mode_of(mine + "/plugins") & 077, 0u);
    setenv("HOME", "", 1); // empty counts as unset
    EXPECT_EQ(cache::directory(), mine + "/plugins");
}

TEST(PluginCache, HomeUnsetRefusesADirectoryOthersCanUse) {
    const scratch s;
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    setenv("TMPDIR", s.dir.c_str(), 1);
    const std::string mine = (s.dir / ("nicsim-" + std::to_string(geteuid()))).string();
    fs::create_directory(mine);
    chmod(mine.c_str(), 0777); // planted by someone, or made shared
    try {
        cache::directory();
        FAIL() << "a mode 0777 cache directory was used";
    } catch (const plugin_error& e) {
        EXPECT_NE(std::string(e.what()).find(mine + ": its mode is 0777"), std::string::npos)
            << e.what();
    }
    fs::remove(mine);
    fs::create_directory(s.dir / "elsewhere");
    fs::create_directory_symlink(s.dir / "elsewhere", mine); // a symlink to a place of theirs
    EXPECT_THROW(cache::directory(), plugin_error);
    EXPECT_FALSE(fs::exists(s.dir / "elsewhere/plugins"));
}

} // namespace

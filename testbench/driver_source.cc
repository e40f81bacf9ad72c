// SPDX-License-Identifier: MIT
#include "testbench/driver_source.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "driver/include/nicsim/driver_variant.h"
#include "testbench/io/input_file.h"

extern char** environ;

namespace nicsim::driver_source {

namespace {

std::string read_file(const std::string& path, bool& ok) {
    try {
        std::string text = io::read_input_file(path, io::max_source_bytes, "a driver source file");
        ok = true;
        return text;
    } catch (const io::input_file_error&) {
        ok = false; // missing, or no regular file (a FIFO would block, /dev/zero never end)
        return {};
    }
}

bool is_dir(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> split_ws(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

std::string exe_path() {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// The shadow headers and glue: an installed nicsim's own copy
// (<prefix>/share/nicsim/driver/{include,glue}, next to <prefix>/bin/nicsim), else where the
// build recorded them (the source tree).
std::string emulation_dir(const char* recorded, const char* name) {
    std::string exe = exe_path();
    exe = exe.substr(0, exe.rfind('/'));
    const std::string installed = exe + "/../share/nicsim/driver/" + name;
    return is_dir(installed) ? installed : std::string(recorded);
}

// Runs argv with stdout and stderr into `log_file`; the exit status (-1: could not start).
struct job {
    pid_t pid = -1;
    std::string what, log, program;
};
job spawn(const std::vector<std::string>& argv, const std::string& what,
          const std::string& log_file) {
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    job j;
    j.what = what;
    j.log = log_file;
    j.program = argv.front();
    if (posix_spawnp(&j.pid, args[0], &fa, nullptr, args.data(), environ) != 0)
        j.pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return j;
}
int finish(const job& j) {
    if (j.pid < 0)
        return -1;
    int status = 0;
    while (waitpid(j.pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The compiler's first error (its line, the source line and the caret after it), else the
// output's first lines.
std::string first_error(const std::string& out) {
    std::istringstream in(out);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find("error:") != std::string::npos) {
            std::string e = lines[i];
            for (std::size_t k = i + 1; k < lines.size() && k <= i + 2; ++k) {
                if (lines[k].find(": ") != std::string::npos &&
                    lines[k].find(" | ") == std::string::npos)
                    break; // the next diagnostic, not the source excerpt
                e += "\n" + lines[k];
            }
            return e;
        }
    std::string e;
    for (std::size_t i = 0; i < lines.size() && i < 3; ++i)
        e += (i ? "\n" : "") + lines[i];
    return e.empty() ? std::string("(no output)") : e;
}

// "VERSION = 6" etc. of the tree's top-level Makefile: "6.1.192", or "" if there is none.
std::string makefile_version(const std::string& tree) {
    bool ok = false;
    const std::string mk = read_file(tree + "/Makefile", ok);
    if (!ok)
        return {};
    auto field = [&](const char* name) {
        const std::regex re(std::string("(^|\n)") + name + "[ \t]*=[ \t]*([0-9]+)");
        std::smatch m;
        return std::regex_search(mk, m, re) ? m[2].str() : std::string();
    };
    const std::string v = field("VERSION"), p = field("PATCHLEVEL"), s = field("SUBLEVEL");
    if (v.empty() || p.empty())
        return {};
    return v + "." + p + "." + (s.empty() ? "0" : s);
}

long version_code(const std::string& version) {
    unsigned a = 0, b = 0, c = 0;
    std::sscanf(version.c_str(), "%u.%u.%u", &a, &b, &c);
    return (long(a) << 16) + (long(b) << 8) + long(c > 255 ? 255 : c);
}

std::string c_string(const std::string& s) {
    std::string o = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\')
            o += '\\';
        o += ch;
    }
    return o + "\"";
}

void remove_tree(const std::string& dir) {
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
                std::remove((dir + "/" + e->d_name).c_str());
        closedir(d);
    }
    rmdir(dir.c_str());
}

bool make_dirs(const std::string& path) {
    for (std::size_t i = 1; i <= path.size(); ++i)
        if (i == path.size() || path[i] == '/') {
            const std::string p = path.substr(0, i);
            if (mkdir(p.c_str(), 0755) != 0 && errno != EEXIST)
                return false;
        }
    return is_dir(path);
}

std::unique_ptr<plugin> g_loaded;

} // namespace

std::string sha256_hex(const std::string& data) {
    // Debian's nettle (docs/LICENSING.md): one hash for the whole key material.
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    char hex[2 * SHA256_DIGEST_SIZE + 1];
    for (std::size_t i = 0; i < sizeof digest; ++i)
        std::snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    return std::string(hex, 2 * SHA256_DIGEST_SIZE);
}

std::string cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg)
        return std::string(xdg) + "/nicsim/plugins";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : "/tmp") + "/.cache/nicsim/plugins";
}

const plugin* loaded() {
    return g_loaded.get();
}

const plugin& load(const std::string& tree_arg, const std::string& driver,
                   const std::string& fallback_version, std::ostream& log) {
    if (g_loaded)
        throw plugin_error("a driver source plug-in is already loaded in this process");
    const recipe::driver_files* row = nullptr;
    for (const auto* d = recipe::drivers; d->driver; ++d)
        if (driver == d->driver)
            row = d;
    if (!row)
        throw plugin_error("driver.source: the " + driver + " driver cannot be built from a tree");

    plugin p;
    char real[PATH_MAX];
    if (!realpath(tree_arg.c_str(), real) || !is_dir(real))
        throw plugin_error("driver.source: " + tree_arg + " is not a directory");
    p.tree = real;
    // The tree's root, or the driver's directory itself.
    const auto sources = split_ws(row->sources);
    const std::string first = sources.front().substr(0, sources.front().find('='));
    std::string root = p.tree;
    if (is_dir(p.tree + "/" + row->kdir)) {
        p.driver_dir = p.tree + "/" + row->kdir;
    } else if (is_file(p.tree + "/" + first)) {
        p.driver_dir = p.tree;
        // Climb to the root if the directory sits at its place in a tree.
        const std::string kdir = std::string("/") + row->kdir;
        if (p.tree.size() > kdir.size() &&
            p.tree.compare(p.tree.size() - kdir.size(), kdir.size(), kdir) == 0)
            root = p.tree.substr(0, p.tree.size() - kdir.size());
    } else {
        throw plugin_error("driver.source: " + p.tree + " has no " + row->kdir + " (the " + driver +
                           " driver's directory in a kernel tree)");
    }
    p.kernel_version = makefile_version(root);
    if (p.kernel_version.empty())
        p.kernel_version = fallback_version;
    const long code = version_code(p.kernel_version);
    const std::string series = p.kernel_version.substr(0, p.kernel_version.rfind('.'));

    const std::string inc = emulation_dir(recipe::include_dir, "include");
    const std::string glue = emulation_dir(recipe::glue_dir, "glue") + "/" + driver;

    // The cache key: the recipe, this executable (its emulation and headers), every file read.
    std::string material = "nicsim driver plug-in 1\n";
    material += std::string(recipe::c_compiler) + "\n";
    for (const char* const* f = recipe::c_flags; *f; ++f)
        material += std::string(*f) + "\n";
    material += driver + "\n" + std::to_string(code) + "\n" + p.kernel_version + "\n";
    struct stat exe_st {};
    if (stat("/proc/self/exe", &exe_st) == 0)
        material += "exe " + std::to_string(exe_st.st_size) + " " +
                    std::to_string(exe_st.st_mtim.tv_sec) + "." +
                    std::to_string(exe_st.st_mtim.tv_nsec) + "\n";
    auto add_file = [&](const std::string& path) {
        std::string content;
        try {
            content = io::read_input_file(path, io::max_source_bytes, "a driver source file");
        } catch (const io::input_file_error& e) {
            throw plugin_error(std::string("driver.source: ") + e.what());
        }
        material += "file " + path + " " + std::to_string(content.size()) + "\n" + content;
    };
    struct unit {
        std::string src, modname;
        bool driver_code;
    };
    std::vector<unit> units;
    for (const auto& s : sources) {
        const auto eq = s.find('=');
        units.push_back({p.driver_dir + "/" + s.substr(0, eq), s.substr(eq + 1), true});
    }
    for (const auto& g : split_ws(row->glue))
        units.push_back({glue + "/" + g, driver + "_" + g.substr(0, g.rfind('.')), false});
    for (const auto& u : units)
        add_file(u.src);
    std::vector<std::string> headers; // the driver directory's own headers
    if (DIR* d = opendir(p.driver_dir.c_str())) {
        while (const dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 2 && n.compare(n.size() - 2, 2, ".h") == 0)
                headers.push_back(p.driver_dir + "/" + n);
        }
        closedir(d);
    }
    std::sort(headers.begin(), headers.end());
    for (const auto& h : headers)
        add_file(h);
    p.sha256 = sha256_hex(material);
    p.key = "source@" + p.sha256.substr(0, 12);

    const std::string dir = cache_dir();
    if (!make_dirs(dir))
        throw plugin_error("driver.source: cannot create the plug-in cache " + dir + ": " +
                           std::strerror(errno));
    p.path = dir + "/" + p.sha256 + ".so";
    const std::string missing_file = dir + "/" + p.sha256 + ".missing";
    const std::string what = driver + " from " + p.driver_dir + " (" + p.kernel_version + ")";

    if (is_file(p.path)) {
        p.cached = true;
        bool ok = false;
        p.missing = split_ws(read_file(missing_file, ok));
        log << "nicsim: driver source: " << what << ": cached plug-in " << p.path
            << " (not compiled)\n";
    } else {
        log << "nicsim: driver source: compiling " << what << " -> " << p.path << "\n";
        const auto t0 = std::chrono::steady_clock::now();
        const std::string work = dir + "/" + p.sha256 + ".tmp." + std::to_string(getpid());
        remove_tree(work);
        if (!make_dirs(work))
            throw plugin_error("driver.source: cannot create " + work);
        struct cleanup {
            std::string d;
            ~cleanup() { remove_tree(d); }
        } clean{work};
        auto fail_log = [&](const job& j) {
            if (j.pid < 0)
                return plugin_error("driver source " + p.driver_dir + ": " + j.what +
                                    ": cannot start " + j.program +
                                    " (the compiler and binutils nicsim was built with)");
            bool ok = false;
            const std::string out = read_file(j.log, ok);
            const std::string kept = dir + "/" + p.sha256 + ".log";
            std::ofstream(kept) << out;
            return plugin_error("driver source " + p.driver_dir + ": " + j.what + " failed:\n" +
                                first_error(out) + "\n(full output: " + kept + ")");
        };

        // The anchor: the plug-in's only global symbol (as a built-in build's).
        const std::string anchor = work + "/anchor.c";
        std::ofstream(anchor) << "#include \"nicsim/driver_variant.h\"\n"
                              << "const struct nicsim_driver_variant nicsim_plugin_variant = {"
                              << c_string(driver) << ", \"source\", " << c_string(row->kdir)
                              << ", \"\", " << c_string(series) << ", "
                              << c_string(p.kernel_version) << ", " << c_string(p.key) << "};\n";
        units.push_back({anchor, driver + "_anchor", false});

        std::vector<job> jobs;
        std::vector<std::string> objs;
        for (std::size_t i = 0; i < units.size(); ++i) {
            const unit& u = units[i];
            std::vector<std::string> argv = {recipe::c_compiler};
            for (const char* const* f = recipe::c_flags; *f; ++f)
                argv.emplace_back(*f);
            if (u.driver_code) // the driver's basic blocks are its CPU time (code_cost.cc)
                argv.emplace_back("-fsanitize-coverage=trace-pc");
            argv.insert(argv.end(),
                        {"-DKBUILD_MODNAME=\"" + u.modname + "\"", "-DNICSIM_VARIANT=\"source\"",
                         "-DNICSIM_BUILD_KEY=\"" + p.key + "\"",
                         "-DNICSIM_LINUX_VERSION_CODE=" + std::to_string(code), "-I" + inc,
                         "-I" + p.driver_dir, "-I" + glue, "-c", u.src});
            const std::string obj = work + "/" + std::to_string(i) + ".o";
            argv.insert(argv.end(), {"-o", obj});
            objs.push_back(obj);
            const std::string name = u.src.substr(u.src.rfind('/') + 1);
            jobs.push_back(spawn(argv, "compiling " + name, obj + ".log"));
        }
        // All compiles run at once; the first failing file (in the list's order) is reported.
        std::vector<int> rcs;
        for (const auto& j : jobs)
            rcs.push_back(finish(j));
        for (std::size_t i = 0; i < jobs.size(); ++i)
            if (rcs[i] != 0)
                throw fail_log(jobs[i]);

        auto run = [&](const std::vector<std::string>& argv, const std::string& step) {
            const job j = spawn(argv, step, work + "/step.log");
            if (finish(j) != 0)
                throw fail_log(j);
        };
        std::vector<std::string> ld = {recipe::linker, "-r", "-o", work + "/all.r.o"};
        ld.insert(ld.end(), objs.begin(), objs.end());
        run(ld, "linking (ld -r)");
        run({recipe::objcopy, "--keep-global-symbol=nicsim_plugin_variant", work + "/all.r.o",
             work + "/all.o"},
            "localizing (objcopy)");

        // Undefined symbols this process does not provide (the executable exports the
        // emulation; libc, libm, the sanitizer runtimes are loaded): generated dummies.
        run({recipe::nm, "-u", work + "/all.o"}, "listing undefined symbols (nm)");
        bool ok = false;
        std::istringstream nm_out(read_file(work + "/step.log", ok));
        for (std::string l; std::getline(nm_out, l);) {
            const auto w = split_ws(l);
            if (w.size() == 2 && w[0] == "U" && !dlsym(RTLD_DEFAULT, w[1].c_str()) &&
                w[1] != "_GLOBAL_OFFSET_TABLE_")
                p.missing.push_back(w[1]);
        }
        std::sort(p.missing.begin(), p.missing.end());
        std::vector<std::string> link = {recipe::c_compiler};
        for (const char* const* f = recipe::c_flags; *f; ++f)
            link.emplace_back(*f);
        link.insert(link.end(), {"-shared", "-o", work + "/plugin.so", work + "/all.o"});
        if (!p.missing.empty()) {
            std::ofstream dc(work + "/dummies.c");
            dc << "#include \"lx_emul/dummy.h\"\n";
            for (const auto& s : p.missing)
                dc << "void " << s << "(void) { lx_emul_trace_and_stop(\"" << s << "\"); }\n";
            dc.close();
            std::vector<std::string> cc = {recipe::c_compiler};
            for (const char* const* f = recipe::c_flags; *f; ++f)
                cc.emplace_back(*f);
            cc.insert(cc.end(), {"-I" + inc, "-c", work + "/dummies.c", "-o", work + "/dummies.o"});
            run(cc, "compiling the generated dummies");
            link.push_back(work + "/dummies.o");
        }
        run(link, "linking the plug-in");
        std::string names;
        for (const auto& s : p.missing)
            names += s + "\n";
        std::ofstream(missing_file) << names;
        if (std::rename((work + "/plugin.so").c_str(), p.path.c_str()) != 0)
            throw plugin_error("driver.source: cannot write " + p.path + ": " +
                               std::strerror(errno));
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f s", s);
        log << "nicsim: driver source: compiled " << units.size() << " files in " << buf << "\n";
    }
    if (!p.missing.empty()) {
        log << "nicsim: driver source: " << p.missing.size()
            << " kernel function(s) the tree needs are not in the emulation; each is a "
               "generated dummy that stops the run with its name when called:\n";
        for (const auto& s : p.missing)
            log << "  " << s << "\n";
    }

    void* h = dlopen(p.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h)
        throw plugin_error("driver.source: cannot load " + p.path + ": " + dlerror());
    const auto* v = static_cast<const nicsim_driver_variant*>(dlsym(h, "nicsim_plugin_variant"));
    if (!v || p.key != v->key)
        throw plugin_error("driver.source: " + p.path + " is not a plug-in of this tree");
    g_loaded = std::make_unique<plugin>(p);
    return *g_loaded;
}

} // namespace nicsim::driver_source

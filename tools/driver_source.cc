// SPDX-License-Identifier: MIT
#include "tools/driver_source.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "kernel/include/nicsim/driver_variant.h"
#include "tools/io/input_file.h"
#include "tools/plugin_cache.h"

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

// Creates the directory `path` (a build's work directory inside the cache), mode 0700.
bool make_dir(const std::string& path) {
    return mkdir(path.c_str(), 0700) == 0 || (errno == EEXIST && is_dir(path));
}

// One compilation unit of the plug-in.
struct unit {
    std::string src, modname;
    bool driver_code; // the driver's own file (glue and the anchor are not)
};

// What a plug-in is built from: the tree's driver files, the glue, the shadow headers.
struct inputs {
    const recipe::driver_files* row = nullptr;
    std::string driver, inc, glue, series;
    long code = 0;
    std::vector<unit> units;
    std::vector<std::string> headers; // the driver directory's own *.h (in the base key)
};

const recipe::driver_files* recipe_row(const std::string& driver) {
    for (const auto* d = recipe::drivers; d->driver; ++d)
        if (driver == d->driver)
            return d;
    throw plugin_error("driver.source: the " + driver + " driver cannot be built from a tree");
}

// Finds the driver's directory in `tree_arg` (a tree's root, or the directory itself) and the
// tree's kernel version; fills p.tree, p.driver_dir, p.kernel_version.
void locate(plugin& p, const recipe::driver_files& row, const std::string& tree_arg,
            const std::string& fallback_version) {
    char real[PATH_MAX];
    if (!realpath(tree_arg.c_str(), real) || !is_dir(real))
        throw plugin_error("driver.source: " + tree_arg + " is not a directory");
    p.tree = real;
    const auto sources = split_ws(row.sources);
    const std::string first = sources.front().substr(0, sources.front().find('='));
    std::string root = p.tree;
    if (is_dir(p.tree + "/" + row.kdir)) {
        p.driver_dir = p.tree + "/" + row.kdir;
    } else if (is_file(p.tree + "/" + first)) {
        p.driver_dir = p.tree;
        // Climb to the root if the directory sits at its place in a tree.
        const std::string kdir = std::string("/") + row.kdir;
        if (p.tree.size() > kdir.size() &&
            p.tree.compare(p.tree.size() - kdir.size(), kdir.size(), kdir) == 0)
            root = p.tree.substr(0, p.tree.size() - kdir.size());
    } else {
        throw plugin_error("driver.source: " + p.tree + " has no " + row.kdir + " (the " +
                           row.driver + " driver's directory in a kernel tree)");
    }
    p.kernel_version = makefile_version(root);
    if (p.kernel_version.empty())
        p.kernel_version = fallback_version;
}

inputs gather(const plugin& p, const recipe::driver_files& row) {
    inputs in;
    in.row = &row;
    in.driver = row.driver;
    in.code = version_code(p.kernel_version);
    in.series = p.kernel_version.substr(0, p.kernel_version.rfind('.'));
    in.inc = emulation_dir(recipe::include_dir, "include");
    in.glue = emulation_dir(recipe::glue_dir, "glue") + "/" + in.driver;
    for (const auto& s : split_ws(row.sources)) {
        const auto eq = s.find('=');
        in.units.push_back({p.driver_dir + "/" + s.substr(0, eq), s.substr(eq + 1), true});
    }
    for (const auto& g : split_ws(row.glue))
        in.units.push_back({in.glue + "/" + g, in.driver + "_" + g.substr(0, g.rfind('.')), false});
    if (DIR* d = opendir(p.driver_dir.c_str())) {
        while (const dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (n.size() > 2 && n.compare(n.size() - 2, 2, ".h") == 0)
                in.headers.push_back(p.driver_dir + "/" + n);
        }
        closedir(d);
    }
    std::sort(in.headers.begin(), in.headers.end());
    return in;
}

// The base key: the recipe, this executable (its emulation and headers), the files known before
// compiling. The plug-in's key adds every file the compiler read (plugin_cache.h).
std::string base_key(const plugin& p, const inputs& in) {
    std::string material = "nicsim driver plug-in 2\n";
    material += std::string(recipe::c_compiler) + "\n";
    for (const char* const* f = recipe::c_flags; *f; ++f)
        material += std::string(*f) + "\n";
    material += in.driver + "\n" + std::to_string(in.code) + "\n" + p.kernel_version + "\n";
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
    for (const auto& u : in.units)
        add_file(u.src);
    for (const auto& h : in.headers)
        add_file(h);
    return sha256_hex(material);
}

std::vector<std::string> compiler_argv(const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {recipe::c_compiler};
    for (const char* const* f = recipe::c_flags; *f; ++f)
        argv.emplace_back(*f);
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
}

void set_key(plugin& p, const std::string& sha256) {
    p.sha256 = sha256;
    p.key = "source@" + sha256.substr(0, 12);
}

// A build in its own directory `work` of the cache `dir`: lists every file the units read, sets
// p's key over them, compiles the units and links the plug-in to work/plugin.so; p.missing gets
// the generated dummies. Returns the files read.
std::vector<std::string> build(plugin& p, inputs in, const std::string& base,
                               const std::string& dir, const std::string& work) {
    auto fail_log = [&](const job& j) {
        if (j.pid < 0)
            return plugin_error("driver source " + p.driver_dir + ": " + j.what +
                                ": cannot start " + j.program +
                                " (the compiler and binutils nicsim was built with)");
        bool ok = false;
        const std::string out = read_file(j.log, ok);
        const std::string kept = dir + "/" + base + ".log";
        std::ofstream(kept) << out;
        return plugin_error("driver source " + p.driver_dir + ": " + j.what + " failed:\n" +
                            first_error(out) + "\n(full output: " + kept + ")");
    };
    auto run = [&](const std::vector<std::string>& argv, const std::string& step) {
        const job j = spawn(argv, step, work + "/step.log");
        if (finish(j) != 0)
            throw fail_log(j);
    };
    // -D and -I as the compile has them: they decide which headers a file includes.
    auto unit_flags = [&](const unit& u) {
        std::vector<std::string> f;
        if (u.driver_code) // the driver's basic blocks are its CPU time (code_cost.cc)
            f.emplace_back("-fsanitize-coverage=trace-pc");
        f.insert(f.end(), {"-DKBUILD_MODNAME=\"" + u.modname + "\"", "-DNICSIM_VARIANT=\"source\"",
                           "-DNICSIM_BUILD_KEY=\"" + p.key + "\"",
                           "-DNICSIM_LINUX_VERSION_CODE=" + std::to_string(in.code),
                           "-I" + in.inc, "-I" + p.driver_dir, "-I" + in.glue});
        return f;
    };
    // Runs one command per unit, all at once; the first failing one (in the list's order) is
    // reported.
    auto run_all = [&](const std::function<std::vector<std::string>(std::size_t)>& argv,
                       const std::string& step, const std::string& log_suffix) {
        std::vector<job> jobs;
        for (std::size_t i = 0; i < in.units.size(); ++i) {
            const std::string name = in.units[i].src.substr(in.units[i].src.rfind('/') + 1);
            jobs.push_back(spawn(argv(i), step + " " + name,
                                 work + "/" + std::to_string(i) + log_suffix));
        }
        std::vector<int> rcs;
        for (const auto& j : jobs)
            rcs.push_back(finish(j));
        for (std::size_t i = 0; i < jobs.size(); ++i)
            if (rcs[i] != 0)
                throw fail_log(jobs[i]);
    };
    const struct timespec started = [] {
        struct timespec t {};
        clock_gettime(CLOCK_REALTIME, &t);
        return t;
    }();

    // Every file the units read (the compiler's dependency output, -M: preprocessing only), and
    // the key over them, which the compiled code names (NICSIM_BUILD_KEY).
    set_key(p, base); // a stand-in: the key's value decides no #include
    run_all(
        [&](std::size_t i) {
            auto f = unit_flags(in.units[i]);
            f.insert(f.end(), {"-M", "-MF", work + "/" + std::to_string(i) + ".d", in.units[i].src});
            return compiler_argv(f);
        },
        "listing the headers of", ".d.log");
    std::vector<std::string> deps;
    for (std::size_t i = 0; i < in.units.size(); ++i) {
        bool ok = false;
        for (auto& f :
             cache::parse_dependencies(read_file(work + "/" + std::to_string(i) + ".d", ok)))
            if (std::find(deps.begin(), deps.end(), f) == deps.end())
                deps.push_back(std::move(f));
    }
    const auto key = cache::key_over(base, deps);
    if (!key)
        throw plugin_error("driver source " + p.driver_dir +
                           ": a file the compiler read disappeared while compiling; run again");
    set_key(p, *key);

    // The anchor: the plug-in's only global symbol (as a built-in build's), naming the key.
    const std::string anchor = work + "/anchor.c";
    std::ofstream(anchor) << "#include \"nicsim/driver_variant.h\"\n"
                          << "const struct nicsim_driver_variant nicsim_plugin_variant = {"
                          << c_string(in.driver) << ", \"source\", " << c_string(in.row->kdir)
                          << ", \"\", " << c_string(in.series) << ", "
                          << c_string(p.kernel_version) << ", " << c_string(p.key) << "};\n";
    in.units.push_back({anchor, in.driver + "_anchor", false});
    std::vector<std::string> objs;
    for (std::size_t i = 0; i < in.units.size(); ++i)
        objs.push_back(work + "/" + std::to_string(i) + ".o");
    run_all(
        [&](std::size_t i) {
            auto f = unit_flags(in.units[i]);
            f.insert(f.end(), {"-c", in.units[i].src, "-o", objs[i]});
            return compiler_argv(f);
        },
        "compiling", ".o.log");

    // A file changed since the headers were listed: the key would not describe the object.
    for (const auto& f : deps) {
        struct stat st {};
        if (stat(f.c_str(), &st) == 0 &&
            (st.st_mtim.tv_sec > started.tv_sec ||
             (st.st_mtim.tv_sec == started.tv_sec && st.st_mtim.tv_nsec >= started.tv_nsec)))
            throw plugin_error("driver source " + p.driver_dir + ": " + f +
                               " changed while it was being compiled; run again");
    }

    std::vector<std::string> ld = {recipe::linker, "-r", "-o", work + "/all.r.o"};
    ld.insert(ld.end(), objs.begin(), objs.end());
    run(ld, "linking (ld -r)");
    run({recipe::objcopy, "--keep-global-symbol=nicsim_plugin_variant", work + "/all.r.o",
         work + "/all.o"},
        "localizing (objcopy)");

    // Undefined symbols this process does not provide (the executable exports the emulation;
    // libc, libm, the sanitizer runtimes are loaded): generated dummies.
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
    std::vector<std::string> link =
        compiler_argv({"-shared", "-o", work + "/plugin.so", work + "/all.o"});
    if (!p.missing.empty()) {
        std::ofstream dc(work + "/dummies.c");
        dc << "#include \"lx_emul/dummy.h\"\n";
        for (const auto& s : p.missing)
            dc << "void " << s << "(void) { lx_emul_trace_and_stop(\"" << s << "\"); }\n";
        dc.close();
        run(compiler_argv({"-I" + in.inc, "-c", work + "/dummies.c", "-o", work + "/dummies.o"}),
            "compiling the generated dummies");
        link.push_back(work + "/dummies.o");
    }
    run(link, "linking the plug-in");
    return deps;
}

// The cached plug-in of this base key, checked against its record: true when p.path holds it
// (p's key and missing list set). A damaged or unrecorded object is removed and said so.
bool from_cache(plugin& p, const std::string& base, const std::string& dir, std::ostream& log) {
    const auto deps = cache::read_deps(dir + "/" + base + ".deps");
    const auto key = deps.empty() ? std::nullopt : cache::key_over(base, deps);
    if (!key)
        return false;
    const std::string so = dir + "/" + *key + ".so", rec = dir + "/" + *key + ".record";
    if (!is_file(so))
        return false;
    const auto r = cache::read_record(rec);
    const std::string why = r ? cache::mismatch(so, *r) : "no record of its build";
    if (!why.empty()) {
        log << "nicsim: driver source: cached plug-in " << so << " is damaged (" << why
            << "); compiling it again\n";
        std::remove(so.c_str());
        std::remove(rec.c_str());
        return false;
    }
    set_key(p, *key);
    p.path = so;
    p.missing = r->missing;
    return true;
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

const plugin* loaded() {
    return g_loaded.get();
}

const plugin& load(const std::string& tree_arg, const std::string& driver,
                   const std::string& fallback_version, std::ostream& log) {
    if (g_loaded)
        throw plugin_error("a driver source plug-in is already loaded in this process");
    const recipe::driver_files& row = *recipe_row(driver);
    plugin p;
    locate(p, row, tree_arg, fallback_version);
    const inputs in = gather(p, row);
    const std::string base = base_key(p, in);
    const std::string dir = cache::directory();
    const std::string what = driver + " from " + p.driver_dir + " (" + p.kernel_version + ")";

    if (from_cache(p, base, dir, log)) {
        p.cached = true;
        log << "nicsim: driver source: " << what << ": cached plug-in " << p.path
            << " (not compiled)\n";
    } else {
        log << "nicsim: driver source: compiling " << what << "\n";
        const auto t0 = std::chrono::steady_clock::now();
        const std::string work = dir + "/" + base + ".tmp." + std::to_string(getpid());
        remove_tree(work);
        if (!make_dir(work))
            throw plugin_error("driver.source: cannot create " + work);
        struct cleanup {
            std::string d;
            ~cleanup() { remove_tree(d); }
        } clean{work};
        const auto deps = build(p, in, base, dir, work);
        // The object, then its record, then the list that leads to them: a reader that finds
        // the list finds a recorded object (or a mismatch, which it rebuilds).
        p.path = dir + "/" + p.sha256 + ".so";
        const cache::record r = cache::record_of(work + "/plugin.so", p.missing);
        if (std::rename((work + "/plugin.so").c_str(), p.path.c_str()) != 0)
            throw plugin_error("driver.source: cannot write " + p.path + ": " +
                               std::strerror(errno));
        cache::write_record(dir + "/" + p.sha256 + ".record", r);
        cache::write_deps(dir + "/" + base + ".deps", deps);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.1f s", s);
        log << "nicsim: driver source: compiled " << in.units.size() + 1 << " files in " << buf
            << " -> " << p.path << "\n";
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

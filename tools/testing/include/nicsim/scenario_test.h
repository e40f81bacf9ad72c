// SPDX-License-Identifier: MIT
//
// nicsim/scenario_test.h: a GoogleTest fixture for testing a Linux driver against nicsim's chip
// and bus models (docs/driver-testing.md "GoogleTest"). Installed with nicsim and used through
// `find_package(nicsim)` and the `nicsim::gtest` target (examples/gtest/).
//
//   class Ks8851 : public nicsim::testing::ScenarioTest {};
//   TEST_F(Ks8851, PingAnswersEveryRequest) {
//       auto r = Check(nicsim::testing::shipped_config("ks8851-spi-ping.yaml"),
//                      {"flows[0].packets_received == 5", "rtt_ms.avg < 2ms"},
//                      {"traffic.count=5"});
//       EXPECT_EQ(r.at("devices[eth0].frames_tx").get<int>(), 5);
//   }
//
// Each Check() is one `nicsim check` process: SystemC elaborates once per process, so a run is
// never in the test's own address space, and the expectations are evaluated by nicsim's own
// engine (the `expect:` syntax of scenario files, with units). The test gets each expectation's
// outcome as a GoogleTest failure naming it and the value found, plus the run's JSON report
// (docs/report-schema.md) for any other assertion.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace nicsim::testing {

// The nicsim binary: $NICSIM when set, else the one find_package(nicsim) found.
inline std::string nicsim_executable() {
    if (const char* e = std::getenv("NICSIM"); e && *e)
        return e;
#ifdef NICSIM_EXECUTABLE
    return NICSIM_EXECUTABLE;
#else
    return "nicsim";
#endif
}

// A scenario shipped with nicsim (configs/<name>): under $NICSIM_CONFIGS_DIR when set, else the
// installed configs directory.
inline std::string shipped_config(const std::string& name) {
    std::string dir;
    if (const char* e = std::getenv("NICSIM_CONFIGS_DIR"); e && *e)
        dir = e;
#ifdef NICSIM_SHIPPED_CONFIGS
    else
        dir = NICSIM_SHIPPED_CONFIGS;
#endif
    return dir.empty() ? name : (std::filesystem::path(dir) / name).string();
}

struct expectation_result {
    std::string text;   // as given ("exit_code == 0 (implied)" for the implied one)
    std::string status; // "PASS", "FAIL" or "ERROR" (not evaluated: the run wrote no report)
    std::string actual; // the value found, as `nicsim check` prints it
    bool pass() const { return status == "PASS"; }
};

struct check_result {
    int exit_code = -1;  // of `nicsim check`: 0 all met, 1 bad input, 2 run error, 3 not met
    std::string command; // what ran, for messages
    std::string output;  // its stdout and stderr
    std::vector<expectation_result> expectations;
    nlohmann::json report; // the run's --json report; null when the run wrote none

    // A report value by path: "totals.goodput_bps", "devices[0].wakeups",
    // "devices[wlan0].power_states[sleep].time_s" ([N] or an element's name, state, kind or
    // effect). Throws std::out_of_range naming the path when it is not in the report.
    const nlohmann::json& at(const std::string& path) const {
        const nlohmann::json* j = &report;
        std::string seg;
        std::istringstream in(path);
        auto missing = [&](const std::string& what) {
            return std::out_of_range("nicsim report: no " + what + " in '" + path + "'" +
                                     (report.is_null() ? " (the run wrote no report)" : ""));
        };
        while (std::getline(in, seg, '.')) {
            std::string index;
            if (const auto b = seg.find('['); b != std::string::npos && seg.back() == ']') {
                index = seg.substr(b + 1, seg.size() - b - 2);
                seg = seg.substr(0, b);
            }
            if (!j->is_object() || !j->contains(seg))
                throw missing("key '" + seg + "'");
            j = &(*j)[seg];
            if (index.empty())
                continue;
            if (!j->is_array())
                throw missing("list '" + seg + "'");
            const nlohmann::json* found = nullptr;
            if (!index.empty() && index.find_first_not_of("0123456789") == std::string::npos) {
                const size_t n = std::stoul(index);
                if (n < j->size())
                    found = &(*j)[n];
            } else {
                for (const auto& e : *j)
                    for (const char* k : {"name", "state", "kind", "effect"})
                        if (!found && e.is_object() && e.contains(k) && e[k] == index)
                            found = &e;
            }
            if (!found)
                throw missing("element '" + seg + "[" + index + "]'");
            j = found;
        }
        return *j;
    }
};

namespace detail {

// Runs argv with stdout and stderr into one file; the exit code (128 + signal when killed).
inline int run_process(const std::vector<std::string>& argv, const std::string& output_file) {
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(std::string("nicsim::testing: fork: ") + std::strerror(errno));
    if (pid == 0) {
        const int fd = open(output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(args[0], args.data());
        std::fprintf(stderr, "nicsim::testing: cannot run %s: %s\n", args[0], std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// "  PASS   flows[0].packets_received == 5  (actual: 5)" → {text, status, actual}.
inline bool parse_result_line(const std::string& line, expectation_result& r) {
    for (const char* st : {"PASS", "FAIL", "ERROR"}) {
        const std::string head = std::string("  ") + st;
        if (line.rfind(head, 0) != 0)
            continue;
        const auto a = line.rfind("  (actual: ");
        if (a == std::string::npos || line.back() != ')')
            return false;
        const auto t = line.find_first_not_of(' ', head.size());
        r.status = st;
        r.text = line.substr(t, a - t);
        r.actual = line.substr(a + 11, line.size() - a - 12);
        return true;
    }
    return false;
}

} // namespace detail

// Runs `nicsim check SCENARIO --set KEY=VALUE… --set expect=[…]`: the scenario with the given
// overrides, its `expect:` list replaced by `expectations` (an empty list keeps the file's own).
inline check_result check(const std::string& scenario, const std::vector<std::string>& expectations,
                          const std::vector<std::string>& sets = {}) {
    namespace fs = std::filesystem;
    std::string templ = (fs::temp_directory_path() / "nicsim-gtest-XXXXXX").string();
    if (!mkdtemp(templ.data()))
        throw std::runtime_error("nicsim::testing: cannot create " + templ);
    const fs::path dir = templ;
    std::vector<std::string> argv = {
        nicsim_executable(), "check", scenario, "-j", "1", "--reports", (dir / "reports").string()};
    for (const auto& s : sets)
        argv.insert(argv.end(), {"--set", s});
    if (!expectations.empty())
        argv.insert(argv.end(), {"--set", "expect=" + nlohmann::json(expectations).dump()});
    check_result r;
    for (const auto& a : argv)
        r.command += (r.command.empty() ? "" : " ") + a;
    r.exit_code = detail::run_process(argv, (dir / "output").string());
    std::ifstream out(dir / "output");
    for (std::string line; std::getline(out, line);) {
        r.output += line + "\n";
        expectation_result e;
        if (detail::parse_result_line(line, e))
            r.expectations.push_back(e);
    }
    const fs::path rep = dir / "reports" / (fs::path(scenario).stem().string() + ".json");
    if (fs::exists(rep)) {
        std::ifstream in(rep);
        r.report = nlohmann::json::parse(in, nullptr, false);
        if (r.report.is_discarded())
            r.report = nullptr;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return r;
}

// The fixture: Check() as above, with every unmet expectation a non-fatal failure (EXPECT_*)
// that names it and the value found, and bad input or a failed check run a failure with
// nicsim's output.
class ScenarioTest : public ::testing::Test {
  protected:
    check_result Check(const std::string& scenario, const std::vector<std::string>& expectations,
                       const std::vector<std::string>& sets = {}) {
        check_result r = check(scenario, expectations, sets);
        if (r.exit_code != 0 && r.exit_code != 3) {
            ADD_FAILURE() << r.command << "\nexited " << r.exit_code << ":\n" << r.output;
            return r;
        }
        if (r.expectations.empty())
            ADD_FAILURE() << r.command << "\nprinted no expectation results:\n" << r.output;
        for (const auto& e : r.expectations)
            EXPECT_TRUE(e.pass()) << e.status << " " << e.text << " (actual: " << e.actual
                                  << ")\n  from " << scenario;
        return r;
    }
};

} // namespace nicsim::testing

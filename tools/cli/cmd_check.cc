// SPDX-License-Identifier: MIT
#include "tools/cli/cmd_check.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "tools/cli/cli.h"
#include "tools/cli/cmd_validate.h"
#include "tools/cli/option_checks.h"
#include "tools/config/config_loader.h"
#include "tools/config/expect.h"
#include "sim/runner.h"
#include "tools/sweep/process_pool.h"

namespace nicsim::cli {
namespace fs = std::filesystem;
namespace {

struct check_args {
    std::vector<std::string> files;
    std::vector<std::string> sets;
    std::string junit;
    std::string reports; // --reports DIR: keep each run's JSON report as DIR/<file stem>.json
    unsigned jobs = 0;
};

std::string xml_escape(const std::string& s) {
    std::string o;
    for (const char c : s) {
        switch (c) {
        case '&':
            o += "&amp;";
            break;
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '"':
            o += "&quot;";
            break;
        case '\'':
            o += "&apos;";
            break;
        default:
            // XML 1.0 allows no control characters but tab, newline and carriage return.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                o += '?';
            else
                o += c;
        }
    }
    return o;
}

// "file:12:5" → "12" (empty when there is no line, e.g. a --set argument).
std::string line_of(const std::string& where, const std::string& file) {
    if (where.rfind(file + ":", 0) != 0)
        return "";
    const std::string rest = where.substr(file.size() + 1);
    return rest.substr(0, rest.find(':'));
}

std::string make_temp_dir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/nicsim-check-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data()))
        throw std::runtime_error("cannot create a temporary directory " + templ + ": " +
                                 std::strerror(errno));
    return buf.data();
}

int run_check_command(const check_args& a, std::ostream& out, std::ostream& err) {
    // Every file and expectation is validated before anything runs.
    config::load_options lo;
    lo.overrides = a.sets;
    add_known_drivers(lo);
    std::vector<config::loaded_scenario> scenarios;
    bool bad = false;
    for (const auto& f : a.files) {
        try {
            scenarios.push_back(config::load_scenario(f, lo));
        } catch (const config::config_error& e) {
            err << e.what() << "\n";
            bad = true;
        }
    }
    if (bad)
        return exit_config_error;
    if (!a.junit.empty()) {
        std::ofstream probe(a.junit, std::ios::app);
        if (!probe) {
            err << "nicsim check: --junit " << a.junit << ": cannot write: " << std::strerror(errno)
                << "\n";
            return exit_config_error;
        }
    }

    if (!a.reports.empty()) {
        // Two files with one stem would overwrite each other's report: refuse before running.
        std::map<std::string, std::string> stems;
        for (const auto& f : a.files) {
            const std::string stem = fs::path(f).stem().string();
            if (!stems.emplace(stem, f).second) {
                err << "nicsim check: --reports " << a.reports << ": " << stems[stem] << " and "
                    << f << " would both write " << stem << ".json\n";
                return exit_config_error;
            }
        }
        std::error_code ec;
        fs::create_directories(a.reports, ec);
        if (ec || !fs::is_directory(a.reports)) {
            err << "nicsim check: --reports " << a.reports << ": cannot create the directory"
                << (ec ? ": " + ec.message() : std::string()) << "\n";
            return exit_config_error;
        }
    }

    std::vector<check_suite> suites(a.files.size());
    std::string dir;
    try {
        const std::string exe = sweep::self_exe();
        dir = make_temp_dir();
        std::vector<sweep::job> jobs;
        for (size_t i = 0; i < a.files.size(); ++i) {
            std::vector<std::string> argv = {exe, "run", a.files[i]};
            for (const auto& s : a.sets)
                argv.insert(argv.end(), {"--set", s});
            argv.insert(argv.end(),
                        {"--json", (fs::path(dir) / (std::to_string(i) + ".json")).string(), "-q"});
            jobs.push_back({argv});
        }
        sweep::run_jobs(jobs, a.jobs ? a.jobs : sweep::default_jobs(),
                        [&](size_t i, const sweep::job_result& r) {
                            suites[i].exit_code = r.exit_code;
                            suites[i].wall_s = r.wall_s;
                            suites[i].stderr_text = r.stderr_text;
                        });
    } catch (const std::exception& e) {
        err << "nicsim check: " << e.what() << "\n";
        return exit_run_error;
    }

    size_t total = 0, met = 0;
    bool run_errors = false;
    for (size_t i = 0; i < a.files.size(); ++i) {
        check_suite& s = suites[i];
        const auto& sc = scenarios[i].scenario;
        s.name = sc.name;
        s.file = a.files[i];
        nlohmann::json rep;
        const fs::path json_file = fs::path(dir) / (std::to_string(i) + ".json");
        // A failed run (exit 2) writes its report so far too: its expectations are judged on it.
        if (fs::exists(json_file)) {
            if (!a.reports.empty()) {
                const fs::path kept =
                    fs::path(a.reports) / (fs::path(s.file).stem().string() + ".json");
                std::error_code ec;
                fs::copy_file(json_file, kept, fs::copy_options::overwrite_existing, ec);
                if (ec) {
                    err << "nicsim check: cannot write " << kept.string() << ": " << ec.message()
                        << "\n";
                    run_errors = true;
                }
            }
            try {
                std::ifstream in(json_file);
                rep = nlohmann::json::parse(in);
            } catch (const std::exception&) {
                rep = nullptr;
            }
        }
        std::vector<config::expectation> list = sc.expect;
        if (!config::mentions_exit_code(list)) {
            config::expectation implied = config::parse_expectation("exit_code == 0");
            implied.text = "exit_code == 0 (implied)";
            implied.where = s.file;
            list.insert(list.begin(), implied);
        }
        out << s.file << ": " << s.name << " (nicsim run exit code " << s.exit_code << ")\n";
        bool file_ok = true;
        for (const auto& e : list) {
            const config::expect_result r = config::evaluate(e, rep, s.exit_code);
            check_case c;
            c.name = e.text;
            c.where = e.where;
            c.pass = r.pass;
            c.error = !r.pass && rep.is_null() && e.resolved != "exit_code";
            c.actual = (e.resolved != e.path ? e.resolved + " = " : std::string()) + r.actual;
            out << "  "
                << (c.pass    ? "PASS "
                    : c.error ? "ERROR"
                              : "FAIL ")
                << "  " << e.text << "  (actual: " << c.actual << ")\n";
            ++total;
            met += c.pass;
            file_ok = file_ok && c.pass;
            run_errors = run_errors || c.error;
            s.cases.push_back(c);
        }
        if (!file_ok && !s.stderr_text.empty()) {
            std::istringstream lines(s.stderr_text);
            for (std::string l; std::getline(lines, l);)
                out << "  | " << l << "\n";
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    out << met << " of " << total << " expectations met in " << a.files.size()
        << (a.files.size() == 1 ? " scenario\n" : " scenarios\n");
    if (!a.junit.empty()) {
        std::ofstream j(a.junit, std::ios::trunc);
        j << junit_xml(suites);
        j.close();
        if (!j) {
            err << "nicsim check: cannot write " << a.junit << "\n";
            return exit_run_error;
        }
    }
    if (run_errors)
        return exit_run_error;
    return met == total ? exit_ok : exit_check_failed;
}

} // namespace

std::string junit_xml(const std::vector<check_suite>& suites) {
    size_t tests = 0, failures = 0, errors = 0;
    for (const auto& s : suites)
        for (const auto& c : s.cases) {
            ++tests;
            failures += !c.pass && !c.error;
            errors += c.error;
        }
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites name=\"nicsim check\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\">\n";
    for (const auto& s : suites) {
        size_t f = 0, e = 0;
        for (const auto& c : s.cases) {
            f += !c.pass && !c.error;
            e += c.error;
        }
        x << "  <testsuite name=\"" << xml_escape(s.name) << "\" file=\"" << xml_escape(s.file)
          << "\" tests=\"" << s.cases.size() << "\" failures=\"" << f << "\" errors=\"" << e
          << "\" skipped=\"0\" time=\"" << std::fixed << std::setprecision(3) << s.wall_s
          << "\">\n";
        x << "    <properties>\n      <property name=\"exit_code\" value=\"" << s.exit_code
          << "\"/>\n    </properties>\n";
        for (const auto& c : s.cases) {
            x << "    <testcase classname=\"" << xml_escape(s.name) << "\" name=\""
              << xml_escape(c.name) << "\" file=\"" << xml_escape(s.file) << "\"";
            if (const std::string l = line_of(c.where, s.file); !l.empty())
                x << " line=\"" << l << "\"";
            if (c.pass) {
                x << "/>\n";
                continue;
            }
            x << ">\n      <" << (c.error ? "error" : "failure")
              << " message=\"actual: " << xml_escape(c.actual) << "\" type=\""
              << (c.error ? "run" : "expectation") << "\">"
              << xml_escape(c.where + ": expected " + c.name + ", actual: " + c.actual) << "</"
              << (c.error ? "error" : "failure") << ">\n    </testcase>\n";
        }
        if (!s.stderr_text.empty())
            x << "    <system-err>" << xml_escape(s.stderr_text) << "</system-err>\n";
        x << "  </testsuite>\n";
    }
    x << "</testsuites>\n";
    return x.str();
}

subcommand add_check_command(CLI::App& app) {
    auto a = std::make_shared<check_args>();
    CLI::App* c = app.add_subcommand(
        "check", "run scenarios and check their expect: lists (docs/driver-testing.md)");
    c->footer("Examples:\n"
              "  nicsim check examples/ks8851-ping-check.yaml\n"
              "  nicsim check examples/*.yaml --junit junit.xml --reports reports/   # in CI");
    c->add_option("scenarios", a->files, "scenario YAML files with expect:")
        ->required()
        ->type_name("YAML");
    c->add_option("--set", a->sets, "override a scenario key in every file: key.path=value")
        ->type_name("KEY=VALUE")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    c->add_option("--junit", a->junit, "also write the results as JUnit XML to FILE")
        ->type_name("FILE");
    c->add_option("--reports", a->reports,
                  "also keep each run's JSON report as DIR/<scenario file stem>.json")
        ->type_name("DIR");
    c->add_option("-j,--jobs", a->jobs, "runs at once (default: hardware threads)")
        ->type_name("N")
        ->check(process_count());
    return {c,
            [a](std::ostream& out, std::ostream& err) { return run_check_command(*a, out, err); }};
}

} // namespace nicsim::cli

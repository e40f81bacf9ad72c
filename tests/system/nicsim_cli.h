// SPDX-License-Identifier: MIT
// Comparisons between runs in the system tests: SystemC cannot restart within a process, so
// they run the shipped `nicsim` binary (NICSIM_EXE) once per setting and read its JSON report.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace nicsim::test {

// A fresh scratch directory named after the running test.
inline std::filesystem::path test_dir() {
    namespace fs = std::filesystem;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const fs::path dir = fs::path(::testing::TempDir()) / "nicsim-system" / info->name();
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// One `nicsim run configs/<config>` with `sets`; its JSON report (kept in dir as <tag>.json).
// `exit_code`: the documented exit status the run must end with (4: a run its duration cut).
inline nlohmann::json run_nicsim(const std::string& config, const std::vector<std::string>& sets,
                                 const std::string& tag, const std::filesystem::path& dir,
                                 int exit_code = 0) {
    const auto json = dir / (tag + ".json"), out = dir / (tag + ".out");
    std::string cmd = std::string("'") + NICSIM_EXE + "' run '" + NICSIM_SOURCE_DIR + "/configs/" +
                      config + "'";
    for (const std::string& s : sets)
        cmd += " --set '" + s + "'";
    cmd += " --quiet --json '" + json.string() + "' > '" + out.string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == exit_code)
        << cmd << " ended with status " << rc << "\n(output in " << out << ")";
    std::ifstream in(json);
    EXPECT_TRUE(in.good()) << "no JSON written by: " << cmd;
    return in.good() ? nlohmann::json::parse(in) : nlohmann::json();
}

} // namespace nicsim::test

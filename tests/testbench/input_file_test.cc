// SPDX-License-Identifier: MIT
//
// Files that never end (issue 36 item 5): a FIFO or /dev/zero given as a scenario (or any YAML
// input, or a JSON report) is refused at once naming the file, never read until it ends; a file
// above the size limit is refused before it is read. A FIFO used to block the loader forever,
// /dev/zero to fill memory.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "tools/config/config_loader.h"
#include "tools/config/yaml_reader.h"
#include "tools/io/input_file.h"
#include "tools/report/json_writer.h"
#include "tests/testbench/test_files.h"

namespace {
namespace fs = std::filesystem;
using nicsim::config::config_error;

// The error message of load(file), failing the test at once (exiting: the blocked reader could
// not be stopped) when it does not return within a few seconds.
std::string error_within_seconds(const std::function<void()>& load) {
    auto f = std::async(std::launch::async, [&]() -> std::string {
        try {
            load();
        } catch (const std::exception& e) {
            return e.what();
        }
        return "";
    });
    if (f.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
        std::fprintf(stderr, "the reader still blocks after 5 s\n");
        std::fflush(stderr);
        _exit(1);
    }
    return f.get();
}

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

} // namespace

TEST(InputFiles, AFifoAsScenarioIsRefusedWithoutBlocking) {
    const auto fifo = (nicsim::test::test_dir() / "s.yaml").string();
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string e = error_within_seconds([&] { nicsim::config::load_scenario(fifo); });
    EXPECT_EQ(e.rfind(fifo + ": is a FIFO, not a regular file", 0), 0u) << e;
    const std::string r = error_within_seconds([&] { nicsim::report::read_json_file(fifo); });
    EXPECT_EQ(r.rfind(fifo + ": is a FIFO, not a regular file", 0), 0u) << r;
}

TEST(InputFiles, DevZeroAsScenarioIsAClearErrorNotAnEndlessRead) {
    const std::string e = error_within_seconds([] { nicsim::config::load_scenario("/dev/zero"); });
    EXPECT_EQ(e.rfind("/dev/zero: is a character device, not a regular file", 0), 0u) << e;
    // The platform profile and the sweep and validation files share the one YAML reader.
    const std::string p = error_within_seconds([] { nicsim::config::load_platform("/dev/zero"); });
    EXPECT_TRUE(contains(p, "/dev/zero: is a character device")) << p;
}

TEST(InputFiles, AFileAboveTheLimitIsRefusedBeforeItIsRead) {
    const auto big = nicsim::test::test_dir() / "big.yaml";
    nicsim::test::write_file(big, "name: big\n");
    fs::resize_file(big, nicsim::io::max_yaml_bytes + 1); // sparse: no disk space used
    const std::string e =
        error_within_seconds([&] { nicsim::config::load_scenario(big.string()); });
    EXPECT_EQ(e, big.string() + ": 16777217 bytes, more than the 16 MiB a YAML file may have") << e;
    fs::resize_file(big, nicsim::io::max_yaml_bytes);
    EXPECT_NO_THROW(nicsim::io::read_input_file(big.string(), nicsim::io::max_yaml_bytes, "x"));
}

TEST(InputFiles, AMissingFileSaysItCannotBeOpened) {
    const std::string e = error_within_seconds(
        [] { nicsim::config::load_scenario("/nonexistent/nicsim-scenario.yaml"); });
    EXPECT_EQ(e, "/nonexistent/nicsim-scenario.yaml: cannot open: No such file or directory") << e;
}

// SPDX-License-Identifier: MIT
//
// Memory is bounded like the kernel's (issue 35 item 8): every traffic kind with only its kind and
// `duration` set, and the UDP kinds as floods (`rate: 0`), run through the real `nicsim` binary
// under a 1 GiB address-space limit (setrlimit in the child; the ASan build bounds the resident
// size instead, see run_limited) and end with a report (exit 0 or 4),
// never with an allocation failure (exit 2). A UDP sender at the peer once queued datagrams at the
// medium without bound and died after 14.5 ms of simulated time.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/testbench/test_files.h"

namespace {

namespace fs = std::filesystem;

const std::string exe = NICSIM_EXE;
const std::string platforms = std::string(NICSIM_SOURCE_DIR) + "/configs/platforms/";

struct outcome {
    int rc = -1;
    std::string out;
    nlohmann::json report;
};

#if defined(__SANITIZE_ADDRESS__)
constexpr bool asan_build = true;
#else
constexpr bool asan_build = false;
#endif

// `nicsim run SCENARIO -q --json DIR/r.json` with RLIMIT_AS = 1 GiB (and a CPU-time limit, so a
// regression fails instead of hanging the suite). AddressSanitizer reserves terabytes of address
// space for its shadow, so the ASan build bounds the resident size instead (ASan's own
// hard_rss_limit_mb, which ends the run with an error), at 3 GiB: its shadow and 256 MB
// quarantine triple what a run holds.
outcome run_limited(const fs::path& dir, const std::string& scenario) {
    const fs::path json = dir / "r.json", log = dir / "out.txt";
    const pid_t pid = fork();
    if (pid == 0) {
        const rlimit as{1ul << 30, 1ul << 30};
        const rlimit cpu{120, 120};
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (asan_build) {
            const char* given = std::getenv("ASAN_OPTIONS");
            const std::string opts =
                (given && *given ? std::string(given) + ":" : "") + "hard_rss_limit_mb=3072";
            setenv("ASAN_OPTIONS", opts.c_str(), 1);
        }
        if ((!asan_build && setrlimit(RLIMIT_AS, &as) != 0) || setrlimit(RLIMIT_CPU, &cpu) != 0 ||
            fd < 0)
            _exit(100);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(exe.c_str(), exe.c_str(), "run", scenario.c_str(), "-q", "--json", json.c_str(),
              static_cast<char*>(nullptr));
        _exit(101);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    outcome o;
    o.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream in(log);
    o.out.assign(std::istreambuf_iterator<char>(in), {});
    if (fs::exists(json))
        o.report = nlohmann::json::parse(std::ifstream(json));
    return o;
}

struct device_case {
    const char* name;
    const char* yaml; // platform + device
};

const device_case devices[] = {
    {"ks8851_spi", "platform: rpi-class\ndevice: {type: ks8851, bus: spi}\n"},
    {"ks8851_par", "platform: imx6-class\ndevice: {type: ks8851, bus: par}\n"},
    {"enc28j60_spi", "platform: rpi-class\ndevice: {type: enc28j60, bus: spi}\n"},
    {"wilc1000_spi", "platform: sama5-class\ndevice: {type: wilc1000, bus: spi}\n"},
    {"wilc1000_sdio", "platform: sama5-class\ndevice: {type: wilc1000, bus: sdio}\n"},
};

using param = std::tuple<device_case, std::string>; // device, traffic mapping

class BoundedMemory : public ::testing::TestWithParam<param> {};

TEST_P(BoundedMemory, EndsWithAReportUnderOneGiB) {
    const auto& [dev, traffic] = GetParam();
    const fs::path dir = nicsim::test::test_dir();
    std::string yaml = "duration: 2s\n" + std::string(dev.yaml) + "traffic: " + traffic + "\n";
    yaml.replace(yaml.find("platform: ") + 10, 0, platforms);
    const std::string scenario = nicsim::test::write_file(dir / "s.yaml", yaml);
    const outcome o = run_limited(dir, scenario);
    ASSERT_TRUE(o.rc == 0 || o.rc == 4) << "exit " << o.rc << "\n" << yaml << o.out;
    ASSERT_TRUE(o.report.is_object()) << o.out;
    const std::string end = o.report["end_reason"];
    EXPECT_TRUE(end == "duration limit" || end == "traffic complete") << end;
    EXPECT_LE(o.report["sim_time_s"].get<double>(), 2.0);
    if (traffic.find("idle") != std::string::npos)
        return;
    const auto& f = o.report["flows"].at(0);
    EXPECT_GT(f["frames"].get<std::uint64_t>(), 0u) << f.dump();
    if (traffic.find("udp") != std::string::npos) {
        EXPECT_TRUE(f["udp"].is_object()) << "a UDP flow reports its receiver's drops";
    }
}

std::string name_of(const ::testing::TestParamInfo<param>& info) {
    std::string t = std::get<1>(info.param);
    std::string n = std::string(std::get<0>(info.param).name) + "_";
    for (char c : t)
        if (std::isalnum(static_cast<unsigned char>(c)))
            n += c;
    return n;
}

INSTANTIATE_TEST_SUITE_P(OnlyDuration, BoundedMemory,
                         ::testing::Combine(::testing::ValuesIn(devices),
                                            ::testing::Values("{kind: ttcp_tx}", "{kind: ttcp_rx}",
                                                              "{kind: udp_tx}", "{kind: udp_rx}",
                                                              "{kind: ping}", "{kind: iperf_tx}",
                                                              "{kind: iperf_rx}", "{kind: idle}")),
                         name_of);

INSTANTIATE_TEST_SUITE_P(Flood, BoundedMemory,
                         ::testing::Combine(::testing::ValuesIn(devices),
                                            ::testing::Values("{kind: udp_tx, rate: 0}",
                                                              "{kind: udp_rx, rate: 0}")),
                         name_of);

} // namespace

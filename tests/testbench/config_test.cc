// SPDX-License-Identifier: MIT
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "tools/config/config_loader.h"
#include "tools/config/yaml_reader.h"
#include "tests/testbench/test_files.h"

using namespace nicsim::config;
using nicsim::test::test_dir;
using nicsim::test::write_file;

namespace {

// Loads file expecting a config_error and returns its message.
std::string load_error(const std::string& file, const load_options& o = {}) {
    try {
        load_scenario(file, o);
    } catch (const config_error& e) {
        return e.what();
    }
    ADD_FAILURE() << file << " loaded without error";
    return "";
}

bool starts_with(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// Scenario next to a test platform profile; `body` is appended after the fixed first 5 lines.
std::string scenario(const std::filesystem::path& dir, const std::string& body) {
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    return write_file(dir / "s.yaml", "name: t\n"                                              // 1
                                      "duration: 10s\n"                                        // 2
                                      "platform: test-board\n"                                 // 3
                                      "device: {type: wilc1000, bus: spi, bus_clock: 24MHz}\n" // 4
                                      "traffic: {kind: ttcp_tx, bytes: 1MiB}\n"                // 5
                                          + body);
}

} // namespace

TEST(ScenarioConfig, ShippedScenarioParsesToExpectedValues) {
    const std::string file = std::string(NICSIM_SOURCE_DIR) + "/configs/wilc1000-spi-ttcp-tx.yaml";
    const auto l = load_scenario(file);
    const scenario_config& s = l.scenario;
    EXPECT_EQ(s.name, "wilc1000-spi-ttcp-tx");
    EXPECT_EQ(s.duration_limit.ps, 120'000'000'000'000);
    EXPECT_EQ(s.seed, 1u);
    EXPECT_EQ(s.device.type, "wilc1000");
    EXPECT_EQ(s.device.bus, bus_type::spi);
    EXPECT_DOUBLE_EQ(s.device.bus_clock.hz, 48e6);
    EXPECT_EQ(s.device.irq, irq_mode::gpio);
    EXPECT_EQ(s.driver.variant, "pristine");
    EXPECT_TRUE(s.driver.power_save);
    EXPECT_EQ(s.driver.module_params.at("enable_crc7"), "false");
    EXPECT_EQ(s.traffic.kind, traffic_kind::ttcp_tx);
    EXPECT_EQ(s.traffic.bytes.bytes, 16777216u);
    EXPECT_EQ(s.host.stack, "linux"); // the window and MSS are the stack's
    EXPECT_DOUBLE_EQ(s.link.phy_rate.bps, 72.2e6);
    EXPECT_EQ(l.platform.name, "sama5-class");
    EXPECT_EQ(l.platform.cpu.cores, 1u);
    EXPECT_NE(s.platform.find("configs/platforms/sama5-class.yaml"), std::string::npos);
}

TEST(ScenarioConfig, ShippedRxScenarioAndBothProfilesValidate) {
    const std::string root = NICSIM_SOURCE_DIR;
    const auto rx = load_scenario(root + "/configs/wilc1000-spi-ttcp-rx.yaml");
    EXPECT_EQ(rx.scenario.traffic.kind, traffic_kind::ttcp_rx);
    EXPECT_FALSE(is_tx(rx.scenario.traffic.kind));
    const auto rpi = load_platform(root + "/configs/platforms/rpi-class.yaml");
    EXPECT_EQ(rpi.cpu.cores, 4u);
    EXPECT_EQ(rpi.spi_host.dma_threshold.bytes, 96u);     // BCM2835_SPI_DMA_MIN_LENGTH
    EXPECT_EQ(rpi.spi_host.polling_limit.ps, 30'000'000); // polling_limit_us = 30
    const auto sama5 = load_platform(root + "/configs/platforms/sama5-class.yaml");
    EXPECT_EQ(sama5.spi_host.controller, "atmel_spi");
    EXPECT_EQ(sama5.spi_host.dma_threshold.bytes, 16u); // atmel_spi DMA_MIN_BYTES
}

TEST(ScenarioConfig, DefaultsApplyAndOptionalSectionsParse) {
    const auto dir = test_dir();
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    const auto l = load_scenario(
        write_file(dir / "s.yaml", "duration: 10s\n"
                                   "platform: test-board\n"
                                   "device: {type: wilc1000, bus: spi}\n"
                                   "traffic: {kind: udp_tx, rate: 20Mbps}\n"
                                   "link: {mac_efficiency: 0.5, latency: 20us}\n"
                                   "trace: {vcd: out.vcd, window_start: 1ms, window_end: 2ms}\n"));
    EXPECT_EQ(l.scenario.name, "s"); // default: file name without .yaml
    const scenario_config& s = l.scenario;
    EXPECT_DOUBLE_EQ(s.device.bus_clock.hz, 48e6); // wilc1000/spi default
    EXPECT_EQ(s.driver.variant, "pristine");
    EXPECT_FALSE(s.driver.power_save);
    EXPECT_EQ(s.traffic.datagram_size.bytes, 1472u);
    EXPECT_DOUBLE_EQ(s.traffic.rate.bps, 20e6);
    EXPECT_DOUBLE_EQ(s.link.mac_efficiency, 0.5);
    EXPECT_DOUBLE_EQ(s.link.phy_rate.bps, 72.2e6);
    EXPECT_EQ(s.link.latency.ps, 20'000'000);
    EXPECT_EQ(s.trace.vcd, "out.vcd");
    EXPECT_EQ(s.trace.window_end.ps, 2'000'000'000);
    // The profile came from the scenario's own platforms/ directory.
    EXPECT_EQ(l.platform.name, "test-board");
    EXPECT_EQ(l.platform.kernel.per_packet_stack_cost.ps, 1'500'000);
}

TEST(ScenarioConfig, UnknownKeyReportsFileLineColumnAndExpectedKeys) {
    const auto dir = test_dir();
    const std::string file = scenario(dir, "driver:\n"             // 6
                                           "  power_sav: true\n"); // 7
    const std::string msg = load_error(file);
    EXPECT_TRUE(starts_with(msg, file + ":7:3: unknown key 'power_sav' in driver (expected one of: "
                                        "variant, kernel, source, power_save, module_params)"))
        << msg;
    EXPECT_NE(msg.find("did you mean 'power_save'?"), std::string::npos) << msg;
}

TEST(ScenarioConfig, EveryUnknownKeyOfAMappingIsListedWithItsLine) {
    const auto dir = test_dir();
    const std::string file = scenario(dir, "driver:\n"            // 6
                                           "  power_save: true\n" // 7
                                           "  varaint: x\n"       // 8
                                           "  crc: off\n");       // 9
    const std::string msg = load_error(file);
    EXPECT_NE(msg.find(file + ":8:3: unknown key 'varaint' in driver"), std::string::npos) << msg;
    EXPECT_NE(msg.find(file + ":9:3: unknown key 'crc' in driver"), std::string::npos) << msg;
}

TEST(ScenarioConfig, IllTypedValueNamesExpectedTypeAndPosition) {
    const auto dir = test_dir();
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    const std::string file = write_file(dir / "s.yaml", "duration: 10s\n"
                                                        "platform: test-board\n"
                                                        "device:\n"
                                                        "  type: wilc1000\n"
                                                        "  bus: spi\n"
                                                        "  bus_clock: fast\n" // 6, value col 14
                                                        "traffic: {kind: ping}\n");
    const std::string msg = load_error(file);
    EXPECT_TRUE(starts_with(msg, file + ":6:14: device.bus_clock: expected a frequency")) << msg;
    EXPECT_NE(msg.find("got 'fast'"), std::string::npos) << msg;

    const std::string f2 = scenario(test_dir(), "seed: many\n");
    const std::string m2 = load_error(f2);
    EXPECT_TRUE(starts_with(m2, f2 + ":6:7: seed: expected a non-negative integer")) << m2;

    const std::string f3 = scenario(test_dir(), "driver: {power_save: [true]}\n");
    EXPECT_NE(
        load_error(f3).find("driver.power_save: expected a boolean (true or false), got a list"),
        std::string::npos);
}

TEST(ScenarioConfig, OverridesApplyBeforeValidation) {
    const auto dir = test_dir();
    const std::string file = scenario(dir, "driver: {power_save: true}\n");
    load_options o;
    o.overrides = {"driver.power_save=false", "traffic.bytes=2MiB",
                   "device.bus_clock=12MHz",  "platform.spi_host.cs_setup=25ns",
                   "platform.cpu.cores=1",    "link={mac_efficiency: 0.9}"};
    const auto l = load_scenario(file, o);
    EXPECT_FALSE(l.scenario.driver.power_save);
    EXPECT_EQ(l.scenario.traffic.bytes.bytes, 2u << 20);
    EXPECT_DOUBLE_EQ(l.scenario.device.bus_clock.hz, 12e6);
    EXPECT_DOUBLE_EQ(l.scenario.link.mac_efficiency, 0.9);
    // platform: NAME was turned into {profile: NAME, ...} and the override applied on top.
    EXPECT_EQ(l.platform.name, "test-board");
    EXPECT_EQ(l.platform.spi_host.cs_setup.ps, 25'000);
    EXPECT_EQ(l.platform.spi_host.cs_hold.ps, 30'000); // untouched profile value
    EXPECT_EQ(l.platform.cpu.cores, 1u);
}

TEST(ScenarioConfig, BadOverridesGetTheSameErrorsNamingTheSetArgument) {
    const auto dir = test_dir();
    const std::string file = scenario(dir, "");
    auto err = [&](const std::string& set) {
        load_options o;
        o.overrides = {set};
        return load_error(file, o);
    };
    EXPECT_EQ(err("driver.power_save=maybe"),
              "--set driver.power_save=maybe: driver.power_save: expected a boolean (true or "
              "false), got 'maybe'");
    EXPECT_TRUE(starts_with(err("drivr.power_save=true"),
                            "--set drivr.power_save=true: unknown key 'drivr' in scenario"));
    EXPECT_TRUE(starts_with(err("platform.spi_host.cs_setpu=1ns"),
                            "--set platform.spi_host.cs_setpu=1ns: unknown key 'cs_setpu' in "
                            "platform.spi_host"));
    EXPECT_EQ(err("power_save"), "--set power_save: expected key.path=value");
    EXPECT_EQ(err("device.type.x=1"),
              "--set device.type.x=1: 'device.type' is a scalar, not a mapping");
    EXPECT_TRUE(
        starts_with(err("duration=-1s"), "--set duration=-1s: duration: must not be negative"));
}

TEST(ScenarioConfig, ImpossibleValuesAreRejectedNamingTheKey) {
    auto err = [](const std::string& body) { return load_error(scenario(test_dir(), body)); };
    load_options zero_clock;
    zero_clock.overrides = {"device.bus_clock=0Hz"};
    EXPECT_NE(
        load_error(scenario(test_dir(), ""), zero_clock).find("device.bus_clock: must be > 0"),
        std::string::npos);
    load_options fast;
    fast.overrides = {"device.bus_clock=60MHz"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), fast)
                  .find("device.bus_clock: above the wilc1000 spi maximum of 48MHz"),
              std::string::npos);
    load_options zero_duration;
    zero_duration.overrides = {"duration=0"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), zero_duration).find("duration: must be > 0"),
              std::string::npos);
    EXPECT_NE(err("link: {mac_efficiency: 1.5}\n").find("link.mac_efficiency: must be in (0, 1]"),
              std::string::npos);
    load_options window;
    window.overrides = {"traffic.window=1KiB"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), window)
                  .find("traffic.window: must be at least segment_size"),
              std::string::npos);
    load_options mss;
    mss.overrides = {"traffic.segment_size=9000"};
    EXPECT_NE(
        load_error(scenario(test_dir(), ""), mss).find("traffic.segment_size: must be <= 1460"),
        std::string::npos);
}

// driver.kernel (issue 15): one of the kernel names, default 6.1; with a build registry a
// driver or variant the binary has no build of for that kernel is an error naming why.
TEST(ScenarioConfig, DriverKernelIsValidatedLikeTheVariant) {
    load_options o;
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), o).scenario.driver.kernel, "6.1");
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), o).scenario.driver.build_key(), "pristine");
    o.overrides = {"driver.kernel=6.12"};
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), o).scenario.driver.kernel, "6.12");
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), o).scenario.driver.build_key(),
              "pristine@6.12");
    o.overrides = {"driver.kernel=5.10"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("driver.kernel: unknown value '5.10' (known: 6.1, 6.12)"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
    // The scenario's device is a wilc1000.
    o.known_variants = {"wilc1000/no-chip-sleep"};
    o.known_builds = {"6.1/wilc1000/pristine", "6.1/wilc1000/no-chip-sleep",
                      "6.12/ks8851/pristine"};
    o.unbuilt_drivers = {{"6.12/wilc1000", "not emulated yet"}};
    o.overrides = {"driver.kernel=6.12"};
    EXPECT_NE(
        load_error(scenario(test_dir(), ""), o)
            .find("driver.kernel: the wilc1000 driver is not built for 6.12: not emulated yet"),
        std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
    o.overrides = {"driver.kernel=6.1", "driver.variant=no-chip-sleep"};
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), o).scenario.driver.build_key(),
              "no-chip-sleep");
    o.known_builds = {"6.1/wilc1000/pristine", "6.12/wilc1000/pristine"};
    o.unbuilt_drivers.clear();
    o.overrides = {"driver.kernel=6.12", "driver.variant=no-chip-sleep"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("driver.variant: variant 'no-chip-sleep' of the wilc1000 driver is not "
                        "built for kernel 6.12"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
}

// device.firmware (wilc1000: ps_wake) and the power-save timing keys: named choices checked
// against the device's list; a chip without firmware choices says so.
TEST(ScenarioConfig, FirmwareChoicesAreCheckedPerDevice) {
    load_options o;
    auto l = load_scenario(scenario(test_dir(), ""), o);
    EXPECT_TRUE(l.scenario.device.firmware.empty()); // unset: the binding's default
    o.overrides = {"device.firmware.ps_wake=listen_interval", "device.timing.ps_wake_ahead=3ms"};
    l = load_scenario(scenario(test_dir(), ""), o);
    EXPECT_EQ(l.scenario.device.firmware.at("ps_wake"), "listen_interval");
    EXPECT_EQ(l.scenario.device.timing.count("ps_wake_ahead"), 1u);
    o.overrides = {"device.firmware.ps_wake=every_beacon"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("device.firmware.ps_wake: unknown value 'every_beacon' (known: dtim, "
                        "listen_interval)"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
    o.overrides = {"device.firmware.listen=3"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o).find("listen"), std::string::npos);
    o.overrides = {"device={type: ks8851, bus: spi}", "device.firmware.ps_wake=dtim"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("device.firmware: the ks8851 model has no firmware choices"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
}

// device.buffers (wilc1000: rx_aggregation): a size within the key's bounds, named with them
// when outside; a chip without buffer keys says so.
TEST(ScenarioConfig, BufferSizesAreCheckedPerDevice) {
    load_options o;
    auto l = load_scenario(scenario(test_dir(), ""), o);
    EXPECT_TRUE(l.scenario.device.buffers.empty()); // unset: the chip model's assumption
    o.overrides = {"device.buffers.rx_aggregation=16KiB"};
    l = load_scenario(scenario(test_dir(), ""), o);
    EXPECT_EQ(l.scenario.device.buffers.at("rx_aggregation").bytes, 16384u);
    o.overrides = {"device.buffers.rx_aggregation=97KiB"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("device.buffers.rx_aggregation: must be 4 to 98304 B (at most the "
                        "driver's 96 KiB WILC_RX_BUFF_SIZE)"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
    o.overrides = {"device.buffers.rx_aggregation=2B"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o).find("must be 4 to 98304 B"),
              std::string::npos);
    o.overrides = {"device.buffers.tx=16KiB"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("unknown key 'tx' in device.buffers (expected one of: rx_aggregation)"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
    o.overrides = {"device={type: ks8851, bus: spi}", "device.buffers.rx_aggregation=8KiB"};
    EXPECT_NE(load_error(scenario(test_dir(), ""), o)
                  .find("device.buffers: the ks8851 model has no buffer size overrides"),
              std::string::npos)
        << load_error(scenario(test_dir(), ""), o);
}

// driver.source written in a scenario is relative to that file (as platform: is); from --set or
// --driver-src it is relative to the working directory.
TEST(ScenarioConfig, DriverSourceInTheFileIsRelativeToTheFile) {
    const auto dir = test_dir();
    std::filesystem::create_directories(dir / "tree");
    const std::string file = scenario(dir, "driver: {source: tree}\n");
    load_options o;
    EXPECT_EQ(load_scenario(file, o).scenario.driver.source, (dir / "tree").lexically_normal());
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir);
    o.overrides = {"driver.source=tree"};
    EXPECT_EQ(load_scenario(file, o).scenario.driver.source, "tree");
    std::filesystem::current_path(cwd);
    o.overrides = {"driver.source=no/such/tree"};
    EXPECT_NE(load_error(file, o).find("'no/such/tree' is not a directory"), std::string::npos)
        << load_error(file, o);
}

TEST(ScenarioConfig, UnknownNamesListTheKnownOnes) {
    auto err = [](const std::string& set, std::vector<std::string> variants = {}) {
        load_options o;
        o.overrides = {set};
        o.known_variants = std::move(variants);
        return load_error(scenario(test_dir(), ""), o);
    };
    EXPECT_NE(
        err("device.type=wilc3000")
            .find("device.type: unknown value 'wilc3000' (known: wilc1000, ks8851, enc28j60)"),
        std::string::npos);
    EXPECT_NE(err("device.bus=i2c").find("device.bus: unknown value 'i2c' (known: spi, sdio, par)"),
              std::string::npos);
    EXPECT_NE(err("device.bus=par").find("wilc1000 has no parallel bus interface"),
              std::string::npos);
    EXPECT_NE(err("driver.variant=fast", {"no-chip-sleep"})
                  .find("driver.variant: unknown value 'fast' (known: pristine, no-chip-sleep)"),
              std::string::npos);
    EXPECT_NE(err("traffic.kind=tcp")
                  .find("traffic.kind: unknown value 'tcp' (known: ttcp_tx, "
                        "ttcp_rx, udp_tx, udp_rx, ping, iperf_tx, iperf_rx, idle)"),
              std::string::npos);
    // A registered variant is accepted.
    load_options ok;
    ok.overrides = {"driver.variant=no-chip-sleep"};
    ok.known_variants = {"no-chip-sleep"};
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), ok).scenario.driver.variant, "no-chip-sleep");
    // "driver/name" is that driver's variant only (the scenario's device is a wilc1000).
    ok.known_variants = {"wilc1000/no-chip-sleep", "ks8851/rx-coalescing-params"};
    EXPECT_EQ(load_scenario(scenario(test_dir(), ""), ok).scenario.driver.variant, "no-chip-sleep");
    EXPECT_NE(err("driver.variant=rx-coalescing-params",
                  {"wilc1000/no-chip-sleep", "ks8851/rx-coalescing-params"})
                  .find("driver.variant: unknown value 'rx-coalescing-params' (known: pristine, "
                        "no-chip-sleep)"),
              std::string::npos);
}

TEST(ScenarioConfig, MissingRequiredKeyPointsAtTheLikelyMisspelling) {
    const auto dir = test_dir();
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    const std::string file = write_file(dir / "s.yaml", "duration: 10s\n"
                                                        "platform: test-board\n"
                                                        "devce: {type: wilc1000, bus: spi}\n"
                                                        "traffic: {kind: ping}\n");
    const std::string msg = load_error(file);
    EXPECT_TRUE(starts_with(msg, file + ":1:1: missing required key 'device' in scenario")) << msg;
    EXPECT_NE(msg.find("'devce' at " + file + ":3:1 a misspelling?"), std::string::npos) << msg;
}

TEST(ScenarioConfig, DuplicateKeysAndSyntaxErrorsHavePositions) {
    const std::string dup = scenario(test_dir(), "seed: 1\nseed: 2\n");
    EXPECT_TRUE(
        starts_with(load_error(dup),
                    dup + ":7:1: duplicate key 'seed' in scenario (first at " + dup + ":6:1)"));
    const std::string bad = write_file(test_dir() / "bad.yaml", "name: x\ndevice: [a, b\n");
    EXPECT_TRUE(starts_with(load_error(bad), bad + ":")) << load_error(bad);
    EXPECT_NE(load_error(bad).find("YAML syntax error"), std::string::npos);
}

TEST(ScenarioConfig, KeysThatDoNotApplyToTheTrafficKindAreRejected) {
    const auto dir = test_dir();
    write_file(dir / "platforms" / "test-board.yaml", nicsim::test::test_platform_yaml());
    const std::string file = write_file(dir / "s.yaml", "duration: 10s\n"
                                                        "platform: test-board\n"
                                                        "device: {type: wilc1000, bus: spi}\n"
                                                        "traffic:\n"
                                                        "  kind: udp_tx\n"
                                                        "  window: 64KiB\n");
    EXPECT_TRUE(starts_with(load_error(file),
                            file + ":6:3: unknown key 'window' in traffic for kind udp_tx"))
        << load_error(file);
}

TEST(ScenarioConfig, DeviceSpecificChecks) {
    auto err = [](const std::string& set) {
        load_options o;
        o.overrides = {"device={type: ks8851, bus: spi}", set};
        return load_error(scenario(test_dir(), ""), o);
    };
    EXPECT_NE(err("driver.power_save=true")
                  .find("driver.power_save: the ks8851 driver has no chip sleep control"),
              std::string::npos);
    EXPECT_NE(
        err("driver.module_params.enable_crc7=true")
            .find("unknown module parameter 'enable_crc7' of the ks8851 driver (known: message)"),
        std::string::npos);
    EXPECT_NE(err("device.irq=in_band").find("device.irq: in_band interrupts exist only on sdio"),
              std::string::npos);
    load_options ks;
    ks.overrides = {"device={type: ks8851, bus: spi}", "driver.module_params.message=7"};
    const auto l = load_scenario(scenario(test_dir(), ""), ks);
    EXPECT_DOUBLE_EQ(l.scenario.device.bus_clock.hz, 25e6); // ks8851 default
    EXPECT_DOUBLE_EQ(l.scenario.link.phy_rate.bps, 100e6);
    EXPECT_EQ(l.scenario.driver.module_params.at("message"), "7");
}

TEST(ScenarioConfig, PlatformNotFoundListsWhereItLookedAndKnownProfiles) {
    const auto dir = test_dir();
    const std::string file = scenario(dir, "");
    load_options o;
    o.overrides = {"platform=nope"};
    o.configs_dir = (dir / "cfg").string();
    write_file(dir / "cfg" / "platforms" / "board-a.yaml", nicsim::test::test_platform_yaml());
    const std::string msg = load_error(file, o);
    EXPECT_NE(msg.find("no platform profile 'nope'"), std::string::npos) << msg;
    EXPECT_NE(msg.find((dir / "platforms" / "nope.yaml").string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(": board-a)"), std::string::npos) << msg;
    // And a name found only in the configs dir is used.
    o.overrides = {"platform=board-a"};
    EXPECT_EQ(load_scenario(file, o).scenario.platform,
              (dir / "cfg" / "platforms" / "board-a.yaml").string());
}

TEST(PlatformProfile, ParsesEveryField) {
    const std::string file = write_file(test_dir() / "p.yaml", nicsim::test::test_platform_yaml());
    const platform_profile p = load_platform(file);
    EXPECT_EQ(p.name, "test-board");
    EXPECT_EQ(p.cpu.cores, 2u);
    EXPECT_EQ(p.cpu.hz, 250u);
    EXPECT_DOUBLE_EQ(p.cpu.clock.hz, 800e6);
    EXPECT_DOUBLE_EQ(p.cpu.cycles_per_block, 7.0);
    EXPECT_TRUE(p.kernel.charge_native_work);
    EXPECT_EQ(p.kernel.context_switch.ps, 9'000'000);
    EXPECT_EQ(p.kernel.hardirq.ps, 4'000'000);
    EXPECT_EQ(p.kernel.irq_to_thread_latency.ps, 31'000'000);
    EXPECT_EQ(p.kernel.sched_wakeup_latency.ps, 17'000'000);
    EXPECT_EQ(p.kernel.timer_slack.ps, 50'000'000);
    EXPECT_EQ(p.kernel.per_packet_stack_cost.ps, 1'500'000);
    EXPECT_EQ(p.kernel.per_byte_stack_cost.ps, 3'000);
    EXPECT_EQ(p.spi_host.controller, "test_spi");
    EXPECT_DOUBLE_EQ(p.spi_host.max_speed.hz, 100e6);
    EXPECT_EQ(p.spi_host.per_message_overhead.ps, 21'000'000);
    EXPECT_EQ(p.spi_host.per_transfer_overhead.ps, 4'000'000);
    EXPECT_EQ(p.spi_host.cs_setup.ps, 20'000);
    EXPECT_EQ(p.spi_host.cs_hold.ps, 30'000);
    EXPECT_EQ(p.spi_host.cs_inactive_min.ps, 40'000);
    EXPECT_EQ(p.spi_host.inter_transfer_gap.ps, 1'000'000);
    EXPECT_EQ(p.spi_host.inter_word_gap_cycles, 2u);
    EXPECT_EQ(p.spi_host.inter_word_gap.ps, 5'000);
    EXPECT_EQ(p.spi_host.dma_threshold.bytes, 96u);
    EXPECT_EQ(p.spi_host.dma_setup.ps, 7'000'000);
    EXPECT_EQ(p.spi_host.polling_limit.ps, 30'000'000);
    EXPECT_EQ(detect_config_kind(file), config_kind::platform);
}

TEST(PlatformProfile, EveryKeyIsRequiredAndValuesChecked) {
    std::string text = nicsim::test::test_platform_yaml();
    const std::string without_hold =
        text.substr(0, text.find("  cs_hold")) + text.substr(text.find("  cs_inactive_min"));
    const std::string file = write_file(test_dir() / "p.yaml", without_hold);
    try {
        load_platform(file);
        FAIL() << "profile without cs_hold accepted";
    } catch (const config_error& e) {
        EXPECT_TRUE(
            starts_with(e.what(), file + ":18:3: missing required key 'cs_hold' in spi_host"))
            << e.what();
    }
    try {
        load_platform(file, {"cpu.cores=0"});
        FAIL();
    } catch (const config_error& e) {
        EXPECT_EQ(std::string(e.what()), "--set cpu.cores=0: cpu.cores: must be >= 1 (got '0')");
    }
    // The kernel-work costs are stated in every profile too.
    std::string no_switch = text;
    no_switch.erase(no_switch.find("  context_switch: 9us\n"), 22);
    try {
        load_platform(write_file(test_dir() / "p2.yaml", no_switch));
        FAIL() << "profile without kernel.context_switch accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("missing required key 'context_switch' in kernel"),
                  std::string::npos)
            << e.what();
    }
}

// kernel.spi_sync_fast_path defaults to the 6.x SPI core; the pre-6.0 core's pump work is an
// optional spi_host key; the shipped SAMA5 profile states it and keeps the 6.x core.
TEST(PlatformProfile, SpiCoreGenerationKeys) {
    const std::string file = write_file(test_dir() / "p.yaml", nicsim::test::test_platform_yaml());
    platform_profile p = load_platform(file);
    EXPECT_TRUE(p.kernel.spi_sync_fast_path);
    EXPECT_EQ(p.spi_host.message_pump_overhead.ps, 0);
    p = load_platform(file, {"kernel.spi_sync_fast_path=false",
                             "spi_host.message_pump_overhead=7us"});
    EXPECT_FALSE(p.kernel.spi_sync_fast_path);
    EXPECT_EQ(p.spi_host.message_pump_overhead.ps, 7'000'000);
    const platform_profile sama5 =
        load_platform(std::string(NICSIM_SOURCE_DIR) + "/configs/platforms/sama5-class.yaml");
    EXPECT_TRUE(sama5.kernel.spi_sync_fast_path);
    EXPECT_GT(sama5.spi_host.message_pump_overhead.ps, 0);
}

// kernel.preemption_share / _burst come together; sdio_host's runtime PM keys are optional and
// off by default, and a profile or --set may turn them on.
TEST(PlatformProfile, PreemptionAndSdioRuntimePmKeys) {
    const std::string file = write_file(test_dir() / "p.yaml", nicsim::test::test_platform_yaml());
    platform_profile p = load_platform(file);
    EXPECT_EQ(p.kernel.preemption_share, 0.0);
    EXPECT_EQ(p.kernel.preemption_burst.ps, 0);
    p = load_platform(file, {"kernel.preemption_share=0.002", "kernel.preemption_burst=800us"});
    EXPECT_DOUBLE_EQ(p.kernel.preemption_share, 0.002);
    EXPECT_EQ(p.kernel.preemption_burst.ps, 800'000'000);
    const auto error_of = [&file](const std::vector<std::string>& sets) {
        try {
            load_platform(file, sets);
        } catch (const config_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(error_of({"kernel.preemption_share=0.002"}).find("go together"), std::string::npos);
    EXPECT_NE(error_of({"kernel.preemption_burst=1ms"}).find("go together"), std::string::npos);
    EXPECT_NE(error_of({"kernel.preemption_share=1", "kernel.preemption_burst=1ms"})
                  .find("must be in [0, 1)"),
              std::string::npos);
    // The shipped SAMA5-class profile states the sdhci-of-at91 facts and leaves runtime PM off.
    const platform_profile sama5 =
        load_platform(std::string(NICSIM_SOURCE_DIR) + "/configs/platforms/sama5-class.yaml");
    EXPECT_FALSE(sama5.sdio_host.runtime_pm);
    EXPECT_EQ(sama5.sdio_host.autosuspend_delay.ps, 50'000'000'000);
    EXPECT_EQ(sama5.sdio_host.irq_pm, nicsim::config::sdio_irq_pm::holds_clock);
    const platform_profile on = load_platform(
        std::string(NICSIM_SOURCE_DIR) + "/configs/platforms/sama5-class.yaml",
        {"sdio_host.runtime_pm=true", "sdio_host.sdio_irq_pm=wake_irq"});
    EXPECT_TRUE(on.sdio_host.runtime_pm);
    EXPECT_EQ(on.sdio_host.irq_pm, nicsim::config::sdio_irq_pm::wake_irq);
    try {
        load_platform(std::string(NICSIM_SOURCE_DIR) + "/configs/platforms/sama5-class.yaml",
                      {"sdio_host.sdio_irq_pm=always"});
        FAIL() << "unknown sdio_irq_pm accepted";
    } catch (const config_error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown value 'always' (known: holds_clock, wake_irq)"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ScenarioConfig, HostStackAndLinuxSettingsParseByTheirLinuxNames) {
    const auto l = load_scenario(
        scenario(test_dir(), "host:\n"
                             "  stack: linux\n"
                             "  net: {sk_pacing_shift: 8, tcp_limit_output_bytes: 262144,\n"
                             "        tcp_wmem: \"4096 16384 65536\"}\n"
                             "peer:\n"
                             "  net: {tcp_congestion_control: reno}\n"));
    EXPECT_EQ(l.scenario.host.stack, "linux");
    EXPECT_EQ(l.scenario.host.net.at("sk_pacing_shift"), "8");
    EXPECT_EQ(l.scenario.host.net.at("tcp_limit_output_bytes"), "262144");
    EXPECT_EQ(l.scenario.host.peer_net.at("tcp_congestion_control"), "reno");
    // Default: the linux stack.
    EXPECT_EQ(load_scenario(scenario(test_dir(), "")).scenario.host.stack, "linux");
}

TEST(ScenarioConfig, TheFixedWindowKnobsAreRefusedOnTheLinuxStack) {
    auto err = [](const std::string& set) {
        load_options o;
        o.overrides = {set};
        return load_error(scenario(test_dir(), ""), o);
    };
    const std::string w = err("traffic.window=16KiB");
    EXPECT_NE(w.find("traffic.window: not used by host.stack linux"), std::string::npos) << w;
    EXPECT_NE(w.find("host.net.tcp_rmem"), std::string::npos) << w;
    const std::string m = err("traffic.segment_size=1460B");
    EXPECT_NE(m.find("traffic.segment_size: not used by host.stack linux"), std::string::npos) << m;
    // On the fixed-window model both keep their meaning.
    load_options o;
    o.overrides = {"traffic.window=16KiB"};
    const auto l = load_scenario(scenario(test_dir(), "host: {stack: fixed_window}\n"), o);
    EXPECT_EQ(l.scenario.host.stack, "fixed_window");
    EXPECT_EQ(l.scenario.traffic.window.bytes, 16384u);
}

TEST(ScenarioConfig, ParallelStreamsAreIperfsOnTheLinuxStack) {
    auto with = [](const std::vector<std::string>& sets, const std::string& body = "") {
        load_options o;
        o.overrides = sets;
        return std::make_pair(scenario(test_dir(), body), o);
    };
    {
        auto [f, o] = with({"traffic.kind=iperf_tx", "traffic.streams=4"});
        EXPECT_EQ(load_scenario(f, o).scenario.traffic.streams, 4u);
    }
    {
        auto [f, o] = with({"traffic.kind=iperf_tx"});
        EXPECT_EQ(load_scenario(f, o).scenario.traffic.streams, 1u);
    }
    auto err = [&](const std::vector<std::string>& sets, const std::string& body = "") {
        auto [f, o] = with(sets, body);
        return load_error(f, o);
    };
    const std::string ttcp = err({"traffic.streams=2"}); // the base scenario is ttcp_tx
    EXPECT_NE(ttcp.find("traffic.streams: ttcp has one connection"), std::string::npos) << ttcp;
    for (const char* n : {"0", "129"}) {
        const std::string range =
            err({"traffic.kind=iperf_rx", std::string("traffic.streams=") + n});
        EXPECT_NE(range.find("traffic.streams: must be 1..128"), std::string::npos) << range;
    }
    const std::string fixed =
        err({"traffic.kind=iperf_tx", "traffic.streams=2"}, "host: {stack: fixed_window}\n");
    EXPECT_NE(fixed.find("traffic.streams: parallel streams need host.stack linux"),
              std::string::npos)
        << fixed;
}

TEST(ScenarioConfig, BadHostSettingsNameTheKey) {
    auto err = [](const std::string& body) { return load_error(scenario(test_dir(), body)); };
    const std::string stack = err("host: {stack: bsd}\n");
    EXPECT_NE(stack.find("host.stack"), std::string::npos) << stack;
    EXPECT_NE(stack.find("linux"), std::string::npos) << stack;
    const std::string unknown = err("host: {net: {tcp_no_such_sysctl: 1}}\n");
    EXPECT_NE(unknown.find("host.net.tcp_no_such_sysctl"), std::string::npos) << unknown;
    const std::string bad = err("peer: {net: {tcp_congestion_control: bbr9}}\n");
    EXPECT_NE(bad.find("peer.net.tcp_congestion_control"), std::string::npos) << bad;
    load_options o;
    o.overrides = {"host.net.sk_pacing_shift=banana"};
    const std::string set = load_error(scenario(test_dir(), ""), o);
    EXPECT_NE(set.find("host.net.sk_pacing_shift"), std::string::npos) << set;
}

// 200 000 unknown keys (a 2.4 MB generated file): rejected with the first 20 listed and the rest
// counted (the check is linear: 3.8 s here against 50 s for the quadratic one; tests assert no
// wall-clock times, ctest's timeout bounds it).
TEST(ScenarioConfig, ManyUnknownKeysAreRejectedQuicklyWithABoundedMessage) {
    const auto dir = test_dir();
    std::string body = "driver:\n";
    constexpr int keys = 200000;
    for (int i = 0; i < keys; ++i)
        body += "  stray_key_" + std::to_string(i) + ": 1\n";
    const std::string file = scenario(dir, body);
    const std::string msg = load_error(file);
    EXPECT_TRUE(starts_with(msg, file + ":7:3: unknown key 'stray_key_0' in driver"))
        << msg.substr(0, 300);
    EXPECT_NE(msg.find("\n... and " + std::to_string(keys - 20) + " more unknown keys in driver"),
              std::string::npos)
        << msg.substr(msg.size() > 300 ? msg.size() - 300 : 0);
    EXPECT_LT(msg.size(), 20000u);
}

TEST(ScenarioConfig, DirectoryAsScenarioIsAConfigErrorNamingIt) {
    const auto dir = test_dir();
    EXPECT_EQ(load_error(dir.string()),
              dir.string() + ": is a directory, not a scenario file (give a .yaml file)");
}

// load_yaml_file cuts full-line comments short before yaml-cpp sees them: every shipped config
// and study must mean exactly what its full text means, with the same number of lines (so error
// positions stay), and '#' lines that are text (a block scalar, a multi-line quoted scalar) stay.
TEST(ConfigLoader, ShortenedCommentsMeanTheSameYaml) {
    int files = 0, shortened = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::string(NICSIM_SOURCE_DIR) + "/configs")) {
        if (e.path().extension() != ".yaml")
            continue;
        std::ifstream in(e.path());
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const std::string cut = shorten_comment_lines(text);
        EXPECT_EQ(std::count(text.begin(), text.end(), '\n'),
                  std::count(cut.begin(), cut.end(), '\n'))
            << e.path();
        EXPECT_EQ(YAML::Dump(YAML::Load(text)), YAML::Dump(YAML::Load(cut))) << e.path();
        ++files;
        shortened += cut.size() < text.size();
    }
    EXPECT_GT(files, 20);
    EXPECT_GT(shortened, 20);

    const std::string block = "a: |\n  text\n  # not a comment\n\n  more\n# comment\nb: >-\n"
                              "  # folded text\nc: 1 # trailing\n  # comment after c\n";
    EXPECT_EQ(shorten_comment_lines(block),
              "a: |\n  text\n  # not a comment\n\n  more\n#\nb: >-\n  # folded text\nc: 1 # "
              "trailing\n  #\n");
    const std::string quoted = "# head\nq: \"two\n  # lines\"\n# tail\n";
    EXPECT_EQ(shorten_comment_lines(quoted), "#\nq: \"two\n  # lines\"\n# tail\n");
    EXPECT_EQ(YAML::Load(shorten_comment_lines(quoted))["q"].as<std::string>(), "two # lines");
    // Not clean UTF-8 (a NUL, a UTF-16 byte order mark, a broken sequence before a line break)
    // or a comment with other bytes than ASCII: left as it is (fuzz_scenario_loader found each).
    for (const std::string& odd : {std::string("# a\n\0# b\n", 8), std::string("\xfe\xff# a\n"),
                                   std::string("k: v\xe0\n# comment\n")})
        EXPECT_EQ(shorten_comment_lines(odd), odd);
    EXPECT_EQ(shorten_comment_lines("# caf\xc3\xa9\n# plain\n"), "# caf\xc3\xa9\n#\n");
}

// Issue 36: a trace path written in a scenario file stays inside the output directory (the
// current directory); a scenario someone hands over cannot write over a file elsewhere. The
// command line (--pcap, --set trace.pcap=…) may name any path.
TEST(ScenarioConfig, TracePathsOfAScenarioFileStayInsideTheOutputDirectory) {
    const auto dir = test_dir();
    for (const std::string bad : {"/tmp/x.pcapng", "../x.pcapng", "a/../../x.pcapng"}) {
        const std::string file = scenario(dir, "trace: {pcap: '" + bad + "'}\n");
        const std::string msg = load_error(file);
        EXPECT_TRUE(starts_with(msg, file + ":6:15: trace.pcap: '" + bad +
                                         "' is outside the output directory"))
            << msg;
        EXPECT_NE(msg.find("--pcap FILE or --set trace.pcap=FILE"), std::string::npos) << msg;
        load_options o;
        o.overrides = {"trace.pcap=" + bad};
        EXPECT_EQ(load_scenario(file, o).scenario.trace.pcap, bad);
    }
    // The peer's capture names its own flag (--pcap-peer, not the key's --pcap_peer).
    const std::string peer = scenario(dir, "trace: {pcap_peer: ../p.pcapng}\n");
    EXPECT_NE(load_error(peer).find("trace.pcap_peer: '../p.pcapng' is outside"), std::string::npos)
        << load_error(peer);
    EXPECT_NE(load_error(peer).find("(--pcap-peer FILE or --set trace.pcap_peer=FILE)"),
              std::string::npos)
        << load_error(peer);
    const std::string vcd = scenario(dir, "trace:\n  vcd: /home/u/.bashrc\n");
    EXPECT_TRUE(starts_with(load_error(vcd), vcd + ":7:8: trace.vcd: '/home/u/.bashrc' is outside"))
        << load_error(vcd);
    const std::string ok =
        scenario(dir, "trace: {pcap: sub/../cap.pcapng, log: logs/l.txt, timeline: t.json}\n");
    EXPECT_EQ(load_scenario(ok).scenario.trace.log, "logs/l.txt");
}

// Issue 36 item 6: YAML nested past yaml-cpp's limit said only "YAML syntax error: bad file".
TEST(ScenarioConfig, DeepNestingSaysItIsTooDeep) {
    const auto dir = test_dir();
    const std::string deep = std::string(5000, '[') + std::string(5000, ']');
    const std::string file = write_file(dir / "deep.yaml", "name: t\nnested: " + deep + "\n");
    const std::string msg = load_error(file);
    EXPECT_EQ(msg, file + ":2: YAML nested too deeply (lists and mappings inside each other; "
                          "the parser stops at depth 500, a scenario needs a handful)")
        << msg;
    load_options o;
    o.overrides = {"link=" + deep};
    const std::string set = load_error(scenario(dir, ""), o);
    EXPECT_TRUE(starts_with(set, "--set link=[[[")) << set.substr(0, 200);
    EXPECT_NE(set.find(": YAML nested too deeply"), std::string::npos) << set.substr(0, 200);
}

// Issue 36 item 1: traffic.max_loss is a share 0…1 for the udp kinds only.
TEST(ScenarioConfig, MaxLossIsAShareForUdpKinds) {
    const auto d = nicsim::test::test_dir();
    const auto ok = scenario(d, "");
    load_options o;
    o.overrides = {"traffic={kind: udp_rx, max_loss: 0.9}"};
    EXPECT_EQ(load_scenario(ok, o).scenario.traffic.max_loss, 0.9);
    o.overrides = {"traffic={kind: udp_rx}"};
    EXPECT_EQ(load_scenario(ok, o).scenario.traffic.max_loss, 0.1);
    o.overrides = {"traffic={kind: udp_rx, max_loss: 1.5}"};
    EXPECT_NE(load_error(ok, o).find("must be a share of the datagrams, 0…1"), std::string::npos);
    o.overrides = {"traffic.max_loss=0.5"}; // ttcp_tx
    EXPECT_NE(load_error(ok, o).find("unknown key 'max_loss'"), std::string::npos);
}

// Issue 36 item 6: what the board or the chip binding refused only when the run started (exit 2)
// although validate-config accepted it is a configuration error naming the key. Found by running
// every shipped scenario on every platform profile and bus that validate-config accepts.
TEST(ScenarioConfig, BusTheProfileHasNoHostForIsRejected) {
    const std::string dir = std::string(NICSIM_SOURCE_DIR) + "/configs/";
    load_options o;
    o.overrides = {"platform=rpi-class"};
    std::string msg = load_error(dir + "ks8851-par-iperf-rx.yaml", o);
    EXPECT_NE(msg.find("device.bus: par needs a platform with a parallel bus, but platform "
                       "'rpi-class' ("),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("has no par_bus section (e.g. platform: imx6-class)"), std::string::npos)
        << msg;
    msg = load_error(dir + "wilc1000-sdio-ttcp-tx.yaml", o);
    EXPECT_NE(msg.find("device.bus: sdio needs a platform with an SDIO host, but platform "
                       "'rpi-class' ("),
              std::string::npos)
        << msg;
    o.overrides = {"platform=imx6-class"}; // has a parallel bus
    EXPECT_NO_THROW(load_scenario(dir + "ks8851-par-iperf-rx.yaml", o));
}

TEST(ScenarioConfig, SdioClockAboveTheHostsMaxClockIsRejected) {
    const std::string file =
        std::string(NICSIM_SOURCE_DIR) + "/configs/wilc1000-sdio-ttcp-tx.yaml";
    load_options o;
    o.overrides = {"platform.sdio_host.max_clock=10MHz"};
    const std::string msg = load_error(file, o);
    EXPECT_NE(msg.find("device.bus_clock: 50MHz is above the SD clock the host of platform "
                       "'sama5-class' ("),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("generates (sdio_host.max_clock = 10MHz)"), std::string::npos) << msg;
    o.overrides = {"platform.sdio_host.max_clock=10MHz", "device.bus_clock=10MHz"};
    EXPECT_NO_THROW(load_scenario(file, o));
}

TEST(ScenarioConfig, WiredChipsTakeNoMacEfficiency) {
    for (const char* f : {"ks8851-spi-iperf-rx.yaml", "enc28j60-spi-iperf-rx.yaml"}) {
        load_options o;
        o.overrides = {"link.mac_efficiency=0.8"};
        const std::string msg = load_error(std::string(NICSIM_SOURCE_DIR) + "/configs/" + f, o);
        EXPECT_NE(msg.find("link.mac_efficiency: must be 1 for "), std::string::npos) << msg;
        EXPECT_NE(msg.find("(Ethernet framing, preamble and IFG are modelled by the wire)"),
                  std::string::npos)
            << msg;
        o.overrides = {"link.mac_efficiency=1"};
        EXPECT_NO_THROW(load_scenario(std::string(NICSIM_SOURCE_DIR) + "/configs/" + f, o));
    }
}

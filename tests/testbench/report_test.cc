// SPDX-License-Identifier: MIT
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tools/report/json_writer.h"
#include "tools/report/text_renderer.h"
#include "tests/testbench/report_fixture.h"

using namespace nicsim::report;
using nicsim::test::sample_report;

TEST(ReportJson, IdenticalReportsAreByteIdentical) {
    const std::string a = write_json(sample_report(true));
    const std::string b = write_json(sample_report(true));
    EXPECT_EQ(a, b);
    EXPECT_NE(a, write_json(sample_report(false))); // and the content matters
}

TEST(ReportJson, HostBlockIsLastAndTheOnlyNonDeterministicPart) {
    report r1 = sample_report(true);
    report r2 = sample_report(true);
    r2.host.wall_time_s = 9.75;
    r2.host.peak_rss_mb = 120.0;
    const std::string a = write_json(r1);
    const std::string b = write_json(r2);
    EXPECT_NE(a, b);
    // Everything before "host" is byte-identical.
    const auto ha = a.find("\n  \"host\": {");
    const auto hb = b.find("\n  \"host\": {");
    ASSERT_NE(ha, std::string::npos);
    EXPECT_EQ(a.substr(0, ha), b.substr(0, hb));
    const auto j = to_json(r2);
    EXPECT_EQ(j.items().begin().key(), "schema_version");
    std::string last;
    for (const auto& it : j.items())
        last = it.key();
    EXPECT_EQ(last, "host");
    EXPECT_DOUBLE_EQ(j["host"]["wall_time_s"].get<double>(), 9.75);
    EXPECT_DOUBLE_EQ(j["host"]["peak_rss_mb"].get<double>(), 120.0);
}

TEST(ReportJson, KeyOrderIsFixed) {
    const auto j = to_json(sample_report(true));
    std::vector<std::string> keys;
    for (const auto& it : j.items())
        keys.push_back(it.key());
    EXPECT_EQ(keys,
              (std::vector<std::string>{"schema_version", "run", "sim_time_s", "end_reason",
                                        "flows", "totals", "devices", "host_cpu", "skbs_in_flight",
                                        "skbs_leaked", "findings", "host"}));
    std::vector<std::string> dev;
    for (const auto& it : j["devices"][0].items())
        dev.push_back(it.key());
    EXPECT_EQ(dev, (std::vector<std::string>{"name",
                                             "type",
                                             "bus",
                                             "bus_clock_hz",
                                             "frames",
                                             "frames_tx",
                                             "frames_rx",
                                             "irqs",
                                             "frames_per_irq",
                                             "wakeups",
                                             "wake_time_s",
                                             "tx_batches",
                                             "frames_per_tx_batch",
                                             "tcp_ack_filter",
                                             "association",
                                             "power_save",
                                             "wake",
                                             "meters",
                                             "power_states",
                                             "supply_voltage_v",
                                             "power_is_proxy",
                                             "power_source",
                                             "energy_j",
                                             "avg_power_w",
                                             "bus_stats"}));
}

TEST(ReportJson, DerivedValuesAreComputedFromTheCounts) {
    const auto j = to_json(sample_report(true));
    EXPECT_DOUBLE_EQ(j["flows"][0]["goodput_bps"].get<double>(), 3355443.2);
    EXPECT_DOUBLE_EQ(j["totals"]["goodput_bps"].get<double>(), 3355443.2);
    EXPECT_EQ(j["totals"]["bytes"].get<std::uint64_t>(), 16777216u);
    const auto& d = j["devices"][0];
    EXPECT_EQ(d["frames"].get<std::uint64_t>(), 17238u);
    EXPECT_EQ(d["wakeups"].get<std::uint64_t>(), 17238u);
    const double radio = 40.0 * 0.0841 * 3.3, host_if = 30.0 * 0.0605 * 3.3 + 10.0 * 0.0014 * 3.3;
    const double energy = radio + host_if;
    EXPECT_DOUBLE_EQ(d["energy_j"].get<double>(), energy);
    EXPECT_DOUBLE_EQ(d["avg_power_w"].get<double>(), energy / 40.0);
    // Per meter, and the device as their sum; power_states[] lists every meter's states.
    ASSERT_EQ(d["meters"].size(), 2u);
    EXPECT_EQ(d["meters"][1]["name"], "host_interface");
    EXPECT_DOUBLE_EQ(d["meters"][0]["energy_j"].get<double>(), radio);
    EXPECT_DOUBLE_EQ(d["meters"][1]["energy_j"].get<double>(), host_if);
    EXPECT_DOUBLE_EQ(d["meters"][1]["avg_power_w"].get<double>(), host_if / 40.0);
    ASSERT_EQ(d["power_states"].size(), 3u);
    EXPECT_EQ(d["power_states"][2]["meter"], "host_interface");
    EXPECT_EQ(d["power_states"][2]["state"], "sleep");
    EXPECT_DOUBLE_EQ(d["bus_stats"]["transactions_per_frame"].get<double>(), 6.0);
    EXPECT_DOUBLE_EQ(d["bus_stats"]["bytes_per_frame"].get<double>(), 2000.0);
    EXPECT_DOUBLE_EQ(d["bus_stats"]["utilisation"].get<double>(), 0.25);
    EXPECT_DOUBLE_EQ(j["host_cpu"]["busy_share"].get<double>(), 0.75);
    EXPECT_EQ(j["host_cpu"]["driver_blocks"].get<std::uint64_t>(), 1000000u);
    EXPECT_DOUBLE_EQ(j["host_cpu"]["context_switch_s"].get<double>(), 0.02);
    EXPECT_EQ(j["host_cpu"]["hardirqs"].get<std::uint64_t>(), 500u);
    EXPECT_EQ(j["host_cpu"]["spi_controller"]["messages"].get<std::uint64_t>(), 1000u);
    EXPECT_EQ(j["host_cpu"]["spi_controller"]["sleeps"].get<std::uint64_t>(), 1000u);
    EXPECT_DOUBLE_EQ(j["host_cpu"]["spi_controller"]["cpu_s"].get<double>(), 8.0);
    {
        // A board whose SPI policy does not model the controller: null, not zeros.
        report n = sample_report(true);
        n.host_cpu_spi_controller.reset();
        EXPECT_TRUE(to_json(n)["host_cpu"]["spi_controller"].is_null());
        EXPECT_FALSE(read_json(write_json(n), "n.json").host_cpu_spi_controller.has_value());
    }
    // No frames: per-frame values are null, not a division by zero.
    report r = sample_report(true);
    r.devices[0].frames_tx = r.devices[0].frames_rx = 0;
    EXPECT_TRUE(to_json(r)["devices"][0]["bus_stats"]["bytes_per_frame"].is_null());
}

TEST(ReportJson, TotalsOfParallelStreamsAreTheirBytesOverTheLongestStream) {
    report r = sample_report(true);
    auto f = r.flows.at(0);
    r.flows.clear();
    for (const auto& [bytes, t] : {std::pair{3000000ull, 2.0}, std::pair{1000000ull, 1.0}}) {
        f.bytes = bytes;
        f.active_time_s = t;
        f.goodput_bps = static_cast<double>(bytes) * 8.0 / t;
        r.flows.push_back(f);
    }
    const auto j = to_json(r);
    // Not 12 + 8 Mbit/s: the short stream's rate only held for its own second.
    EXPECT_DOUBLE_EQ(j["totals"]["goodput_bps"].get<double>(), 4000000.0 * 8.0 / 2.0);
    EXPECT_EQ(j["totals"]["bytes"].get<std::uint64_t>(), 4000000u);
}

TEST(ReportJson, ReadsBackWhatItWrote) {
    const report r = sample_report(true);
    const report back = read_json(write_json(r), "mem");
    EXPECT_EQ(write_json(back), write_json(r));
    EXPECT_EQ(back.host_cpu_context_switches, 2000u);
    EXPECT_DOUBLE_EQ(back.host_cpu_hardirq_s, 0.0025);
    ASSERT_TRUE(back.host_cpu_spi_controller.has_value());
    EXPECT_EQ(back.host_cpu_spi_controller->irqs, 1500u);
    ASSERT_TRUE(back.devices.at(0).power_save.has_value());
    EXPECT_EQ(back.devices[0].power_save->tim_wakeups, 7u);
    EXPECT_EQ(back.devices[0].power_save->null_frames, 134u);
    EXPECT_FALSE(read_json(write_json(sample_report(false)), "mem").devices.at(0).power_save);
    ASSERT_TRUE(back.devices[0].wake);
    EXPECT_EQ(back.devices[0].wake->found_running, 290u);
    ASSERT_EQ(back.devices[0].wake->clk_status_polls.size(), 2u);
    EXPECT_DOUBLE_EQ(back.devices[0].wake->clk_status_polls[1].from, 2.0);
    EXPECT_EQ(back.devices[0].wake->asleep_us.at(0).count, 10u);
    EXPECT_FALSE(read_json(write_json(sample_report(false)), "mem").devices.at(0).wake);
    EXPECT_EQ(back.skbs_in_flight, 3u);
    ASSERT_TRUE(back.flows.at(0).tcp);
    EXPECT_TRUE(back.flows[0].tcp->sack);
    EXPECT_EQ(back.flows[0].tcp->retransmits, 12u);
    EXPECT_EQ(back.flows[0].tcp->fast_recoveries, 3u);
    EXPECT_EQ(back.flows[0].tcp->timeouts, 1u);
    EXPECT_EQ(back.flows[0].tcp->sacked_segments, 40u);
    EXPECT_EQ(back.flows[0].tcp->tail_loss_probes, 2u);
    EXPECT_FALSE(read_json(write_json(sample_report(false)), "mem").flows.at(0).tcp);
    EXPECT_EQ(back.skbs_leaked, std::optional<std::uint64_t>(1));
    EXPECT_FALSE(read_json(write_json(sample_report(false)), "mem").skbs_leaked);
    // A report written before the kernel parts existed reads them as 0.
    auto old = to_json(r);
    for (const char* k : {"driver_blocks", "driver_code_s", "context_switches", "context_switch_s",
                          "hardirqs", "hardirq_s"})
        old["host_cpu"].erase(k);
    EXPECT_EQ(read_json(old.dump(), "old.json").host_cpu_driver_blocks, 0u);
    EXPECT_THROW(read_json("{\"schema_version\": 1}", "x.json"), std::runtime_error);
    try {
        read_json("{\"schema_version\": 99}", "x.json");
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("x.json: schema_version 99"), std::string::npos);
    }
}

TEST(ReportText, ShowsThroughputInKBsAndMbitsAndTheDeviceNumbers) {
    const std::string t = render_text(sample_report(true));
    EXPECT_NE(t.find("409.6 KB/s"), std::string::npos) << t;
    EXPECT_NE(t.find("3.355 Mbit/s"), std::string::npos) << t;
    EXPECT_NE(t.find("17238"), std::string::npos) << t;          // wake-ups
    EXPECT_NE(t.find("6.00 per frame"), std::string::npos) << t; // SPI transactions
    EXPECT_NE(t.find("2000.0 per frame"), std::string::npos) << t;
    EXPECT_NE(t.find("25.0 %"), std::string::npos) << t;           // bus utilisation
    EXPECT_NE(t.find("75.0 % of 1 core"), std::string::npos) << t; // host CPU
    EXPECT_NE(t.find("host CPU context switches  0.1 % (2000)"), std::string::npos) << t;
    EXPECT_NE(t.find("host CPU hard IRQs         0.0 % (500)"), std::string::npos) << t;
    EXPECT_NE(t.find("host CPU spi controller    20.0 % (1000 messages, 1500 IRQs, 1000 sleeps)"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("802.11 power save    120 dozes, 100 beacon wake-ups, 7 TIM wake-ups,"),
              std::string::npos)
        << t;
    // One line per meter: its power, then the time share of each state it used.
    EXPECT_NE(t.find("wlan0 radio  "), std::string::npos) << t;
    EXPECT_NE(t.find("0.1509 W (awake 75.0 %, sleep 25.0 %)"), std::string::npos) << t;
    EXPECT_NE(t.find("proxy: ATWILC3000"), std::string::npos) << t;
    EXPECT_NE(t.find("CRC7 error in command 0xc3"), std::string::npos) << t;
    // Aligned: every table line has its value starting in the same column.
    size_t col = std::string::npos;
    size_t pos = 0;
    while (pos < t.size()) {
        const auto eol = t.find('\n', pos);
        const std::string line = t.substr(pos, eol - pos);
        pos = eol + 1;
        if (line.rfind("findings:", 0) == 0)
            break;
        const auto v = line.find("  ", 2) == std::string::npos
                           ? 0
                           : line.find_first_not_of(' ', line.find("  ", 2));
        if (col == std::string::npos)
            col = v;
        EXPECT_EQ(v, col) << line;
    }
}

TEST(ReportText, SideBySideNamesColumnsByTheDifferingSetting) {
    const std::string t = render_side_by_side({sample_report(false), sample_report(true)});
    const auto header = t.substr(0, t.find('\n'));
    const auto off = header.find("power_save=off");
    const auto on = header.find("power_save=on");
    ASSERT_NE(off, std::string::npos) << t;
    ASSERT_NE(on, std::string::npos) << t;
    EXPECT_LT(off, on);
    // The goodput row has the off value (3.75x) in the first column and the on value in the second.
    const auto row_start = t.find("  flow ttcp goodput");
    ASSERT_NE(row_start, std::string::npos) << t;
    const std::string row = t.substr(row_start, t.find('\n', row_start) - row_start);
    const auto v_off = row.find("1536.0 KB/s");
    const auto v_on = row.find("409.6 KB/s");
    ASSERT_NE(v_off, std::string::npos) << row;
    ASSERT_NE(v_on, std::string::npos) << row;
    EXPECT_LT(v_off, v_on);
    // Explicit labels win.
    const std::string l =
        render_side_by_side({sample_report(false), sample_report(true)}, {"A", "B"});
    EXPECT_NE(l.substr(0, l.find('\n')).find("A"), std::string::npos);
}

TEST(ReportJson, PingRttAndInterruptsAreWrittenAndReadBack) {
    auto r = sample_report(false);
    EXPECT_TRUE(to_json(r)["flows"][0]["rtt_ms"].is_null()) << "no rtt for a bulk flow";
    EXPECT_TRUE(to_json(r)["devices"][0]["frames_per_irq"].is_null()) << "no irqs counted";
    rtt_report rt;
    rt.min_ms = 1.25;
    rt.avg_ms = 1.5;
    rt.max_ms = 2.0;
    rt.mdev_ms = 0.125;
    r.flows[0].rtt = rt;
    r.devices[0].irqs = 4309; // 17238 frames: 4 per interrupt
    const auto j = to_json(r);
    EXPECT_DOUBLE_EQ(j["flows"][0]["rtt_ms"]["min"].get<double>(), 1.25);
    EXPECT_DOUBLE_EQ(j["flows"][0]["rtt_ms"]["avg"].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(j["flows"][0]["rtt_ms"]["max"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(j["flows"][0]["rtt_ms"]["mdev"].get<double>(), 0.125);
    EXPECT_DOUBLE_EQ(j["devices"][0]["frames_per_irq"].get<double>(), 17238.0 / 4309.0);
    const auto back = read_json(write_json(r), "r.json");
    ASSERT_TRUE(back.flows[0].rtt.has_value());
    EXPECT_EQ(back.flows[0].rtt->mdev_ms, 0.125);
    EXPECT_EQ(back.devices[0].irqs, 4309u);
    const std::string text = render_text(r);
    EXPECT_NE(text.find("1.250/1.500/2.000/0.125 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("4309 (4.00 frames per interrupt)"), std::string::npos) << text;
}

namespace {
// The widest line, in display columns (× and Δ count once).
size_t widest(const std::string& text) {
    size_t w = 0, line = 0;
    for (unsigned char c : text) {
        if (c == '\n') {
            w = std::max(w, line);
            line = 0;
        } else if ((c & 0xC0) != 0x80) {
            ++line;
        }
    }
    return std::max(w, line);
}
} // namespace

TEST(ReportText, FitsTheWidthItIsGiven) {
    report r = sample_report(true);
    r.findings.push_back({13.0, "wilc1000.spi", "warning",
                          "a long finding message that must wrap rather than run off the edge of "
                          "an eighty-column terminal, with a path/like/this/one/too"});
    for (size_t width : {80u, 100u, 60u}) {
        EXPECT_LE(widest(render_text(r, width)), width) << render_text(r, width);
        const std::string two = render_side_by_side({sample_report(false), r}, {}, width);
        EXPECT_LE(widest(two), width) << two;
        report other = sample_report(false);
        other.run.scenario = "a-much-longer-scenario-name-than-usual";
        other.run.platform = "rpi-class";
        const std::string three = render_side_by_side({sample_report(false), r, other}, {}, width);
        EXPECT_LE(widest(three), width) << three;
        EXPECT_NE(three.find("#3"), std::string::npos) << "long labels get a legend: " << three;
    }
    // Wide enough, nothing wraps: one line per metric.
    EXPECT_EQ(render_text(r, 200).find("\n  \n"), std::string::npos);
}

TEST(ReportText, CompareShowsRatioAndChangeAgainstTheFirstRun) {
    const std::string t = render_side_by_side({sample_report(false), sample_report(true)}, {}, 80);
    const auto header = t.substr(0, t.find('\n'));
    EXPECT_NE(header.find("ratio"), std::string::npos) << t;
    EXPECT_NE(header.find("Δ"), std::string::npos) << t;
    // Goodput: power save on is 1/3.75 of off.
    const auto row_start = t.find("  flow ttcp goodput");
    ASSERT_NE(row_start, std::string::npos) << t;
    const std::string row = t.substr(row_start, t.find('\n', row_start) - row_start);
    EXPECT_NE(row.find("0.27×"), std::string::npos) << row;
    EXPECT_NE(row.find("-73.3 %"), std::string::npos) << row;
    // Text rows (the kernel) have no ratio; equal numbers show 1.00× and +0.0 %.
    const auto kernel =
        t.substr(t.find("  kernel"), t.find('\n', t.find("  kernel")) - t.find("  kernel"));
    EXPECT_EQ(kernel.find("×"), std::string::npos) << kernel;
    const auto frames =
        t.substr(t.find("  flow ttcp frames"),
                 t.find('\n', t.find("  flow ttcp frames")) - t.find("  flow ttcp frames"));
    EXPECT_NE(frames.find("1.00×"), std::string::npos) << frames;
    EXPECT_NE(frames.find("+0.0 %"), std::string::npos) << frames;
    EXPECT_EQ(format_ratio(0, 5), "");
    EXPECT_EQ(format_change(2, 3), "+50.0 %");
}

TEST(ReportText, EachFlowAndDeviceShowsOnlyWhatAppliesToIt) {
    report r = sample_report(false);
    r.flows[0].name = "ping";
    r.flows[0].kind = "ping";
    r.flows[0].bytes = 0;
    r.flows[0].goodput_bps = 0;
    r.flows[0].rtt = rtt_report{1.0, 1.5, 2.0, 0.25};
    r.devices[0].meters.clear(); // a chip without a power model
    r.devices[0].power_source = "not modelled";
    {
        // JSON: its energy figures are null, not 0, and read back as "no meters".
        const auto j = to_json(r)["devices"][0];
        EXPECT_TRUE(j["energy_j"].is_null());
        EXPECT_TRUE(j["avg_power_w"].is_null());
        EXPECT_TRUE(j["supply_voltage_v"].is_null());
        EXPECT_TRUE(read_json(write_json(r), "k.json").devices[0].meters.empty());
    }
    const std::string t = render_text(r);
    EXPECT_EQ(t.find("goodput"), std::string::npos) << t;
    EXPECT_EQ(t.find("payload"), std::string::npos) << t;
    EXPECT_NE(t.find("flow ping rtt min/avg/max/mdev"), std::string::npos) << t;
    EXPECT_EQ(t.find("wake-ups"), std::string::npos) << t;
    EXPECT_EQ(t.find("energy"), std::string::npos) << t;
    EXPECT_NE(t.find("currents"), std::string::npos) << t; // says why there is no energy
    // A bulk flow keeps its goodput, but one flow has no separate total.
    const std::string bulk = render_text(sample_report(false));
    EXPECT_NE(bulk.find("flow ttcp goodput"), std::string::npos) << bulk;
    EXPECT_EQ(bulk.find("total goodput"), std::string::npos) << bulk;
}

// A meter whose currents are not modelled (the KS8851's by default): its time per state is
// reported, every current and energy is null (never 0), for the states, the meter and the
// device, and reads back the same; the text says "not modelled" and has no wake-up lines. A
// current set for the states the chip spent time in is enough for an energy.
TEST(ReportJson, AMeterWithoutCurrentsHasTimesAndNullEnergy) {
    report r = sample_report(false);
    auto& d = r.devices[0];
    d.type = "ks8851";
    d.wakeups = 0;
    d.power_is_proxy = false;
    d.power_source = "not modelled";
    d.meters = {{"chip", 3.3, {{"active", 10.0, {}, {}}, {"idle", 30.0, {}, {}}}}};
    const auto j = to_json(r)["devices"][0];
    const auto& m = j["meters"][0];
    EXPECT_EQ(m["name"], "chip");
    EXPECT_DOUBLE_EQ(m["states"][1]["time_s"].get<double>(), 30.0);
    for (const auto& s : m["states"]) {
        EXPECT_TRUE(s["current_a"].is_null());
        EXPECT_TRUE(s["energy_j"].is_null());
    }
    EXPECT_TRUE(m["energy_j"].is_null());
    EXPECT_TRUE(m["avg_power_w"].is_null());
    EXPECT_TRUE(j["energy_j"].is_null());
    EXPECT_TRUE(j["avg_power_w"].is_null());
    EXPECT_DOUBLE_EQ(j["supply_voltage_v"].get<double>(), 3.3);
    const auto back = read_json(write_json(r), "k.json");
    ASSERT_EQ(back.devices[0].meters.size(), 1u);
    EXPECT_FALSE(back.devices[0].meters[0].states[0].current_a.has_value());
    EXPECT_FALSE(back.devices[0].meters[0].states[0].energy_j.has_value());
    EXPECT_DOUBLE_EQ(back.devices[0].meters[0].states[0].time_s, 10.0);
    EXPECT_EQ(write_json(back), write_json(r));
    const std::string t = render_text(r);
    EXPECT_NE(t.find("chip"), std::string::npos) << t;
    EXPECT_NE(t.find("power not modelled (active 25.0 %, idle 75.0 %)"), std::string::npos) << t;
    EXPECT_NE(t.find("not modelled"), std::string::npos) << t;
    EXPECT_EQ(t.find("wake-ups"), std::string::npos) << t;
    // Currents for the states it was in: energy = Σ I·V·t; a state never entered needs none.
    d.meters[0].states = {{"active", 10.0, 0.08, 10.0 * 0.08 * 3.3},
                          {"idle", 30.0, 0.05, 30.0 * 0.05 * 3.3},
                          {"soft_power_down", 0.0, {}, {}}};
    const auto k = to_json(r)["devices"][0];
    EXPECT_DOUBLE_EQ(k["energy_j"].get<double>(), 10.0 * 0.08 * 3.3 + 30.0 * 0.05 * 3.3);
    EXPECT_DOUBLE_EQ(k["meters"][0]["avg_power_w"].get<double>(),
                     (10.0 * 0.08 * 3.3 + 30.0 * 0.05 * 3.3) / 40.0);
    EXPECT_TRUE(k["meters"][0]["states"][2]["energy_j"].is_null());
}

// Found by fuzz_report_reader (fuzz/corpus/report_reader/regress-number-overflow): a number
// beyond double's range is nlohmann's out_of_range, not a parse_error; the reader must still
// say "not valid JSON" naming the file, as `nicsim compare` reports it (exit 1, not internal).
TEST(ReportJson, ANumberBeyondDoubleIsNotValidJson) {
    try {
        read_json(R"({"schema_version": 2, "x": 0.169e684518})", "big.json");
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("big.json: not valid JSON"), std::string::npos)
            << e.what();
    }
}

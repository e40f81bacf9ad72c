// SPDX-License-Identifier: MIT
// The opt-in traces of whole runs, through the shipped binary (each run is its own process, so
// one test may compare several runs): nicsim run --vcd --timeline --log --trace-window.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string configs = std::string(NICSIM_SOURCE_DIR) + "/configs/";
// A WILC1000 TX run with chip sleep on and a few frames: one TX batch = two wake-ups. The
// firmware gates its clock 10 us after it falls idle (not the default 10 ms), so the wake-ups
// find it asleep and poll.
const std::string wilc_tx = "'" + configs +
                            "wilc1000-spi-ttcp-tx.yaml' --set driver.power_save=true "
                            "--set traffic.bytes=4KiB --set traffic.write_size=4KiB "
                            "--set device.timing.sleep_entry_delay=10us";

fs::path dir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    fs::path d = fs::path(::testing::TempDir()) / "nicsim-trace-run" / info->name();
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

struct result {
    int code;
    std::string output;
};

result nicsim(const std::string& args) {
    const std::string cmd = std::string("'") + NICSIM_EXE + "' " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

json report(const fs::path& p) {
    json r = json::parse(slurp(p));
    r.erase("host"); // wall time and RSS differ between runs
    return r;
}

uint64_t transactions(const json& r) {
    return r.at("devices").at(0).at("bus_stats").at("transactions").get<uint64_t>();
}

// The log's data lines (no '#' comments).
std::vector<std::string> log_lines(const fs::path& p) {
    std::vector<std::string> out;
    std::istringstream in(slurp(p));
    for (std::string l; std::getline(in, l);)
        if (!l.empty() && l[0] != '#')
            out.push_back(l);
    return out;
}

struct span {
    double ts, end;
    std::string name;
    json args;
};

// Timeline tracks by name: process name -> thread name -> spans/instants.
struct timeline {
    std::map<int, std::string> process;
    std::map<int, std::pair<int, std::string>> thread; // tid -> (pid, name)
    std::map<std::string, std::map<std::string, std::vector<span>>> spans, instants;
    size_t events = 0;

    explicit timeline(const fs::path& p) {
        const json doc = json::parse(slurp(p));
        const json& ev = doc.at("traceEvents");
        for (const auto& e : ev)
            if (e.at("ph") == "M" && e.at("name") == "process_name")
                process[e.at("pid")] = e.at("args").at("name");
            else if (e.at("ph") == "M" && e.at("name") == "thread_name")
                thread[e.at("tid")] = {e.at("pid"), e.at("args").at("name")};
        for (const auto& e : ev) {
            const std::string ph = e.at("ph");
            if (ph == "M")
                continue;
            ++events;
            if (ph != "X" && ph != "i")
                continue;
            const auto& [pid, tname] = thread.at(e.at("tid"));
            EXPECT_EQ(pid, e.at("pid").get<int>());
            const double ts = e.at("ts");
            span s{ts, ph == "X" ? ts + e.at("dur").get<double>() : ts, e.at("name"),
                   e.contains("args") ? e.at("args") : json::object()};
            (ph == "X" ? spans : instants)[process.at(pid)][tname].push_back(s);
        }
        for (auto* m : {&spans, &instants})
            for (auto& [p, threads] : *m)
                for (auto& [t, v] : threads)
                    std::stable_sort(v.begin(), v.end(),
                                     [](const span& a, const span& b) { return a.ts < b.ts; });
    }
    const std::vector<span>& of(const std::string& proc, const std::string& thr) {
        return spans[proc][thr];
    }
};

} // namespace

// Acceptance: one power-save-on TX batch shows its two wake-up handshakes, their clock-status
// polls and the DMA transfers, as Trace Event JSON.
TEST(TraceRun, WilcTimelineShowsTheTwoWakeUpsPollsAndDmaOfATxBatch) {
    const fs::path d = dir();
    const auto r = nicsim("run " + wilc_tx + " -q --timeline '" + (d / "t.json").string() + "'");
    ASSERT_EQ(r.code, 0) << r.output;
    timeline tl(d / "t.json");

    // Tracks: the driver's tasks, the bus, the chip.
    std::set<std::string> procs;
    for (const auto& [pid, n] : tl.process)
        procs.insert(n);
    EXPECT_TRUE(procs.count("driver") && procs.count("spi0") && procs.count("wilc1000"));
    std::set<std::string> driver_threads;
    for (const auto& [tid, pt] : tl.thread)
        if (tl.process.at(pt.first) == "driver")
            driver_threads.insert(pt.second);
    EXPECT_TRUE(driver_threads.count("wlan0-tx")) << "the driver's TX kthread";
    EXPECT_TRUE(std::any_of(driver_threads.begin(), driver_threads.end(),
                            [](const std::string& n) { return n.rfind("irq/", 0) == 0; }));

    const auto& ops = tl.of("spi0", "operations");
    const auto& hs = tl.of("spi0", "power handshake");
    const auto& frames = tl.of("spi0", "transactions");
    // The first TX data DMA (to the TX buffer at 0: the VMM table goes to 0x0d0000, firmware
    // download blocks elsewhere) with chip sleep already on, i.e. with wake-ups before it.
    auto wakes_before = [&](double t) {
        std::vector<span> w;
        for (const auto& s : hs)
            if (s.name == "wake-up handshake" && s.end <= t)
                w.push_back(s);
        return w;
    };
    auto data_dma = std::find_if(ops.begin(), ops.end(), [&](const span& s) {
        return s.args.at("addr") == "0x000000" && s.name.rfind("DMA_EXT_WRITE", 0) == 0 &&
               wakes_before(s.ts).size() >= 2;
    });
    ASSERT_NE(data_dma, ops.end()) << "no TX data DMA after two wake-ups";
    // The two wake-ups before it: W2 just before the data DMA, W1 before the VMM-table DMA.
    const std::vector<span> wakes = wakes_before(data_dma->ts);
    const span w1 = wakes[wakes.size() - 2], w2 = wakes.back();
    auto vmm = std::find_if(ops.begin(), ops.end(), [&](const span& s) {
        return s.args.at("addr") == "0x0d0000" && s.ts > w1.end && s.end < w2.ts;
    });
    EXPECT_NE(vmm, ops.end()) << "VMM table written between the two wake-ups";
    EXPECT_TRUE(std::any_of(hs.begin(), hs.end(), [&](const span& s) {
        return s.name == "allow sleep" && s.ts > w1.end && s.end <= w2.ts;
    })) << "the chip is allowed to sleep between the two wake-ups";

    // W1 finds the chip asleep: polls that read the clock off, then one that reads it ready,
    // while the chip model is waking. Between W1 and W2 the firmware holds the VMM space it
    // allocated for the data DMA, so it does not sleep: W2 finds the clock running and costs
    // one poll, no start-up.
    for (const span& w : {w1, w2}) {
        const bool from_sleep = w.ts == w1.ts;
        // Each handshake: HOST_TO_FW + WAKEUP writes, then clk_status polls, the last one ready.
        std::vector<span> polls;
        bool h2f = false;
        for (const auto& f : frames) {
            // ts + dur of two spans that end at the same picosecond may differ in the last bit
            // of the microsecond doubles: compare with a 1 ps margin.
            if (f.ts < w.ts - 1e-6 || f.end > w.end + 1e-6)
                continue;
            if (f.name.find("host_to_fw") != std::string::npos &&
                f.name.find("INTERNAL_WRITE") != std::string::npos)
                h2f = true;
            if (f.name == "0xc4 INTERNAL_READ 0x0f clk_status (clockless) poll")
                polls.push_back(f);
        }
        EXPECT_TRUE(h2f);
        ASSERT_FALSE(polls.empty());
        EXPECT_EQ(polls.size(), w.args.at("clk_status_polls").get<size_t>());
        for (size_t i = 0; i + 1 < polls.size(); ++i)
            EXPECT_NE(polls[i].args.at("detail").get<std::string>().find("clock off"),
                      std::string::npos);
        EXPECT_NE(polls.back().args.at("detail").get<std::string>().find("clock ready"),
                  std::string::npos);
        const auto& ps = tl.of("wilc1000", "power state");
        const bool waking = std::any_of(ps.begin(), ps.end(), [&](const span& s) {
            return s.name == "waking" && s.ts >= w.ts && s.end <= w.end;
        });
        if (from_sleep) {
            EXPECT_GT(polls.size(), 1u);
            EXPECT_TRUE(waking) << "power state 'waking' inside the handshake at " << w.ts;
        } else {
            EXPECT_EQ(polls.size(), 1u) << "a wake-up that finds the clock running polls once";
            EXPECT_FALSE(waking) << "no start-up inside the handshake at " << w.ts;
        }
    }
    // The data DMA's frames: command, tag, data with the op's size, response.
    const uint64_t bytes = data_dma->args.at("bytes");
    EXPECT_TRUE(std::any_of(frames.begin(), frames.end(), [&](const span& f) {
        return f.ts >= data_dma->ts && f.end <= data_dma->end &&
               f.name == "DMA_EXT_WRITE data " + std::to_string(bytes) + " B";
    }));
    // The TX thread ran the batch and waits for work on its completion; the IRQ thread ran on
    // the chip's interrupts.
    const auto& tx = tl.of("driver", "wlan0-tx");
    EXPECT_TRUE(std::any_of(tx.begin(), tx.end(), [&](const span& s) {
        return s.name == "running" && s.ts <= w1.ts && s.end >= data_dma->end;
    })) << "one running span of the TX thread covers the whole batch";
    EXPECT_TRUE(std::any_of(tx.begin(), tx.end(), [](const span& s) {
        return s.name == "blocked: wait_for_completion (completion)";
    }));
    EXPECT_FALSE(tl.instants["wilc1000"]["irq pin"].empty());
    std::string irq_thread;
    for (const auto& [tid, pt] : tl.thread)
        if (pt.second.rfind("irq/", 0) == 0)
            irq_thread = pt.second;
    EXPECT_FALSE(tl.instants["driver"][irq_thread].empty()) << "interrupt: handler runs";
    for (const auto& i : tl.instants["driver"][irq_thread])
        EXPECT_EQ(i.name, "interrupt: handler runs");
}

TEST(TraceRun, LogHasOneLinePerSpiFrameOfTheReport) {
    const fs::path d = dir();
    const auto r = nicsim("run " + wilc_tx + " -q --json '" + (d / "r.json").string() +
                          "' --log '" + (d / "bus.log").string() + "'");
    ASSERT_EQ(r.code, 0) << r.output;
    const auto lines = log_lines(d / "bus.log");
    EXPECT_EQ(lines.size(), transactions(report(d / "r.json")));
    uint64_t last = 0;
    for (const auto& l : lines) {
        std::istringstream in(l);
        uint64_t t, bytes, dur;
        std::string bus, dir, task;
        ASSERT_TRUE(in >> t >> bus >> dir >> bytes >> dur >> task) << l;
        EXPECT_EQ(bus, "spi0");
        EXPECT_TRUE(dir == "rd" || dir == "wr" || dir == "rw") << l;
        EXPECT_GT(bytes, 0u);
        EXPECT_GE(t, last) << "frames in time order";
        last = t;
    }
}

// The report's wake-up distribution is what the bus log shows: every WAKEUP write of bit 1 that
// follows a 0 is a request, and the clk_status reads after it up to the first that reads the
// clock ready are its polls (64 KiB: a few dozen requests, one of them from sleep).
TEST(TraceRun, WakeHistogramAgreesWithTheBusLog) {
    const fs::path d = dir();
    const auto r = nicsim("run '" + configs +
                          "wilc1000-spi-ttcp-tx.yaml' --set driver.power_save=true "
                          "--set traffic.bytes=64KiB --set device.timing.sleep_entry_delay=10us "
                          "-q --json '" + (d / "r.json").string() + "' --log '" +
                          (d / "bus.log").string() + "'");
    ASSERT_EQ(r.code, 0) << r.output;
    std::map<uint64_t, uint64_t> polls_hist; // log2 bucket -> requests
    uint64_t requests = 0, wakeup = 0, polls = 0, from_sleep = 0;
    bool open = false;
    auto bucket = [](uint64_t n) { return n == 0 ? 0 : uint64_t(std::log2(double(n))) + 1; };
    auto close = [&] {
        if (open)
            ++polls_hist[bucket(polls)];
        from_sleep += open && polls > 1;
        open = false;
    };
    for (const auto& l : log_lines(d / "bus.log")) {
        if (l.find("INTERNAL_WRITE 0x01 wakeup") != std::string::npos) {
            const uint64_t v = std::stoull(l.substr(l.rfind("= ") + 2), nullptr, 16);
            if ((v & 2) && !(wakeup & 2)) {
                close();
                ++requests;
                open = true;
                polls = 0;
            }
            wakeup = v;
        } else if (open && l.find("INTERNAL_READ 0x0f clk_status") != std::string::npos) {
            ++polls;
            if (l.find("(clock ready)") != std::string::npos)
                close();
        }
    }
    close();
    const json w = report(d / "r.json").at("devices").at(0).at("wake");
    EXPECT_EQ(w.at("requests").get<uint64_t>(), requests);
    ASSERT_GT(requests, 10u);
    std::map<uint64_t, uint64_t> reported;
    for (const auto& b : w.at("clk_status_polls"))
        reported[bucket(b.at("from").get<uint64_t>())] += b.at("count").get<uint64_t>();
    EXPECT_EQ(reported, polls_hist);
    // A request that found the clock gated needed more than one poll (wake_latency is far
    // longer than one SPI message), one that found it running exactly one.
    EXPECT_EQ(w.at("found_asleep").get<uint64_t>() + w.at("found_waking").get<uint64_t>(),
              from_sleep);
    EXPECT_GT(from_sleep, 0u);
    uint64_t asleep = 0;
    for (const auto& b : w.at("asleep_us"))
        asleep += b.at("count").get<uint64_t>();
    EXPECT_EQ(asleep, w.at("found_asleep").get<uint64_t>());
}

// SDIO: one log line per CMD52/CMD53 of the report, the wake-up polls of clock status (F0 0xf1)
// named as such, and the timeline has the sdio0 bus and the chip's tracks; the report is the
// same with traces on.
TEST(TraceRun, WilcSdioLogTimelineAndReportUnchanged) {
    const fs::path d = dir();
    const std::string sdio_tx = "'" + configs +
                                "wilc1000-sdio-ttcp-tx.yaml' --set driver.power_save=true "
                                "--set traffic.bytes=4KiB --set traffic.write_size=4KiB";
    const auto off = nicsim("run " + sdio_tx + " -q --json '" + (d / "off.json").string() + "'");
    ASSERT_EQ(off.code, 0) << off.output;
    const auto on = nicsim("run " + sdio_tx + " -q --json '" + (d / "on.json").string() +
                           "' --log '" + (d / "bus.log").string() + "' --timeline '" +
                           (d / "t.json").string() + "'");
    ASSERT_EQ(on.code, 0) << on.output;
    EXPECT_EQ(report(d / "off.json").dump(1), report(d / "on.json").dump(1));
    const json r = report(d / "on.json");
    const auto lines = log_lines(d / "bus.log");
    ASSERT_EQ(lines.size(), transactions(r));
    size_t cmd52 = 0, cmd53 = 0, polls = 0;
    for (const auto& l : lines) {
        cmd52 += l.find(" CMD52 ") != std::string::npos;
        cmd53 += l.find(" CMD53 ") != std::string::npos;
        polls += l.find("clk_status poll") != std::string::npos;
        EXPECT_NE(l.find(" sdio0 "), std::string::npos) << l;
    }
    const json& cmds = r.at("devices").at(0).at("bus_stats").at("commands");
    EXPECT_EQ(cmd52, cmds.at("cmd52").at("count").get<size_t>());
    EXPECT_EQ(cmd53, cmds.at("cmd53").at("count").get<size_t>());
    EXPECT_GT(polls, 0u) << "no clock-status poll with power save on";
    timeline tl(d / "t.json");
    EXPECT_FALSE(tl.spans["sdio0"].empty()) << "no sdio0 bus track";
    EXPECT_FALSE(tl.spans["wilc1000"].empty()) << "no chip track";
    EXPECT_FALSE(tl.spans["driver"]["ksdioirqd/mmc0"].empty()) << "no SDIO IRQ task track";
}

TEST(TraceRun, TracesDoNotChangeTheReport) {
    const fs::path d = dir();
    const auto off = nicsim("run " + wilc_tx + " -q --json '" + (d / "off.json").string() + "'");
    ASSERT_EQ(off.code, 0) << off.output;
    const auto on =
        nicsim("run " + wilc_tx + " -q --json '" + (d / "on.json").string() + "' --timeline '" +
               (d / "t.json").string() + "' --log '" + (d / "bus.log").string() + "' --vcd '" +
               (d / "w.vcd").string() + "' --trace-window 75ms:");
    ASSERT_EQ(on.code, 0) << on.output;
    EXPECT_TRUE(fs::file_size(d / "t.json") > 0 && fs::file_size(d / "w.vcd") > 0);
    EXPECT_EQ(report(d / "off.json").dump(1), report(d / "on.json").dump(1));
}

TEST(TraceRun, VcdHasBusPinsIrqAndPowerStateInTimeOrder) {
    const fs::path d = dir();
    // From 75 ms: after the firmware download, before the traffic of this scenario ends.
    const auto r = nicsim("run " + wilc_tx + " -q --vcd '" + (d / "w.vcd").string() +
                          "' --trace-window 75ms:");
    ASSERT_EQ(r.code, 0) << r.output;
    std::istringstream in(slurp(d / "w.vcd"));
    std::map<std::string, std::string> id_of; // "scope.name" -> id
    std::string scope, l;
    bool timescale = false, defs = false;
    while (std::getline(in, l)) {
        timescale |= l == "$timescale 1ps $end";
        if (l.rfind("$scope module ", 0) == 0)
            scope = l.substr(14, l.find(' ', 14) - 14);
        if (l.rfind("$var ", 0) == 0) {
            std::istringstream v(l);
            std::string var, type, width, id, name;
            v >> var >> type >> width >> id >> name;
            id_of[scope + "." + name] = id;
        }
        if (l == "$enddefinitions $end") {
            defs = true;
            break;
        }
    }
    ASSERT_TRUE(timescale && defs);
    for (const char* s : {"spi0.cs_n0", "spi0.sck", "spi0.mosi", "spi0.miso", "spi0.decoded",
                          "wilc1000.irq", "wilc1000.power_state"})
        ASSERT_TRUE(id_of.count(s)) << s;
    std::map<std::string, std::string> name_of;
    for (const auto& [n, id] : id_of)
        name_of[id] = n;

    std::map<std::string, int> changes;
    std::set<std::string> dumped, power_values;
    bool first = true, in_dump = false;
    uint64_t t = 0, first_t = 0;
    while (std::getline(in, l)) {
        if (l == "$dumpvars") {
            in_dump = true;
            continue;
        }
        if (l == "$end") {
            in_dump = false;
            continue;
        }
        if (l[0] == '#') {
            const uint64_t nt = std::stoull(l.substr(1));
            if (first)
                first_t = nt;
            else
                ASSERT_GT(nt, t) << "time stamps must increase";
            first = false;
            t = nt;
            continue;
        }
        const std::string id = l[0] == 's' || l[0] == 'b' ? l.substr(l.find(' ') + 1) : l.substr(1);
        ASSERT_TRUE(name_of.count(id)) << l;
        const std::string& n = name_of[id];
        if (in_dump) {
            dumped.insert(n);
            continue;
        }
        ++changes[n];
        if (n == "wilc1000.power_state")
            power_values.insert(l.substr(1, l.find(' ') - 1));
    }
    EXPECT_EQ(first_t, 75'000'000'000u) << "the dump starts at the window start";
    EXPECT_EQ(dumped.size(), id_of.size()) << "every signal has a level at the window start";
    EXPECT_GT(changes["spi0.sck"], 1000);
    EXPECT_GT(changes["spi0.cs_n0"], 10);
    EXPECT_GT(changes["spi0.decoded"], 10);
    EXPECT_GT(changes["wilc1000.irq"], 0);
    EXPECT_TRUE(power_values.count("asleep") && power_values.count("waking") &&
                power_values.count("awake"));
}

TEST(TraceRun, WindowDropsEverythingOutsideIt) {
    const fs::path d = dir();
    auto run = [&](const std::string& tag, const std::string& extra) {
        const auto r =
            nicsim("run " + wilc_tx + " -q --timeline '" + (d / (tag + ".json")).string() +
                   "' --log '" + (d / (tag + ".log")).string() + "' " + extra);
        ASSERT_EQ(r.code, 0) << r.output;
    };
    run("full", "");
    // A window over the middle of the bus activity after bring-up.
    const auto full = log_lines(d / "full.log");
    ASSERT_GT(full.size(), 100u);
    auto start_ns = [](const std::string& l) { return std::stoull(l.substr(0, l.find(' '))); };
    // Window edges half-way between two frames (the log has whole ns, the window ps).
    auto between = [&](size_t i) { return (start_ns(full[i - 1]) + start_ns(full[i])) / 2; };
    const uint64_t a = between(full.size() / 2), b = between(full.size() * 3 / 4);
    run("win", "--trace-window " + std::to_string(a) + "ns:" + std::to_string(b) + "ns");

    const auto win = log_lines(d / "win.log");
    const size_t expect = size_t(std::count_if(full.begin(), full.end(), [&](const std::string& l) {
        return start_ns(l) >= a && start_ns(l) <= b;
    }));
    EXPECT_EQ(win.size(), expect);
    EXPECT_LT(win.size(), full.size());
    for (const auto& l : win)
        EXPECT_TRUE(start_ns(l) >= a && start_ns(l) <= b) << l;

    const json doc = json::parse(slurp(d / "win.json"));
    size_t n = 0;
    for (const auto& e : doc.at("traceEvents")) {
        if (e.at("ph") == "M")
            continue;
        ++n;
        const double ts = e.at("ts");
        const double end = ts + (e.contains("dur") ? e.at("dur").get<double>() : 0.0);
        EXPECT_GE(ts, double(a) / 1000 - 1e-6) << e.dump();
        EXPECT_LE(end, double(b) / 1000 + 1e-6) << e.dump();
    }
    EXPECT_GT(n, 0u);
    EXPECT_LT(n, timeline(d / "full.json").events);
}

TEST(TraceRun, Ks8851ParallelBusLogAndVcd) {
    const fs::path d = dir();
    const auto r =
        nicsim("run '" + configs +
               "ks8851-par-iperf-tx.yaml' --set traffic.bytes=3KiB -q"
               " --json '" +
               (d / "r.json").string() + "' --log '" + (d / "bus.log").string() + "' --vcd '" +
               (d / "w.vcd").string() + "' --timeline '" + (d / "t.json").string() + "'");
    ASSERT_EQ(r.code, 0) << r.output;
    const auto lines = log_lines(d / "bus.log");
    EXPECT_EQ(lines.size(), transactions(report(d / "r.json")));
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find(" par0 rd 2 ") != std::string::npos &&
               l.find("RD ISR (0x92)") != std::string::npos;
    }));
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("TXQ data") != std::string::npos;
    }));
    const std::string vcd = slurp(d / "w.vcd");
    for (const char* v :
         {" cs_n $end", " rd_n $end", " wr_n $end", " data [15:0] $end", " irq $end"})
        EXPECT_NE(vcd.find(v), std::string::npos) << v;
    timeline tl(d / "t.json");
    EXPECT_FALSE(tl.of("par0", "transactions").empty());
    EXPECT_FALSE(tl.instants["ks8851"]["irq pin"].empty());
}

TEST(TraceRun, BadTraceOptionsAreRejectedWithTheirName) {
    const fs::path d = dir();
    const auto w = nicsim("run " + wilc_tx + " -q --trace-window 5ms");
    EXPECT_NE(w.code, 0);
    EXPECT_NE(w.output.find("--trace-window"), std::string::npos) << w.output;
    const auto u = nicsim("run " + wilc_tx + " -q --trace-window 5ms:2parsecs");
    EXPECT_NE(u.code, 0);
    EXPECT_NE(u.output.find("trace.window_end"), std::string::npos) << u.output;
    const auto o = nicsim("run " + wilc_tx + " -q --trace-window 5ms:1ms");
    EXPECT_NE(o.code, 0);
    EXPECT_NE(o.output.find("window_end"), std::string::npos) << o.output;
    const auto p = nicsim("run " + wilc_tx + " -q --vcd /nonexistent-dir/w.vcd");
    EXPECT_NE(p.code, 0);
    EXPECT_NE(p.output.find("trace.vcd"), std::string::npos) << p.output;
    EXPECT_NE(p.output.find("/nonexistent-dir/w.vcd"), std::string::npos) << p.output;
}

// Perfetto and chrome://tracing draw the "X" slices of one track as a stack: each slice must lie
// inside the one below it or start after it ends. Checked on every track of every chip's
// timeline, including the WILC1000 power-save run where firmware host work and air work overlap
// (hence their own tracks).
TEST(TraceRun, EveryTimelineTrackNests) {
    const fs::path d = dir();
    const std::vector<std::string> runs = {
        wilc_tx + " --set traffic.bytes=256KiB",
        "'" + configs + "wilc1000-sdio-ttcp-tx.yaml' --set traffic.bytes=64KiB",
        "'" + configs + "wilc1000-spi-ttcp-rx.yaml' --set traffic.bytes=64KiB",
        "'" + configs + "ks8851-spi-iperf-rx.yaml' --set traffic.bytes=64KiB",
        "'" + configs + "ks8851-par-iperf-tx.yaml' --set traffic.bytes=64KiB",
        "'" + configs + "enc28j60-spi-iperf-rx.yaml' --set traffic.bytes=64KiB",
    };
    for (size_t i = 0; i < runs.size(); ++i) {
        const fs::path tl = d / ("t" + std::to_string(i) + ".json");
        ASSERT_EQ(nicsim("run " + runs[i] + " -q --timeline '" + tl.string() + "'").code, 0)
            << runs[i];
        timeline t(tl);
        size_t tracks = 0;
        for (auto& [proc, threads] : t.spans)
            for (auto& [thr, v] : threads) {
                ++tracks;
                // Sorted by start, longer first at equal starts; a stack of open slices.
                std::stable_sort(v.begin(), v.end(), [](const span& a, const span& b) {
                    return a.ts < b.ts || (a.ts == b.ts && a.end > b.end);
                });
                std::vector<const span*> open;
                size_t bad = 0;
                for (const auto& s : v) {
                    while (!open.empty() && open.back()->end <= s.ts + 1e-6)
                        open.pop_back();
                    if (!open.empty() && s.end > open.back()->end + 1e-6 && bad++ == 0)
                        ADD_FAILURE()
                            << runs[i] << ": " << proc << " / " << thr << ": '" << s.name << "' "
                            << s.ts << "-" << s.end << " overlaps '" << open.back()->name << "' "
                            << open.back()->ts << "-" << open.back()->end;
                    open.push_back(&s);
                }
                EXPECT_EQ(bad, 0u) << runs[i] << ": " << proc << " / " << thr;
            }
        EXPECT_GE(tracks, 4u) << runs[i];
    }
}

// Issue 35 item 2: on every track of every shipped scenario (faults on, too) the complete events
// nest as a viewer reads them: Perfetto turns "ts" and "dur" into integer ns each on its own
// (llround(value * 1000)), so a slice's end is round(ts) + round(dur), not round(ts + dur).
// Checked in integers without tolerance; every time must be a whole ns for that to be exact.
TEST(TraceRun, EveryShippedScenarioNestsInIntegerNanoseconds) {
    const fs::path d = dir();
    std::vector<std::string> runs;
    for (const char* sub : {"", "faults/"})
        for (const auto& f : fs::directory_iterator(configs + sub)) {
            const std::string name = f.path().filename().string();
            if (f.path().extension() != ".yaml" ||
                !(name.rfind("wilc1000-", 0) == 0 || name.rfind("ks8851-", 0) == 0 ||
                  name.rfind("enc28j60-", 0) == 0))
                continue;
            // The fault scenarios' traffic is sized to reach their fault: kept as shipped.
            std::string run = "'" + f.path().string() + "'";
            if (*sub == '\0')
                run += name.find("-ping") != std::string::npos ? " --set traffic.count=3"
                                                               : " --set traffic.bytes=64KiB";
            runs.push_back(run);
        }
    std::sort(runs.begin(), runs.end());
    ASSERT_GE(runs.size(), 14u + 20u) << "the shipped scenarios and fault scenarios";
    for (size_t i = 0; i < runs.size(); ++i) {
        const fs::path tl = d / ("t" + std::to_string(i) + ".json");
        const result r = nicsim("run " + runs[i] + " -q --timeline '" + tl.string() + "'");
        // A fault run may stop with an error (exit 2) or deliver less than asked (exit 4,
        // docs/faults.md); its timeline is written all the same, up to there.
        ASSERT_TRUE(r.code == 0 || r.code == 2 || r.code == 4) << runs[i] << "\n" << r.output;
        const json doc = json::parse(slurp(tl));
        struct slice {
            long long ts, end;
            std::string name;
        };
        std::map<std::pair<int, int>, std::vector<slice>> tracks;
        size_t off_grid = 0;
        for (const auto& e : doc.at("traceEvents")) {
            if (e.at("ph") != "X")
                continue;
            const double ts_us = e.at("ts"), dur_us = e.at("dur");
            const long long ts = std::llround(ts_us * 1000.0), dur = std::llround(dur_us * 1000.0);
            if ((std::fabs(ts_us * 1000.0 - double(ts)) > 1e-3 ||
                 std::fabs(dur_us * 1000.0 - double(dur)) > 1e-3) &&
                off_grid++ == 0)
                ADD_FAILURE() << runs[i] << ": not whole ns: " << e.dump();
            tracks[{e.at("pid").get<int>(), e.at("tid").get<int>()}].push_back(
                {ts, ts + dur, e.at("name")});
        }
        EXPECT_EQ(off_grid, 0u) << runs[i];
        EXPECT_GE(tracks.size(), 4u) << runs[i];
        for (auto& [track, v] : tracks) {
            // By start, longer first at equal starts; a stack of the open slices.
            std::stable_sort(v.begin(), v.end(), [](const slice& a, const slice& b) {
                return a.ts < b.ts || (a.ts == b.ts && a.end > b.end);
            });
            std::vector<const slice*> open;
            size_t bad = 0;
            for (const auto& s : v) {
                while (!open.empty() && open.back()->end <= s.ts)
                    open.pop_back();
                if (!open.empty() && s.end > open.back()->end && bad++ == 0)
                    ADD_FAILURE() << runs[i] << ": pid " << track.first << " tid " << track.second
                                  << ": '" << s.name << "' " << s.ts << "-" << s.end
                                  << " ns overlaps '" << open.back()->name << "' "
                                  << open.back()->ts << "-" << open.back()->end << " ns";
                open.push_back(&s);
            }
            EXPECT_EQ(bad, 0u) << runs[i] << ": pid " << track.first << " tid " << track.second;
        }
    }
}

// --vcd-format sigrok: only what libsigrok's VCD input reads (1-bit wires, ns timescale, 0/1
// values, increasing times); the default GTKWave file comes with a .gtkw save file naming only
// signals the VCD declares, grouped by scope.
TEST(TraceRun, VcdFormatsForSigrokAndGtkwave) {
    const fs::path d = dir();
    const std::string run = "run " + wilc_tx + " -q --trace-window 86ms:88ms"; // in the traffic
    ASSERT_EQ(nicsim(run + " --vcd '" + (d / "sr.vcd").string() + "' --vcd-format sigrok").code, 0);
    ASSERT_EQ(nicsim(run + " --vcd '" + (d / "gw.vcd").string() + "'").code, 0);
    EXPECT_FALSE(fs::exists(d / "sr.gtkw")) << "the save file is GTKWave's";

    std::istringstream sr(slurp(d / "sr.vcd"));
    bool body = false;
    uint64_t last = 0;
    size_t wires = 0, changes = 0;
    for (std::string l; std::getline(sr, l);) {
        if (l.rfind("$timescale", 0) == 0) {
            EXPECT_EQ(l, "$timescale 1ns $end");
        }
        if (l.rfind("$var", 0) == 0) {
            EXPECT_EQ(l.rfind("$var wire 1 ", 0), 0u) << l;
            ++wires;
        }
        if (l.rfind("$enddefinitions", 0) == 0)
            body = true;
        if (!body || l.empty() || l[0] == '$')
            continue;
        if (l[0] == '#') {
            const uint64_t t = std::stoull(l.substr(1));
            EXPECT_TRUE(t > last || last == 0) << l;
            last = t;
            continue;
        }
        EXPECT_TRUE(l[0] == '0' || l[0] == '1') << l;
        ++changes;
    }
    // spi0: cs_n0 sck mosi miso; wilc1000: irq, power_state_code0/1, fw_busy, radio_tx/rx.
    EXPECT_EQ(wires, 10u);
    EXPECT_GT(changes, 1000u);
    EXPECT_GE(last, 86000000u);
    EXPECT_LE(last, 88000000u);

    const std::string vcd = slurp(d / "gw.vcd");
    const std::string gtkw = slurp(d / "gw.gtkw");
    EXPECT_NE(gtkw.find("[dumpfile] \"gw.vcd\""), std::string::npos) << gtkw;
    std::istringstream g(gtkw);
    size_t named = 0;
    for (std::string l; std::getline(g, l);) {
        if (l.rfind("nicsim.", 0) != 0)
            continue;
        ++named;
        // nicsim.<scope>.<name>[range] must be a $var of that scope.
        const auto dot = l.find('.', 7);
        const std::string scope = l.substr(7, dot - 7);
        const std::string name = l.substr(dot + 1, l.find('[') - dot - 1);
        const auto sc = vcd.find("$scope module " + scope + " $end");
        ASSERT_NE(sc, std::string::npos) << l;
        const auto var = vcd.find(" " + name + " ", sc);
        EXPECT_LT(var, vcd.find("$upscope", sc)) << l;
    }
    EXPECT_EQ(named, 11u) << gtkw; // the 10 wires above + decoded and power_state, as vectors/text
    EXPECT_NE(gtkw.find("@800200\n-spi0\n"), std::string::npos) << gtkw;
    EXPECT_NE(gtkw.find("@1000200\n-wilc1000\n"), std::string::npos) << gtkw;
}

// Flow arrows: every bus transaction issued by a driver task has one "s" event on that task's
// thread and one "f" event on the bus's transactions track at the transaction's start, so
// Perfetto draws an arrow from the driver call to its bus transaction.
TEST(TraceRun, FlowArrowsGoFromTheDriverTaskToItsTransaction) {
    const fs::path d = dir();
    // The KS8851's parallel TX: the testbench's sender thread calls into the driver's xmit and
    // issues bus accesses before lx_kit reports any state of it.
    for (const auto& [run, bus] :
         {std::pair<std::string, std::string>{wilc_tx, "spi0"},
          {"'" + configs + "ks8851-par-iperf-tx.yaml' --set traffic.bytes=16KiB", "par0"}}) {
        ASSERT_EQ(nicsim("run " + run + " -q --timeline '" + (d / "t.json").string() + "'").code,
                  0);
        const json doc = json::parse(slurp(d / "t.json"));
        std::map<int, std::string> process, thread;
        for (const auto& e : doc.at("traceEvents"))
            if (e.at("ph") == "M" && e.at("name") == "process_name")
                process[e.at("pid")] = e.at("args").at("name");
            else if (e.at("ph") == "M" && e.at("name") == "thread_name")
                thread[e.at("tid")] = e.at("args").at("name");
        std::map<uint64_t, json> starts, ends;
        std::map<std::string, std::string> task_of_txn; // "ts" of a transaction -> its task
        for (const auto& e : doc.at("traceEvents")) {
            if (e.at("ph") == "s") {
                EXPECT_TRUE(starts.emplace(e.at("id").get<uint64_t>(), e).second) << e;
            }
            if (e.at("ph") == "f") {
                EXPECT_TRUE(ends.emplace(e.at("id").get<uint64_t>(), e).second) << e;
            }
            if (e.at("ph") == "X" && thread[e.at("tid")] == "transactions" &&
                e.at("args").contains("task"))
                task_of_txn[e.at("ts").dump()] = e.at("args").at("task");
        }
        EXPECT_EQ(starts.size(), ends.size());
        EXPECT_EQ(starts.size(), task_of_txn.size()) << "one arrow per transaction with a task";
        ASSERT_GT(starts.size(), 100u);
        for (const auto& [id, s] : starts) {
            ASSERT_TRUE(ends.count(id)) << s;
            const json& f = ends.at(id);
            EXPECT_EQ(process[s.at("pid")], "driver") << s;
            EXPECT_EQ(process[f.at("pid")], bus) << f;
            EXPECT_EQ(thread[f.at("tid")], "transactions") << f;
            EXPECT_EQ(f.at("bp"), "e") << f;
            EXPECT_EQ(s.at("ts"), f.at("ts"));
            EXPECT_EQ(task_of_txn[f.at("ts").dump()], thread[s.at("tid")]) << s;
        }
    }
}

namespace {
// What the GTKWave save file shows first: from [timestart], 2^-zoom ps per 200 pixels over
// the 800 pixels of wave pane its 1000-pixel window has.
struct gtkw_view_read {
    uint64_t start_ps = 0;
    double visible_ps = 0;
};
gtkw_view_read read_gtkw_view(const fs::path& p) {
    gtkw_view_read v;
    std::istringstream in(slurp(p));
    for (std::string l; std::getline(in, l);) {
        if (l.rfind("[timestart] ", 0) == 0)
            v.start_ps = std::stoull(l.substr(12));
        if (!l.empty() && l[0] == '*')
            v.visible_ps = 4 * std::pow(2.0, -std::stod(l.substr(1)));
    }
    return v;
}
} // namespace

// Issue 35 item 6: `gtkwave w.gtkw` opens where the first transactions are, each wide enough
// to see (at least 8 of the 800 pixels), not on the whole run.
TEST(TraceRun, GtkwaveSaveFileOpensOnTheFirstTransactions) {
    const fs::path d = dir();
    for (const std::string window : {"", "86ms:88ms"}) {
        SCOPED_TRACE("window '" + window + "'");
        const std::string w = window.empty() ? "" : " --trace-window " + window;
        ASSERT_EQ(nicsim("run " + wilc_tx + " -q --vcd '" + (d / "w.vcd").string() + "' --log '" +
                         (d / "t.log").string() + "'" + w)
                      .code,
                  0);
        const auto lines = log_lines(d / "t.log");
        ASSERT_FALSE(lines.empty());
        std::istringstream first(lines.front()); // start_ns bus dir bytes duration_ns ...
        uint64_t start_ns = 0, bytes = 0, duration_ns = 0;
        std::string bus, dir_;
        first >> start_ns >> bus >> dir_ >> bytes >> duration_ns;
        const gtkw_view_read v = read_gtkw_view(d / "w.gtkw");
        ASSERT_GT(v.visible_ps, 0) << slurp(d / "w.gtkw");
        EXPECT_LE(v.start_ps, start_ns * 1000);
        EXPECT_GE(v.start_ps + v.visible_ps, (start_ns + duration_ns) * 1000.0);
        EXPECT_GE(duration_ns * 1000.0, v.visible_ps / 100) << "the first transaction is narrow";
        if (!window.empty()) {
            EXPECT_GE(v.start_ps, 86000000000u);
        }
    }
}

// SPDX-License-Identifier: MIT
// sdio_host.runtime_pm (host/board/sdio_runtime_pm.h): the controller suspends only after the
// last mmc_release_host plus the autosuspend delay with no reference held; an enabled SDIO
// interrupt holds one on an sdhci host (sdhci_enable_sdio_irq) and none on a wake-IRQ host,
// whose card interrupt then pays the resume (drivers/mmc/core/core.c, host/sdhci.c,
// host/omap_hsmmc.c in Linux 6.1).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "host/board/sdio_runtime_pm.h"

using nicsim::board::sdio_runtime_pm;
using nicsim::board::sdio_runtime_pm_config;
using sc_core::SC_MS;
using sc_core::sc_time;
using sc_core::SC_US;
using sc_core::SC_ZERO_TIME;

namespace {

sdio_runtime_pm_config at91(bool irq_holds_clock = true) {
    sdio_runtime_pm_config c;
    c.enabled = true;
    c.autosuspend_delay = sc_time(50, SC_MS); // sdhci-of-at91.c
    c.resume_latency = sc_time(80, SC_US);
    c.irq_holds_clock = irq_holds_clock;
    return c;
}

sc_time ms(double v) {
    return sc_time(v, SC_MS);
}

} // namespace

TEST(SdioRuntimePm, AClaimAfterTheAutosuspendDelayPaysTheResumeOnce) {
    sdio_runtime_pm pm(at91());
    EXPECT_EQ(pm.get(ms(1)), SC_ZERO_TIME); // probe's put armed the timer at 0: not run out
    pm.put(ms(2));
    EXPECT_FALSE(pm.suspended_at(ms(51.9)));
    EXPECT_TRUE(pm.suspended_at(ms(52)));
    EXPECT_EQ(pm.get(ms(40)), SC_ZERO_TIME); // 38 ms idle: still active
    pm.put(ms(41));
    EXPECT_EQ(pm.get(ms(200)), sc_time(80, SC_US)); // 159 ms idle: suspended since 91 ms
    EXPECT_EQ(pm.stats().resumes, 1u);
    EXPECT_EQ(pm.stats().suspended, ms(109));
    // A nested or second holder keeps it active however long.
    EXPECT_EQ(pm.get(ms(300)), SC_ZERO_TIME);
    pm.put(ms(400));
    EXPECT_FALSE(pm.suspended_at(ms(1000)));
    pm.put(ms(1000));
    EXPECT_EQ(pm.get(ms(1049)), SC_ZERO_TIME);
}

TEST(SdioRuntimePm, OffNeverSuspends) {
    sdio_runtime_pm_config c = at91();
    c.enabled = false;
    sdio_runtime_pm pm(c);
    pm.get(ms(0));
    pm.put(ms(0));
    EXPECT_FALSE(pm.suspended_at(ms(10000)));
    EXPECT_EQ(pm.get(ms(10000)), SC_ZERO_TIME);
    EXPECT_EQ(pm.card_irq(ms(20000)), SC_ZERO_TIME);
    EXPECT_EQ(pm.stats().resumes, 0u);
}

// sdhci: while the SDIO interrupt is enabled the controller never suspends; once it is
// disabled (put_noidle, no idle check) the next release starts the timer again.
TEST(SdioRuntimePm, AnEnabledSdioIrqHoldsTheClockOnSdhci) {
    sdio_runtime_pm pm(at91(true));
    pm.get(ms(0));
    pm.enable_sdio_irq(true);
    pm.put(ms(1));
    EXPECT_FALSE(pm.suspended_at(ms(5000)));
    EXPECT_EQ(pm.card_irq(ms(5000)), SC_ZERO_TIME);
    EXPECT_EQ(pm.get(ms(5000)), SC_ZERO_TIME);
    pm.enable_sdio_irq(false);
    pm.put(ms(5001));
    EXPECT_TRUE(pm.suspended_at(ms(5051)));
    EXPECT_EQ(pm.get(ms(5100)), sc_time(80, SC_US));
}

// A wake-IRQ host (omap_hsmmc) suspends with the interrupt enabled; the card's interrupt
// resumes it, and the interrupt work's claim right after pays nothing more.
TEST(SdioRuntimePm, AWakeIrqHostSuspendsAndTheCardInterruptPaysTheResume) {
    sdio_runtime_pm pm(at91(false));
    pm.get(ms(0));
    pm.enable_sdio_irq(true);
    pm.put(ms(1));
    EXPECT_TRUE(pm.suspended_at(ms(51)));
    EXPECT_EQ(pm.card_irq(ms(500)), sc_time(80, SC_US));
    EXPECT_EQ(pm.get(ms(500.1)), SC_ZERO_TIME);
    pm.put(ms(500.2));
    EXPECT_EQ(pm.card_irq(ms(510)), SC_ZERO_TIME); // 10 ms after: still active
    EXPECT_EQ(pm.stats().resumes, 1u);
}

// The whole run (the nicsim binary): the far host pings a WILC1000 on the SAMA5-class SD host
// every 200 ms, four times the autosuspend delay. sdhci's held reference leaves every round trip
// as with runtime PM off; a wake-IRQ host resumes for each request's card interrupt, which the
// round trip pays; at 20 ms between requests the controller never gets to suspend.
TEST(SdioRuntimePmRun, OnlyAWakeIrqHostMovesThePingAndOnlyAfterTheDelay) {
    const std::string exe = NICSIM_EXE;
    const std::string scenario =
        std::string(NICSIM_SOURCE_DIR) + "/configs/wilc1000-sdio-ttcp-tx.yaml";
    const auto rtt = [&](const std::string& interval, const std::string& pm) {
        const std::string cmd = "'" + exe + "' run '" + scenario +
                                "' --set 'traffic={kind: ping, from: peer, count: 10, adaptive: "
                                "false}' --set driver.power_save=false --set duration=20s "
                                "--set traffic.interval=" + interval +
                                " --set 'platform.sdio_host=" + pm + "' -q --json - 2>/dev/null";
        FILE* p = popen(cmd.c_str(), "r");
        std::string out;
        char buf[4096];
        for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
            out.append(buf, n);
        EXPECT_EQ(pclose(p), 0) << cmd;
        const auto j = nlohmann::json::parse(out)["flows"][0]["rtt_ms"];
        return std::array<double, 3>{j["min"].get<double>(), j["avg"].get<double>(),
                                     j["max"].get<double>()};
    };
    const std::string off = "{runtime_pm: false}";
    const std::string sdhci = "{runtime_pm: true, sdio_irq_pm: holds_clock, resume_latency: 100us}";
    const std::string wake = "{runtime_pm: true, sdio_irq_pm: wake_irq, resume_latency: 100us}";
    const auto base = rtt("200ms", off);
    EXPECT_EQ(rtt("200ms", sdhci), base);
    const auto woken = rtt("200ms", wake);
    EXPECT_GT(woken[1] - base[1], 0.05); // ms: the resume, 100 us, on the way in
    EXPECT_LT(woken[1] - base[1], 0.2);
    EXPECT_EQ(rtt("20ms", wake), rtt("20ms", off)); // never idle for 50 ms
}

// SPDX-License-Identifier: MIT
// printk formatting and routing, the trace-and-stop dummy, the module/parameter registry.
#include <gtest/gtest.h>

#include <string>

#include <lx_kit/lx_emul_api.h>

#include "lx_test_util.h"

namespace lk = nicsim::lx_kit;

namespace {
std::string fmt(int which) {
    char buf[128];
    int n = lx_test_format(buf, sizeof buf, which);
    EXPECT_EQ(n, int(std::string(buf).size()));
    return buf;
}
} // namespace

TEST(LxPrintk, KernelPointerExtensions) {
    EXPECT_EQ(fmt(0), "MAC 00:11:22:aa:bb:cc end");
    EXPECT_EQ(fmt(1), "001122aabbcc");
    EXPECT_EQ(fmt(2), "192.168.1.20");
    EXPECT_EQ(fmt(3), "de ad be ef 01");
    EXPECT_EQ(fmt(4), "-ENOMEM");
    // Plain %p and unknown extensions: deterministic placeholder, extension consumed.
    EXPECT_EQ(fmt(5), "(____ptrval____)|(____ptrval____)|7");
    EXPECT_EQ(fmt(6), "  -42|ab  |0a|123456789|-5|9");
    EXPECT_EQ(fmt(7), "cc:bb:aa:22:11:00");
}

TEST(LxPrintk, ScnprintfReturnsWrittenLength) {
    char buf[8];
    EXPECT_EQ(lx_test_format(buf, sizeof buf, 8), 7);
    EXPECT_EQ(std::string(buf), "truncat");
}

TEST(LxPrintk, RoutesToSinkWithLevelAndCountsErrors) {
    std::vector<lk::log_record> got;
    lk::set_log_sink([&](const lk::log_record& r) { got.push_back(r); });
    lx_test_dev_err();
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].level, 3);
    EXPECT_EQ(got[0].text, "(NULL device *): probe failed: -19");
    EXPECT_EQ(got[1].level, 6);
    EXPECT_EQ(got[1].text, "info line 01:02:03:04:05:06");
    EXPECT_EQ(got[1].origin, "lx_test");
    EXPECT_EQ(lx_emul_log_count(3), 1u);
    EXPECT_EQ(lx_emul_log_count(6), 1u);
}

TEST(LxDummyDeathTest, DummyStopsWithItsName) {
    EXPECT_EXIT(lx_test_call_dummy(), testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "nicsim: driver called unimplemented kernel function 'sdio_claim_host' "
                "\\(generated dummy\\) — stopping");
}

TEST(LxModule, RegistrySetsStaticParameterByName) {
    const int m = lx_emul_module_find("lx_test", nullptr);
    ASSERT_GE(m, 0);
    EXPECT_STREQ(lx_emul_module_variant(m), "");
    ASSERT_EQ(lx_emul_module_param_count(m), 2);
    EXPECT_STREQ(lx_emul_module_param_name(m, 0), "level");
    EXPECT_STREQ(lx_emul_module_param_desc(m, 0), "Test level");
    EXPECT_EQ(lx_test_module_level(), 3);
    // init refuses unless level == 17: proves init sees the value set by name.
    EXPECT_EQ(lx_emul_module_init(m), -22);
    EXPECT_EQ(lx_emul_module_param_set(m, "level", "17"), 0);
    EXPECT_EQ(lx_test_module_level(), 17);
    EXPECT_EQ(lx_emul_module_param_set(m, "verbose", "Y"), 0);
    EXPECT_EQ(lx_test_module_verbose(), 1);
    EXPECT_EQ(lx_emul_module_param_set(m, "level", "seventeen"), -22);
    EXPECT_EQ(lx_emul_module_param_set(m, "nosuch", "1"), -2);
    char buf[16];
    EXPECT_EQ(lx_emul_module_param_get(m, "level", buf, sizeof buf), 0);
    EXPECT_STREQ(buf, "17");
    EXPECT_EQ(lx_emul_module_init(m), 0);
    EXPECT_EQ(lx_emul_module_initialized(m), 1);
    lx_emul_module_exit(m);
    EXPECT_EQ(lx_test_module_level(), -1);
}

TEST(LxHeaders, KernelSemanticsBitForBit) {
    EXPECT_EQ(lx_test_header_semantics(), 0);
}

TEST(LxAbort, StopModeEndsSimulationAndKeepsTheMessage) {
    lk::set_abort_mode(lk::abort_mode::stop_simulation);
    lx_kit_task_create("caller", lx_scn_call_dummy_at_1ms, nullptr);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_SEC));
    EXPECT_TRUE(lk::aborted());
    EXPECT_EQ(lk::abort_message(),
              "driver called unimplemented kernel function 'spi_sync' (generated dummy) — "
              "stopping");
    // sc_stop at the abort: simulated time did not run on to 1 s.
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(4, sc_core::SC_MS));
}

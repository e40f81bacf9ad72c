// SPDX-License-Identifier: MIT
// The bus interrupt wire adapted to lx_kit: a falling edge shorter than a delta cycle (the level
// is high again when anyone looks) still runs an edge-triggered handler, via the edge counters.
#include <gtest/gtest.h>

#include <lx_kit/irq_line_source.h>

#include "lx_test_util.h"

using namespace lx_test;
using namespace sc_core;
namespace lk = nicsim::lx_kit;

TEST(LxIrqLine, GlitchEdgeLatchesThroughEdgeCounters) {
    nicsim::irq_line line("chip_irq", true);
    lk::irq_line_source src(line);
    lk::register_irq(7, src);
    lx_kit_task_create("probe", lx_scn_irq_request,
                       reinterpret_cast<void*>(uintptr_t{lx_test_irqf_falling_oneshot()}));
    sc_spawn([&] {
        wait(sc_time(1, SC_MS));
        line.set_level(false);
        line.set_level(true); // back high within the same delta cycle
    });
    run_for(20 * ms);
    EXPECT_EQ(events(), (std::vector<ev>{{1 * ms, 1000}}));
}

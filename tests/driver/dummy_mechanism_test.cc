// SPDX-License-Identifier: MIT
// The generated trace-and-stop dummies: a referenced but unimplemented kernel function becomes a
// dummy that names itself and stops the run; implemented functions never become dummies.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "kernel/include/lx_kit/lx_kit.h"

extern "C" int dummy_user_call(void);
extern "C" const char* const lx_emul_dummy_names[];

namespace {
bool generated(const char* name) {
    for (const char* const* n = lx_emul_dummy_names; *n; ++n)
        if (std::strcmp(*n, name) == 0)
            return true;
    return false;
}
} // namespace

TEST(DummyMechanism, ListsExactlyTheUnimplementedFunction) {
    EXPECT_TRUE(generated("nicsim_test_unimplemented_kernel_fn"));
    EXPECT_FALSE(generated("msecs_to_jiffies")) << "implemented by lx_emul, must not be a dummy";
    EXPECT_FALSE(generated("memcpy")) << "libc functions are never dummies";
}

TEST(DummyMechanism, CallingADummyStopsTheRunWithItsName) {
    EXPECT_EXIT(dummy_user_call(), ::testing::ExitedWithCode(LX_KIT_ABORT_EXIT_CODE),
                "nicsim_test_unimplemented_kernel_fn");
}

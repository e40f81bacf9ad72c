// SPDX-License-Identifier: MIT
// The fake arch (kernel/arch/) under one tree's real kernel headers (NICSIM_RH_KERNEL, one
// executable per tree): real_headers_arch_scn.c checks the kernel's own atomic, refcount,
// bitops, irqflags, preempt count, MMIO, jiffies, page and byte-order APIs on top of the arch,
// the shadows and the generated headers.
#include <gtest/gtest.h>

extern "C" int nicsim_rh_arch_check(char* why, unsigned long len);

TEST(RealHeadersArch, KernelApisOnTheFakeArch)
{
    char why[256] = "";
    const int failures = nicsim_rh_arch_check(why, sizeof why);
    EXPECT_EQ(failures, 0) << "kernel " << NICSIM_RH_KERNEL << ", first failed check: " << why;
}

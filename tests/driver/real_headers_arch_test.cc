// SPDX-License-Identifier: MIT
// The fake arch (kernel/arch/) under each tree's real kernel headers: real_headers_arch_scn.c,
// compiled once per tree, checks the kernel's own atomic, refcount, bitops, irqflags, preempt
// count, MMIO, page and byte-order APIs on top of the arch and the generated headers.
#include <gtest/gtest.h>

#include <string>

extern "C" {
int nicsim_rh_arch_check_6_1(char* why, unsigned long len);
int nicsim_rh_arch_check_6_12(char* why, unsigned long len);
}

namespace {

void expect_clean(int (*check)(char*, unsigned long))
{
    char why[256] = "";
    const int failures = check(why, sizeof why);
    EXPECT_EQ(failures, 0) << "first failed check: " << why;
}

} // namespace

#ifdef NICSIM_RH_HAVE_6_1
TEST(RealHeadersArch, Kernel6_1) { expect_clean(nicsim_rh_arch_check_6_1); }
#endif
#ifdef NICSIM_RH_HAVE_6_12
TEST(RealHeadersArch, Kernel6_12) { expect_clean(nicsim_rh_arch_check_6_12); }
#endif

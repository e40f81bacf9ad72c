/* SPDX-License-Identifier: MIT */
/* Stands in for a driver that calls a kernel function nicsim does not implement. The build runs
 * the real dummy generator (kernel/cmake/gen_dummies.sh) over this object, exactly as over the
 * driver variants, so the test exercises the mechanism itself. */
#include <linux/kernel.h>
#include <linux/jiffies.h>

void nicsim_test_unimplemented_kernel_fn(int arg); /* deliberately defined nowhere */

int dummy_user_call(void)
{
	nicsim_test_unimplemented_kernel_fn(42);
	return 0;
}

/* Implemented by the emulation layer: must not become a dummy. */
int dummy_user_call_implemented(void)
{
	return (int)msecs_to_jiffies(1);
}

// SPDX-License-Identifier: MIT
/* Scenarios for the CPU time of kernel work the emulation runs natively. This file is compiled
 * with -fsanitize-coverage=trace-pc like the real drivers, so its basic blocks are counted. */
#include <linux/completion.h>
#include <linux/kernel.h>

#include <lx_kit/lx_kit.h>

#include "lx_scenarios.h"

static struct completion cpu_done;
static volatile unsigned long cpu_sink;

/* At least `n` basic blocks: one loop body per iteration. */
static void burn(long n)
{
    for (long i = 0; i < n; i++)
        cpu_sink += (unsigned long)i;
}

void lx_scn_cpu_init(void)
{
    init_completion(&cpu_done);
}

void lx_scn_cpu_burn_then_sleep(void* arg)
{
    burn((long)(intptr_t)arg);
    lx_kit_sleep_ns(1000);
    lx_test_record(1);
}

void lx_scn_cpu_burn_then_wait(void* arg)
{
    burn((long)(intptr_t)arg);
    wait_for_completion(&cpu_done);
    lx_test_record(1);
}

void lx_scn_cpu_complete_at(void* arg)
{
    lx_kit_sleep_until_ns((uint64_t)(intptr_t)arg);
    complete(&cpu_done);
    lx_test_record(2);
}

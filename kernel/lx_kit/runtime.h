// SPDX-License-Identifier: MIT
// lx_kit internals shared by the .cc files: task and wait-handle records, the runtime singleton.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "bus/common/deadline_timer.h"

#include <lx_kit/lx_kit.h>
#include <lx_kit/runtime.h>

// Basic blocks of driver code executed so far: the driver objects are compiled with
// -fsanitize-coverage=trace-pc, whose per-block hook (code_cost.cc) counts here.
extern "C" uint64_t lx_kit_driver_blocks;

struct lx_kit_task {
    std::string name;
    bool can_block = false;
    bool rt = false; // a SCHED_FIFO task (threaded IRQ handlers): hrtimer sleeps get no slack
    void* data = nullptr;
    void* real_data = nullptr; // the real-header emulation's task_struct
    int atomic_depth = 0;
    lx_kit_task_fn fn = nullptr;
    void* arg = nullptr;
    sc_core::sc_event block_ev;             // private: notified to wake this task only
    nicsim::deadline_timer timer{block_ev}; // a timed block's timeout (bus/common/deadline_timer.h)
    bool wakeable = false;                  // inside lx_kit_yield / lx_kit_sleep_ns
    bool woken = false;
    uint64_t busy_ns = 0;
};

struct lx_kit_wait;
struct waiter {
    lx_kit_task* task;
    bool notified = false;
};

struct lx_kit_wait {
    std::string what;
    std::deque<waiter*> queue;
    bool in_pool = false; // returned to the pool (free)
};

namespace nicsim::lx_kit::detail {

// Intentionally never destroyed (LeakSanitizer sees everything it owns as reachable, and
// objects used by static destructors of other translation units stay valid).
struct runtime {
    parameters params;
    std::vector<std::unique_ptr<lx_kit_task>> tasks;
    std::map<const sc_core::sc_object*, lx_kit_task*> adopted;
    // One-entry cache of `adopted` for current(), which runs on every lock, wait and printk;
    // reset whenever an entry of `adopted` is replaced or erased.
    const sc_core::sc_object* last_key = nullptr;
    lx_kit_task* last_task = nullptr;
    lx_kit_task main_task;
    std::vector<std::unique_ptr<lx_kit_wait>> waits;
    std::vector<lx_kit_wait*> free_waits;
    unsigned long spawn_count = 0;
    busy_hook on_busy;
    cpu_hook on_cpu;
    cpu_accounting cpu_acct;
    uint64_t blocks_charged = 0; // lx_kit_driver_blocks at the last charge_code()
    uint64_t block_ps_rest = 0;  // sub-nanosecond rest carried to the next charge
    task_observer on_task;       // trace hook; empty when nothing is attached
    uint64_t busy_total = 0;
    abort_mode on_abort = abort_mode::exit_process;
    bool aborted = false;
    std::string abort_message;
};
runtime& rt();

uint64_t now_ns();
sc_core::sc_time ns_time(uint64_t ns);
lx_kit_task* current();
// How a blocked task comes back: as a scheduler wake-up (wake-up latency when woken by an event,
// a context switch either way), or without scheduler costs (spinning, the IRQ thread's line).
enum class resume { scheduled, unscheduled };
// Blocks the current (blockable) task on its private event for at most timeout_ns (<0: none).
// The caller charges the driver code run so far (charge_code) before it makes the task findable
// by a waker: charging may wait for a core, and a wake-up during that wait would be lost.
void block_current(lx_kit_task* t, int64_t timeout_ns, resume how = resume::scheduled);
// Charges the driver code the current task ran since the last charge (the blocks counted by the
// trace-pc hook) on the CPU. Called wherever kernel code blocks, talks to a bus or returns to
// testbench code, so the time is spent before anybody else can see its effect.
void charge_code();
// A context switch into the current task (after a sleep or a wake-up), on the CPU.
void charge_context_switch();
void require_blockable(lx_kit_task* t, const char* why, bool sleeping);

// Reports a task state change to the trace observer, if one is set (one check otherwise).
inline void trace_task(const lx_kit_task* t, task_state s, const char* why = "",
                       const char* what = "") {
    const runtime& r = rt();
    if (r.on_task)
        r.on_task(task_event{t, t->name.c_str(), s, why, what});
}

} // namespace nicsim::lx_kit::detail

// SPDX-License-Identifier: MIT
// lx_kit runtime: tasks (SystemC threads), wait handles, simulated time, busy-wait accounting and
// the abort policy behind lx_kit/lx_kit.h.
#include "runtime.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "bus/common/local_time.h"

using namespace sc_core;
namespace lk = nicsim::lx_kit;
namespace dt = nicsim::lx_kit::detail;

namespace nicsim::lx_kit::detail {

runtime& rt() {
    static runtime* r = [] {
        auto* p = new runtime;
        p->main_task.name = "main";
        p->main_task.can_block = false;
        return p;
    }();
    return *r;
}

uint64_t now_ns() {
    static const sc_dt::uint64 per_ns = sc_time(1, SC_NS).value();
    return nicsim::local_time::now().value() / per_ns; // the task's own (decoupled) time
}

sc_time ns_time(uint64_t ns) {
    static const sc_dt::uint64 per_ns = sc_time(1, SC_NS).value();
    return sc_time::from_value(ns * per_ns);
}

lx_kit_task* current() {
    runtime& r = rt();
    if (sc_get_status() != SC_RUNNING)
        return &r.main_task;
    // The task asked for last, by the raw process pointer (inline, no handle to count): the
    // common case, several times per driver call.
    const sc_object* running = sc_get_current_process_b();
    if (running && running == r.last_key)
        return r.last_task;
    sc_process_handle h = sc_get_current_process_handle();
    if (!h.valid() || (h.proc_kind() != SC_THREAD_PROC_ && h.proc_kind() != SC_CTHREAD_PROC_))
        return &r.main_task;
    const sc_object* key = h.get_process_object();
    if (key == r.last_key)
        return r.last_task;
    auto it = r.adopted.find(key);
    if (it != r.adopted.end()) {
        r.last_key = key;
        r.last_task = it->second;
        return it->second;
    }
    // A SystemC thread lx_kit did not create (testbench code calling into the driver).
    r.tasks.push_back(std::make_unique<lx_kit_task>());
    lx_kit_task* t = r.tasks.back().get();
    t->name = h.name();
    t->can_block = true;
    r.adopted[key] = t;
    return t;
}

void require_blockable(lx_kit_task* t, const char* why, bool sleeping) {
    if (!t->can_block)
        lx_kit_abort("%s would block in a context that cannot block (%s): kernel code that "
                     "sleeps must run in an lx_kit task or a SystemC thread",
                     why, t->name.c_str());
    if (sleeping && t->atomic_depth > 0)
        lx_kit_abort("%s: task '%s' sleeps in atomic context (holds a spinlock, has BH disabled "
                     "or runs a hard-IRQ/timer handler)",
                     why, t->name.c_str());
}

void charge_code() {
    runtime& r = rt();
    const uint64_t blocks = lx_kit_driver_blocks - r.blocks_charged;
    if (blocks == 0)
        return;
    r.blocks_charged = lx_kit_driver_blocks;
    r.cpu_acct.driver_blocks += blocks;
    if (!r.on_cpu || r.params.ps_per_block == 0 || sc_get_status() != SC_RUNNING ||
        !current()->can_block)
        return; // before the run (module constructors) or outside a thread: not on the board
    // Whole nanoseconds, the rest carried: the charge does not depend on where the flushes fall.
    const uint64_t ps = blocks * r.params.ps_per_block + r.block_ps_rest;
    r.block_ps_rest = ps % 1000;
    r.cpu_acct.driver_code_ps += ps - r.block_ps_rest;
    if (ps >= 1000)
        r.on_cpu(ps - r.block_ps_rest);
}

void charge_context_switch() {
    runtime& r = rt();
    if (!r.on_cpu || r.params.context_switch_ns == 0)
        return;
    const uint64_t ps = r.params.context_switch_ns * 1000;
    r.cpu_acct.context_switches++;
    r.cpu_acct.context_switch_ps += ps;
    r.on_cpu(ps);
}

// Waits until `until` (SystemC time) if it is still ahead: the rest of a latency of which the
// CPU work already took a part. Nothing can wake the task early, so the wait is local time
// (bus/common/local_time.h): consumed without a switch when no other process can run before
// `until`, one wait for the whole offset otherwise.
static void wait_until(const sc_time& until) {
    const sc_time now = nicsim::local_time::now();
    if (until > now)
        nicsim::local_time::advance(until - now);
}

void block_current(lx_kit_task* t, int64_t timeout_ns, resume how) {
    nicsim::local_time::sync();
    const sc_time start = sc_time_stamp();
    const bool timed =
        !(timeout_ns < 0 || static_cast<uint64_t>(timeout_ns) >= LX_KIT_MAX_TIMEOUT_NS);
    if (!timed)
        wait(t->block_ev);
    else
        t->timer.wait_until(start + ns_time(static_cast<uint64_t>(timeout_ns)));
    t->block_ev.cancel();
    if (how == resume::unscheduled)
        return;
    // Woken by another context (not by its own timeout): the scheduler's wake-up latency, of
    // which the switch into this task is the CPU part.
    const sc_time woke = sc_time_stamp();
    const bool by_event = !timed || woke < start + ns_time(static_cast<uint64_t>(timeout_ns));
    const runtime& r = rt();
    const uint64_t latency =
        by_event && r.params.wakeup_latency_sample ? r.params.wakeup_latency_sample() : 0;
    charge_context_switch();
    if (latency)
        wait_until(woke + ns_time(latency));
}

} // namespace nicsim::lx_kit::detail

// ---- C++ API -----------------------------------------------------------------------------------

namespace nicsim::lx_kit {

parameters& params() {
    return dt::rt().params;
}
void set_busy_hook(busy_hook hook) {
    dt::rt().on_busy = std::move(hook);
}
uint64_t busy_ns_total() {
    return dt::rt().busy_total;
}
void set_cpu_hook(cpu_hook hook) {
    dt::rt().on_cpu = std::move(hook);
}
void forget_code_before_power_on() {
    dt::rt().blocks_charged = lx_kit_driver_blocks;
}
const cpu_accounting& cpu_accounts() {
    return dt::rt().cpu_acct;
}
void charge_driver_code() {
    dt::charge_code();
}
void set_task_observer(task_observer observer) {
    dt::rt().on_task = std::move(observer);
}
const char* current_task_name() {
    if (sc_get_status() != SC_RUNNING)
        return nullptr;
    sc_process_handle h = sc_get_current_process_handle();
    if (!h.valid())
        return nullptr;
    const dt::runtime& r = dt::rt();
    auto it = r.adopted.find(h.get_process_object());
    return it == r.adopted.end() ? nullptr : it->second->name.c_str();
}
void set_abort_mode(abort_mode mode) {
    dt::rt().on_abort = mode;
}
bool aborted() {
    return dt::rt().aborted;
}
const std::string& abort_message() {
    return dt::rt().abort_message;
}

} // namespace nicsim::lx_kit

// ---- C API: tasks ------------------------------------------------------------------------------

extern "C" {

struct lx_kit_task* lx_kit_task_create(const char* name, lx_kit_task_fn fn, void* arg) {
    dt::runtime& r = dt::rt();
    r.tasks.push_back(std::make_unique<lx_kit_task>());
    lx_kit_task* t = r.tasks.back().get();
    t->name = name ? name : "task";
    t->can_block = true;
    t->fn = fn;
    t->arg = arg;
    // SystemC object names may not contain '.', ' ' or other separators; keep the kernel name in
    // the task record and give the process a sanitised unique one.
    std::string pname = "lx_";
    for (char c : t->name)
        pname += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
    pname += "_" + std::to_string(r.spawn_count++);
    nicsim::local_time::sync(); // the new process starts at its creator's time
    sc_spawn_options opts;
    sc_process_handle h = sc_spawn(
        [t] {
            dt::trace_task(t, lk::task_state::running);
            t->fn(t->arg);
            dt::trace_task(t, lk::task_state::exited);
            // The process object may be deleted and its address reused by a later process.
            dt::runtime& rt = dt::rt();
            const sc_object* key = sc_get_current_process_handle().get_process_object();
            rt.adopted.erase(key);
            if (rt.last_key == key)
                rt.last_key = nullptr;
        },
        pname.c_str(), &opts);
    r.adopted[h.get_process_object()] = t;
    if (r.last_key == h.get_process_object())
        r.last_key = nullptr;
    return t;
}

struct lx_kit_task* lx_kit_task_current(void) {
    return dt::current();
}
const char* lx_kit_task_name(const struct lx_kit_task* t) {
    return t->name.c_str();
}
int lx_kit_task_can_block(const struct lx_kit_task* t) {
    return t->can_block;
}
void lx_kit_task_set_rt(struct lx_kit_task* t, int rt) {
    t->rt = rt != 0;
}
int lx_kit_task_is_rt(const struct lx_kit_task* t) {
    return t && t->rt;
}
void* lx_kit_task_data(const struct lx_kit_task* t) {
    return t->data;
}
void lx_kit_task_set_data(struct lx_kit_task* t, void* data) {
    t->data = data;
}
void* lx_kit_task_real_data(const struct lx_kit_task* t) {
    return t->real_data;
}
void lx_kit_task_set_real_data(struct lx_kit_task* t, void* data) {
    t->real_data = data;
}
int* lx_kit_task_atomic_depth(struct lx_kit_task* t) {
    return &t->atomic_depth;
}

void lx_kit_task_wake(struct lx_kit_task* t) {
    if (t->wakeable) {
        nicsim::local_time::sync(); // the wake-up happens at the waker's time
        t->woken = true;
        t->block_ev.notify();
    }
}

// ---- wait handles ------------------------------------------------------------------------------

struct lx_kit_wait* lx_kit_wait_alloc(const char* what) {
    dt::runtime& r = dt::rt();
    lx_kit_wait* w;
    if (!r.free_waits.empty()) {
        w = r.free_waits.back();
        r.free_waits.pop_back();
    } else {
        r.waits.push_back(std::make_unique<lx_kit_wait>());
        w = r.waits.back().get();
    }
    w->what = what ? what : "wait";
    w->in_pool = false;
    return w;
}

void lx_kit_wait_free(struct lx_kit_wait* w) {
    if (!w)
        return;
    if (!w->queue.empty())
        lx_kit_abort("freeing wait handle '%s' while %zu task(s) wait on it (first: %s)",
                     w->what.c_str(), w->queue.size(), w->queue.front()->task->name.c_str());
    if (w->in_pool)
        return;
    w->in_pool = true;
    dt::rt().free_waits.push_back(w);
}

static int wait_common(lx_kit_wait* w, int64_t timeout_ns, const char* why, bool spin,
                       dt::resume how, bool first = false) {
    lx_kit_task* t = dt::current();
    dt::require_blockable(t, why, !spin);
    if (w->in_pool)
        lx_kit_abort("%s: waiting on a freed wait handle ('%s')", why, w->what.c_str());
    nicsim::local_time::sync(); // before the trace and the queue see this task wait
    waiter me{t};
    if (first)
        w->queue.push_front(&me);
    else
        w->queue.push_back(&me);
    // The code that ran up to here, on the CPU. Charging may wait for a core and let others
    // run: the task is already queued, so a wake-up meanwhile is kept (me.notified) and the
    // task does not block, as a task that is woken before it reaches schedule().
    dt::charge_code();
    nicsim::local_time::sync();
    const uint64_t start = dt::now_ns();
    const sc_time start_t = sc_time_stamp();
    if (!me.notified) {
        dt::trace_task(t, spin ? lk::task_state::busy : lk::task_state::blocked, why,
                       w->what.c_str());
        dt::block_current(t, timeout_ns, how);
        dt::trace_task(t, lk::task_state::running);
    }
    if (!me.notified) {
        for (auto it = w->queue.begin(); it != w->queue.end(); ++it)
            if (*it == &me) {
                w->queue.erase(it);
                break;
            }
    }
    if (spin) {
        const uint64_t ns = dt::now_ns() - start;
        t->busy_ns += ns;
        dt::rt().busy_total += ns;
        if (dt::rt().on_busy && ns)
            dt::rt().on_busy(t->name.c_str(), start_t, ns);
    }
    return me.notified ? 0 : 1;
}

int lx_kit_wait_block(struct lx_kit_wait* w, int64_t timeout_ns, const char* why) {
    return wait_common(w, timeout_ns, why, false, dt::resume::scheduled);
}

int lx_kit_wait_block_first(struct lx_kit_wait* w, int64_t timeout_ns, const char* why) {
    return wait_common(w, timeout_ns, why, false, dt::resume::scheduled, true);
}

int lx_kit_wait_block_unscheduled(struct lx_kit_wait* w, int64_t timeout_ns, const char* why) {
    return wait_common(w, timeout_ns, why, false, dt::resume::unscheduled);
}

int lx_kit_wait_spin(struct lx_kit_wait* w, const char* why) {
    return wait_common(w, -1, why, true, dt::resume::unscheduled);
}

struct lx_kit_task* lx_kit_wait_notify_one(struct lx_kit_wait* w) {
    if (w->queue.empty())
        return nullptr;
    nicsim::local_time::sync(); // the wake-up happens at the notifier's time
    waiter* me = w->queue.front();
    w->queue.pop_front();
    me->notified = true;
    me->task->block_ev.notify();
    return me->task;
}

struct lx_kit_task* lx_kit_wait_first(const struct lx_kit_wait* w) {
    return w->queue.empty() ? nullptr : w->queue.front()->task;
}

unsigned lx_kit_cpu_cores(void) {
    return dt::rt().params.cores;
}

unsigned lx_kit_wait_notify_all(struct lx_kit_wait* w) {
    unsigned n = 0;
    while (lx_kit_wait_notify_one(w))
        n++;
    return n;
}

unsigned lx_kit_wait_count(const struct lx_kit_wait* w) {
    return static_cast<unsigned>(w->queue.size());
}

// ---- time --------------------------------------------------------------------------------------

uint64_t lx_kit_now_ns(void) {
    return dt::now_ns();
}

void lx_kit_time_sync(void) {
    dt::charge_code();
    nicsim::local_time::sync();
}

void lx_kit_time_charge(void) {
    dt::charge_code();
}

int lx_kit_sleep_ns(uint64_t ns) {
    lx_kit_task* t = dt::current();
    dt::require_blockable(t, "sleep", true);
    nicsim::local_time::sync();
    t->wakeable = true;
    t->woken = false;
    dt::charge_code(); // may let others run: a wake-up meanwhile is kept in t->woken
    nicsim::local_time::sync();
    if (ns == 0) {
        wait(SC_ZERO_TIME);
    } else if (!t->woken) {
        dt::trace_task(t, lk::task_state::sleeping, "sleep");
        if (ns >= LX_KIT_MAX_TIMEOUT_NS)
            dt::block_current(t, -1);
        else
            dt::block_current(t, static_cast<int64_t>(ns));
        dt::trace_task(t, lk::task_state::running);
    }
    t->wakeable = false;
    return t->woken ? 0 : 1;
}

void lx_kit_sleep_until_ns(uint64_t abs_ns) {
    lx_kit_task* t = dt::current();
    dt::require_blockable(t, "sleep", true);
    dt::charge_code();
    nicsim::local_time::sync();
    const uint64_t now = dt::now_ns();
    if (abs_ns <= now) {
        wait(SC_ZERO_TIME);
        return;
    }
    dt::trace_task(t, lk::task_state::sleeping, "sleep until");
    wait(dt::ns_time(abs_ns - now));
    dt::charge_context_switch(); // the timer woke it: switched back in
    dt::trace_task(t, lk::task_state::running);
}

void lx_kit_busy_wait_ns(uint64_t ns) {
    lx_kit_task* t = dt::current();
    // Busy-waiting is allowed in atomic context (udelay under a spinlock).
    dt::require_blockable(t, "busy-wait (udelay/mdelay)", false);
    if (ns == 0)
        return;
    dt::charge_code();
    const sc_time start = nicsim::local_time::now();
    dt::trace_task(t, lk::task_state::busy, "busy-wait");
    nicsim::local_time::advance(dt::ns_time(ns)); // decoupled when nobody can see it
    dt::trace_task(t, lk::task_state::running);
    t->busy_ns += ns;
    dt::rt().busy_total += ns;
    if (dt::rt().on_busy)
        dt::rt().on_busy(t->name.c_str(), start, ns);
}

void lx_kit_yield(void) {
    lx_kit_task* t = dt::current();
    dt::require_blockable(t, "schedule()", true);
    const uint64_t q = lx_kit_yield_quantum_ns();
    nicsim::local_time::sync();
    t->wakeable = true;
    t->woken = false;
    dt::charge_code(); // may let others run: a wake-up meanwhile is kept in t->woken
    nicsim::local_time::sync();
    if (!t->woken) {
        dt::trace_task(t, lk::task_state::sleeping, "schedule()");
        dt::block_current(t, static_cast<int64_t>(q));
        dt::trace_task(t, lk::task_state::running);
    }
    t->wakeable = false;
}

unsigned lx_kit_hz(void) {
    return dt::rt().params.hz;
}
uint64_t lx_kit_usleep_slack_ns(void) {
    return dt::rt().params.usleep_slack_ns;
}
uint64_t lx_kit_yield_quantum_ns(void) {
    const lk::parameters& p = dt::rt().params;
    return p.yield_quantum_ns ? p.yield_quantum_ns : 1000000000ull / p.hz;
}
uint64_t lx_kit_irq_latency_ns(void) {
    const lk::parameters& p = dt::rt().params;
    return p.irq_latency_sample ? p.irq_latency_sample() : p.irq_latency_ns;
}

namespace {
void charge_hardirq() {
    dt::require_blockable(dt::current(), "IRQ entry", true);
    dt::charge_code();
    dt::runtime& r = dt::rt();
    if (r.on_cpu && r.params.hardirq_ns) {
        const uint64_t ps = r.params.hardirq_ns * 1000;
        r.cpu_acct.hardirqs++;
        r.cpu_acct.hardirq_ps += ps;
        r.on_cpu(ps);
    }
}
} // namespace

void lx_kit_irq_charge(void) {
    charge_hardirq();
    dt::charge_context_switch(); // into the thread that handles it
}

void lx_kit_hardirq_enter(void) {
    charge_hardirq();
    nicsim::local_time::sync(); // the handler runs now, as the line's monitor saw it
}

void lx_kit_irq_enter(void) {
    lx_kit_task* t = dt::current();
    dt::charge_code();
    nicsim::local_time::sync();
    const sc_time start = sc_time_stamp();
    const uint64_t latency = lx_kit_irq_latency_ns();
    lx_kit_irq_charge();
    if (latency) {
        dt::trace_task(t, lk::task_state::sleeping, "sleep until");
        dt::wait_until(start + dt::ns_time(latency));
        dt::trace_task(t, lk::task_state::running);
    } else {
        nicsim::local_time::sync();
    }
}
size_t lx_kit_skb_tail_slack(void) {
    return dt::rt().params.skb_tail_slack;
}

// ---- abort -------------------------------------------------------------------------------------

void lx_kit_abort(const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    dt::runtime& r = dt::rt();
    const bool running = sc_get_status() == SC_RUNNING;
    std::fprintf(stderr, "nicsim: %s", buf);
    if (running)
        std::fprintf(stderr, " [t=%s, task %s]", sc_time_stamp().to_string().c_str(),
                     dt::current()->name.c_str());
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    std::fflush(stdout);
    if (!r.aborted) {
        r.aborted = true;
        r.abort_message = buf;
    }
    lx_kit_task* t = running ? dt::current() : nullptr;
    if (r.on_abort == lk::abort_mode::stop_simulation && t && t->can_block) {
        nicsim::local_time::sync(); // the run ends at the aborting task's time
        sc_stop();
        for (;;)
            wait(t->block_ev); // parked forever: the run is over
    }
    std::_Exit(LX_KIT_ABORT_EXIT_CODE);
}

} // extern "C"

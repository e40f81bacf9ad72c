// SPDX-License-Identifier: MIT
// lx_kit C++ API for the testbench: platform/kernel parameters, interrupt sources, the log sink,
// CPU busy-time accounting and the abort policy. The kernel-side C API is lx_kit/lx_kit.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

namespace nicsim::lx_kit {

// Kernel and platform parameters. Set before the run (changing HZ mid-run is not supported).
struct parameters {
    unsigned hz = 250; // CONFIG_HZ of Debian's arm64/amd64 kernels
    // usleep_range(min, max) wakes at min + slack, clipped to max. Default: at max — an isolated
    // hrtimer fires at its hard expiry (min + (max - min)); assumption, calibrate per platform.
    uint64_t usleep_slack_ns = UINT64_MAX;
    // schedule() in TASK_RUNNING state gives the CPU away for this long (or until woken).
    // 0 = one jiffy (1 s / hz). Assumption: another runnable task gets a full tick.
    uint64_t yield_quantum_ns = 0;
    // Delay between an interrupt line becoming active and the handler starting (hard IRQ entry,
    // thread wake-up). Platform parameter; 0 = ideal. irq_latency_sample, when set, replaces it
    // with one draw per interrupt (seeded timing variation).
    uint64_t irq_latency_ns = 0;
    std::function<uint64_t()> irq_latency_sample;
    // Delay between a blocked task being woken (complete(), wake_up(), mutex_unlock, queue_work)
    // and it running again when a core is free: one draw per wake-up; empty = none.
    std::function<uint64_t()> wakeup_latency_sample;
    // Cores of the board's CPU. On one core a woken task runs only when the running one blocks
    // or is preempted: a real-time task that releases a mutex runs on and can take it again
    // before the woken waiter runs (lx_emul/lock.c).
    unsigned cores = 1;
    // CPU time (charged through the cpu hook, kernel class) of work the emulation runs natively:
    // - one basic block of driver code (the driver objects are built with
    //   -fsanitize-coverage=trace-pc, so every block they execute is counted), in picoseconds;
    uint64_t ps_per_block = 0;
    // - one context switch into a task that blocked or slept (schedule(), __switch_to);
    uint64_t context_switch_ns = 0;
    // - one hard interrupt: entry, the primary handler that wakes the IRQ thread, exit.
    uint64_t hardirq_ns = 0;
    // Writable bytes past skb->end before the tail canary (allocator rounding of a real kernel;
    // ks8851_par writes 2 bytes past its RX buffer). Assumption: 8.
    size_t skb_tail_slack = 8;
    // Lines with level <= log_level are printed (kernel console_loglevel semantics minus one:
    // 6 prints KERN_INFO and more severe). All lines are counted regardless.
    int log_level = 6;
};
parameters& params();

// An interrupt line as lx_emul sees it: its electrical level and an event on every change.
// The testbench adapts the bus IRQ line to this; the trigger type (edge/level, polarity) comes
// from the driver's request_threaded_irq flags.
class irq_source {
  public:
    virtual ~irq_source() = default;
    virtual bool level() const = 0;
    virtual const sc_core::sc_event& changed() const = 0;
    // Optional edge counters: a source that counts edges lets edge triggers see pulses shorter
    // than a delta cycle (the level alone would show no change). Default: level only.
    virtual bool counts_edges() const { return false; }
    virtual uint64_t rising_edges() const { return 0; }
    virtual uint64_t falling_edges() const { return 0; }
};

// Binds `irq` (the number the driver passes to request_threaded_irq) to `src` (not owned; must
// outlive the run). Register before the driver requests the IRQ. `configured_trigger` is the
// trigger type the board's device tree gives the line (interrupts = <... IRQ_TYPE_*>, set by
// irq_of_parse_and_map at boot; LX_KIT_IRQ_* values): a request_irq without trigger flags keeps
// it, as the kernel's __setup_irq does. 0 = none configured.
void register_irq(int irq, irq_source& src, unsigned configured_trigger = 0);
void unregister_irq(int irq);

// Log records. The default sink prints "[ssss.uuuuuu] <text>" to stderr for level <= log_level.
struct log_record {
    sc_core::sc_time time;
    int level;          // 0..7
    std::string origin; // KBUILD_MODNAME or lx_emul subsystem
    std::string text;   // without trailing newline
};
using log_sink = std::function<void(const log_record&)>;
void set_log_sink(log_sink sink); // empty function restores the default
// Observers see every record before the sink does (reports collect driver errors this way
// while tests or the CLI choose the sink). Returns an id for remove_log_observer.
int add_log_observer(log_sink observer);
void remove_log_observer(int id);
unsigned long log_count(int level);

// Busy-wait accounting (udelay/mdelay/ndelay, spinning on a contended spinlock): called with
// the task name, start time and duration. A platform model may charge host CPU time here.
using busy_hook = std::function<void(const char* task, sc_core::sc_time start, uint64_t ns)>;
void set_busy_hook(busy_hook hook);
uint64_t busy_ns_total();

// CPU time of kernel work the emulation runs natively (driver code, context switches, hard
// interrupts; see parameters): called from the task that does the work, at its local time, which
// the hook advances by `ps` while it holds a core (kernel class). Empty: the work is free.
using cpu_hook = std::function<void(uint64_t ps)>;
void set_cpu_hook(cpu_hook hook);
// The board powers on: driver code counted so far (the variants' static constructors registering
// module_init, module_param and drivers before main(), which the kernel does at link time) ran
// on no board, so it is neither charged nor counted in cpu_accounts().driver_blocks.
void forget_code_before_power_on();
// What the cpu hook was given, by part, since the start of the process.
struct cpu_accounting {
    uint64_t driver_blocks = 0;  // basic blocks of driver code executed
    uint64_t driver_code_ps = 0; // their CPU time
    uint64_t context_switches = 0;
    uint64_t context_switch_ps = 0;
    uint64_t hardirqs = 0;
    uint64_t hardirq_ps = 0;
};
const cpu_accounting& cpu_accounts();
// Charges the driver code the calling thread ran since the last charge: for the bus bridges and
// the testbench's netdev callbacks (netif_rx, the skb destructor), before they act on it.
void charge_driver_code();

// Task state changes, for timelines (trace/). The observer is called synchronously at
// the simulated time of the change (sc_time_stamp()) with the state the task enters. With no
// observer set the runtime pays one empty check per change. Zero-length states are not reported
// (a sleep of 0 ns, a busy-wait of 0 ns).
enum class task_state {
    running,  // executing kernel code (may also be inside a bus transfer or a CPU-time charge)
    blocked,  // on a wait handle: why = primitive ("mutex_lock", "wait_for_completion", ...),
              // what = kind of object ("mutex", "completion", "irq line", "workqueue done", ...)
    sleeping, // timed sleep or yield: why = "sleep", "sleep until", "schedule()"
    busy,     // busy-wait (udelay/mdelay, contended spinlock): why = "busy-wait" or the primitive
    exited,   // the task function returned
};
struct task_event {
    const void* task;      // identity of the task, stable for the whole run
    const char* name;      // kernel task name ("wlan0-tx", "irq/1-wlan0", "kworker/events:0")
    task_state state;      // the state entered
    const char* why = "";  // see task_state
    const char* what = ""; // blocked only
};
using task_observer = std::function<void(const task_event&)>;
void set_task_observer(task_observer observer); // empty function removes it
// Name of the lx_kit task the calling SystemC thread runs as, or nullptr if it is none yet.
// Unlike lx_kit_task_current() this never adopts the thread (no side effect on the runtime).
const char* current_task_name();

// What lx_kit_abort does after printing: exit the process (default, exit code
// LX_KIT_ABORT_EXIT_CODE), or stop the simulation (sc_stop) and park the calling thread so the
// harness can write a report; then aborted() is true and abort_message() says why.
enum class abort_mode { exit_process, stop_simulation };
void set_abort_mode(abort_mode mode);
bool aborted();
const std::string& abort_message();

} // namespace nicsim::lx_kit

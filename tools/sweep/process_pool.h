// SPDX-License-Identifier: MIT
//
// Runs command lines as child processes, at most N at once (a SystemC simulation cannot be
// restarted inside one process, so every sweep or validation point is its own process).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace nicsim::sweep {

struct job {
    std::vector<std::string> argv; // argv[0] is the executable path
    // Wall-clock limit (0: none). A job still running then gets SIGTERM (a `nicsim run` ends at
    // its next time slice, writing its report so far), and SIGKILL k_kill_grace_s later.
    double timeout_s = 0;
};

inline constexpr double k_kill_grace_s = 10;

struct job_result {
    int exit_code = 0;       // exit status, or 128 + signal when killed by a signal
    int signal = 0;          // terminating signal, 0 when it exited
    std::string stderr_text; // the child's stderr, at most its last 8 KiB
    double wall_s = 0;       // wall-clock time of the process (progress/ETA only)
    bool timed_out = false;  // stopped by this pool at job::timeout_s
};

// Calls on_done(index, result) on the calling thread as each job ends (in completion order), and
// tick() about ten times a second while jobs run. A job that cannot be started reports exit code
// 127 with the reason in stderr_text. Children get SIGKILL if this process dies (so a killed sweep
// leaves no orphan simulations); their stdout is discarded.
void run_jobs(const std::vector<job>& jobs, unsigned max_parallel,
              const std::function<void(size_t, const job_result&)>& on_done,
              const std::function<void()>& tick = {});

// Absolute path of the running executable (/proc/self/exe).
std::string self_exe();

// Default parallelism: the number of hardware threads (at least 1).
unsigned default_jobs();

} // namespace nicsim::sweep

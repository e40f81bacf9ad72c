// SPDX-License-Identifier: MIT
#include "tools/sweep/process_pool.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace nicsim::sweep {
namespace {

constexpr size_t k_stderr_keep = 8192;

struct running {
    size_t index;
    pid_t pid;
    int err_fd; // the job's stderr: a file without a name (see stderr_capture)
    std::chrono::steady_clock::time_point start;
    bool terminated = false; // SIGTERM sent at the job's timeout
    std::chrono::steady_clock::time_point terminated_at;
};

// SIGTERM to a job past its timeout, SIGKILL to one that outlived the grace after it.
void enforce_timeout(running& r, double timeout_s, std::chrono::steady_clock::time_point now) {
    if (timeout_s <= 0)
        return;
    const double age = std::chrono::duration<double>(now - r.start).count();
    if (!r.terminated && age > timeout_s) {
        kill(r.pid, SIGTERM);
        r.terminated = true;
        r.terminated_at = now;
    } else if (r.terminated &&
               std::chrono::duration<double>(now - r.terminated_at).count() > k_kill_grace_s) {
        kill(r.pid, SIGKILL);
    }
}

// Reads the last k_stderr_keep bytes a job wrote to `fd` (from offset 0: pread).
std::string read_tail(int fd) {
    std::string out;
    char buf[4096];
    off_t at = 0;
    ssize_t n;
    while ((n = pread(fd, buf, sizeof buf, at)) > 0) {
        out.append(buf, static_cast<size_t>(n));
        at += n;
        if (out.size() > 2 * k_stderr_keep)
            out.erase(0, out.size() - k_stderr_keep);
    }
    if (out.size() > k_stderr_keep)
        out = "..." + out.substr(out.size() - k_stderr_keep);
    return out;
}

// A temporary file for a job's stderr, unlinked at once and held by its descriptor only: it
// disappears with the last descriptor, so a sweep that is killed (SIGKILL, a CI timeout) leaves
// nothing in TMPDIR. Close-on-exec, so other jobs' children do not inherit it; the job's own
// child gets it as fd 2 through dup2, which clears the flag.
int stderr_capture() {
    const char* tmp = std::getenv("TMPDIR");
    std::string t = std::string(tmp && *tmp ? tmp : "/tmp") + "/nicsim-job-XXXXXX";
    std::vector<char> buf(t.begin(), t.end());
    buf.push_back('\0');
    const int fd = mkostemp(buf.data(), O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("cannot create a temporary file in " + t + ": " +
                                 std::strerror(errno));
    unlink(buf.data());
    return fd;
}

// fork + exec; the child only makes async-signal-safe calls before exec.
pid_t start(const job& j, int err_fd) {
    std::vector<char*> argv;
    for (const auto& a : j.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid != 0)
        return pid; // parent (or -1)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDOUT_FILENO);
    if (err_fd >= 0)
        dup2(err_fd, STDERR_FILENO);
    execv(argv[0], argv.data());
    const char* msg = "cannot execute the simulator: ";
    (void)!write(STDERR_FILENO, msg, std::strlen(msg));
    const char* why = std::strerror(errno);
    (void)!write(STDERR_FILENO, why, std::strlen(why));
    _exit(127);
}

} // namespace

std::string self_exe() {
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        throw std::runtime_error(std::string("cannot read /proc/self/exe: ") +
                                 std::strerror(errno));
    return std::string(buf, static_cast<size_t>(n));
}

unsigned default_jobs() {
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

void run_jobs(const std::vector<job>& jobs, unsigned max_parallel,
              const std::function<void(size_t, const job_result&)>& on_done,
              const std::function<void()>& tick) {
    if (max_parallel == 0)
        max_parallel = 1;
    std::vector<running> live;
    size_t next = 0;
    auto last_tick = std::chrono::steady_clock::now();
    while (next < jobs.size() || !live.empty()) {
        while (next < jobs.size() && live.size() < max_parallel) {
            running r{next, -1, stderr_capture(), std::chrono::steady_clock::now(), false, {}};
            r.pid = start(jobs[next], r.err_fd);
            if (r.pid < 0) {
                job_result res;
                res.exit_code = 127;
                res.stderr_text = std::string("cannot fork: ") + std::strerror(errno);
                close(r.err_fd);
                on_done(next, res);
            } else {
                live.push_back(r);
            }
            ++next;
        }
        bool reaped = false;
        for (size_t i = 0; i < live.size();) {
            int status = 0;
            const pid_t w = waitpid(live[i].pid, &status, WNOHANG);
            if (w == 0 || (w < 0 && errno == EINTR)) {
                enforce_timeout(live[i], jobs[live[i].index].timeout_s,
                                std::chrono::steady_clock::now());
                ++i;
                continue;
            }
            job_result res;
            res.timed_out = live[i].terminated;
            if (w < 0) {
                res.exit_code = 127;
                res.stderr_text = std::string("waitpid: ") + std::strerror(errno);
            } else if (WIFEXITED(status)) {
                res.exit_code = WEXITSTATUS(status);
            } else if (WIFSIGNALED(status)) {
                res.signal = WTERMSIG(status);
                res.exit_code = 128 + res.signal;
            }
            res.wall_s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - live[i].start)
                    .count();
            if (res.stderr_text.empty())
                res.stderr_text = read_tail(live[i].err_fd);
            close(live[i].err_fd);
            const size_t index = live[i].index;
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
            on_done(index, res);
            reaped = true;
        }
        const auto now = std::chrono::steady_clock::now();
        if (tick && now - last_tick >= std::chrono::milliseconds(100)) {
            tick();
            last_tick = now;
        }
        if (!reaped && !live.empty())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace nicsim::sweep

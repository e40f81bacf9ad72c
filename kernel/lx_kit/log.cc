// SPDX-License-Identifier: MIT
// lx_kit logging: one sink for every kernel log line, stamped with simulated time so the run log
// is deterministic; per-level counters for reports and tests.
#include <utility>
#include <vector>
#include "runtime.h"

#include <cstdio>

#include "bus/common/local_time.h"

using namespace sc_core;
namespace lk = nicsim::lx_kit;

namespace {

struct log_state {
    lk::log_sink sink;
    unsigned long counts[8] = {};
    bool line_open = false; // last printed line may receive KERN_CONT text
    std::vector<std::pair<int, lk::log_sink>> observers; // see add_log_observer
    int next_observer_id = 0;
};

log_state& state() {
    static log_state* s = new log_state; // never destroyed, like the runtime
    return *s;
}

void default_sink(const lk::log_record& r) {
    if (r.level > lk::params().log_level)
        return;
    const uint64_t ns = lk::detail::now_ns();
    std::fprintf(stderr, "[%5llu.%06llu] %s\n", static_cast<unsigned long long>(ns / 1000000000ull),
                 static_cast<unsigned long long>((ns / 1000ull) % 1000000ull), r.text.c_str());
}

} // namespace

namespace nicsim::lx_kit {

int add_log_observer(log_sink observer) {
    auto& s = state();
    s.observers.emplace_back(++s.next_observer_id, std::move(observer));
    return s.next_observer_id;
}

void remove_log_observer(int id) {
    auto& obs = state().observers;
    for (auto it = obs.begin(); it != obs.end(); ++it)
        if (it->first == id) {
            obs.erase(it);
            return;
        }
}

void set_log_sink(log_sink sink) {
    state().sink = std::move(sink);
}
unsigned long log_count(int level) {
    return level >= 0 && level < 8 ? state().counts[level] : 0;
}

} // namespace nicsim::lx_kit

extern "C" {

void lx_kit_log(int level, const char* origin, const char* msg) {
    log_state& s = state();
    if (level < 0 || level > 7)
        level = 4; // the kernel's default message level
    s.counts[level]++;
    lk::log_record r{nicsim::local_time::now(), level, origin ? origin : "", msg ? msg : ""};
    while (!r.text.empty() && r.text.back() == '\n')
        r.text.pop_back();
    for (const auto& [id, observer] : s.observers)
        observer(r);
    if (s.sink)
        s.sink(r);
    else
        default_sink(r);
}

void lx_kit_log_cont(const char* msg) {
    // Continuations are logged as their own record at KERN_DEFAULT severity with a marker, which
    // keeps sinks line-oriented; drivers rarely use pr_cont.
    lk::log_record r{nicsim::local_time::now(), 4, "cont", msg ? msg : ""};
    while (!r.text.empty() && r.text.back() == '\n')
        r.text.pop_back();
    if (r.text.empty())
        return;
    r.text = "  (cont) " + r.text;
    log_state& s = state();
    if (s.sink)
        s.sink(r);
    else
        default_sink(r);
}

unsigned long lx_kit_log_count(int level) {
    return lk::log_count(level);
}

} // extern "C"

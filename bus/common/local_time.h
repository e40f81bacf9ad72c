// SPDX-License-Identifier: MIT
// TLM-2.0 temporal decoupling for the running SystemC thread: a local time offset ahead of
// sc_time_stamp(), in the spirit of tlm_utils::tlm_quantumkeeper, but exact.
//
// An initiator (a driver thread doing ioread16, a CPU charge, a busy-wait) calls advance(t)
// instead of wait(t). The time is consumed locally, without a context switch, only when no other
// process can run before the new local time: nothing is runnable now, no event (timed or delta)
// is due at or before it, it stays below the end of the current sc_start() slice, and below the
// quantum. Then running ahead cannot be observed: no other process runs in between, in exact
// mode or not. Otherwise advance() waits for the whole offset, as exact mode would.
//
// Rule for every caller: before anything another process can see or change (waiting, notifying
// an event, reading sc_time_stamp() for a decision, handing a frame over, sc_stop) call sync(),
// or read now() instead of sc_time_stamp(). Targets called from a decoupled initiator (chip
// front-ends) do the same: sync() before a side effect that schedules events, now() for time.
// A process that yields with an unsynchronised offset is a bug; the next call here reports it.
//
// sim.quantum = 0 (set_quantum(SC_ZERO_TIME)) is the exact mode: every advance() waits.
#pragma once

#include <sstream>
#include <stdexcept>

#include <systemc>

namespace nicsim::local_time {

namespace detail {
// sc_time_stamp() without the call into libsystemc (its body is this inline accessor): the
// functions below run several times per bus access.
inline const sc_core::sc_time& stamp() {
    return sc_core::sc_get_curr_simcontext()->time_stamp();
}

struct state {
    sc_core::sc_time offset = sc_core::SC_ZERO_TIME; // of `owner`, ahead of `base`
    const sc_core::sc_process_b* owner = nullptr;
    sc_core::sc_time base = sc_core::SC_ZERO_TIME; // sc_time_stamp() when the offset was taken
    sc_dt::uint64 base_delta = 0;                  // sc_delta_count() then
    sc_core::sc_time quantum = sc_core::sc_time(1, sc_core::SC_MS);
    sc_core::sc_time horizon = sc_core::SC_ZERO_TIME; // end of the current sc_start() slice
    // How far an offset may grow before the next activity (exclusive), valid at (limit_at,
    // limit_delta) until the next sync(): nothing can be scheduled meanwhile, because only the
    // running process runs and it syncs before it notifies.
    sc_core::sc_time limit = sc_core::SC_ZERO_TIME;
    sc_core::sc_time limit_at = sc_core::SC_ZERO_TIME;
    sc_dt::uint64 limit_delta = ~sc_dt::uint64(0);
    unsigned long long local_advances = 0; // advance() calls that did not wait
    unsigned long long waits = 0;          // advance()/sync() calls that waited
    unsigned long long epoch = 0;          // bumped by every sync() and wait: room() is void
};
inline state s;

[[noreturn]] inline void yielded_unsynchronised() {
    std::ostringstream os;
    os << "local_time: a process yielded " << s.offset << " ahead of simulated time (taken at "
       << s.base << " by " << (s.owner ? s.owner->name() : "?")
       << "): it must call local_time::sync() before waiting";
    throw std::logic_error(os.str());
}

// The offset belongs to the running process and was taken in the current delta cycle.
inline void check_owner() {
    if (s.offset == sc_core::SC_ZERO_TIME)
        return;
    if (s.owner != sc_core::sc_get_current_process_b() || s.base != stamp() ||
        s.base_delta != sc_core::sc_delta_count())
        yielded_unsynchronised();
}
} // namespace detail

// The largest offset a process may run ahead; SC_ZERO_TIME is the exact mode.
inline void set_quantum(const sc_core::sc_time& q) {
    detail::s.quantum = q;
}
inline const sc_core::sc_time& quantum() {
    return detail::s.quantum;
}

// The running process's time: sc_time_stamp() plus its local offset.
inline sc_core::sc_time now() {
    detail::check_owner();
    return detail::stamp() + detail::s.offset;
}
inline const sc_core::sc_time& offset() {
    detail::check_owner();
    return detail::s.offset;
}

// Waits until sc_time_stamp() has caught up with the local time.
inline void sync() {
    detail::check_owner();
    auto& s = detail::s;
    ++s.epoch;
    s.limit_delta = ~sc_dt::uint64(0); // the caller may now notify: the limit is stale
    if (s.offset == sc_core::SC_ZERO_TIME)
        return;
    const sc_core::sc_time t = s.offset;
    s.offset = sc_core::SC_ZERO_TIME;
    s.owner = nullptr;
    ++s.waits;
    sc_core::wait(t);
}

// Notifies `ev` at the absolute time `at` (not before now()) without syncing: a timer armed
// ahead, as mod_timer is, which wakes nobody now. The caller may go on running ahead; it stops
// before `at` (the limit below sees the new notification), so it cannot be observed.
inline void notify_at(sc_core::sc_event& ev, const sc_core::sc_time& at) {
    detail::check_owner();
    if (at < detail::stamp() + detail::s.offset)
        throw std::logic_error("local_time::notify_at: a time before the caller's local time");
    detail::s.limit_delta = ~sc_dt::uint64(0); // a new activity: the limit is stale
    ev.notify(at - detail::stamp());
}

namespace detail {
// Brings `limit` up to date for the current time and delta; false outside sc_start().
inline bool refresh_limit(const sc_core::sc_time& now) {
    if (s.limit_delta == sc_core::sc_delta_count() && s.limit_at == now)
        return true;
    if (sc_core::sc_get_status() != sc_core::SC_RUNNING)
        return false;
    // Strictly before the next activity and the slice end: a tie would let the scheduler order
    // two processes differently from exact mode.
    const sc_core::sc_time pending = sc_core::sc_time_to_pending_activity();
    const sc_core::sc_time to_horizon = s.horizon > now ? s.horizon - now : sc_core::SC_ZERO_TIME;
    s.limit = pending < to_horizon ? pending : to_horizon;
    s.limit_at = now;
    s.limit_delta = sc_core::sc_delta_count();
    return true;
}
} // namespace detail

// Consumes `t` of the running process's time: locally when no other process can run before the
// new local time (see the file comment), else by waiting for the whole offset.
inline void advance(const sc_core::sc_time& t) {
    detail::check_owner();
    auto& s = detail::s;
    const sc_core::sc_time target = s.offset + t;
    if (target <= s.quantum) {
        const sc_core::sc_time now = detail::stamp();
        if (!detail::refresh_limit(now))
            goto wait_all;
        if (target < s.limit) {
            if (s.offset == sc_core::SC_ZERO_TIME) {
                s.owner = sc_core::sc_get_current_process_b();
                s.base = now;
                s.base_delta = sc_core::sc_delta_count();
            }
            s.offset = target;
            ++s.local_advances;
            return;
        }
    }
wait_all:
    s.offset = sc_core::SC_ZERO_TIME;
    s.owner = nullptr;
    s.limit_delta = ~sc_dt::uint64(0);
    ++s.waits;
    ++s.epoch;
    sc_core::wait(target);
}

// Bursts (a bus host streaming a FIFO, bus/par/par_host.cc): room() is the most the running
// process may now advance locally, in one step or several, as advance() would (SC_ZERO_TIME when
// the next advance() would wait). It counts as one local step. The caller then consumes it in
// per-access pieces with advance_in_room(), which only adds to the offset: the per-word checks
// are what makes a word-by-word FIFO loop slow. The room is valid while epoch() is unchanged (no
// sync() or wait since; a target that syncs voids it) and the pieces sum to at most room().
inline sc_core::sc_time room() {
    detail::check_owner();
    auto& s = detail::s;
    if (s.offset >= s.quantum)
        return sc_core::SC_ZERO_TIME;
    const sc_core::sc_time now = detail::stamp();
    if (!detail::refresh_limit(now) || s.limit <= s.offset)
        return sc_core::SC_ZERO_TIME;
    // advance(t) is local for offset + t <= quantum and offset + t < limit.
    const sc_core::sc_time below_limit = s.limit - s.offset - sc_core::sc_time::from_value(1);
    const sc_core::sc_time to_quantum = s.quantum - s.offset;
    const sc_core::sc_time r = below_limit < to_quantum ? below_limit : to_quantum;
    if (r == sc_core::SC_ZERO_TIME)
        return r;
    if (s.offset == sc_core::SC_ZERO_TIME) {
        s.owner = sc_core::sc_get_current_process_b();
        s.base = now;
        s.base_delta = sc_core::sc_delta_count();
    }
    ++s.local_advances;
    return r;
}
inline void advance_in_room(const sc_core::sc_time& t) {
    detail::s.offset += t;
}
inline unsigned long long epoch() {
    return detail::s.epoch;
}

// sc_start(step) with the slice end recorded, so no process runs ahead past it (a run that ends
// at the slice end must not contain accesses from beyond it).
inline void start(const sc_core::sc_time& step) {
    detail::s.horizon = sc_core::sc_time_stamp() + step;
    sc_core::sc_start(step);
    detail::s.horizon = sc_core::sc_time_stamp();
}

inline unsigned long long local_advances() {
    return detail::s.local_advances;
}
inline unsigned long long waits() {
    return detail::s.waits;
}

} // namespace nicsim::local_time

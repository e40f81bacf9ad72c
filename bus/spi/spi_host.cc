// SPDX-License-Identifier: MIT
#include "bus/spi/spi_host.h"

#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "bus/common/local_time.h"
#include "bus/spi/spi_bits.h"

namespace nicsim::spi {

spi_host::spi_host(const sc_core::sc_module_name& name, unsigned num_cs,
                   const spi_host_timing& timing, spi_host_mode mode)
    : sc_core::sc_module(name), spi_out("spi_out", num_cs),
      cs_n("cs_n", num_cs, [](const char* nm, size_t) { return new pin_signal(nm, true); }),
      sck("sck", false), mosi("mosi", false), miso("miso", false), m_timing(timing), m_mode(mode) {
    if (num_cs == 0)
        throw std::invalid_argument(std::string(this->name()) + ": num_cs = 0 (need >= 1)");
    // The wire grid is integer picoseconds; a coarser kernel resolution would round edges.
    if (sc_core::sc_get_time_resolution() > sc_core::sc_time(1.0, sc_core::SC_PS))
        throw std::logic_error(std::string(this->name()) +
                               ": SystemC time resolution must be 1 ps or finer");
}

void spi_host::wait_until(const sc_core::sc_time& abs) {
    const sc_core::sc_time now = local_time::now();
    if (abs > now)
        local_time::advance(abs - now); // locally, when no other process can run before `abs`
}

void spi_host::transfer(spi_payload& frame) {
    // Transaction mode runs ahead of SystemC time (bus/common/local_time.h): the frame's phases
    // advance the caller's local time and the slave answers at it (spi_sockets.h). The pin mode
    // drives signals other processes see, so it runs in exact time.
    if (m_mode != spi_host_mode::transaction)
        local_time::sync();
    const sc_core::sc_process_b* proc = sc_core::sc_get_current_process_b(); // no handle to count
    if (!proc || proc->proc_kind() != sc_core::SC_THREAD_PROC_)
        throw std::logic_error(std::string(name()) +
                               ": transfer() must be called from an SC_THREAD (it waits)");
    if (frame.cs >= num_cs())
        throw std::invalid_argument(
            std::string(name()) + ": spi frame cs = " + std::to_string(frame.cs) +
            " but the host has " + std::to_string(num_cs()) + " chip select(s)");
    // Schedules are reused (one per concurrent caller) to spare two allocations a frame. The
    // host owns them all (m_schedules), not the caller's stack: a thread still waiting in here
    // when the simulation ends is never unwound.
    if (m_free_schedules.empty()) {
        m_schedules.push_back(std::make_unique<spi_schedule>());
        m_free_schedules.push_back(m_schedules.back().get());
    }
    spi_schedule& s = *m_free_schedules.back();
    m_free_schedules.pop_back();
    struct give_back {
        spi_host& host;
        spi_schedule* p;
        ~give_back() { host.m_free_schedules.push_back(p); }
    } sched_back{*this, &s};
    m_schedule_cache.schedule(frame, m_timing, s); // throws before any time passes

    // The controller runs one message at a time, in arrival order.
    const uint64_t ticket = m_next_ticket++;
    if (ticket != m_serving)
        local_time::sync();
    while (ticket != m_serving)
        wait(m_idle);
    // Whatever happens below (a slave that throws, a killed thread), give back the caller's rx
    // pointers and the controller.
    struct release {
        spi_host& host;
        spi_payload& frame;
        ~release() {
            for (size_t i = 0; i < host.m_scratch.size() && i < frame.xfers.size(); ++i)
                if (!host.m_scratch[i].empty() && frame.xfers[i].rx == host.m_scratch[i].data())
                    frame.xfers[i].rx = nullptr;
            for (auto& b : host.m_scratch)
                b.clear();
            ++host.m_serving;
            // Only callers queued behind this one wait for m_idle; a caller arriving later
            // finds ticket == m_serving and does not wait, so without a queue there is no one
            // to notify (and no delta notification to pay for on every frame).
            if (host.m_next_ticket != host.m_serving) {
                if (std::uncaught_exceptions() == 0)
                    local_time::sync(); // a notification at the caller's own time
                host.m_idle.notify(sc_core::SC_ZERO_TIME);
            }
        }
    } guard{*this, frame};

    s.origin = local_time::now();
    frame.response = spi_response::ok;
    frame.error.clear();
    frame.miso_tail.clear();

    // Observers see every MISO bit: lend scratch rx buffers where the caller discards MISO.
    const bool observed = !m_observers.empty();
    if (observed) {
        m_scratch.resize(frame.xfers.size());
        for (size_t i = 0; i < frame.xfers.size(); ++i) {
            if (!frame.xfers[i].rx && frame.xfers[i].len) {
                m_scratch[i].assign(frame.xfers[i].len, 0);
                frame.xfers[i].rx = m_scratch[i].data();
            }
        }
    }

    if (m_mode == spi_host_mode::transaction)
        run_transaction(frame, s);
    else
        run_pins(frame, s);

    if (frame.response != spi_response::ok)
        ++m_stats.errors;
    ++m_stats.frames;
    m_stats.transfers += frame.xfers.size();
    m_stats.bytes += s.bytes;
    m_stats.pio_transfers += s.pio_transfers;
    m_stats.dma_transfers += s.dma_transfers;
    m_stats.wire_time += s.wire_time;
    m_stats.sck_time += s.sck_time;
    m_stats.pio_time += s.pio_time;
    m_stats.cpu_busy += s.cpu_busy;

    if (observed)
        for (spi_observer* o : m_observers)
            o->on_frame(frame, s);
}

void spi_host::run_transaction(spi_payload& frame, const spi_schedule& s) {
    // Software overheads before CS asserts, CS setup, transfers, gaps: nothing in transaction
    // mode observes the moment CS asserts, so one wait reaches the last shifted bit (one context
    // switch less per frame on the hot path).
    wait_until(s.origin + s.wire_end);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    spi_out[frame.cs]->b_transport(frame, delay);
    if (delay != sc_core::SC_ZERO_TIME)
        throw std::logic_error(std::string(spi_out[frame.cs].name()) +
                               ": the slave annotated a delay of " + delay.to_string() +
                               "; an SPI slave cannot stretch the clock (leave delay zero)");
    wait_until(s.origin + s.total); // delay_after, CS hold, CS inactive time
}

void spi_host::run_pins(spi_payload& frame, const spi_schedule& s) {
    const bool pol = cpol(frame.mode);
    const bool pha = cpha(frame.mode);
    pin_signal& cs = cs_n[frame.cs];

    // Pin steps that fall on the same instant (e.g. last SCK edge and CS deassert with zero hold
    // time) are two delta cycles apart: one for the host's write to reach the slave, one for the
    // slave's answer to settle, so the slave sees the steps in order and the host reads settled
    // pins.
    auto step = [&](const sc_core::sc_time& off) {
        const sc_core::sc_time abs = s.origin + off;
        if (abs > sc_core::sc_time_stamp()) { // pin mode: exact time, no local offset
            wait(abs - sc_core::sc_time_stamp());
        } else {
            wait(sc_core::SC_ZERO_TIME);
            wait(sc_core::SC_ZERO_TIME);
        }
    };

    for (const spi_cs_segment& seg : s.segments) {
        // MOSI level of the bit after (xi, k) inside this CS window, if there is one.
        auto next_bit = [&](size_t xi, uint64_t k, bool& v) {
            if (k + 1 < s.xfers[xi].bits) {
                v = mosi_bit(frame.xfers[xi], k + 1);
                return true;
            }
            for (size_t j = xi + 1; j <= seg.last_xfer; ++j)
                if (s.xfers[j].bits) {
                    v = mosi_bit(frame.xfers[j], 0);
                    return true;
                }
            return false;
        };

        step(seg.cs_assert);
        sck.write(pol); // idle level for this mode, before CS asserts
        step(seg.cs_assert);
        cs.write(false);
        bool v = false;
        if (!pha && next_bit(seg.first_xfer, UINT64_MAX, v)) // UINT64_MAX + 1 == 0: first bit
            mosi.write(v);

        for (size_t xi = seg.first_xfer; xi <= seg.last_xfer; ++xi) {
            const spi_xfer& x = frame.xfers[xi];
            const spi_xfer_schedule& xs = s.xfers[xi];
            for (uint64_t k = 0; k < xs.bits; ++k) {
                step(edge_time(xs, k, false)); // leading edge
                sck.write(!pol);
                if (pha)
                    mosi.write(mosi_bit(x, k));
                else
                    store_miso_bit(x, k, miso.read());
                step(edge_time(xs, k, true)); // trailing edge
                sck.write(pol);
                if (pha)
                    store_miso_bit(x, k, miso.read());
                else if (next_bit(xi, k, v))
                    mosi.write(v);
            }
        }

        step(seg.cs_deassert);
        frame.miso_tail.push_back(miso.read()); // what the slave left on MISO in this window
        cs.write(true);
        mosi.write(false);
    }
    wait_until(s.origin + s.total);
}

} // namespace nicsim::spi

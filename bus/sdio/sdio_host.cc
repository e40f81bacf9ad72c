// SPDX-License-Identifier: MIT
#include "bus/sdio/sdio_host.h"

#include <cerrno>
#include <exception>
#include <stdexcept>
#include <string>

#include "bus/common/local_time.h"

namespace nicsim::sdio {

int to_errno(const sdio_payload& p) {
    switch (p.response) {
    case sdio_response::ok:
        break;
    case sdio_response::no_response:
        return -ETIMEDOUT;
    case sdio_response::illegal:
        return -EINVAL;
    case sdio_response::out_of_range:
        return -ERANGE;
    case sdio_response::protocol_error:
        return -EIO;
    case sdio_response::crc_error:
        return -EILSEQ;
    }
    // The order mmc_io_rw_direct_host()/mmc_io_rw_extended() test the R5 flags in.
    if (p.r5_flags & r5_error)
        return -EIO;
    if (p.r5_flags & r5_function_number)
        return -EINVAL;
    if (p.r5_flags & r5_out_of_range)
        return -ERANGE;
    return 0;
}

sdio_host::sdio_host(const sc_core::sc_module_name& name, const sdio_host_timing& timing)
    : sc_core::sc_module(name), sdio_out("sdio_out"), m_timing(timing) {
    // The wire grid is integer picoseconds; a coarser kernel resolution would round edges.
    if (sc_core::sc_get_time_resolution() > sc_core::sc_time(1.0, sc_core::SC_PS))
        throw std::logic_error(std::string(this->name()) +
                               ": SystemC time resolution must be 1 ps or finer");
    validate_ios(m_clock_hz, m_bus_width, m_timing);
}

void sdio_host::set_ios(uint32_t clock_hz, unsigned bus_width) {
    try {
        validate_ios(clock_hz, bus_width, m_timing);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(name()) + ": set_ios: " + e.what());
    }
    m_clock_hz = clock_hz;
    m_bus_width = bus_width;
    m_irq_window.notify(sc_core::SC_ZERO_TIME); // 4 → 1 bit opens the interrupt window
}

void sdio_host::set_timing(const sdio_host_timing& t) {
    try {
        validate_ios(m_clock_hz, m_bus_width, t);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(name()) + ": set_timing: " + e.what());
    }
    m_timing = t;
}

void sdio_host::wait_until(const sc_core::sc_time& abs) {
    const sc_core::sc_time now = local_time::now();
    if (abs > now)
        local_time::advance(abs - now); // locally, when no other process can run before `abs`
}

void sdio_host::require_thread(const char* what) const {
    const sc_core::sc_process_b* proc = sc_core::sc_get_current_process_b(); // no handle to count
    if (!proc || proc->proc_kind() != sc_core::SC_THREAD_PROC_)
        throw std::logic_error(std::string(name()) + ": " + what +
                               "() must be called from an SC_THREAD (it waits)");
}

void sdio_host::bus_idle() {
    m_cmd_active = false;
    // The interrupt period begins: a pending interrupt is latched now, so a command that starts
    // at this same instant cannot hide it from a waiter that runs a delta cycle later.
    if (m_irq && m_irq->level()) {
        m_irq_latched = true;
        // Only a waiter in wait_card_irq() reads the latch (a new wait starts from the level),
        // so with none there is nothing to notify and no reason to leave local time: the
        // card's interrupt is pending through every command of the handler that serves it.
        if (m_irq_waiters > 0) {
            if (std::uncaught_exceptions() == 0)
                local_time::sync(); // the waiter sees the period begin at the command's own end
            m_irq_window.notify(sc_core::SC_ZERO_TIME);
        }
    }
}

void sdio_host::transfer(sdio_payload& p) {
    require_thread("transfer");
    // The phases run on the caller's local time (bus/common/local_time.h); the target socket
    // syncs before the card answers (sdio_sockets.h).
    try {
        validate_command(p); // throws before any time passes
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(name()) + ": " + e.what());
    }

    // The controller runs one request at a time, in arrival order.
    const uint64_t ticket = m_next_ticket++;
    if (ticket != m_serving)
        local_time::sync();
    while (ticket != m_serving)
        wait(m_idle);
    struct release {
        sdio_host& host;
        ~release() {
            if (host.m_cmd_active)
                host.bus_idle();
            ++host.m_serving;
            if (host.m_next_ticket != host.m_serving) {
                if (std::uncaught_exceptions() == 0)
                    local_time::sync();
                host.m_idle.notify(sc_core::SC_ZERO_TIME);
            }
        }
    } guard{*this};

    // The schedule lives in a host-owned pool, not on the caller's stack: a thread still waiting
    // in here when the simulation ends is never unwound, and its block vector would leak.
    if (m_free_schedules.empty()) {
        m_schedules.push_back(std::make_unique<sdio_schedule>());
        m_free_schedules.push_back(m_schedules.back().get());
    }
    sdio_schedule& s = *m_free_schedules.back();
    m_free_schedules.pop_back();
    struct give_back {
        sdio_host& host;
        sdio_schedule* p;
        ~give_back() { host.m_free_schedules.push_back(p); }
    } sched_back{*this, &s};

    const sc_core::sc_time origin = local_time::now();
    s = compute_schedule(p, m_clock_hz, m_bus_width, m_timing);
    if (origin + s.cmd_start < m_bus_free_at) // N_RC after the previous response
        s = compute_schedule(p, m_clock_hz, m_bus_width, m_timing,
                             m_bus_free_at - (origin + s.cmd_start));
    s.origin = origin;

    p.response = sdio_response::ok;
    p.r5_flags = 0;
    p.error.clear();

    wait_until(origin + s.cmd_start); // request overhead (+ DMA setup, + N_RC)
    m_cmd_active = true;
    wait_until(origin + s.card_at); // command, response, data blocks, CRC status
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    sdio_out->b_transport(p, delay);
    if (delay != sc_core::SC_ZERO_TIME)
        add_card_delay(s, delay);
    wait_until(origin + s.wire_end); // last busy (+ card delay)
    bus_idle();
    m_bus_free_at = origin + s.bus_free;

    if (p.response != sdio_response::ok || to_errno(p) != 0)
        ++m_stats.errors;
    if (p.is_cmd52()) {
        ++m_stats.cmd52;
        ++m_stats.data_bytes;
    } else {
        ++m_stats.cmd53;
        m_stats.blocks += p.data_blocks();
        m_stats.data_bytes += s.data_bytes;
        m_stats.dat_bytes += s.data_bytes;
        if (s.dma)
            ++m_stats.dma_commands;
        else
            ++m_stats.pio_commands;
    }
    m_stats.bus_busy += s.bus_time;
    m_stats.cpu_busy += s.cpu_busy;
    m_stats.pio_time += s.pio_time;

    wait_until(origin + s.total); // completion overhead
    for (sdio_observer* o : m_observers)
        o->on_command(p, s);
}

int sdio_host::cmd52(unsigned fn, bool write, unsigned addr, uint8_t& data, bool raw) {
    sdio_payload p;
    p.cmd = sdio_command::cmd52;
    p.write = write;
    p.fn = fn;
    p.addr = addr;
    p.raw = raw;
    p.data = &data;
    transfer(p);
    return to_errno(p);
}

int sdio_host::cmd53(unsigned fn, bool write, unsigned addr, bool incr_addr, bool block_mode,
                     unsigned count, unsigned blksz, uint8_t* buf) {
    sdio_payload p;
    p.cmd = sdio_command::cmd53;
    p.write = write;
    p.fn = fn;
    p.addr = addr;
    p.incr_addr = incr_addr;
    p.block_mode = block_mode;
    p.count = count;
    p.block_size = block_mode ? blksz : 0;
    p.data = buf;
    transfer(p);
    return to_errno(p);
}

void sdio_host::connect_card_irq(irq_line& line) {
    m_irq = &line;
    m_irq_latched = false;
}

void sdio_host::wait_card_irq() {
    require_thread("wait_card_irq");
    local_time::sync();
    if (!m_irq)
        throw std::logic_error(std::string(name()) +
                               ": wait_card_irq() but no card interrupt line is connected "
                               "(call connect_card_irq() first)");
    // Level-sensitive: what was latched before this call is superseded by the level now.
    m_irq_latched = false;
    bool deferred = false;
    for (;;) {
        if (m_irq->level() && card_irq_window_open())
            break;
        if (m_irq_latched) { // line was high when the interrupt period began
            deferred = true;
            break;
        }
        if (m_irq->level())
            deferred = true; // pending but the bus is busy (4-bit): wait for the period
        ++m_irq_waiters;
        wait(m_irq->posedge_event() | m_irq_window);
        --m_irq_waiters;
    }
    m_irq_latched = false;
    ++m_stats.card_irqs;
    if (deferred)
        ++m_stats.card_irqs_deferred;
    if (m_irq->level())
        m_stats.irq_latency += sc_core::sc_time_stamp() - m_irq->last_change();
}

} // namespace nicsim::sdio

// SPDX-License-Identifier: MIT
#include "host/board/board.h"

#include <cmath>

#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/lx_kit/runtime.h"
#include "host/board/atmel_spi_port.h"
#include "host/board/bcm2835_spi_port.h"
#include "host/board/generic_spi_port.h"
#include "host/board/spi_core_port.h"
#include "host/board/mmio16_port.h"
#include "host/board/sdio_controller_port.h"
#include "host/board/spi_clock_port.h"
#include "core/run_error.h"

namespace nicsim::board {

using sc_core::sc_time;

namespace {

// The chip-select window the parallel-bus device decodes (its offset bits). Assumption: 64 KiB
// covers any 16-bit Ethernet controller's register/data ports.
constexpr uint64_t par_window_size = 0x10000;

spi::spi_host_timing spi_timing_of(const config::spi_host_config& c) {
    spi::spi_host_timing t;
    t.per_message_overhead = sc_core::SC_ZERO_TIME; // charged on the CPU by the board's port
    t.per_transfer_overhead = to_sc(c.per_transfer_overhead);
    t.cs_setup = to_sc(c.cs_setup);
    t.cs_hold = to_sc(c.cs_hold);
    t.cs_inactive_min = to_sc(c.cs_inactive_min);
    t.inter_transfer_gap = to_sc(c.inter_transfer_gap);
    t.inter_word_gap_cycles = c.inter_word_gap_cycles;
    t.inter_word_gap = to_sc(c.inter_word_gap);
    t.dma_threshold_bytes = c.dma_threshold.bytes;
    t.dma_setup = to_sc(c.dma_setup);
    t.max_speed_hz = static_cast<uint32_t>(c.max_speed.hz);
    return t;
}

sdio::sdio_host_timing sdio_timing_of(const config::sdio_host_config& c) {
    sdio::sdio_host_timing t;
    // per_request_overhead is charged on the host CPU by sdio_controller_port.
    t.completion_overhead = to_sc(c.completion_overhead);
    t.per_block_overhead = to_sc(c.per_block_overhead);
    t.dma_threshold_bytes = c.dma_threshold.bytes;
    t.dma_setup = to_sc(c.dma_setup);
    t.max_clock_hz = static_cast<uint32_t>(c.max_clock.hz);
    return t;
}

par::par_timing par_timing_of(const config::par_bus_config& c) {
    par::par_timing t;
    t.bus_clock_hz = c.bus_clock.hz;
    t.issue_cycles = c.issue_cycles;
    t.addr_setup_cycles = c.addr_setup_cycles;
    t.read_strobe_cycles = c.read_strobe_cycles;
    t.write_strobe_cycles = c.write_strobe_cycles;
    t.hold_cycles = c.hold_cycles;
    t.recovery_cycles = c.recovery_cycles;
    return t;
}

} // namespace

net::latency_spec kernel_latency(config::duration median, config::duration p99,
                                 const config::kernel_timing& k) {
    net::latency_spec l;
    l.median = to_sc(median);
    l.p99 = p99.ps ? to_sc(p99) : l.median;
    l.preempt_share = k.preemption_share;
    l.preempt_burst = to_sc(k.preemption_burst);
    return l;
}

board::board(const config::platform_profile& profile)
    : m_pf(profile), m_cpu("cpu", profile.cpu.cores),
      m_par_window_base(profile.par_bus.window_base) {}

board::~board() {
    for (size_t i = 0; i < m_irq_sources.size(); ++i)
        lx_kit::unregister_irq(static_cast<int>(i + 1));
    // The hooks point into this board.
    lx_kit::set_busy_hook({});
    lx_kit::set_cpu_hook({});
    lx_kit::params().irq_latency_sample = nullptr;
    lx_kit::params().wakeup_latency_sample = nullptr;
}

void board::power_on(uint64_t seed) {
    lx_kit::forget_code_before_power_on();
    auto& kp = lx_kit::params();
    const config::kernel_timing& k = m_pf.kernel;
    kp.hz = m_pf.cpu.hz;
    kp.usleep_slack_ns = static_cast<uint64_t>(k.timer_slack.ps / 1000);
    kp.cores = m_pf.cpu.cores;
    kp.irq_latency_ns = static_cast<uint64_t>(k.irq_to_thread_latency.ps / 1000);
    lx_kit::set_busy_hook([this](const char*, sc_time, uint64_t ns) {
        m_cpu.charge(sc_time(static_cast<double>(ns), sc_core::SC_NS));
    });
    if (!k.charge_native_work)
        return; // driver code and scheduling free, constant latencies (board.h)
    // The kernel's own work on the board's CPU: driver code, context switches, hard IRQs.
    kp.ps_per_block = static_cast<uint64_t>(
        m_pf.cpu.clock.hz > 0 ? std::llround(m_pf.cpu.cycles_per_block * 1e12 / m_pf.cpu.clock.hz)
                              : 0);
    kp.context_switch_ns = static_cast<uint64_t>(k.context_switch.ps / 1000);
    kp.hardirq_ns = static_cast<uint64_t>(k.hardirq.ps / 1000);
    // Per charge of driver code: the unit's value is taken once (sc_time from a unit is costly).
    const sc_dt::uint64 ps_value = sc_time(1, sc_core::SC_PS).value();
    lx_kit::set_cpu_hook([this, ps_value](uint64_t ps) {
        m_cpu.advance(sc_time::from_value(ps * ps_value), cpu_class::kernel);
    });
    // The driver threads' latencies vary as the host stack's do (host/net/jitter.h): one
    // seeded stream each, separate from the stack's streams.
    const auto spec = [&k](config::duration median, config::duration p99) {
        return kernel_latency(median, p99, k);
    };
    m_irq_latency = std::make_unique<net::latency_stream>(
        seed, "kernel/irq_to_thread", spec(k.irq_to_thread_latency, k.irq_to_thread_latency_p99));
    m_wakeup_latency = std::make_unique<net::latency_stream>(
        seed, "kernel/sched_wakeup", spec(k.sched_wakeup_latency, k.sched_wakeup_latency_p99));
    // The SPI controller driver's waits (atmel_spi_port.h) draw from a stream of their own, so
    // adding them leaves the driver threads' samples as they were.
    m_spi_wakeup_latency = std::make_unique<net::latency_stream>(
        seed, "spi/sched_wakeup", spec(k.sched_wakeup_latency, k.sched_wakeup_latency_p99));
    const sc_dt::uint64 ns_value = sc_time(1, sc_core::SC_NS).value();
    const auto ns = [ns_value](net::latency_stream& s) {
        return static_cast<uint64_t>(s.sample().value() / ns_value);
    };
    kp.irq_latency_sample = [this, ns] { return ns(*m_irq_latency); };
    kp.wakeup_latency_sample = [this, ns] { return ns(*m_wakeup_latency); };
}

spi::spi_host& board::spi_host() {
    if (!m_spi_host) {
        spi::spi_host_timing t = spi_timing_of(m_pf.spi_host);
        if (m_pf.spi_host.cpu_cost == "atmel_spi") {
            // Software costs the atmel_spi port charges on the CPU (atmel_spi_port.h).
            t.per_transfer_overhead = sc_core::SC_ZERO_TIME;
            t.dma_setup = sc_core::SC_ZERO_TIME;
        }
        m_spi_host = std::make_unique<spi::spi_host>("spi_host", 1, t);
    }
    return *m_spi_host;
}

lx_bus::spi_port& board::spi_port(unsigned cs, const config::frequency& requested_clock) {
    try {
        (void)spi_sck_hz(m_pf.spi_host, static_cast<uint32_t>(requested_clock.hz));
    } catch (const spi::spi_clock_error& e) {
        throw run_error("device.bus_clock: " + config::to_string(requested_clock) +
                        " cannot be made by the SPI controller of platform '" + m_pf.name +
                        "' (" + m_pf.source_file + "): " + e.what());
    }
    std::unique_ptr<lx_bus::spi_port> port = cpu_cost_port(cs);
    if (!m_pf.kernel.spi_sync_fast_path) // the SPI core before 6.0 (spi_core_port.h)
        port = std::make_unique<spi_core_pump_port>(
            m_cpu, std::move(port),
            to_sc(m_pf.spi_host.message_pump_overhead) + 2.0 * to_sc(m_pf.kernel.context_switch),
            [] { return lx_kit_task_is_rt(lx_kit_task_current()) != 0; });
    m_spi_ports.push_back(std::make_unique<spi_clock_port>(m_pf.spi_host, std::move(port)));
    return *m_spi_ports.back();
}

std::unique_ptr<lx_bus::spi_port> board::cpu_cost_port(unsigned cs) {
    spi::spi_host& host = spi_host();
    const auto& c = m_pf.spi_host;
    if (c.cpu_cost == "bcm2835")
        return std::make_unique<bcm2835_spi_port>(m_cpu, host, cs, to_sc(c.per_message_overhead),
                                                  to_sc(c.polling_limit),
                                                  to_sc(m_pf.kernel.sched_wakeup_latency));
    else if (c.cpu_cost == "atmel_spi") {
        atmel_spi_costs a;
        a.per_message = to_sc(c.per_message_overhead);
        a.per_transfer = to_sc(c.per_transfer_overhead);
        a.dma_setup = to_sc(c.dma_setup);
        a.hardirq = to_sc(m_pf.kernel.hardirq);
        a.context_switch = to_sc(m_pf.kernel.context_switch);
        a.dma_threshold_bytes = c.dma_threshold.bytes;
        a.fifo_size = c.fifo_size;
        // The scheduler's wake-up latency: drawn from its own seeded stream once the board is
        // powered on with kernel.charge_native_work, the profile's median otherwise.
        auto port = std::make_unique<atmel_spi_port>(m_cpu, host, cs, a, [this] {
            return m_spi_wakeup_latency ? m_spi_wakeup_latency->sample()
                                        : to_sc(m_pf.kernel.sched_wakeup_latency);
        });
        m_atmel_ports.push_back(port.get());
        return port;
    }
    return std::make_unique<generic_spi_port>(m_cpu, host, cs, to_sc(c.per_message_overhead),
                                              c.dma_threshold.bytes);
}

std::optional<spi_controller_accounting> board::spi_controller_cpu() const {
    if (m_atmel_ports.empty())
        return std::nullopt;
    spi_controller_accounting sum;
    for (const atmel_spi_port* p : m_atmel_ports) {
        const auto& a = p->accounting();
        sum.messages += a.messages;
        sum.irqs += a.irqs;
        sum.sleeps += a.sleeps;
        sum.cpu += a.cpu;
    }
    return sum;
}

sdio::sdio_host& board::sdio_host(const config::frequency& requested_clock) {
    if (!m_pf.sdio_host.present)
        throw run_error("device.bus: sdio needs a platform with an SDIO host, but platform '" +
                        m_pf.name + "' (" + m_pf.source_file + ") has no sdio_host section");
    if (requested_clock.hz > m_pf.sdio_host.max_clock.hz)
        throw run_error("device.bus_clock: " + config::to_string(requested_clock) +
                        " is above the SD clock the host of platform '" + m_pf.name +
                        "' generates (sdio_host.max_clock = " +
                        config::to_string(m_pf.sdio_host.max_clock) + ")");
    if (!m_sdio_host)
        m_sdio_host =
            std::make_unique<sdio::sdio_host>("sdio_host", sdio_timing_of(m_pf.sdio_host));
    return *m_sdio_host;
}

uint32_t board::sd_clock(const config::frequency& requested_clock) const {
    return sd_clock_hz(m_pf.sdio_host, static_cast<uint32_t>(requested_clock.hz));
}

lx_bus::sdio_host_if& board::sdio_port() {
    if (!m_sdio_host)
        throw run_error("board: sdio_port() before sdio_host()");
    if (!m_sdio_port) {
        const auto& c = m_pf.sdio_host;
        sdio_runtime_pm_config pm;
        pm.enabled = c.runtime_pm;
        pm.autosuspend_delay = to_sc(c.autosuspend_delay);
        pm.resume_latency = to_sc(c.resume_latency);
        pm.irq_holds_clock = c.irq_pm == config::sdio_irq_pm::holds_clock;
        m_sdio_port = std::make_unique<sdio_controller_port>(
            m_cpu, *m_sdio_host, to_sc(c.per_request_overhead), c.dma_threshold.bytes,
            to_sc(c.irq_latency), pm);
    }
    return *m_sdio_port;
}

par::par_host& board::par_host() {
    if (!m_pf.par_bus.present)
        throw run_error("device.bus: par needs a platform with a parallel bus, but platform '" +
                        m_pf.name + "' (" + m_pf.source_file +
                        ") has no par_bus section (e.g. use platform: imx6-class)");
    if (!m_par_host)
        m_par_host = std::make_unique<par::par_host>("eim", par_timing_of(m_pf.par_bus),
                                                     m_par_window_base, par_window_size);
    return *m_par_host;
}

lx_bus::mmio16_bus_if& board::mmio16_port() {
    if (!m_mmio16_port)
        m_mmio16_port = std::make_unique<::nicsim::board::mmio16_port>(m_cpu, par_host());
    return *m_mmio16_port;
}

int board::wire_gpio_irq(const irq_line& line, unsigned dt_trigger) {
    m_irq_sources.push_back(std::make_unique<lx_kit::irq_line_source>(line));
    const int irq = static_cast<int>(m_irq_sources.size()); // Linux IRQ numbers from 1
    lx_kit::register_irq(irq, *m_irq_sources.back(), dt_trigger);
    return irq;
}

} // namespace nicsim::board

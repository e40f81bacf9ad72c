// SPDX-License-Identifier: MIT
// The host board, built from the platform profile alone: its CPU, one host controller per bus
// the profile declares (SPI always; SDIO and the 16-bit parallel bus where the profile has
// their sections), the CPU cost of each controller's Linux driver as the profile names it
// (spi_host.cpu_cost), the interrupt controller that gives a chip's interrupt wire a Linux IRQ
// number, and the kernel's platform parameters (HZ, timer slack, IRQ-to-thread latency).
// It knows no chip: a device binding (devices/) asks it for a bus and an IRQ.
//
// Bus hosts are SystemC modules; each is created on first use, in the module context of the
// caller (the system), so a board only elaborates the buses a run uses.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/par/par_host.h"
#include "bus/sdio/sdio_host.h"
#include "bus/spi/spi_host.h"
#include "kernel/include/lx_kit/irq_line_source.h"
#include "kernel/include/nicsim/bus_attach.h"
#include "host/board/atmel_spi_port.h"
#include "core/config/platform_profile.h"
#include "host/cpu/host_cpu.h"
#include "host/net/jitter.h"

namespace nicsim::board {

inline sc_core::sc_time to_sc(config::duration d) {
    return sc_core::sc_time(static_cast<double>(d.ps), sc_core::SC_PS);
}

// One of the profile's kernel latencies as a seeded distribution (host/net/jitter.h): the median,
// the spread from its p99 (absent: none) and the profile's preemption by higher-priority work.
net::latency_spec kernel_latency(config::duration median, config::duration p99,
                                 const config::kernel_timing& k);

class board {
  public:
    explicit board(const config::platform_profile& profile);
    ~board();
    board(const board&) = delete;
    board& operator=(const board&) = delete;

    const config::platform_profile& profile() const { return m_pf; }
    host_cpu& cpu() { return m_cpu; }
    const host_cpu& cpu() const { return m_cpu; }

    // Power-on of the kernel: lx_kit's HZ, timer slack and IRQ latency from the profile, and
    // busy-waits (udelay/mdelay) booked on the CPU. With kernel.charge_native_work also the
    // kernel's own CPU work (driver code by its basic blocks, context switches, hard IRQs)
    // charged on the CPU, and the IRQ-to-thread and wake-up latencies drawn per event from
    // seeded streams (`seed`: the scenario's).
    // Call from the system thread before the first module is loaded.
    void power_on(uint64_t seed);

    // ---- SPI (every profile has an spi_host section) -----------------------------------------
    spi::spi_host& spi_host();
    // spi_sync's path through the controller driver for chip select `cs`: its clock divider
    // (spi_host.clock_rule on input_clock: transfers run at the SCK it gives) in front of the
    // profile's spi_host.cpu_cost policy (generic, bcm2835 or atmel_spi) on this board's CPU.
    // Throws run_error naming device.bus_clock when the driver refuses `requested_clock`, the
    // device's spi-max-frequency.
    lx_bus::spi_port& spi_port(unsigned cs, const config::frequency& requested_clock);
    const spi::spi_host* spi_host_if_used() const { return m_spi_host.get(); }
    // What the SPI controller driver spent on the CPU, when its policy accounts for it
    // (spi_host.cpu_cost: atmel_spi); empty otherwise.
    std::optional<spi_controller_accounting> spi_controller_cpu() const;

    // ---- SDIO (profile section sdio_host) ----------------------------------------------------
    // Throws run_error (naming device.bus / device.bus_clock and the profile) when the profile
    // has no SDIO host or `requested_clock` is above the SD clock it generates.
    sdio::sdio_host& sdio_host(const config::frequency& requested_clock);
    // The SD clock the host driver programs for `requested_clock` (sdio_host.clock_rule on
    // input_clock): what the MMC core's set_ios really gives the card.
    uint32_t sd_clock(const config::frequency& requested_clock) const;
    // The MMC core's view: per-request overhead on the CPU, PIO phases hold a core, the card
    // interrupt after sdio_host.irq_latency.
    lx_bus::sdio_host_if& sdio_port();
    const sdio::sdio_host* sdio_host_if_used() const { return m_sdio_host.get(); }

    // ---- 16-bit parallel bus (profile section par_bus) ---------------------------------------
    // Throws run_error naming device.bus and the profile when it has no par_bus section.
    par::par_host& par_host();
    // ioread16/iowrite16: each access stalls a CPU core for its bus cycle.
    lx_bus::mmio16_bus_if& mmio16_port();
    // Start of the chip-select window the parallel-bus device sits in (bus addresses).
    uint64_t par_window_base() const { return m_par_window_base; }
    const par::par_host* par_host_if_used() const { return m_par_host.get(); }

    // ---- interrupt controller ----------------------------------------------------------------
    // Wires a chip's interrupt output to a GPIO interrupt of the host and returns its Linux IRQ
    // number (the device description's `interrupts`). The line must outlive the run.
    // `dt_trigger` is the trigger type of the device tree's interrupts property
    // (LX_KIT_IRQ_EDGE_FALLING, ... = IRQ_TYPE_*), for drivers that request the IRQ without
    // trigger flags and leave it to the board; 0 = none (the driver's flags decide).
    int wire_gpio_irq(const irq_line& line, unsigned dt_trigger = 0);

  private:
    // The spi_host.cpu_cost policy's port (without the clock divider).
    std::unique_ptr<lx_bus::spi_port> cpu_cost_port(unsigned cs);

    config::platform_profile m_pf;
    host_cpu m_cpu;
    std::unique_ptr<spi::spi_host> m_spi_host;
    std::vector<std::unique_ptr<lx_bus::spi_port>> m_spi_ports;
    std::vector<const atmel_spi_port*> m_atmel_ports; // of m_spi_ports, for the accounting
    std::unique_ptr<sdio::sdio_host> m_sdio_host;
    std::unique_ptr<lx_bus::sdio_host_if> m_sdio_port;
    std::unique_ptr<par::par_host> m_par_host;
    std::unique_ptr<lx_bus::mmio16_bus_if> m_mmio16_port;
    uint64_t m_par_window_base;
    std::vector<std::unique_ptr<lx_kit::irq_line_source>> m_irq_sources;
    std::unique_ptr<net::latency_stream> m_irq_latency;
    std::unique_ptr<net::latency_stream> m_wakeup_latency;
    std::unique_ptr<net::latency_stream> m_spi_wakeup_latency;
};

} // namespace nicsim::board

// SPDX-License-Identifier: MIT
//
// The host board the driver runs on: CPU cores, kernel timing and the SPI host controller. Read
// from configs/platforms/<name>.yaml; every key is required there so that each value is stated
// (with its source) in the profile, never silently defaulted. A scenario may override single keys
// (platform: {profile: NAME, <key>: value}, or --set platform.<key>=value).
// Keys and sources: docs/scenarios.md "Platform profiles".
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "bus/sdio/sdio_clock.h"
#include "bus/spi/spi_clock.h"
#include "core/config/units.h"

namespace nicsim::config {

struct cpu_config {
    unsigned cores = 1; // cpu.cores: cores the driver threads and the application share
    unsigned hz = 250;  // cpu.hz: CONFIG_HZ, jiffy = 1/hz (msleep/schedule_timeout granularity)
    frequency clock;    // cpu.clock: core clock, for the cycle costs below
    // cpu.cycles_per_block: cycles one basic block of driver code takes on this core (the driver
    // is compiled to count the blocks it executes; kernel/lx_kit/code_cost.cc).
    double cycles_per_block = 0;
};

struct kernel_timing {
    // kernel.irq_to_thread_latency: IRQ line edge → the threaded handler starts running
    // (hard-IRQ entry, irq_wake_thread, scheduling the irq/N thread).
    duration irq_to_thread_latency;
    // kernel.sched_wakeup_latency: wake_up/complete of a sleeping kthread or workqueue → it runs.
    duration sched_wakeup_latency;
    // kernel.timer_slack (optional): where a usleep_range(min, max) of a task outside the
    // real-time class ends: min + slack, at most max. Absent: at max, where an isolated hrtimer
    // fires (its hard expiry; kernel/time/hrtimer.c) when no other timer interrupt comes in the
    // range. A real-time task (an irq thread) ends at min whatever it says. The default is no
    // limit on the slack: at max.
    duration timer_slack = duration::from_ps(std::numeric_limits<std::int64_t>::max());
    // kernel.per_packet_stack_cost: CPU time the network stack spends per packet (socket, TCP/IP,
    // qdisc, netif_rx), charged to a core, in each direction.
    duration per_packet_stack_cost;
    // kernel.per_byte_stack_cost: CPU time per payload byte (copy to/from user, checksum).
    duration per_byte_stack_cost;
    // kernel.irq_to_thread_latency_p99 / kernel.sched_wakeup_latency_p99: the 99th percentiles
    // of the two latencies above (which are their medians); the linux host stack draws each as a
    // seeded log-normal between them (host/net/jitter.h). Optional; default = the median
    // (no variation).
    duration irq_to_thread_latency_p99;
    duration sched_wakeup_latency_p99;
    // kernel.preemption_share / kernel.preemption_burst (optional, together): work that runs
    // above the woken thread's priority (other devices' IRQ threads, real-time tasks, timer
    // softirq work) holds the CPU this share of the time, in bursts of this length. A wake-up
    // that finds such a burst running waits for the rest of it (uniform in [0, burst]), on top
    // of the log-normal latency above (host/net/jitter.h). Default: none.
    double preemption_share = 0;
    duration preemption_burst;
    // kernel.charge_native_work: the kernel work the emulation runs natively is charged on the
    // CPU (driver code by its basic blocks, context switches, hard IRQs: the three costs here
    // and in cpu_config) and the driver threads' IRQ and wake-up latencies are drawn from seeded
    // streams. Off: driver code and scheduling are free, the IRQ thread waits the constant
    // median and a woken kthread runs at once (the model the shipped fits were made on).
    bool charge_native_work = false;
    // kernel.context_switch: CPU time of switching to a task that slept or was woken (schedule(),
    // __switch_to, the cache and TLB refill after it), charged on a core.
    duration context_switch;
    // kernel.hardirq: CPU time of one hard interrupt (entry, the chained GPIO handler, the primary
    // handler waking the IRQ thread, exit), charged on a core.
    duration hardirq;
    // kernel.spi_sync_fast_path (optional, default true): the SPI core of Linux 6.0 and later,
    // whose spi_sync runs a message in the caller without the message queue and keeps the
    // controller prepared between messages. false: the core before 6.0, whose
    // spi_finalize_current_message() woke the message pump kthread after every message to idle
    // the controller (host/board/spi_core_port.h; spi_host.message_pump_overhead).
    bool spi_sync_fast_path = true;
};

// net_stack: the CPU cost of the board's network stack in named parts, used by the linux host
// stack (host.stack: linux; host/net/stack_costs.h says where each is charged). Optional
// section (all zero: a free stack); once present every key is required.
struct net_stack_costs {
    bool present = false;
    duration per_syscall;      // net_stack.per_syscall: each write()/read() call
    duration per_byte_copied;  // net_stack.per_byte_copied: each payload byte copied
    duration per_segment_sent; // net_stack.per_segment_sent: each TCP segment built and queued
    duration per_segment_recv; // net_stack.per_segment_recv: each data segment received
    duration per_ack_recv;     // net_stack.per_ack_recv: each ACK processed by the sender
    duration per_ack_sent;     // net_stack.per_ack_sent: each pure ACK sent by the receiver
    duration per_skb_alloc;    // net_stack.per_skb_alloc: each skb allocated
    duration per_skb_free;     // net_stack.per_skb_free: each skb freed
};

// Mirrors nicsim::spi::spi_host_timing (bus/spi/spi_timing.h) field by field.
struct spi_host_config {
    std::string controller; // spi_host.controller: name, informational (e.g. atmel_spi)
    // spi_host.cpu_cost: how the controller's Linux driver spends the CPU per spi_sync
    // (host/board): "generic" (overhead on a core, PIO below dma_threshold holds the core)
    // or "bcm2835" (spi-bcm2835.c: short transfers busy-polled up to polling_limit, others by
    // DMA/IRQ with a scheduler wake-up) or "atmel_spi" (spi-atmel.c: every transfer completes by
    // interrupt, the caller sleeps and is woken; PIO in FIFO-sized chunks).
    std::string cpu_cost = "generic";
    frequency max_speed;                // spi_host.max_speed: highest SCK the controller generates
    // spi_host.clock_rule / input_clock (optional, together): how the controller driver divides
    // its input clock to the SCK a transfer runs at (bus/spi/spi_clock.h); the SPI core first
    // clamps the request to max_speed. Without a rule the bus runs at the clamped request.
    std::optional<spi::spi_clock_rule> clock_rule;
    frequency input_clock;
    duration per_message_overhead;      // spi_host.per_message_overhead: spi_sync → CS assert
    duration per_transfer_overhead;     // spi_host.per_transfer_overhead: per spi_transfer setup
    // spi_host.message_pump_overhead (optional, default 0): the SPI core's message pump work per
    // message before 6.0 (kernel.spi_sync_fast_path false): queueing the pump work, waking the
    // kthread and its pass over the empty queue; its two context switches are
    // kernel.context_switch.
    duration message_pump_overhead;
    duration cs_setup;                  // spi_host.cs_setup: CS assert → first SCK
    duration cs_hold;                   // spi_host.cs_hold: last SCK → CS deassert
    duration cs_inactive_min;           // spi_host.cs_inactive_min: CS high time between frames
    duration inter_transfer_gap;        // spi_host.inter_transfer_gap: idle between transfers
    unsigned inter_word_gap_cycles = 0; // spi_host.inter_word_gap_cycles: idle SCK per word
    duration inter_word_gap;            // spi_host.inter_word_gap: extra idle time per word
    byte_size dma_threshold;            // spi_host.dma_threshold: len >= this uses DMA; 0 = no DMA
    duration dma_setup;                 // spi_host.dma_setup: per DMA transfer
    // spi_host.polling_limit: transfers whose wire time is <= this are completed by busy-polling
    // (CPU occupied); longer ones wait for the controller interrupt. 0 = never poll.
    duration polling_limit;
    // spi_host.fifo_size (optional, default 0): data words the controller's FIFO holds
    // (atmel,fifo-size); atmel_spi feeds PIO transfers in chunks of this many, one interrupt each,
    // and one word per interrupt without a FIFO (0).
    unsigned fifo_size = 0;
};

// Mirrors nicsim::par::par_timing (bus/par/par_timing.h): an i.MX-EIM-class external bus
// controller driving a 16-bit asynchronous device (KSZ8851-16MLL). Optional section: a profile
// without `par_bus` has no parallel bus, and a `device.bus: par` scenario on it is an error.
// When the section is present every key in it is required. Timings are in bus-clock cycles.
struct par_bus_config {
    bool present = false;             // the profile has a par_bus section
    std::string controller;           // par_bus.controller: name, informational (e.g. imx-weim)
    std::uint64_t window_base = 0;    // par_bus.window_base: bus address of the chip-select window
    frequency bus_clock;              // par_bus.bus_clock: controller clock the cycles count
    unsigned issue_cycles = 0;        // par_bus.issue_cycles: load/store -> CS# asserted
    unsigned addr_setup_cycles = 0;   // par_bus.addr_setup_cycles: CS#/address -> RD#/WR# low
    unsigned read_strobe_cycles = 1;  // par_bus.read_strobe_cycles: RD# low time
    unsigned write_strobe_cycles = 1; // par_bus.write_strobe_cycles: WR# low time
    unsigned hold_cycles = 0;         // par_bus.hold_cycles: strobe high -> CS#/address released
    unsigned recovery_cycles = 0;     // par_bus.recovery_cycles: CS# high between accesses
};

// sdio_host.sdio_irq_pm: what an enabled in-band SDIO interrupt (MMC_CAP_SDIO_IRQ) does to the
// controller's runtime PM. holds_clock: the host driver takes a runtime-PM reference while the
// interrupt is enabled (sdhci_enable_sdio_irq: pm_runtime_get_noresume), so the controller and
// its SD clock stay on. wake_irq: the controller suspends anyway and a dedicated wake-up
// interrupt on DAT1 resumes it when the card interrupts (omap_hsmmc:
// dev_pm_set_dedicated_wake_irq), the interrupt then waiting for the resume.
enum class sdio_irq_pm { holds_clock, wake_irq };

// Mirrors nicsim::sdio::sdio_host_timing (bus/sdio/sdio_timing.h): the host's SD/MMC
// controller and its Linux driver as the MMC core drives them. Optional section: a profile
// without `sdio_host` has no SDIO slot, and a `device.bus: sdio` scenario on it is an error. When
// present every key in it is required. The bus gaps the SD spec gives as ranges stay at the
// spec's minimum (docs/bus-sdio.md).
struct sdio_host_config {
    bool present = false;          // the profile has an sdio_host section
    std::string controller;        // sdio_host.controller: name, informational (e.g. atmel-mci)
    frequency max_clock;           // sdio_host.max_clock: highest SD clock the controller makes
    // sdio_host.clock_rule / input_clock (optional, together) / clock_multiplier /
    // second_input_clock: how the host driver divides its input clock to the SD clock
    // (bus/sdio/sdio_clock.h); clock_multiplier is sdhci's programmable-clock multiplier
    // (optional, 0 = none), second_input_clock meson-gx-mmc's clkin1 (required with that rule,
    // ignored by the others). Without a rule the card runs at the requested clock.
    std::optional<sdio::sdio_clock_rule> clock_rule;
    frequency input_clock;
    unsigned clock_multiplier = 0;
    frequency second_input_clock;
    sdio::sdio_clock_inputs clock_inputs() const {
        return {static_cast<std::uint32_t>(input_clock.hz), clock_multiplier,
                static_cast<std::uint32_t>(second_input_clock.hz)};
    }
    duration per_request_overhead; // sdio_host.per_request_overhead: mmc_wait_for_req -> command
    duration completion_overhead;  // sdio_host.completion_overhead: last bit -> caller resumes
    duration per_block_overhead;   // sdio_host.per_block_overhead: stall between data blocks
    byte_size dma_threshold;       // sdio_host.dma_threshold: CMD53 data >= this uses DMA; 0 = none
    duration dma_setup;            // sdio_host.dma_setup: per DMA request
    duration irq_latency;          // sdio_host.irq_latency: card IRQ recognised -> handler runs
    // sdio_host.runtime_pm (optional, default false): the controller runtime-suspends (gates its
    // clocks) once the host has been released and idle for autosuspend_delay (mmc_release_host:
    // pm_runtime_put_autosuspend), unless something holds a reference (sdio_irq_pm); the next
    // mmc_claim_host (pm_runtime_get_sync) pays resume_latency on the claiming thread's core.
    bool runtime_pm = false;
    duration autosuspend_delay = duration::from_ps(50'000'000'000); // sdio_host.autosuspend_delay
    duration resume_latency;                                        // sdio_host.resume_latency
    sdio_irq_pm irq_pm = sdio_irq_pm::holds_clock;                  // sdio_host.sdio_irq_pm
};

struct platform_profile {
    std::string name;        // name: profile name, printed in reports
    std::string description; // description: free text
    std::string source_file; // set by the loader: the YAML file it came from
    cpu_config cpu;
    kernel_timing kernel;
    net_stack_costs net_stack; // optional (net_stack.present)
    spi_host_config spi_host;
    par_bus_config par_bus;     // optional (par_bus.present)
    sdio_host_config sdio_host; // optional (sdio_host.present)
};

} // namespace nicsim::config

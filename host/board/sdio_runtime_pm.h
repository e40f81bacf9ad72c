// SPDX-License-Identifier: MIT
//
// Runtime PM of the SDIO host controller as the MMC core and its host driver use it (Linux 6.1,
// docs/sources.md#linux-host-latencies, "SDIO host runtime PM"): the first mmc_claim_host takes a reference
// (pm_runtime_get_sync, which resumes a suspended controller on the claiming thread), the last
// mmc_release_host drops it (pm_runtime_mark_last_busy + pm_runtime_put_autosuspend), and the
// controller suspends, gating its clocks, once nothing has held a reference for the autosuspend
// delay. An enabled in-band SDIO interrupt either holds a reference (sdhci_enable_sdio_irq:
// pm_runtime_get_noresume / put_noidle) or lets the controller suspend and resumes it through a
// DAT1 wake-up interrupt when the card interrupts (omap_hsmmc's dedicated wake IRQ).
//
// The state is evaluated when something happens (a claim, a card interrupt): the controller is
// suspended at `now` when the reference count has been zero since the last put and the delay has
// run out. Pure bookkeeping: the caller pays the returned resume time.
#pragma once

#include <cstdint>

#include <systemc>

namespace nicsim::board {

struct sdio_runtime_pm_config {
    bool enabled = false;
    sc_core::sc_time autosuspend_delay = sc_core::SC_ZERO_TIME;
    sc_core::sc_time resume_latency = sc_core::SC_ZERO_TIME;
    bool irq_holds_clock = true; // sdhci; false: a DAT1 wake-up interrupt (omap_hsmmc)
};

struct sdio_runtime_pm_stats {
    std::uint64_t resumes = 0; // each ends one suspend
    sc_core::sc_time suspended = sc_core::SC_ZERO_TIME; // time spent suspended before a resume
};

class sdio_runtime_pm {
  public:
    explicit sdio_runtime_pm(const sdio_runtime_pm_config& c) : m_cfg(c) {}

    // The first mmc_claim_host: the resume the claiming thread pays (zero when active).
    sc_core::sc_time get(const sc_core::sc_time& now);
    // The last mmc_release_host: the autosuspend timer starts when no reference is left.
    void put(const sc_core::sc_time& now);
    // host->ops->enable_sdio_irq(on), called with the host claimed.
    void enable_sdio_irq(bool on);
    // The card's interrupt reaches the host at `now`: the wake-up interrupt's resume (zero when
    // the controller is active, which it always is while a held interrupt is enabled).
    sc_core::sc_time card_irq(const sc_core::sc_time& now);

    bool suspended_at(const sc_core::sc_time& now) const;
    const sdio_runtime_pm_stats& stats() const { return m_stats; }

  private:
    sc_core::sc_time resume(const sc_core::sc_time& now);

    sdio_runtime_pm_config m_cfg;
    unsigned m_usage = 0; // claims + a held SDIO interrupt
    // The autosuspend timer runs from m_idle_since: armed by a put that dropped the count to
    // zero (probe ends with one), disarmed by any get. put_noidle does not arm it.
    bool m_timer_armed = true;
    sc_core::sc_time m_idle_since = sc_core::SC_ZERO_TIME;
    sdio_runtime_pm_stats m_stats;
};

} // namespace nicsim::board

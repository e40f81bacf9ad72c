// SPDX-License-Identifier: MIT
// The WILC1000 driver's sleep handshakes (wlan.c chip_wakeup / chip_allow_sleep), recognised
// from register accesses, on the "power handshake" lane of a bus process. Shared by the SPI and
// SDIO decoders, which differ only in how the registers are reached:
//
//   wake-up:     HOST_TO_FW (or WAKEUP) set .. the CLK_STATUS poll that sees the clock
//   allow sleep: first FW_TO_HOST poll .. HOST_TO_FW cleared
//
// Spans of the lane never overlap: an allow-sleep that ends without the clearing write (the bit
// was already clear) or a wake-up the driver gave up are closed when the next wake-up starts.
#pragma once

#include <cstdint>
#include <string>

#include "trace/bus_decoder.h"

namespace nicsim::trace {

class wilc1000_handshake {
  public:
    // A write that sets HOST_TO_FW or WAKEUP, starting at t_ps.
    void wake_request(uint64_t t_ps, bus_annotations& a);
    // A CLK_STATUS read ending at end_ps; returns the poll number within the current wake-up
    // (0 if none is in progress).
    unsigned clock_poll(bool ready, uint64_t end_ps, bus_annotations& a);
    // A FW_TO_HOST read starting at t_ps.
    void fw_to_host_poll(uint64_t t_ps);
    // A write that clears HOST_TO_FW, ending at end_ps.
    void host_to_fw_cleared(uint64_t end_ps, bus_annotations& a);
    uint64_t wakeups() const { return m_wakeups; }

    static constexpr const char* lane = "power handshake";

  private:
    struct state {
        bool active = false;
        uint64_t start = 0;
        unsigned polls = 0;
    } m_wake, m_sleep;
    uint64_t m_wakeups = 0;
};

} // namespace nicsim::trace

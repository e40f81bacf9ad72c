// SPDX-License-Identifier: MIT
// The controller driver's clock divider in front of its CPU-cost policy: every transfer of a
// frame runs at the SCK the driver programs for its speed_hz (host/board/bus_clock.h), so
// the bus model and the policies that estimate wire time (bcm2835's polling limit uses the
// effective speed, as bcm2835_spi_transfer_one does) see the real clock.
#pragma once

#include <cstdint>
#include <memory>

#include "kernel/include/nicsim/bus_attach.h"
#include "host/board/bus_clock.h"

namespace nicsim::board {

class spi_clock_port : public lx_bus::spi_port {
  public:
    spi_clock_port(const config::spi_host_config& host, std::unique_ptr<lx_bus::spi_port> inner)
        : m_host(host), m_inner(std::move(inner)) {}

    void transfer(spi::spi_payload& frame) override {
        frame.speed_hz = sck(frame.speed_hz);
        for (auto& x : frame.xfers)
            if (x.speed_hz)
                x.speed_hz = sck(x.speed_hz);
        m_inner->transfer(frame);
    }

  private:
    // Drivers keep one speed: the last answer is reused (this runs for every spi_sync).
    std::uint32_t sck(std::uint32_t requested) {
        if (requested == 0)
            return 0; // no speed: the bus model names the frame
        if (requested != m_last_requested) {
            m_last_sck = spi_sck_hz(m_host, requested);
            m_last_requested = requested;
        }
        return m_last_sck;
    }

    config::spi_host_config m_host;
    std::unique_ptr<lx_bus::spi_port> m_inner;
    std::uint32_t m_last_requested = 0;
    std::uint32_t m_last_sck = 0;
};

} // namespace nicsim::board

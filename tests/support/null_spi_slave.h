// SPDX-License-Identifier: MIT
// An SPI slave that answers nothing and takes no time: the far end of a port test that is about
// what the host side charges around the wire.
#pragma once

#include "bus/spi/spi_sockets.h"

namespace nicsim::test {

class null_spi_slave : public sc_core::sc_module, public nicsim::spi::spi_slave_if {
  public:
    nicsim::spi::spi_target_socket spi_in;
    explicit null_spi_slave(const sc_core::sc_module_name& n)
        : sc_core::sc_module(n), spi_in("spi_in", *this) {}
    void spi_transport(nicsim::spi::spi_payload&, sc_core::sc_time&) override {}
};

} // namespace nicsim::test

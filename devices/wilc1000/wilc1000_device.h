// SPDX-License-Identifier: MIT
// The WILC1000 on a board: the chip model strapped for its host bus, its air link with the
// access point and the far host (the peer), and the real wilc1000 driver (wlan.c, netdev.c,
// spi.c or sdio.c) brought up on it. wilc1000_spi_device and wilc1000_sdio_device add the bus:
// the board's SPI host with a GPIO interrupt, or its SDIO host with the in-band interrupt.
//
// The path of one TX frame: traffic endpoint → lx_emul_netdev_xmit (ndo_start_xmit of the real
// driver) → TX kthread → spi_sync / sdio_memcpy_toio → the board's controller port → bus host →
// wilc1000 front-end → chip core → air_link → peer endpoint.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bus/irq/irq_line.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000.h"
#include "devices/binding.h"

namespace nicsim::bindings {

const binding& wilc1000_binding();

class wilc1000_device : public device {
  public:
    // For tests: the chip parameters before the scenario's device.timing/power overrides.
    static std::unique_ptr<device> attach(board::board& b, const config::scenario_config& sc,
                                          const wilc::params& chip_params);

    traffic::endpoint_addr host_addr() const override;
    traffic::endpoint_addr peer_addr() const override;
    void bind_traffic(traffic_session& traffic) override;
    std::string bring_up(traffic_session& traffic) override;
    void fill_report(report::report& r) const override;
    ::net_device* netdev() const override { return m_ndev; }
    fault::point_list fault_points() override {
        fault::point_list l = m_chip->fault_points();
        l.push_back(&m_air->link_down);
        return l;
    }

    wilc1000& chip() { return *m_chip; }
    air_link& air() { return *m_air; }
    const wilc::params& chip_params() const { return m_params; }
    // When the bring-up saw the driver connected (SC_ZERO_TIME: never, link.associated false).
    sc_core::sc_time connected_at() const { return m_connected_at; }

  protected:
    wilc1000_device(board::board& b, const config::scenario_config& sc, const wilc::params& p);
    // Creates the air link and the chip, after the bus host and the interrupt wire: elaboration
    // order is process order in SystemC, and runs must not change with the composition.
    void create_chip();
    // The bus part of bring-up: device description, attach, probe. "" or why it failed.
    virtual std::string probe() = 0;
    // KBUILD_MODNAME of the bus file ("wilc1000_spi", "wilc1000_sdio").
    virtual const char* modname() const = 0;
    virtual void fill_bus_report(report::device_report& d) const = 0;
    // Register names for the bus decoders, from the chip's register file.
    const char* register_name(uint32_t addr) const;

    board::board& m_board;
    const config::scenario_config& m_sc;
    wilc::params m_params; // before m_chip: the chip keeps a reference
    std::unique_ptr<air_link> m_air;
    std::unique_ptr<wilc1000> m_chip;
    ::net_device* m_ndev = nullptr;
    std::vector<uint8_t> m_firmware;
    sc_core::sc_time m_connected_at = sc_core::SC_ZERO_TIME;
};

class wilc1000_spi_device final : public wilc1000_device {
  public:
    wilc1000_spi_device(board::board& b, const config::scenario_config& sc, const wilc::params& p);
    void attach_traces(trace::trace_session& trace) override;
    const spi::spi_host& spi_host() const { return m_spi_host; }

  private:
    std::string probe() override;
    const char* modname() const override { return "wilc1000_spi"; }
    void fill_bus_report(report::device_report& d) const override;

    spi::spi_host& m_spi_host;
    irq_line m_irq;
    int m_linux_irq = 0; // the IRQ number the driver requested (0: not wired, it polls)
};

class wilc1000_sdio_device final : public wilc1000_device {
  public:
    wilc1000_sdio_device(board::board& b, const config::scenario_config& sc, const wilc::params& p);
    void attach_traces(trace::trace_session& trace) override;
    const sdio::sdio_host& sdio_host() const { return m_sdio_host; }

  private:
    std::string probe() override;
    std::string enumerate_card();
    const char* modname() const override { return "wilc1000_sdio"; }
    void fill_bus_report(report::device_report& d) const override;

    sdio::sdio_host& m_sdio_host;
    irq_line m_card_irq;
};

} // namespace nicsim::bindings

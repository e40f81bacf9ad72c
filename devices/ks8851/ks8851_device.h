// SPDX-License-Identifier: MIT
// The KS8851 on a board, for either host bus (scenario device.bus):
//
//   spi: the KSZ8851SNL SPI front-end on the board's SPI host; spi_sync runs through the
//        board's controller port (spi_host.cpu_cost); the real ks8851_common.c + ks8851_spi.c.
//   par: the KSZ8851-16MLL front-end on the board's 16-bit parallel bus; ioread16/iowrite16 of
//        the real ks8851_common.c + ks8851_par.c stall a CPU core for each access.
//
// Both share the chip core, its INTRN wire on a GPIO interrupt, and the 10/100 Ethernet wire
// with the peer host.
//
// The path of one RX frame: peer endpoint -> eth_wire -> chip RXQ -> INTRN -> ks8851_irq (IRQ
// thread) -> spi_sync / ioread16 -> netif_rx -> host endpoint.
#pragma once

#include <memory>
#include <string>

#include "bus/irq/irq_line.h"
#include "models/ethernet/eth_wire.h"
#include "models/ks8851/ks8851.h"
#include "devices/binding.h"

namespace nicsim::bindings {

const binding& ks8851_binding();

class ks8851_device final : public device {
  public:
    // Throws run_error for a scenario it cannot build (bus without a platform section, no IRQ
    // wired, ...), naming the offending key.
    ks8851_device(board::board& b, const config::scenario_config& sc,
                  const ks::params& chip_params = {});

    traffic::endpoint_addr host_addr() const override;
    traffic::endpoint_addr peer_addr() const override;
    void bind_traffic(traffic_session& traffic) override;
    std::string bring_up(traffic_session& traffic) override;
    void attach_traces(trace::trace_session& trace) override;
    void fill_report(report::report& r) const override;
    ::net_device* netdev() const override { return m_ndev; }

    ks8851& chip() { return *m_chip; }
    fault::point_list fault_points() override {
        fault::point_list l = m_chip->fault_points();
        l.push_back(&m_wire.link_down);
        return l;
    }
    eth::eth_wire& wire() { return m_wire; }
    bool is_par() const { return m_par; }
    // SPI: chip-select frames (spi_sync messages); PAR: bus accesses (reads + writes).
    uint64_t bus_transactions() const;
    const spi::spi_host* spi_host() const { return m_spi_host; }
    const par::par_host* par_host() const { return m_par_host; }
    // The driver's module/variant name ("ks8851_spi" or "ks8851_par").
    const char* driver_modname() const { return m_par ? "ks8851_par" : "ks8851_spi"; }

  private:
    board::board& m_board;
    const config::scenario_config& m_sc;
    bool m_par;
    ks::params m_params;
    irq_line m_irq;
    eth::eth_wire m_wire;
    spi::spi_host* m_spi_host = nullptr;
    par::par_host* m_par_host = nullptr;
    std::unique_ptr<ks8851> m_chip;
    ::net_device* m_ndev = nullptr;
};

} // namespace nicsim::bindings

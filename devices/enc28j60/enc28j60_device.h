// SPDX-License-Identifier: MIT
// The ENC28J60 on a board: the chip model (models/enc28j60) on the board's SPI host, its INT pin
// on a GPIO interrupt configured for the falling edge (the device tree's IRQ_TYPE_EDGE_FALLING:
// the 6.1 driver requests the IRQ without trigger flags and leaves the edge to the board), and
// the 10BASE-T wire to the peer host; the real enc28j60.c drives it.
//
// The path of one RX frame: peer endpoint -> eth_wire -> chip RX ring -> INT falls -> the
// driver's hard IRQ handler queues irq_work -> its work handler (system workqueue) reads EIR,
// EPKTCNT and the packet with spi_write_then_read / 2-transfer spi_sync messages -> netif_rx ->
// host endpoint. TX: ndo_start_xmit stops the queue and queues tx_work, which writes the buffer
// (WBM) and sets TXRTS; TXIF wakes the queue from the IRQ work.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "bus/irq/irq_line.h"
#include "models/enc28j60/enc28j60.h"
#include "models/ethernet/eth_wire.h"
#include "devices/binding.h"

namespace nicsim::bindings {

const binding& enc28j60_binding();

class enc28j60_device final : public device {
  public:
    // Throws run_error for a scenario it cannot build (no IRQ wired, a MAC efficiency other than
    // 1, ...), naming the offending key.
    enc28j60_device(board::board& b, const config::scenario_config& sc,
                    const enc::params& chip_params = {});

    traffic::endpoint_addr host_addr() const override;
    traffic::endpoint_addr peer_addr() const override;
    void bind_traffic(traffic_session& traffic) override;
    std::string bring_up(traffic_session& traffic) override;
    void attach_traces(trace::trace_session& trace) override;
    void fill_report(report::report& r) const override;
    ::net_device* netdev() const override { return m_ndev; }

    enc28j60& chip() { return *m_chip; }
    fault::point_list fault_points() override { return {&m_wire.link_down}; }
    const enc28j60& chip() const { return *m_chip; }
    eth::eth_wire& wire() { return m_wire; }
    const spi::spi_host& spi_host() const { return *m_spi_host; }
    // The MAC of the device tree's local-mac-address.
    static const std::array<uint8_t, 6>& board_mac();

  private:
    board::board& m_board;
    const config::scenario_config& m_sc;
    irq_line m_irq;
    eth::eth_wire m_wire;
    spi::spi_host* m_spi_host = nullptr;
    std::unique_ptr<enc28j60> m_chip;
    ::net_device* m_ndev = nullptr;
};

} // namespace nicsim::bindings

// SPDX-License-Identifier: MIT
// One KS8851 system, composed from a scenario, for either host bus (scenario.device.bus):
//
//   spi: the host CPU runs spi_sync through a bcm2835-style controller port (per-message
//        overhead on the CPU, short transfers busy-polled, long ones by DMA/interrupt) into the
//        spi_host model and the KSZ8851SNL SPI front-end; the real ks8851_common.c +
//        ks8851_spi.c driver.
//   par: ioread16/iowrite16 of the real ks8851_common.c + ks8851_par.c driver stall a CPU core
//        for each access on the EIM-class par_host model and the KSZ8851-16MLL front-end.
//
// Both share the chip core, its INTRN wire to the driver's threaded IRQ, the Ethernet wire with
// the peer host, and the traffic session (iperf/ttcp TCP bulk, UDP, ping). run() probes and opens
// the interface through the real driver, runs the traffic and returns the report.
//
// The path of one RX frame: peer endpoint -> eth_wire -> chip RXQ -> INTRN -> ks8851_irq (IRQ
// thread) -> spi_sync / ioread16 -> netif_rx -> host endpoint.
#pragma once

#include <memory>
#include <string>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/par/par_host.h"
#include "bus/spi/spi_host.h"
#include "models/ethernet/eth_wire.h"
#include "models/ks8851/ks8851.h"
#include "testbench/config/platform_profile.h"
#include "testbench/config/scenario_config.h"
#include "testbench/host/host_cpu.h"
#include "testbench/report/report.h"
#include "testbench/system/driver_log.h"
#include "testbench/system/run_control.h"
#include "testbench/system/traffic_session.h"
#include "testbench/trace/trace_session.h"

struct net_device;

namespace nicsim {

class ks8851_system : public sc_core::sc_module {
  public:
    // Throws run_error for a scenario this system cannot build (wrong device, bus without a
    // platform section, no IRQ wired, ...), naming the offending key.
    ks8851_system(sc_core::sc_module_name name, const config::scenario_config& scenario,
                  const config::platform_profile& platform, const ks::params& chip_params = {});
    ~ks8851_system() override;

    // Runs the simulation (once per process: SystemC cannot restart) and returns the report.
    // Throws run_error when bring-up or the traffic fails.
    report::report run();

    // For tests. Optional hooks run on the system thread: `after_up` once the interface is up
    // (before the traffic starts), `after_traffic` when the traffic has finished. A hook that
    // returns false ends the run there (no traffic / no report of traffic).
    std::function<bool(ks8851_system&)> after_up;
    std::function<void(ks8851_system&)> after_traffic;

    ks8851& chip() { return *m_chip; }
    eth::eth_wire& wire() { return m_wire; }
    host_cpu& cpu() { return m_cpu; }
    traffic_session& traffic() { return *m_traffic; }
    ::net_device* netdev() const { return m_ndev; }
    bool is_par() const { return m_par; }
    // SPI: chip-select frames (spi_sync messages); PAR: bus accesses (reads + writes).
    uint64_t bus_transactions() const;
    const spi::spi_host* spi_host() const { return m_spi_host.get(); }
    const par::par_host* par_host() const { return m_par_host.get(); }
    // The driver's module/variant name ("ks8851_spi" or "ks8851_par").
    const char* driver_modname() const { return m_par ? "ks8851_par" : "ks8851_spi"; }

  private:
    void main();
    std::string bring_up(); // "" or why bring-up failed
    void bind_traffic();
    report::report make_report() const;

    config::scenario_config m_sc;
    config::platform_profile m_pf;
    driver_log_collector m_driver_log;
    bool m_par;
    ks::params m_chip_params;
    host_cpu m_cpu;
    irq_line m_irq;
    eth::eth_wire m_wire;
    std::unique_ptr<spi::spi_host> m_spi_host;
    std::unique_ptr<par::par_host> m_par_host;
    std::unique_ptr<ks8851> m_chip;
    struct ports;
    std::unique_ptr<ports> m_ports;
    std::unique_ptr<traffic_session> m_traffic;
    ::net_device* m_ndev = nullptr;
    system::run_control m_run;
    std::unique_ptr<trace::trace_session> m_trace; // last: detaches before the parts go
};

} // namespace nicsim

// SPDX-License-Identifier: MIT
// One WILC1000-on-SPI system, composed from a scenario: the host board (CPU cores, SPI host
// controller with the platform's overheads), the real wilc1000 driver variant, the chip model on
// the SPI bus with its IRQ wire, the air link with the peer, and the traffic flow. run() brings
// the interface up through the real driver path, runs the traffic and returns the report.
//
// The path of one TX frame: traffic endpoint → lx_emul_netdev_xmit (ndo_start_xmit of the real
// driver) → TX kthread → spi_sync → cpu_spi_port → spi_host → wilc1000 SPI front-end → chip core
// → air_link → peer endpoint.
#pragma once

#include <memory>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/spi/spi_host.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000.h"
#include "testbench/config/platform_profile.h"
#include "testbench/config/scenario_config.h"
#include "testbench/host/host_cpu.h"
#include "testbench/report/report.h"
#include "testbench/system/cpu_spi_port.h"
#include "testbench/system/driver_log.h"
#include "testbench/system/run_control.h"
#include "testbench/system/traffic_session.h"
#include "testbench/trace/trace_session.h"

struct net_device;

namespace nicsim {

class wilc1000_spi_system : public sc_core::sc_module {
  public:
    wilc1000_spi_system(sc_core::sc_module_name name, const config::scenario_config& scenario,
                        const config::platform_profile& platform,
                        const wilc::params& chip_params = {});
    ~wilc1000_spi_system() override;

    // Runs the simulation (once per process: SystemC cannot restart) and returns the report.
    // Throws run_error when bring-up or the traffic fails.
    report::report run();
    // The same, returning the failure in `error` instead of throwing. Under AddressSanitizer a
    // C++ throw after the coroutine-based simulation leaves stale stack poisoning behind (ASan
    // does not know SystemC's coroutine stacks), so sanitized tests of failing runs use this.
    report::report run(std::string& error);

    // For tests: the pieces after run().
    wilc1000& chip() { return *m_chip; }
    const traffic_session& traffic() const { return *m_traffic; }
    // The driver's network device (null until probe registered it) and the SPI host counters.
    ::net_device* netdev() const { return m_ndev; }
    const spi::spi_host& spi_host() const { return m_spi_host; }

  private:
    void main();
    std::string bring_up(); // "" or why bring-up failed
    report::report make_report() const;

    config::scenario_config m_sc;
    config::platform_profile m_pf;
    driver_log_collector m_driver_log;
    wilc::params m_chip_params; // before m_chip: the chip keeps a reference
    host_cpu m_cpu;
    spi::spi_host m_spi_host;
    irq_line m_irq;
    air_link m_air;
    std::unique_ptr<wilc1000> m_chip;
    std::unique_ptr<cpu_spi_port> m_port;
    std::unique_ptr<traffic_session> m_traffic;
    struct irq_binding;
    std::unique_ptr<irq_binding> m_irq_src;
    ::net_device* m_ndev = nullptr;
    std::vector<uint8_t> m_firmware;
    system::run_control m_run;
    std::unique_ptr<trace::trace_session> m_trace; // last: detaches before the parts go
};

} // namespace nicsim

// SPDX-License-Identifier: MIT
// One WILC1000-on-SDIO system, composed from a scenario: the host board (CPU cores, SD/MMC host
// controller with the platform's overheads), the real wilc1000 sdio.c driver variant behind the
// MMC core emulation (driver/lx_emul_bus/sdio.c), the chip model strapped for SDIO with its
// in-band interrupt, the air link with the peer, and the traffic flow.
//
// The path of one TX frame: traffic endpoint → ndo_start_xmit of the real driver → TX kthread →
// sdio_memcpy_toio → the MMC core's CMD53 split → cpu_sdio_port → sdio_host → wilc1000 SDIO
// front-end → chip core → air_link → peer endpoint. RX: chip INT0 → in-band interrupt (DAT1) →
// sdio_host interrupt period → ksdioirqd task → wilc_sdio_interrupt → CMD52/CMD53 reads.
#pragma once

#include <memory>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_host.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000.h"
#include "testbench/config/platform_profile.h"
#include "testbench/config/scenario_config.h"
#include "testbench/host/host_cpu.h"
#include "testbench/report/report.h"
#include "testbench/system/cpu_sdio_port.h"
#include "testbench/system/driver_log.h"
#include "testbench/system/run_control.h"
#include "testbench/system/traffic_session.h"
#include "testbench/trace/trace_session.h"

struct net_device;

namespace nicsim {

class wilc1000_sdio_system : public sc_core::sc_module {
  public:
    // Throws run_error when the platform has no SDIO host or cannot clock the scenario's bus.
    wilc1000_sdio_system(sc_core::sc_module_name name, const config::scenario_config& scenario,
                         const config::platform_profile& platform,
                         const wilc::params& chip_params = {});
    ~wilc1000_sdio_system() override;

    // Runs the simulation (once per process) and returns the report; throws run_error when
    // bring-up or the traffic fails. The second form returns the failure in `error` instead
    // (sanitized tests: see wilc1000_spi_system::run(std::string&)).
    report::report run();
    report::report run(std::string& error);

    wilc1000& chip() { return *m_chip; }
    const traffic_session& traffic() const { return *m_traffic; }
    ::net_device* netdev() const { return m_ndev; }
    const sdio::sdio_host& sdio_host() const { return m_sdio_host; }

  private:
    void main();
    std::string bring_up();
    std::string enumerate_card(); // the MMC core's part of bring-up (bus width, high speed)
    report::report make_report() const;

    config::scenario_config m_sc;
    config::platform_profile m_pf;
    driver_log_collector m_driver_log;
    wilc::params m_chip_params; // before m_chip: the chip keeps a reference
    host_cpu m_cpu;
    sdio::sdio_host m_sdio_host;
    irq_line m_card_irq;
    air_link m_air;
    std::unique_ptr<wilc1000> m_chip;
    std::unique_ptr<cpu_sdio_port> m_port;
    std::unique_ptr<traffic_session> m_traffic;
    ::net_device* m_ndev = nullptr;
    std::vector<uint8_t> m_firmware;
    system::run_control m_run;
    std::unique_ptr<trace::trace_session> m_trace; // last: detaches before the parts go
};

} // namespace nicsim

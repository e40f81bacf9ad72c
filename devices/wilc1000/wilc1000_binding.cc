// SPDX-License-Identifier: MIT
// The WILC1000 binding: SPI or SDIO, chosen by device.bus.
#include "devices/wilc1000/wilc1000_device.h"
#include "core/run_error.h"

namespace nicsim::bindings {

const config::device_keys& wilc1000_keys(); // wilc1000_keys.cc

std::unique_ptr<device> wilc1000_device::attach(board::board& b, const config::scenario_config& sc,
                                                const wilc::params& chip_params) {
    switch (sc.device.bus) {
    case config::bus_type::spi:
        return std::make_unique<wilc1000_spi_device>(b, sc, chip_params);
    case config::bus_type::sdio:
        return std::make_unique<wilc1000_sdio_device>(b, sc, chip_params);
    case config::bus_type::par:
        break;
    }
    throw run_error("device.bus: wilc1000 has no parallel bus interface (supported: spi, sdio)");
}

namespace {
class wilc1000_binding_impl final : public binding {
  public:
    const config::device_keys& keys() const override { return wilc1000_keys(); }
    std::unique_ptr<device> attach(board::board& b,
                                   const config::scenario_config& sc) const override {
        return wilc1000_device::attach(b, sc, wilc::params{});
    }
};
} // namespace

const binding& wilc1000_binding() {
    static const wilc1000_binding_impl b;
    return b;
}

} // namespace nicsim::bindings

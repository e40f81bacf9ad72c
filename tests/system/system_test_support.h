// SPDX-License-Identifier: MIT
// Helpers for the system tests: load a shipped scenario with --set overrides, capture the
// driver's kernel log, read the driver's netdev state, and the composition `nicsim run` builds
// (device_system) with typed access to the WILC1000 binding. Every TEST builds one system and
// runs it once (SystemC cannot restart; each TEST is its own process).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernel/include/lx_kit/runtime.h"
#include "kernel/include/nicsim/driver_variant.h"
#include "kernel/include/nicsim/lx_bus.h"
#include "tools/config/config_loader.h"
#include "sim/runner.h"
#include "devices/wilc1000/wilc1000_device.h"
#include "sim/device_system.h"

namespace nicsim::test {

// The driver variants of the generated table. Referencing the table is what links the variant
// objects (and their module_init registrations) into the test: the CLI gets them through
// runner.cc, which these tests do not call.
inline std::vector<std::string> linked_driver_variants() {
    std::vector<std::string> names;
    for (const auto* const* v = nicsim_driver_variants; *v; ++v)
        names.push_back(std::string((*v)->driver) + "/" + (*v)->name);
    return names;
}

// The shipped scenario configs/<file> with "key=value" overrides, validated like `nicsim run`.
inline config::loaded_scenario load_shipped(const std::string& file,
                                            const std::vector<std::string>& overrides) {
    config::load_options o;
    o.overrides = overrides;
    o.known_variants = linked_driver_variants();
    return config::load_scenario(std::string(NICSIM_SOURCE_DIR) + "/configs/" + file, o);
}

// Every kernel log line of the run (all levels, including dev_dbg), with its simulated time.
// Lines at KERN_WARNING or more severe are echoed to stderr so a failing test shows them; with
// NICSIM_TEST_LOG_ALL set in the environment every line is echoed.
class driver_log {
  public:
    driver_log() {
        const bool all = std::getenv("NICSIM_TEST_LOG_ALL") != nullptr;
        lx_kit::set_log_sink([this, all](const lx_kit::log_record& r) {
            if (all || r.level <= 4)
                std::fprintf(stderr, "[%.6f] <%d> %s\n", r.time.to_seconds(), r.level,
                             r.text.c_str());
            m_lines.push_back(r);
        });
    }
    ~driver_log() { lx_kit::set_log_sink({}); }
    driver_log(const driver_log&) = delete;
    driver_log& operator=(const driver_log&) = delete;

    size_t count(const std::string& needle) const {
        return static_cast<size_t>(std::count_if(m_lines.begin(), m_lines.end(), [&](auto& r) {
            return r.text.find(needle) != std::string::npos;
        }));
    }
    bool contains(const std::string& needle) const { return count(needle) > 0; }
    // First line containing needle (nullptr if none).
    const lx_kit::log_record* find(const std::string& needle) const {
        for (const auto& r : m_lines)
            if (r.text.find(needle) != std::string::npos)
                return &r;
        return nullptr;
    }
    // Lines at KERN_ERR (3) or more severe.
    std::vector<std::string> errors() const {
        std::vector<std::string> out;
        for (const auto& r : m_lines)
            if (r.level <= 3)
                out.push_back(r.text);
        return out;
    }

  private:
    std::vector<lx_kit::log_record> m_lines;
};

// device_system with the WILC1000 on `Device`'s bus, attached with `chip` as the chip
// parameters (before the scenario's overrides).
template <class Device> class wilc1000_test_system : public device_system {
  public:
    wilc1000_test_system(sc_core::sc_module_name name, const config::scenario_config& sc,
                         const config::platform_profile& pf, const wilc::params& chip = {})
        : device_system(name, sc, pf, [chip](board::board& b, const config::scenario_config& s) {
              return bindings::wilc1000_device::attach(b, s, chip);
          }) {}
    Device& dev() { return device_as<Device>(); }
    wilc1000& chip() { return dev().chip(); }
};

struct wilc1000_spi_test_system : wilc1000_test_system<bindings::wilc1000_spi_device> {
    using wilc1000_test_system::wilc1000_test_system;
    const spi::spi_host& spi_host() { return dev().spi_host(); }
};
struct wilc1000_sdio_test_system : wilc1000_test_system<bindings::wilc1000_sdio_device> {
    using wilc1000_test_system::wilc1000_test_system;
    const sdio::sdio_host& sdio_host() { return dev().sdio_host(); }
};

// Any WILC1000 system (SPI or SDIO).
template <class System> struct lx_bus_netdev_state netdev_state(const System& sys) {
    struct lx_bus_netdev_state st {};
    if (sys.netdev())
        lx_bus_netdev_state(sys.netdev(), &st);
    return st;
}

template <class System> std::array<uint8_t, 6> netdev_mac(const System& sys) {
    std::array<uint8_t, 6> mac{};
    if (sys.netdev())
        std::memcpy(mac.data(), lx_bus_netdev_addr(sys.netdev()), mac.size());
    return mac;
}

} // namespace nicsim::test

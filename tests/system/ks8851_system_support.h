// SPDX-License-Identifier: MIT
// Helpers of the KS8851 system tests: load a shipped scenario with overrides, build the
// system `nicsim run` would build (device_system with the KS8851 binding), and drive the real
// driver from a test hook (frames from the peer over the wire, frames into ndo_start_xmit, captured
// netif_rx and peer frames). Each TEST builds one system and runs it once (SystemC cannot restart).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "kernel/include/nicsim/lx_bus.h"
#include "models/ethernet/eth_crc.h"
#include "models/ks8851/ks8851_regs.h"
#include "tools/config/config_loader.h"
#include "devices/ks8851/ks8851_device.h"
#include "sim/device_system.h"
#include "tests/system/system_test_support.h"

namespace nicsim::test {

// The shipped scenario configs/<file> with overrides (system_test_support.h's load_shipped).
inline config::loaded_scenario ks_load(const std::string& file,
                                       const std::vector<std::string>& overrides = {}) {
    return load_shipped(file, overrides);
}

// device_system with the KS8851 binding, typed for the tests: its hooks get the system.
class ks8851_test_system : public device_system {
  public:
    ks8851_test_system(sc_core::sc_module_name name, const config::scenario_config& sc,
                       const config::platform_profile& pf)
        : device_system(name, sc, pf) {
        device_system::after_up = [this] { return after_up ? after_up(*this) : true; };
        device_system::after_traffic = [this] {
            if (after_traffic)
                after_traffic(*this);
        };
    }
    // Run on the system thread: once the interface is up (false ends the run there), and when
    // the traffic has finished.
    std::function<bool(ks8851_test_system&)> after_up;
    std::function<void(ks8851_test_system&)> after_traffic;

    bindings::ks8851_device& dev() { return device_as<bindings::ks8851_device>(); }
    ks8851& chip() { return dev().chip(); }
    eth::eth_wire& wire() { return dev().wire(); }
    host_cpu& cpu() { return board().cpu(); }
    uint64_t bus_transactions() { return dev().bus_transactions(); }
    bool is_par() { return dev().is_par(); }
    const char* driver_modname() { return dev().driver_modname(); }
};

// The scenario file for a bus: both buses use their iperf-rx scenario (its platform has the bus).
inline std::string ks_scenario_for(bool par) {
    return par ? "ks8851-par-iperf-rx.yaml" : "ks8851-spi-iperf-rx.yaml";
}

inline const std::array<uint8_t, 6> ks_peer_mac = {0x02, 0x00, 0x00, 0x00, 0xb0, 0x01};

// An Ethernet II frame (no FCS) from `src` to `dst` of `len` bytes with a seeded payload.
inline std::vector<uint8_t> ks_frame(const uint8_t* dst, const uint8_t* src, size_t len,
                                     uint8_t seed) {
    std::vector<uint8_t> f(len);
    for (size_t i = 0; i < len; ++i)
        f[i] = uint8_t(seed * 31 + i * 7 + (i >> 8));
    std::memcpy(f.data(), dst, 6);
    std::memcpy(f.data() + 6, src, 6);
    f[12] = 0x88; // local experimental ethertype: not IP, so nothing answers
    f[13] = 0xB5;
    return f;
}

// Captures what the driver hands to netif_rx (replacing the traffic session's sink).
struct ks_rx_capture {
    std::vector<std::vector<uint8_t>> frames;
    void attach(::net_device* dev) {
        lx_emul_netdev_set_rx_sink(
            dev,
            [](void* ctx, ::net_device*, const uint8_t* f, size_t len) {
                static_cast<ks_rx_capture*>(ctx)->frames.emplace_back(f, f + len);
            },
            this);
    }
};

inline struct lx_bus_netdev_state ks_state(::net_device* dev) {
    struct lx_bus_netdev_state st {};
    lx_bus_netdev_state(dev, &st);
    return st;
}

// ndo_start_xmit, retried while the driver refuses (queue stopped / NETDEV_TX_BUSY) as the
// stack would. Call from the system thread (a hook).
inline void ks_xmit(::net_device* dev, const std::vector<uint8_t>& f) {
    for (int tries = 0; tries < 100000; ++tries) {
        if (!ks_state(dev).queue_stopped && lx_emul_netdev_xmit(dev, f.data(), f.size()) == 0)
            return;
        sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
    }
    ADD_FAILURE() << "ndo_start_xmit kept refusing a frame";
}

inline unsigned ks_align4(unsigned v) {
    return (v + 3) & ~3u;
}

} // namespace nicsim::test

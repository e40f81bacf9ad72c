// SPDX-License-Identifier: MIT
// The WILC1000's scenario keys, for the loader (core/config/device_catalog.h).
#include "core/config/device_catalog.h"

namespace nicsim::bindings {

const config::device_keys& wilc1000_keys() {
    using config::bus_type;
    using config::irq_mode;
    static const config::device_keys k = [] {
        config::device_keys d;
        d.type = "wilc1000";
        // ATWILC1000 datasheet: SPI up to 48 MHz, SDIO 2.0 up to 50 MHz
        // (docs/sources.md#wilc1000-host-interfaces).
        d.buses.push_back({bus_type::spi,
                           48e6,
                           48e6,
                           {irq_mode::gpio, irq_mode::none},
                           irq_mode::gpio,
                           "the wilc1000 spi driver takes a GPIO interrupt or none"});
        // sdio.c takes the out-of-band GPIO interrupt only when built with
        // CONFIG_WILC1000_HW_OOB_INTR, which nicsim's driver build does not set; without any
        // interrupt it has no polled mode.
        d.buses.push_back({bus_type::sdio,
                           50e6,
                           50e6,
                           {irq_mode::in_band},
                           irq_mode::in_band,
                           "the wilc1000 sdio driver of this build uses the SDIO in-band "
                           "interrupt only (CONFIG_WILC1000_HW_OOB_INTR is not set): use in_band"});
        // The chip model's meter states, radio then host interface (unique across both):
        // models/wilc1000/wilc1000_power.h.
        d.power_states = {"tx", "rx", "listen", "doze", "off", "awake", "sleep", "waking"};
        d.timing_keys = {"wake_latency",      "sleep_entry_delay",  "deep_sleep_after",
                         "deep_wake_latency", "boot_delay",         "ps_dynamic_timeout",
                         "ps_wake_ahead",     "ps_radio_wake_time", "ps_beacon_timeout"};
        // The RX batch one interrupt announces: at least one frame (4 B words), at most the
        // driver's receive buffer, which wilc_wlan_handle_isr_ext reads a batch into whole
        // (wlan.h WILC_RX_BUFF_SIZE, 96 KiB).
        d.buffer_keys = {{"rx_aggregation", 4, 96 * 1024,
                          "at most the driver's 96 KiB WILC_RX_BUFF_SIZE"}};
        // 802.11 power save: which beacons a dozing station wakes for (wilc1000_params.h).
        d.firmware_keys = {{"ps_wake", {"dtim", "listen_interval"}}};
        d.chip_sleep = true;
        d.wireless = true;
        // drivers/net/wireless/microchip/wilc1000/spi.c
        d.module_params = {{"enable_crc7", "bool"}, {"enable_crc16", "bool"}};
        d.default_phy_rate_bps = 72.2e6; // HT20 MCS7 SGI (docs/sources.md#phy-rates)
        d.default_mac_efficiency = 0.6;  // assumption (docs/models/air.md)
        // Fault kinds (docs/faults.md): kind, what `after` counts ("" = window fault), buses.
        const std::vector<bus_type> spi = {bus_type::spi}, sdio = {bus_type::sdio};
        d.fault_kinds = {
            {"spi_bit_error", "DMA write data packets", spi},
            {"spi_cmd_bit_error", "SPI commands", spi},
            {"spi_truncated", "SPI messages", spi},
            {"sdio_crc_error", "SDIO commands", sdio},
            {"sdio_timeout", "SDIO commands", sdio},
            {"clk_status_flapping", "CLK_STATUS reads with the clock running", {}, false, true},
            {"wake_never_completes", "", {}, false, true},
            {"irq_stuck", "", spi, true},
            {"irq_missed", "interrupt assertions", spi, true},
            {"fw_silent", "", {}},
            {"cfg_reply_lost", "config frames", {}},
            {"tx_buffer_full", "VMM allocation requests", {}},
            {"rx_overrun", "frames from the air", {}},
            {"link_down", "frames on the air", {}},
        };
        return d;
    }();
    return k;
}

} // namespace nicsim::bindings

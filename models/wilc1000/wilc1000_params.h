// SPDX-License-Identifier: MIT
// Every tunable of the WILC1000 model in one typed struct (filled from YAML by the testbench).
// Each value says where it comes from: [code] = what the 6.1 driver needs, [fact] = datasheet /
// docs/sources.md, [proxy] = a sibling part's figure, [assumption] = chosen, to be calibrated.
// The table in docs/models/wilc1000.md mirrors this file.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace nicsim::wilc {

struct mem_region {
    std::string name;
    uint32_t base = 0;
    uint32_t size = 0;
};

// Host interface the chip is strapped for.
enum class host_bus { spi, sdio };

struct params {
    // --- identity ---
    uint32_t chip_id = 0x1003A0;   // [fact] value read on real boards (linux4wilc issue #120)
    uint32_t rf_revision_id = 0x3; // [assumption] keeps 2B0 un-remapped; unused for 3A0
    std::array<uint8_t, 6> mac_addr = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01}; // [assumption]
    std::string firmware_version = "WILC_WIFI_FW_REL_15_00 (nicsim functional model)";

    // --- host interface ---
    // [fact] the ATWILC1000 selects SPI or SDIO with a strap pin (SDIO_SPI_CFG), so only one
    // front-end answers; commands on the other bus are rejected with a finding.
    host_bus bus_strap = host_bus::spi;

    // --- SDIO function device ---
    // [code] SDIO_VENDOR_ID_MICROCHIP_WILC / SDIO_DEVICE_ID_MICROCHIP_WILC1000 (sdio_ids.h); the
    // common CIS reports them in CISTPL_MANFID.
    uint16_t sdio_vendor_id = 0x0296;
    uint16_t sdio_device_id = 0x5347;
    // Largest block size F0 and F1 accept (CIS FUNCE). [assumption] 512, what the driver uses
    // (WILC_SDIO_BLOCK_SIZE) and the largest byte-mode transfer.
    uint16_t sdio_max_block_size = 512;
    // Time from IOEx bit 1 set to IORx bit 1 (function 1 ready). [assumption] 0: the driver polls
    // IORx at most 4 times back to back, so real hardware must be ready within ~4 CMD52 times.
    sc_core::sc_time sdio_io_ready_delay = sc_core::SC_ZERO_TIME;

    // --- SPI slave ---
    // PROTOCOL_CONFIG at reset: CRC7 + CRC16 on, 256-byte data packets. [assumption] CRC on at
    // reset is inferred from the driver's probing comment (wilc_spi_init in spi.c,
    // docs/sources.md#linux-drivers).
    uint32_t protocol_config_reset = 0x0000000C;
    // Internal data access time after a read command: the chip needs this long before the
    // data-start tag can follow; what does not fit into the echo+status bytes becomes zero filler
    // bytes. [assumption calibrated to commit f2131fa516b8 description: 1-4 fillers at 48 MHz,
    // none at 1 MHz] -> 1 filler for SPI-internal/clockless reads and 4 for AHB reads at 48 MHz.
    sc_core::sc_time internal_read_access = sc_core::sc_time(450, sc_core::SC_NS);
    sc_core::sc_time ahb_read_access = sc_core::sc_time(950, sc_core::SC_NS);
    // DMA read: time from the end of the command until the first data-start tag is ready;
    // earlier tag polls read 0x00. [assumption]
    sc_core::sc_time dma_read_latency = sc_core::sc_time(1, sc_core::SC_US);
    double max_sck_hz =
        48e6; // [fact] docs/sources.md#wilc1000-host-interfaces; faster frames log a finding

    // --- memory map (sparse memory; DMA/single accesses elsewhere are out of range) ---
    // [assumption] 0x30000 = WILC_AHB_DATA_MEM_BASE and 0xd0000 = WILC_AHB_SHARE_MEM_BASE come
    // from wlan.h; sizes and the IRAM window are chosen.
    std::vector<mem_region> memory = {
        {"dram", 0x030000, 0x30000},
        {"iram", 0x080000, 0x40000},
        {"shared", 0x0d0000, 0x10000},
    };

    // --- firmware functional model ---
    sc_core::sc_time boot_delay = sc_core::sc_time(10, sc_core::SC_MS);          // [assumption]
    sc_core::sc_time cfg_response_delay = sc_core::sc_time(100, sc_core::SC_US); // [assumption]
    uint8_t init_status = 0;       // [code] 'I' status: WILC_MAC_STATUS_DISCONNECTED
    uint32_t init_drv_handler = 0; // [code] vif index 0 = no vif -> no "conn_result" message
    // VMM buffer memory for TX frames waiting for the air. [assumption]
    uint32_t tx_vmm_bytes = 64 * 1024;
    // RX buffer memory for frames waiting for the host. [assumption]
    uint32_t rx_buffer_bytes = 64 * 1024;
    // Bytes of the 4-byte header + pad in front of an RX data frame; >= 16 so the driver can read
    // addr1/addr2 at 4..15. [assumption] (real value unknown, docs/sources.md#linux-drivers)
    uint32_t rx_pkt_offset = 36;
    // RX frames the chip aggregates behind one interrupt, at most this many bytes. [assumption;
    // receiving throughput hangs on it, with chip sleep most: docs/models/wilc1000.md "RX batch
    // size". The calibration board's published receiving runs (checks, not fitted) point to
    // about 16 KiB: docs/calibration.md "Checks against the same board's other figures".]
    uint32_t rx_aggregation_bytes = 8 * 1024;
    // addr2 written into RX data headers while the firmware has not joined a BSS (tests without
    // an air link inject frames then); once joined, the BSSID of the join. [assumption]
    std::array<uint8_t, 6> bssid = {0x02, 0x00, 0x00, 0x00, 0xa0, 0x01};
    // From the join request (WID_JOIN_REQ_EXTENDED) to the 'I' connect status: the open-system
    // authentication and association exchange with the AP (four management frames and their
    // ACKs at the 1 Mbit/s basic rate, ~3 ms on the air) plus the AP's processing of both
    // requests. [assumption: 5 ms; not measured, docs/sources.md#wifi-connect]
    sc_core::sc_time join_time = sc_core::sc_time(5, sc_core::SC_MS);
    // Association ID the AP gives the station (association response). [assumption: the first]
    uint16_t assoc_id = 1;
    // Delay from an RX batch becoming available to INT0 / the falling IRQ edge. [assumption]
    sc_core::sc_time irq_delay = sc_core::sc_time(2, sc_core::SC_US);

    // --- power: the firmware's sleep decision (wilc1000_power.h, docs/models/wilc1000.md) ---
    // The firmware finishes everything it holds (host work and air work, no flag) before it gates
    // its clocks; these two durations are all that is not a mechanism.
    // Time the firmware stays awake after its last work and the host's last access before it
    // gates the clock. [assumption: 10 ms. Bound from below by the pre-5.17 driver, which woke
    // the chip by pulsing the wake-up bit, slept 2-2.5 ms and then read the chip ID without
    // pulsing again until it answered (docs/sources.md#wilc1000-wake-up): it worked only if the
    // chip was still awake then, after the sleep and the host's scheduling delay on a busy
    // core (with 3 ms the chip-sleep-5.16 runs stall in that loop now and then; with 10 us they
    // never get through). Sensitivity: docs/models/wilc1000.md "Chip sleep".]
    sc_core::sc_time sleep_entry_delay = sc_core::sc_time(10, sc_core::SC_MS);
    // Clock-ready time after a wake request that found the clock gated (oscillator and PLL
    // start-up). [assumption: 400 us. The pre-5.17 SDIO wake-up checked CLK_STATUS first after
    // usleep_range(200, 400) and slept 2-2.5 ms only if the clock was not ready then
    // (docs/sources.md#wilc1000-wake-up): its authors expected the clock within that time. No
    // calibration point constrains it: the chip-sleep-on point ran that driver generation, whose
    // 2.5 ms sleep per wake-up hides any latency below it (docs/calibration.md). Sensitivity:
    // docs/models/wilc1000.md "Chip sleep".]
    sc_core::sc_time wake_latency = sc_core::sc_time(400, sc_core::SC_US);
    // --- 802.11 power save of the firmware (wilc1000_station_ps.h; docs/models/wilc1000.md) ---
    // Idle time after the last data frame before the firmware dozes again ("dynamic PS").
    // [assumption: 100 ms, mac80211's default dynamic_ps_timeout (net/mac80211/mlme.c
    // ieee80211_recalc_ps, docs/sources.md#wifi-power-save); the WILC firmware's own value is not
    // documented, and the driver's timeout argument is not passed to it (hif.c
    // wilc_set_power_mgmt)]
    sc_core::sc_time ps_dynamic_timeout = sc_core::sc_time(100, sc_core::SC_MS);
    // How long before a DTIM beacon's TBTT the radio leaves doze to listen for it. [assumption:
    // 2 ms, the radio's start-up plus margin for the AP's beacon jitter]
    sc_core::sc_time ps_wake_ahead = sc_core::sc_time(2, sc_core::SC_MS);
    // Doze -> able to transmit, when the host hands over a frame while the radio dozes.
    // [assumption: 1 ms]
    sc_core::sc_time ps_radio_wake_time = sc_core::sc_time(1, sc_core::SC_MS);
    // Give up on a beacon (or on the group frames a DTIM beacon announced) this long after its
    // TBTT and doze again. [assumption: 10 ms]
    sc_core::sc_time ps_beacon_timeout = sc_core::sc_time(10, sc_core::SC_MS);
    // Which beacons a dozing station wakes for: every DTIM beacon (dtim), or every beacon whose
    // number is a multiple of the listen interval the driver set (WID_LISTEN_INTERVAL, 3 in 6.1
    // netdev.c wilc_init_fw_config), DTIM or not: group frames announced by a DTIM beacon it
    // sleeps through are lost. [assumption: dtim, mac80211's behaviour; the WILC firmware's
    // choice is not documented. Beacons are numbered from the AP's first, as DTIMs are.]
    enum class ps_wake_policy { dtim, listen_interval };
    ps_wake_policy ps_wake = ps_wake_policy::dtim;
    // After this long asleep the chip is in deep sleep and pays deep_wake_latency instead.
    // SC_ZERO_TIME disables deep sleep. [assumption]
    sc_core::sc_time deep_sleep_after = sc_core::SC_ZERO_TIME;
    sc_core::sc_time deep_wake_latency = sc_core::sc_time(2, sc_core::SC_MS); // [assumption]
    // Two energy meters (models/common/energy_meter.h, docs/models/wilc1000.md "Power"), one
    // supply. Radio meter, ns-3 WifiRadioEnergyModel states. [proxy] ATWILC3000 table
    // (docs/sources.md#wilc1000-currents): VBAT + VDDIO at 3.3 V. The table's figures are
    // whole-chip currents, so the radio meter carries the chip's active digital core as well.
    double radio_tx_current_a = 229e-3 + 23.9e-3;  // [proxy] ON_WiFi_Transmit 11n MCS7
    double radio_rx_current_a = 60.5e-3 + 23.6e-3; // [proxy] ON_WiFi_Receive
    // Listening (receiver on, no frame): [proxy] ON_WiFi_Receive; the table has no separate
    // idle-listen figure, and a receiver waiting for a preamble runs the same RF chain.
    double radio_listen_current_a = 60.5e-3 + 23.6e-3;
    // 802.11 power save between beacons (wilc1000_station_ps.h). [proxy] Doze.
    double radio_doze_current_a = 1.4e-3;
    // Before the firmware runs (and with the CPU halted) the RF part is not powered up.
    // [proxy] the order of Power_Down (1.25 uA, the whole chip's leakage).
    double radio_off_current_a = 1.25e-6;
    // Host-interface meter: the SPI/SDIO slave and its bus clock domain, on top of the radio
    // meter. No document gives its share. [assumption] 1 mA awake: below the ATWILC3000's
    // 1.4 mA Doze figure, which is the whole powered-on chip with the radio asleep, so it
    // bounds the always-on digital part the interface clock belongs to. Not fitted: the
    // validation check wilc1000-spi-idle-unassociated-ps-{off,on} compares the sum of both
    // meters with the measured board power (docs/sources.md#cal-wilc1000-sama5).
    double host_if_awake_current_a = 1.0e-3;
    // [assumption] clock gated: leakage only, order of magnitude of the Power_Down figure.
    double host_if_sleep_current_a = 10e-6;
    // [assumption] as awake: the oscillator and clock tree start while the host polls.
    double host_if_waking_current_a = 1.0e-3;
    double supply_voltage_v = 3.3; // [proxy] both meters (the table's VBAT = VDDIO)

    // --- fault injection (tests of the driver's error paths) ---
    bool fault_wrong_chip_id = false; // CHIPID reads fault_chip_id instead
    uint32_t fault_chip_id = 0x00000000;
    bool fault_no_fw_ready = false;      // firmware boots but never sends 'I'
    bool fault_clk_status_stuck = false; // CLK_STATUS bit 2 always reads 0
    bool fault_cfg_unanswered = false;   // 'W'/'Q' frames get no 'R'
};

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
// The BSS the access point advertises: what its beacons carry and what a station's join request
// must name (docs/models/air.md "Access point"). The link does not put these bytes in its beacon
// frames (a beacon is beacon_bytes of airtime); the station's driver gets them from the
// testbench, as the real one gets them from cfg80211's scan table.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace nicsim {

struct air_bss {
    // Assumption: a locally administered address.
    std::array<uint8_t, 6> bssid = {0x02, 0x00, 0x00, 0x00, 0xa0, 0x01};
    // Assumption: any SSID works; scenario key link.ssid.
    std::string ssid = "nicsim";
    // 2.4 GHz channel. Assumption: 6, one of the three non-overlapping ones; scenario key
    // link.channel.
    unsigned channel = 6;
    // Capability information (IEEE 802.11-2016 9.4.1.4): ESS (bit 0) and Short Slot Time (bit
    // 10). Assumption: an open 802.11g/n AP without short preamble (docs/sources.md#wifi-connect).
    uint16_t capability = 0x0401;
    // Supported Rates then Extended Supported Rates in 500 kbit/s units, bit 7 = basic rate.
    // Assumption: the 802.11g set with the 802.11b rates 1/2/5.5/11 Mbit/s basic (a mixed-mode
    // AP), then 6..54 Mbit/s.
    // Twelve: also the most a WILC join request carries (WILC_MAX_RATES_SUPPORTED).
    std::array<uint8_t, 12> rates = {0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12,
                                     0x18, 0x24, 0x30, 0x48, 0x60, 0x6c};
    // HT Capabilities element present (an 802.11n AP, as the link's MCS7 PHY rate says); WMM
    // parameter element present without U-APSD. Assumption; the firmware model uses neither.
    bool ht = true, wmm = true, uapsd = false;
};

} // namespace nicsim

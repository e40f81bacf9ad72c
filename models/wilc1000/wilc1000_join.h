// SPDX-License-Identifier: MIT
// The firmware's side of the station connect sequence (docs/models/wilc1000.md "Connect
// sequence"): the join request the host sends in WID_JOIN_REQ_EXTENDED (the driver's
// struct wilc_join_bss_param, fw.h, identical in 6.1 and 6.12), the 'I' status message that
// reports the result, and the association response body WID_ASSOC_RES_INFO returns. The core
// (wilc1000_core.cc) runs the join against the air link after params::join_time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace nicsim::wilc {

// sizeof(struct wilc_join_bss_param): 32 SSID + 54 fixed bytes + the 14-byte NoA union.
constexpr size_t join_bss_param_bytes = 100;

// What the firmware needs of a join request.
struct join_request {
    std::array<uint8_t, 6> bssid{};
    std::string ssid;
    unsigned channel = 0;
    uint16_t beacon_period = 0; // TU
    uint8_t dtim_period = 0;
    uint16_t capability = 0;
    std::vector<uint8_t> rates; // supp_rates[1..supp_rates[0]]
    uint32_t drv_handler = 0;   // the config frame's driver handler: names the vif in the 'I'
};

// The WID_JOIN_REQ_EXTENDED value as a join request; false with the reason in err when it is not
// a struct wilc_join_bss_param (wrong size, rate count past its array).
bool parse_join_request(const uint8_t* v, size_t len, uint32_t drv_handler, join_request& out,
                        std::string& err);

// 'I' status message: ['I'][id][le16 len = 12][WID_STATUS le16][len 1][mac_status][le32 drv
// handler] (wlan_cfg.c wilc_wlan_parse_info_frame reads the status, hif.c
// wilc_gnrl_async_info_received the vif from the last 4 bytes and the status from byte 7).
std::vector<uint8_t> status_message(uint8_t mac_status, uint32_t drv_handler);

// Body of the AP's association response as WID_ASSOC_RES_INFO returns it (hif.c
// wilc_parse_assoc_resp_info: struct wilc_assoc_resp {le16 capab_info, status_code, aid}, then
// the IEs): success, AID with bits 15:14 set (IEEE 802.11-2016 9.4.1.8), then the request's
// rates as Supported Rates (first 8) and Extended Supported Rates elements.
std::vector<uint8_t> assoc_response(const join_request& req, uint16_t aid);

// WILC_MAC_STATUS_* of the 'I' message (hif.h).
constexpr uint8_t mac_status_disconnected = 0, mac_status_connected = 1;

enum class join_state {
    idle,       // no join requested, or WID_DISCONNECT
    joining,    // join requested; the exchange with the AP runs until join_time has passed
    unanswered, // the AP did not answer: the firmware waits, the driver's connect timer fires
    associated, // 'I' connected sent; data frames flow
};
const char* to_string(join_state s);

struct join_stats {
    uint64_t requests = 0;     // WID_JOIN_REQ_EXTENDED received
    uint64_t associations = 0; // joins the AP answered ('I' connected sent)
    uint64_t unanswered = 0;   // joins the AP did not answer
    uint64_t leaves = 0;       // left the BSS or gave up joining (WID_DISCONNECT, CPU halt)
    sc_core::sc_time requested_at = sc_core::SC_ZERO_TIME;  // the last join request
    sc_core::sc_time associated_at = sc_core::SC_ZERO_TIME; // the last 'I' connected queued
};

} // namespace nicsim::wilc

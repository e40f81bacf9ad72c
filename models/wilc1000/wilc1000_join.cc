// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_join.h"

#include <algorithm>

namespace nicsim::wilc {

namespace {
// Offsets in struct wilc_join_bss_param (__packed, fw.h).
constexpr size_t off_ssid = 0, ssid_len_max = 32, off_ch = 34, off_cap = 35, off_bssid = 43,
                 off_beacon_period = 49, off_dtim = 51, off_supp_rates = 52, rates_max = 12;
constexpr uint8_t eid_supp_rates = 1, eid_ext_supp_rates = 50;

uint16_t le16(const uint8_t* p) {
    return uint16_t(p[0] | p[1] << 8);
}
} // namespace

const char* to_string(join_state s) {
    switch (s) {
    case join_state::idle:
        return "idle";
    case join_state::joining:
        return "joining";
    case join_state::unanswered:
        return "unanswered";
    case join_state::associated:
        return "associated";
    }
    return "?";
}

bool parse_join_request(const uint8_t* v, size_t len, uint32_t drv_handler, join_request& out,
                        std::string& err) {
    if (len != join_bss_param_bytes) {
        err = "WID_JOIN_REQ_EXTENDED of " + std::to_string(len) + " bytes, struct " +
              "wilc_join_bss_param has " + std::to_string(join_bss_param_bytes);
        return false;
    }
    const uint8_t n_rates = v[off_supp_rates];
    if (n_rates > rates_max) {
        err = "WID_JOIN_REQ_EXTENDED names " + std::to_string(n_rates) + " rates, at most " +
              std::to_string(rates_max) + " fit";
        return false;
    }
    join_request r;
    std::copy(v + off_bssid, v + off_bssid + 6, r.bssid.begin());
    const uint8_t* ssid = v + off_ssid;
    r.ssid.assign(reinterpret_cast<const char*>(ssid),
                  size_t(std::find(ssid, ssid + ssid_len_max, 0) - ssid));
    r.channel = v[off_ch];
    r.capability = le16(v + off_cap);
    r.beacon_period = le16(v + off_beacon_period);
    r.dtim_period = v[off_dtim];
    r.rates.assign(v + off_supp_rates + 1, v + off_supp_rates + 1 + n_rates);
    r.drv_handler = drv_handler;
    out = std::move(r);
    return true;
}

std::vector<uint8_t> status_message(uint8_t mac_status, uint32_t drv_handler) {
    return {'I',
            0,
            12,
            0,
            0x05,
            0x00,
            0x01,
            mac_status,
            uint8_t(drv_handler),
            uint8_t(drv_handler >> 8),
            uint8_t(drv_handler >> 16),
            uint8_t(drv_handler >> 24)};
}

std::vector<uint8_t> assoc_response(const join_request& req, uint16_t aid) {
    const uint16_t aid_field = uint16_t(aid | 0xc000);
    std::vector<uint8_t> b = {uint8_t(req.capability), uint8_t(req.capability >> 8), 0, 0,
                              uint8_t(aid_field),      uint8_t(aid_field >> 8)};
    const size_t n_supp = std::min<size_t>(req.rates.size(), 8);
    b.push_back(eid_supp_rates);
    b.push_back(uint8_t(n_supp));
    b.insert(b.end(), req.rates.begin(), req.rates.begin() + long(n_supp));
    if (req.rates.size() > n_supp) {
        b.push_back(eid_ext_supp_rates);
        b.push_back(uint8_t(req.rates.size() - n_supp));
        b.insert(b.end(), req.rates.begin() + long(n_supp), req.rates.end());
    }
    return b;
}

} // namespace nicsim::wilc

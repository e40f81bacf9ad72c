// SPDX-License-Identifier: MIT
// TLM-2.0 sockets for the 16-bit parallel bus (par_payload.h). The host controller (par_host)
// owns `par_out`; a device model owns a par_target_socket (`par_in`) and implements
// par_slave_if. Only blocking transport is used.
#pragma once

#include "bus/par/par_payload.h"

namespace nicsim::par {

// What a device model implements.
class par_slave_if {
  public:
    virtual ~par_slave_if() = default;
    // Called once per access at the simulated time the strobe ends (write data latched / read
    // data sampled). A device that needs wait states (an ARDY/WAIT pin) adds them to `delay`;
    // the host then stretches the strobe by that much. Set response/error on a violation.
    virtual void par_transport(par_payload& p, sc_core::sc_time& delay) = 0;
};

class par_initiator_socket : public tlm::tlm_initiator_socket<16, par_protocol_types>,
                             private tlm::tlm_bw_transport_if<par_protocol_types> {
  public:
    explicit par_initiator_socket(const char* name)
        : tlm::tlm_initiator_socket<16, par_protocol_types>(name) {
        bind(static_cast<tlm::tlm_bw_transport_if<par_protocol_types>&>(*this));
    }
    using tlm::tlm_initiator_socket<16, par_protocol_types>::bind;

  private:
    tlm::tlm_sync_enum nb_transport_bw(par_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

class par_target_socket : public tlm::tlm_target_socket<16, par_protocol_types>,
                          private tlm::tlm_fw_transport_if<par_protocol_types> {
  public:
    par_target_socket(const char* name, par_slave_if& slave)
        : tlm::tlm_target_socket<16, par_protocol_types>(name), m_slave(slave) {
        bind(static_cast<tlm::tlm_fw_transport_if<par_protocol_types>&>(*this));
    }
    using tlm::tlm_target_socket<16, par_protocol_types>::bind;

  private:
    void b_transport(par_payload& p, sc_core::sc_time& t) override { m_slave.par_transport(p, t); }
    tlm::tlm_sync_enum nb_transport_fw(par_payload& p, tlm::tlm_phase&,
                                       sc_core::sc_time&) override {
        p.response = par_response::protocol_error;
        p.error = "parallel bus: non-blocking transport is not supported";
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(par_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(par_payload&) override { return 0; }

    par_slave_if& m_slave;
};

} // namespace nicsim::par

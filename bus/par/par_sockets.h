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
    // Optional: the next `n` accesses like `p` (same command, address and lanes) at once, for a
    // FIFO port streamed by par_host's bursts. Only for accesses that would add no wait states,
    // schedule nothing and not depend on the time of their strobe, so answering them together is
    // exactly answering them one by one. The device takes the leading ones it can and returns
    // how many (0: the host goes on word by word). `in` holds the words of a write, `out`
    // receives those of a read. The host does the bus timing, statistics and observers.
    virtual size_t par_transport_words(const par_payload& p, const uint16_t* in, uint16_t* out,
                                       size_t n) {
        (void)p;
        (void)in;
        (void)out;
        (void)n;
        return 0;
    }
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

// The forward interface is a public base so that par_host can find the socket behind its port
// for the word path (par_slave_if::par_transport_words), which TLM's interface has no call for.
class par_target_socket : public tlm::tlm_target_socket<16, par_protocol_types>,
                          public tlm::tlm_fw_transport_if<par_protocol_types> {
  public:
    par_target_socket(const char* name, par_slave_if& slave)
        : tlm::tlm_target_socket<16, par_protocol_types>(name), m_slave(slave) {
        bind(static_cast<tlm::tlm_fw_transport_if<par_protocol_types>&>(*this));
    }
    using tlm::tlm_target_socket<16, par_protocol_types>::bind;

    size_t transport_words(const par_payload& p, const uint16_t* in, uint16_t* out, size_t n) {
        return m_slave.par_transport_words(p, in, out, n);
    }

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

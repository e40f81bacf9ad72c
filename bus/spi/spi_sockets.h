// TLM-2.0 sockets for the SPI protocol (spi_payload.h). A host controller owns an
// spi_initiator_socket per chip select (`spi_out`); a slave model owns an spi_target_socket
// (`spi_in`) and implements spi_slave_if. Only the blocking transport is used: a slave cannot
// stretch SCK, so it fills MISO and may add nothing to `delay`.
//
// Temporal decoupling (bus/common/local_time.h): the host calls b_transport from the driver's
// thread, which may run ahead of SystemC time. A slave that answers at that local time
// (local_time::now() for time, local_time::sync() before any side effect another process can
// see) says so with answers_at_local_time(); for any other slave the target socket synchronises
// first, so it sees sc_time_stamp() as the frame's end, as in exact mode.
#pragma once

#include "bus/common/local_time.h"
#include "bus/spi/spi_payload.h"

namespace nicsim::spi {

// What a slave device model implements.
class spi_slave_if {
  public:
    virtual ~spi_slave_if() = default;
    // Called once per chip-select frame at the simulated time the frame ends on the wire
    // (`delay` is the remaining annotated time, normally zero). Fill every xfer's rx (when not
    // null) and set frame.response / frame.error on a protocol violation.
    virtual void spi_transport(spi_payload& frame, sc_core::sc_time& delay) = 0;
    // True when spi_transport follows the local-time rule (see the file comment).
    virtual bool answers_at_local_time() const { return false; }
};

// Initiator socket with the (unused) backward path bound to itself.
class spi_initiator_socket : public tlm::tlm_initiator_socket<8, spi_protocol_types>,
                             private tlm::tlm_bw_transport_if<spi_protocol_types> {
  public:
    explicit spi_initiator_socket(const char* name)
        : tlm::tlm_initiator_socket<8, spi_protocol_types>(name) {
        bind(static_cast<tlm::tlm_bw_transport_if<spi_protocol_types>&>(*this));
    }
    using tlm::tlm_initiator_socket<8, spi_protocol_types>::bind;

  private:
    tlm::tlm_sync_enum nb_transport_bw(spi_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

// Target socket that forwards b_transport to a spi_slave_if.
class spi_target_socket : public tlm::tlm_target_socket<8, spi_protocol_types>,
                          private tlm::tlm_fw_transport_if<spi_protocol_types> {
  public:
    spi_target_socket(const char* name, spi_slave_if& slave)
        : tlm::tlm_target_socket<8, spi_protocol_types>(name), m_slave(slave) {
        bind(static_cast<tlm::tlm_fw_transport_if<spi_protocol_types>&>(*this));
    }
    using tlm::tlm_target_socket<8, spi_protocol_types>::bind;

  private:
    void b_transport(spi_payload& p, sc_core::sc_time& t) override {
        if (!m_slave.answers_at_local_time())
            local_time::sync(); // the TLM-2.0 way: the initiator catches up first
        m_slave.spi_transport(p, t);
    }
    tlm::tlm_sync_enum nb_transport_fw(spi_payload& p, tlm::tlm_phase&,
                                       sc_core::sc_time&) override {
        p.response = spi_response::protocol_error;
        p.error = "SPI: non-blocking transport is not supported";
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(spi_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(spi_payload&) override { return 0; }

    spi_slave_if& m_slave;
};

} // namespace nicsim::spi

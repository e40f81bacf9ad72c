// SPDX-License-Identifier: MIT
// TLM-2.0 sockets for the SDIO protocol (sdio_payload.h). The host controller (sdio_host) owns
// `sdio_out`; a card model owns an sdio_target_socket (`sdio_in`) and implements sdio_card_if.
// Only blocking transport is used.
//
// The card's in-band interrupt (DAT1 in 4-bit mode, the interrupt period of the SDIO spec 8.1.2)
// is not part of the socket: the card drives an irq_line (bus/irq/irq_line.h, level high = card
// interrupt pending) named `irq`, and the host controller samples it (sdio_host docs).
//
// Temporal decoupling (bus/common/local_time.h): the host runs a command's phases on the
// calling driver thread's local time; the target socket synchronises before the card sees the
// command, so a card answers at sc_time_stamp() as in exact mode, unless the card says it can
// answer that command at the local time (sdio_card_if::answers_at_local_time).
#pragma once

#include "bus/common/local_time.h"
#include "bus/sdio/sdio_payload.h"

namespace nicsim::sdio {

// What a card model implements.
class sdio_card_if {
  public:
    virtual ~sdio_card_if() = default;
    // Called once per command at the simulated time its last bit has crossed the wire (after
    // the response for CMD52; after the last data block's end bit for a CMD53 read; after the
    // last block's CRC status for a CMD53 write), so the card has seen every bit the host sent.
    // Fill data for reads, set response/r5_flags/error. A card that needs longer than the
    // minimum read access time or write busy of the timing rules adds the excess to `delay`;
    // the host then holds the bus for that much longer.
    virtual void sdio_transport(sdio_payload& p, sc_core::sc_time& delay) = 0;
    // Temporal decoupling: true when the card answers `p` exactly at the initiator's local time
    // (local_time::now()) without the socket synchronising first, because the command changes
    // nothing another process can observe and schedules nothing. Default: synchronise.
    virtual bool answers_at_local_time(const sdio_payload& p) const {
        (void)p;
        return false;
    }
};

class sdio_initiator_socket : public tlm::tlm_initiator_socket<8, sdio_protocol_types>,
                              private tlm::tlm_bw_transport_if<sdio_protocol_types> {
  public:
    explicit sdio_initiator_socket(const char* name)
        : tlm::tlm_initiator_socket<8, sdio_protocol_types>(name) {
        bind(static_cast<tlm::tlm_bw_transport_if<sdio_protocol_types>&>(*this));
    }
    using tlm::tlm_initiator_socket<8, sdio_protocol_types>::bind;

  private:
    tlm::tlm_sync_enum nb_transport_bw(sdio_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
        return tlm::TLM_COMPLETED;
    }
    void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

class sdio_target_socket : public tlm::tlm_target_socket<8, sdio_protocol_types>,
                           private tlm::tlm_fw_transport_if<sdio_protocol_types> {
  public:
    sdio_target_socket(const char* name, sdio_card_if& card)
        : tlm::tlm_target_socket<8, sdio_protocol_types>(name), m_card(card) {
        bind(static_cast<tlm::tlm_fw_transport_if<sdio_protocol_types>&>(*this));
    }
    using tlm::tlm_target_socket<8, sdio_protocol_types>::bind;

  private:
    void b_transport(sdio_payload& p, sc_core::sc_time& t) override {
        if (!m_card.answers_at_local_time(p))
            local_time::sync(); // the TLM-2.0 way: the initiator catches up first
        m_card.sdio_transport(p, t);
    }
    tlm::tlm_sync_enum nb_transport_fw(sdio_payload& p, tlm::tlm_phase&,
                                       sc_core::sc_time&) override {
        p.response = sdio_response::protocol_error;
        p.error = "SDIO: non-blocking transport is not supported";
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(sdio_payload&, tlm::tlm_dmi&) override { return false; }
    unsigned int transport_dbg(sdio_payload&) override { return 0; }

    sdio_card_if& m_card;
};

} // namespace nicsim::sdio

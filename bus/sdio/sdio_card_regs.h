// SPDX-License-Identifier: MIT
// The function-0 registers every SDIO card has (SDIO Simplified Specification 2.00, 6.9-6.11):
// the CCCR at 0x00-0x16, the FBR of function 1 at 0x100-0x111 and the CIS tuples, declared once
// with bus/common/reg.h. A card model owns one card_regs and keeps what is its own: the vendor
// part of the CCCR (0xf0-0xff), the CSA data window and the function's data ports.
//
// Knows no chip: the identity (manufacturer/device id, function interface code, block size
// limit, capabilities) comes in card_info, and the card reacts to enables and aborts through
// the callbacks. Time-dependent values (IORx after IOEx) use the time of the current access.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "bus/common/reg.h"
#include "bus/sdio/sdio_payload.h"

namespace nicsim::sdio {

namespace card_reg {
// CCCR (function 0).
constexpr uint32_t CCCR_REV = 0x00, SD_REV = 0x01, IOEx = 0x02, IORx = 0x03, IENx = 0x04,
                   INTx = 0x05, ABORT = 0x06, BUS_IF = 0x07, CAPS = 0x08, CIS_PTR = 0x09,
                   BUS_SUSPEND = 0x0c, FN_SELECT = 0x0d, EXEC = 0x0e, READY = 0x0f,
                   F0_BLKSIZE = 0x10, POWER = 0x12, SPEED = 0x13, UHS = 0x14, DRIVE = 0x15,
                   INT_EXT = 0x16, CCCR_END = 0x17;
// FBR of function 1.
constexpr uint32_t FBR1 = 0x100, FBR1_IF_EXT = 0x101, FBR1_POWER = 0x102, FBR1_CIS_PTR = 0x109,
                   CSA_PTR = 0x10c, CSA_DATA = 0x10f, F1_BLKSIZE = 0x110, FBR1_END = 0x112;
// CIS area (read-only tuples).
constexpr uint32_t CIS_BASE = 0x1000, CIS_COMMON = 0x1000, CIS_F1 = 0x2000, CIS_END = 0x18000;
// Field values.
constexpr uint8_t IO_F1 = 1u << 1;
constexpr uint8_t IEN_MASTER = 1u << 0, IEN_F1 = 1u << 1;
constexpr uint8_t ABORT_RES = 1u << 3, ABORT_AS_MASK = 0x7;
constexpr uint8_t CSA_SUPPORT = 0x40, CSA_ENABLE = 0x80;
constexpr uint8_t CAP_SMB = 0x02, CAP_S4MI = 0x10, CAP_E4MI = 0x20;
constexpr uint8_t SPEED_SHS = 0x01, SPEED_EHS = 0x02; // high speed supported / enabled
} // namespace card_reg

// What the card announces (CCCR, FBR1, CIS).
struct card_info {
    uint16_t vendor_id = 0;      // CISTPL_MANFID
    uint16_t device_id = 0;      // CISTPL_MANFID
    uint16_t max_block_size = 0; // CISTPL_FUNCE of F0 and F1
    uint8_t cccr_rev = 0x32;     // [7:4] SDIO 2.00 = 3, [3:0] CCCR 1.20/2.00 = 2
    uint8_t sd_rev = 0x02;       // SD physical spec 2.00
    uint8_t caps = 0;            // CCCR 0x08 capability bits (CAP_SMB, CAP_S4MI, ...)
    uint8_t f1_interface_code = 0;
    bool f1_csa = false;           // FBR1 announces a CSA
    uint8_t f1_enable_timeout = 0; // CISTPL_FUNCE of F1 +28, in 10 ms units
    sc_core::sc_time io_ready_delay = sc_core::SC_ZERO_TIME; // IOEx.F1 set -> IORx.F1
};

// Which finding a card reports for an access (the card model maps it onto its own kinds).
enum class card_note : uint8_t {
    protocol, // the access breaks a rule of the protocol (reserved value, ...)
    address,  // nothing (writable) decodes the address
};

// The outcome of one byte access: rsp != ok is an error the card answers with (and logs `text`).
struct card_result {
    sdio_response rsp = sdio_response::ok;
    card_note note = card_note::address;
    std::string text;
    bool ok() const { return rsp == sdio_response::ok; }
};

using note_fn = std::function<void(sc_core::sc_time, card_note, const std::string&)>;

// The SDIO rules for a write to one declared function-0 register, the card's own and a card
// model's vendor registers alike: a reserved register (every bit unimplemented) is an error, a
// read-only one ignores the write and notes it, the others take it (handlers run).
card_result write_register(regs::reg<uint8_t>& r, uint32_t addr, uint8_t v, sc_core::sc_time t,
                           const note_fn& note);

class card_regs {
  public:
    // reg_def tag: traces show the register by address only (see name_of).
    static constexpr uint32_t tag_unnamed_in_traces = 1;

    explicit card_regs(const card_info& info);

    // CMD52 / byte-wise CMD53 access to a function-0 address the card model does not decode.
    card_result read(uint32_t addr, uint8_t& v, sc_core::sc_time t);
    card_result write(uint32_t addr, uint8_t v, sc_core::sc_time t);

    // --- what the card model provides ---
    std::function<bool()> f1_interrupt;                            // INTx: F1 interrupt pending
    std::function<void(sc_core::sc_time, const char*)> on_f1_stop; // F1 disabled / aborted
    std::function<void(sc_core::sc_time)> on_io_reset; // after ABORT.RES reset the I/O part
    std::function<void()> on_enables;                  // IOEx or IENx changed
    // An access that is answered normally but is reported (e.g. a write to a read-only register).
    note_fn on_note;

    // --- state ---
    uint8_t io_enable() const { return reg_at(card_reg::IOEx).get(); }
    uint8_t int_enable() const { return reg_at(card_reg::IENx).get(); }
    uint8_t bus_interface() const { return reg_at(card_reg::BUS_IF).get(); }
    bool f1_ready(sc_core::sc_time t) const;
    bool f1_irq_enabled() const; // IOEx.F1 and IENx master + F1
    uint16_t block_size(unsigned fn) const;
    bool csa_enabled() const { return reg_at(card_reg::FBR1).test(card_reg::CSA_ENABLE); }
    uint32_t csa_pointer() const;
    void set_csa_pointer(uint32_t p);
    const regs::reg_map<uint8_t>& registers() const { return m_regs; }

    // Register name for traces ("IOEx", "F0_BLKSIZE_HI", ...), nullptr where none is declared
    // or the declaration says tag_unnamed_in_traces.
    static const char* name_of(uint32_t addr);

  private:
    static void declare(regs::reg_map<uint8_t>& m, const card_info& info);
    void attach_handlers();
    void build_cis(const card_info& info);
    uint8_t cis_byte(uint32_t addr) const;
    void io_reset(sc_core::sc_time t);
    regs::reg<uint8_t>& reg_at(uint32_t a) { return *m_regs.find(a); }
    const regs::reg<uint8_t>& reg_at(uint32_t a) const { return m_regs.at(0, a); }

    card_info m_info;
    regs::reg_map<uint8_t> m_regs;
    std::vector<uint8_t> m_cis_common, m_cis_f1;
    sc_core::sc_time m_f1_ready_at = sc_core::SC_ZERO_TIME;
    sc_core::sc_time m_now = sc_core::SC_ZERO_TIME; // time of the access being served
    uint8_t m_written = 0;                          // the byte as the host wrote it
};

} // namespace nicsim::sdio

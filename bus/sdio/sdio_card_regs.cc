// SPDX-License-Identifier: MIT
#include "bus/sdio/sdio_card_regs.h"

#include <sstream>

namespace nicsim::sdio {

namespace {

using regs::access;
using reg8 = regs::reg<uint8_t>;
using namespace card_reg;

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// Bits the host can change (a register without any is read-only).
uint8_t writable(const reg8& r) {
    return uint8_t(r.mask(access::rw) | r.mask(access::trig) | r.mask(access::w1c));
}
// Every bit unimplemented: the address is reserved (reads 0, writes are errors).
bool reserved(const reg8& r) {
    return r.mask(access::none) == 0xff;
}

card_result not_implemented(const char* what, uint32_t a) {
    return {sdio_response::out_of_range, card_note::address,
            std::string(what) + " F0 register " + hex(a) +
                ": not implemented (reserved CCCR/vendor/FBR space or FBR of a missing "
                "function)"};
}

} // namespace

// Names are the ones the traces have always shown (e.g. the lower-case CSA pointer bytes).
void card_regs::declare(regs::reg_map<uint8_t>& m, const card_info& info) {
    auto ro = [&m](const char* n, uint32_t a, uint8_t reset = 0) {
        return &m.declare({n, a, 0, reset, access::ro});
    };
    auto rw = [&m](const char* n, uint32_t a) { return &m.declare({n, a, 0, 0, access::rw}); };
    auto rfu = [&m](const char* n, uint32_t a) { return &m.declare({n, a, 0, 0, access::none}); };
    // --- CCCR ---
    ro("CCCR_REV", CCCR_REV, info.cccr_rev);
    ro("SD_REV", SD_REV, info.sd_rev);
    m.declare({"IOEx", IOEx, 0, 0, access::none, {{"IOE1", IO_F1}}});
    m.declare({"IORx", IORx, 0, 0, access::none, {{"IOR1", IO_F1, access::ro}}});
    m.declare({"IENx", IENx, 0, 0, access::none, {{"IENM", IEN_MASTER}, {"IEN1", IEN_F1}}});
    m.declare({"INTx", INTx, 0, 0, access::none, {{"INT1", IO_F1, access::ro}}});
    // RES and ASx are commands: they act on write and read 0.
    m.declare({"ABORT", ABORT, 0, 0, access::trig, {}});
    // Bus width, ECSI, CD disable; SCSI (bit 6) reads 0.
    m.declare({"BUS_IF", BUS_IF, 0, 0, access::none, {{"BUS_IF", 0xa3}}});
    m.declare({"CAPS",
               CAPS,
               0,
               uint8_t(info.caps & ~CAP_E4MI),
               access::ro,
               {{"E4MI", CAP_E4MI, access::rw}}});
    ro("CIS_PTR0", CIS_PTR, uint8_t(CIS_COMMON));
    ro("CIS_PTR1", CIS_PTR + 1, uint8_t(CIS_COMMON >> 8));
    ro("CIS_PTR2", CIS_PTR + 2, uint8_t(CIS_COMMON >> 16));
    // Suspend/resume, function select, power control, UHS, drive strength, asynchronous
    // interrupt: not supported, read 0.
    ro("BUS_SUSPEND", BUS_SUSPEND);
    ro("FN_SELECT", FN_SELECT);
    ro("EXEC", EXEC);
    ro("READY", READY);
    rw("F0_BLKSIZE", F0_BLKSIZE);
    rw("F0_BLKSIZE_HI", F0_BLKSIZE + 1);
    ro("POWER", POWER);
    m.declare({"SPEED",
               SPEED,
               0,
               SPEED_SHS,
               access::none,
               {{"SHS", SPEED_SHS, access::ro}, {"EHS", SPEED_EHS}}});
    ro("UHS", UHS);
    ro("DRIVE", DRIVE);
    ro("INT_EXT", INT_EXT);
    // --- FBR of function 1 ---
    // Traces have always shown 0x100 by address only: kept so that they stay identical.
    m.declare({"FBR1",
               FBR1,
               0,
               uint8_t(info.f1_interface_code | (info.f1_csa ? CSA_SUPPORT : 0)),
               access::ro,
               {{"CSA_ENABLE", CSA_ENABLE, access::rw}},
               card_regs::tag_unnamed_in_traces});
    ro("FBR1_IF_EXT", FBR1_IF_EXT);
    ro("FBR1_POWER", FBR1_POWER);
    for (uint32_t a = FBR1_POWER + 1; a < FBR1_CIS_PTR; ++a)
        rfu("FBR1_RFU", a);
    ro("F1_CIS_PTR0", FBR1_CIS_PTR, uint8_t(CIS_F1));
    ro("F1_CIS_PTR1", FBR1_CIS_PTR + 1, uint8_t(CIS_F1 >> 8));
    ro("F1_CIS_PTR2", FBR1_CIS_PTR + 2, uint8_t(CIS_F1 >> 16));
    rw("csa_ptr0", CSA_PTR);
    rw("csa_ptr1", CSA_PTR + 1);
    rw("csa_ptr2", CSA_PTR + 2);
    rw("F1_BLKSIZE", F1_BLKSIZE);
    rw("F1_BLKSIZE_HI", F1_BLKSIZE + 1);
}

card_regs::card_regs(const card_info& info) : m_info(info) {
    declare(m_regs, info);
    attach_handlers();
    build_cis(info);
}

void card_regs::attach_handlers() {
    reg_at(IOEx).on_write = [this](uint8_t old_v, uint8_t v) {
        if ((v & IO_F1) && !(old_v & IO_F1))
            m_f1_ready_at = m_now + m_info.io_ready_delay;
        if (!(v & IO_F1) && (old_v & IO_F1) && on_f1_stop)
            on_f1_stop(m_now, "function 1 disabled in IOEx");
        if (on_enables)
            on_enables();
    };
    reg_at(IORx).on_read = [this](uint8_t) { return f1_ready(m_now) ? IO_F1 : uint8_t(0); };
    reg_at(IENx).on_write = [this](uint8_t, uint8_t) {
        if (on_enables)
            on_enables();
    };
    // Pending function interrupts; assumption: only reported for an enabled function.
    reg_at(INTx).on_read = [this](uint8_t) {
        const bool pending =
            f1_interrupt && f1_interrupt() && (int_enable() & IEN_F1) && (io_enable() & IO_F1);
        return pending ? IO_F1 : uint8_t(0);
    };
    reg_at(ABORT).on_write = [this](uint8_t, uint8_t v) {
        if (v & ABORT_RES)
            io_reset(m_now);
        else if ((v & ABORT_AS_MASK) == 1 && on_f1_stop)
            on_f1_stop(m_now, "CCCR ABORT of function 1");
    };
    reg_at(BUS_IF).on_write = [this](uint8_t, uint8_t) {
        if ((m_written & 0x03) == 0x01 && on_note)
            on_note(m_now, card_note::protocol,
                    "CCCR bus interface control 0x07 = " + hex(m_written) +
                        ": bus width 01b is reserved");
    };
}

void card_regs::build_cis(const card_info& info) {
    const uint8_t blk_lo = uint8_t(info.max_block_size), blk_hi = uint8_t(info.max_block_size >> 8);
    // Common CIS: CISTPL_MANFID, CISTPL_FUNCID (SDIO), CISTPL_FUNCE type 0 (F0 max block size,
    // TRAN_SPEED 0x32 = 25 Mbit/s default speed; high speed is announced in CCCR 0x13), END.
    m_cis_common = {0x20,
                    4,
                    uint8_t(info.vendor_id),
                    uint8_t(info.vendor_id >> 8),
                    uint8_t(info.device_id),
                    uint8_t(info.device_id >> 8),
                    0x21,
                    2,
                    0x0c,
                    0x00,
                    0x22,
                    4,
                    0x00,
                    blk_lo,
                    blk_hi,
                    0x32,
                    0xff};
    // F1 CIS: CISTPL_FUNCID, CISTPL_FUNCE type 1 (42-byte SDIO 1.10+ body: max block size at
    // +12, enable timeout at +28 in 10 ms units), END.
    std::vector<uint8_t> funce(42, 0);
    funce[0] = 0x01;
    funce[12] = blk_lo;
    funce[13] = blk_hi;
    funce[28] = info.f1_enable_timeout;
    m_cis_f1 = {0x21, 2, 0x0c, 0x00, 0x22, uint8_t(funce.size())};
    m_cis_f1.insert(m_cis_f1.end(), funce.begin(), funce.end());
    m_cis_f1.push_back(0xff);
}

uint8_t card_regs::cis_byte(uint32_t addr) const {
    if (addr >= CIS_COMMON && addr - CIS_COMMON < m_cis_common.size())
        return m_cis_common[addr - CIS_COMMON];
    if (addr >= CIS_F1 && addr - CIS_F1 < m_cis_f1.size())
        return m_cis_f1[addr - CIS_F1];
    return 0x00; // unused CIS space
}

card_result card_regs::read(uint32_t a, uint8_t& v, sc_core::sc_time t) {
    v = 0;
    m_now = t;
    if (const reg8* r = m_regs.find(a)) {
        v = r->read();
        return {};
    }
    if (a >= CIS_BASE && a < CIS_END) {
        v = cis_byte(a);
        return {};
    }
    return not_implemented("read of", a);
}

card_result write_register(reg8& r, uint32_t a, uint8_t v, sc_core::sc_time t,
                           const note_fn& note) {
    if (reserved(r))
        return not_implemented("write to", a);
    if (!writable(r)) {
        // SDIO: writes to read-only CCCR/FBR registers are ignored; a driver never does it.
        if (note)
            note(t, card_note::address,
                 "write " + hex(v) + " to read-only F0 " + hex(a) + " (" + r.name() + ") ignored");
        return {};
    }
    r.write(v);
    return {};
}

card_result card_regs::write(uint32_t a, uint8_t v, sc_core::sc_time t) {
    m_now = t;
    reg8* r = m_regs.find(a);
    if (!r) {
        if (a >= CIS_BASE && a < CIS_END)
            return {sdio_response::out_of_range, card_note::address,
                    "write to F0 " + hex(a) + ": the CIS is read-only"};
        return not_implemented("write to", a);
    }
    m_written = v;
    return write_register(*r, a, v, t, on_note);
}

void card_regs::io_reset(sc_core::sc_time t) {
    // CCCR ABORT.RES: the I/O part returns to its reset state; the chip behind it keeps running.
    if (on_f1_stop)
        on_f1_stop(t, "CCCR ABORT.RES");
    m_regs.reset_all();
    if (on_io_reset)
        on_io_reset(t);
}

bool card_regs::f1_ready(sc_core::sc_time t) const {
    return (io_enable() & IO_F1) && t >= m_f1_ready_at;
}

bool card_regs::f1_irq_enabled() const {
    return (io_enable() & IO_F1) && (int_enable() & (IEN_MASTER | IEN_F1)) == (IEN_MASTER | IEN_F1);
}

uint16_t card_regs::block_size(unsigned fn) const {
    const uint32_t a = fn == 0 ? F0_BLKSIZE : F1_BLKSIZE;
    return uint16_t(reg_at(a).get() | reg_at(a + 1).get() << 8);
}

uint32_t card_regs::csa_pointer() const {
    return uint32_t(reg_at(CSA_PTR).get()) | uint32_t(reg_at(CSA_PTR + 1).get()) << 8 |
           uint32_t(reg_at(CSA_PTR + 2).get()) << 16;
}

void card_regs::set_csa_pointer(uint32_t p) {
    for (uint32_t i = 0; i < 3; ++i)
        reg_at(CSA_PTR + i).set(uint8_t(p >> (8 * i)));
}

const char* card_regs::name_of(uint32_t addr) {
    static const regs::reg_map<uint8_t>& names = []() -> const regs::reg_map<uint8_t>& {
        static regs::reg_map<uint8_t> m;
        declare(m, card_info{});
        return m;
    }();
    const reg8* r = names.find(0, addr);
    return r && !(r->def().tag & tag_unnamed_in_traces) ? r->name() : nullptr;
}

} // namespace nicsim::sdio

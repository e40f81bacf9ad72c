// SPDX-License-Identifier: MIT
// WILC1000 SDIO function 0: the WILC vendor registers (0xf0-0xfc) declared like the standard
// card registers (sdio::card_regs, which serves everything else), and the CSA data window.
#include <sstream>

#include "models/wilc1000/wilc1000_regmap.h"
#include "models/wilc1000/wilc1000_sdio.h"

using namespace sc_core;

namespace nicsim::wilc {

namespace {

using regs::access;
using sdio::sdio_response;

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// 0xf6 (VMM ctl, pre-enh3): bit 0 TBL0, bit 1 TBL1, bit 2 EN -> core INT_CLEAR layout.
uint32_t vmm_ctl_to_core(uint8_t v) {
    using namespace regmap;
    return (v & 1 ? SEL_VMM_TBL0 : 0) | (v & 2 ? SEL_VMM_TBL1 : 0) | (v & 4 ? EN_VMM : 0);
}
// 0xf8 (IRQ clear, enh3): bits 0-4 CLR_INT0..4, bit 5/6 SEL_VMM_TBL0/1, bit 7 EN_VMM. The
// pre-enh3 driver writes single CLR_INTn bits here, which is the same layout for bits 0-4.
uint32_t irq_clear_to_core(uint8_t v) {
    return uint32_t(v & 0x1f) | uint32_t((v >> 5) & 7) << 6;
}
uint8_t core_to_irq_clear(uint32_t c) {
    return uint8_t(((c >> 6) & 7) << 5);
}
uint8_t core_to_vmm_ctl(uint32_t c) {
    return uint8_t((c >> 6) & 7);
}

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void put_le32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}

} // namespace

// Names are the ones the traces have always shown.
void sdio_frontend::declare_vendor_registers(regs::reg_map<uint8_t>& m) {
    using namespace sdio_reg;
    // Bit 0 of wakeup / host_to_fw / fw_to_host is the core's clockless sleep/wake register.
    m.declare({"wakeup", WAKEUP, 0, 0, access::rw});
    m.declare({"clk_status", CLK_STATUS, 0, 0, access::ro});
    m.declare({"int_size_lo", INT_SIZE_LO, 0, 0, access::ro});
    m.declare({"int_size_hi", INT_SIZE_HI, 0, 0, access::ro});
    m.declare({"vmm_ctl", VMM_CTL, 0, 0, access::rw});
    m.declare({"irq_flag", IRQ_FLAG, 0, 0, access::ro});
    m.declare({"irq_clear", IRQ_CLEAR, 0, 0, access::rw});
    m.declare({"host_to_fw", HOST_TO_FW, 0, 0, access::rw});
    m.declare({"fw_to_host", FW_TO_HOST, 0, 0, access::rw});
    // The CSA data window in FBR1: bytes of the chip's AHB space (csa_byte, csa_transfer).
    m.declare({"csa_data", CSA_DATA, 0, 0, access::rw});
}

void sdio_frontend::attach_vendor_handlers() {
    using namespace sdio_reg;
    auto at = [this](uint32_t a) -> regs::reg<uint8_t>& { return m_vendor.at(0, a); };
    at(WAKEUP).on_write = [this](uint8_t, uint8_t v) {
        m_core.clockless_write(regmap::CL_WAKEUP, (v & 1) ? regmap::WAKEUP_BIT : 0, m_now);
    };
    at(CLK_STATUS).on_read = [this](uint8_t) {
        uint32_t cs = 0;
        m_core.clockless_read(regmap::CL_CLK_STATUS, cs, m_now);
        return uint8_t((cs & regmap::CLK_STATUS_BIT) ? 1 : 0);
    };
    auto int_size = [this](unsigned byte) {
        return [this, byte](uint8_t) {
            return uint8_t((m_core.read_int_status() & regmap::INT_SIZE_MASK) >> (8 * byte));
        };
    };
    at(INT_SIZE_LO).on_read = int_size(0);
    at(INT_SIZE_HI).on_read = int_size(1);
    at(VMM_CTL).on_read = [this](uint8_t) { return core_to_vmm_ctl(m_core.int_clear_readback()); };
    at(VMM_CTL).on_write = [this](uint8_t, uint8_t v) {
        abandon_streams(m_now, "VMM control 0xf6 written");
        m_core.int_clear(vmm_ctl_to_core(v), m_now);
    };
    at(IRQ_FLAG).on_read = [this](uint8_t) { return uint8_t((m_core.int_status() >> 16) & 0x1f); };
    at(IRQ_CLEAR).on_read = [this](uint8_t) {
        return core_to_irq_clear(m_core.int_clear_readback());
    };
    at(IRQ_CLEAR).on_write = [this](uint8_t, uint8_t v) {
        if (v & 0xe0)
            abandon_streams(m_now, "VMM selected again through 0xf8");
        m_core.int_clear(irq_clear_to_core(v), m_now);
    };
    at(HOST_TO_FW).on_write = [this](uint8_t, uint8_t v) {
        m_core.clockless_write(regmap::CL_HOST_TO_FW, (v & 1) ? regmap::HOST_TO_FW_BIT : 0, m_now);
    };
    at(FW_TO_HOST).on_read = [this](uint8_t) {
        uint32_t f = 0;
        m_core.clockless_read(regmap::CL_FW_TO_HOST, f, m_now);
        return uint8_t(f & 1);
    };
    at(FW_TO_HOST).on_write = [this](uint8_t, uint8_t v) {
        m_core.clockless_write(regmap::CL_FW_TO_HOST, v & 1, m_now);
    };
}

const char* sdio_frontend::f0_name(uint32_t addr) {
    static const regs::reg_map<uint8_t>& vendor = []() -> const regs::reg_map<uint8_t>& {
        static regs::reg_map<uint8_t> m;
        declare_vendor_registers(m);
        return m;
    }();
    if (const auto* r = vendor.find(0, addr))
        return r->name();
    return sdio::card_regs::name_of(addr);
}

sdio_frontend::result sdio_frontend::f0_read(uint32_t a, uint8_t& v, sc_time t) {
    if (a == sdio_reg::CSA_DATA)
        return csa_byte(a, v, false, t);
    if (const auto* r = m_vendor.find(0, a)) {
        m_now = t;
        v = r->read();
        return {};
    }
    return from_card(m_card.read(a, v, t), t);
}

sdio_frontend::result sdio_frontend::f0_write(uint32_t a, uint8_t v, sc_time t) {
    if (a == sdio_reg::CSA_DATA)
        return csa_byte(a, v, true, t);
    if (auto* r = m_vendor.find(0, a)) {
        m_now = t;
        return from_card(sdio::write_register(*r, a, v, t, m_card.on_note), t);
    }
    return from_card(m_card.write(a, v, t), t);
}

sdio_frontend::result sdio_frontend::from_card(const sdio::card_result& r, sc_time t) {
    if (r.ok())
        return {};
    return fail(t,
                r.note == sdio::card_note::protocol ? finding_kind::unexpected_frame
                                                    : finding_kind::out_of_range,
                r.rsp, r.text);
}

// One byte through the CSA window at the CSA pointer, which then advances.
sdio_frontend::result sdio_frontend::csa_byte(uint32_t, uint8_t& v, bool write, sc_time t) {
    if (!write)
        v = 0;
    if (!m_card.csa_enabled())
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    write ? "write to the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 "
                            "bit 7)"
                          : "read of the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 "
                            "bit 7)");
    const uint32_t addr = m_card.csa_pointer();
    const access_status s =
        write ? m_core.block_write(addr, &v, 1, t) : m_core.block_read(addr, &v, 1, t);
    if (s != access_status::ok)
        return from_core(
            s, t,
            (write ? "CSA byte write to chip address " : "CSA byte read of chip address ") +
                hex(addr));
    m_card.set_csa_pointer((addr + 1) & 0xffffff);
    ++(write ? m_stats.csa_bytes_written : m_stats.csa_bytes_read);
    return {};
}

// CMD53 through the CSA window.
sdio_frontend::result sdio_frontend::csa_transfer(sdio::sdio_payload& p, sc_time t) {
    if (!m_card.csa_enabled())
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    std::string("CMD53 ") + (p.write ? "write" : "read") +
                        " on the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 bit 7)");
    const size_t n = p.data_bytes();
    const uint32_t addr = m_card.csa_pointer();
    access_status s;
    if (n == 4 && (addr & 3) == 0) {
        // A 4-byte access is a register access (reg_read/reg_write), little-endian on the wire.
        if (p.write) {
            s = m_core.reg_write(addr, le32(p.data), t);
        } else {
            uint32_t v = 0;
            s = m_core.reg_read(addr, v, t);
            put_le32(p.data, v);
        }
    } else {
        s = p.write ? m_core.block_write(addr, p.data, n, t)
                    : m_core.block_read(addr, p.data, n, t);
    }
    if (s != access_status::ok)
        return from_core(s, t,
                         std::string("CSA ") + (p.write ? "write of " : "read of ") +
                             std::to_string(n) + " bytes at chip address " + hex(addr));
    m_card.set_csa_pointer(uint32_t(addr + n) & 0xffffff); // the CSA pointer auto-increments
    (p.write ? m_stats.csa_bytes_written : m_stats.csa_bytes_read) += n;
    return {};
}

} // namespace nicsim::wilc

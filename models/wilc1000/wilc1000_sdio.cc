// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_sdio.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

#include "models/wilc1000/wilc1000_regmap.h"

using namespace sc_core;

namespace nicsim::wilc {

namespace {

using sdio::sdio_response;

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void put_le32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}

// CCCR identity of a SDIO 2.00 card (SDIO spec 6.9): CCCR format 1.20/2.00, SDIO 2.00, SD 2.00.
constexpr uint8_t kCccrRev = 0x32; // [7:4] SDIO 2.00 = 3, [3:0] CCCR 1.20/2.00 = 2
constexpr uint8_t kSdRev = 0x02;   // SD physical spec 2.00
// Card capabilities [assumption]: multi-block CMD53 (SMB; the driver's firmware download uses it)
// and interrupts between blocks of a 4-bit multi-block transfer (S4MI, enabled via E4MI).
constexpr uint8_t kCapSMB = 0x02, kCapS4MI = 0x10, kCapE4MI = 0x20;
constexpr uint8_t kSpeedSHS = 0x01, kSpeedEHS = 0x02; // high speed supported / enabled
// FBR1 standard interface code [assumption]: 7 = SDIO WLAN interface.
constexpr uint8_t kF1InterfaceCode = 0x07;

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

std::string where(unsigned fn, uint32_t addr) {
    return "F" + std::to_string(fn) + " " + hex(addr);
}

} // namespace

sdio_frontend::sdio_frontend(core& c) : m_core(c) {
    const auto& p = c.config();
    if (p.sdio_max_block_size == 0 || p.sdio_max_block_size > 2048)
        throw std::invalid_argument(std::string(c.name()) +
                                    ": sdio_max_block_size must be in [1, 2048] (SDIO limit)");
    build_cis();
}

void sdio_frontend::build_cis() {
    const auto& p = m_core.config();
    const uint8_t blk_lo = uint8_t(p.sdio_max_block_size),
                  blk_hi = uint8_t(p.sdio_max_block_size >> 8);
    // Common CIS: CISTPL_MANFID, CISTPL_FUNCID (SDIO), CISTPL_FUNCE type 0 (F0 max block size,
    // TRAN_SPEED 0x32 = 25 Mbit/s default speed; high speed is announced in CCCR 0x13), END.
    m_cis_common = {0x20,
                    4,
                    uint8_t(p.sdio_vendor_id),
                    uint8_t(p.sdio_vendor_id >> 8),
                    uint8_t(p.sdio_device_id),
                    uint8_t(p.sdio_device_id >> 8),
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
    funce[28] = 10; // [assumption] 100 ms enable timeout (IORx follows IOEx, see params)
    m_cis_f1 = {0x21, 2, 0x0c, 0x00, 0x22, uint8_t(funce.size())};
    m_cis_f1.insert(m_cis_f1.end(), funce.begin(), funce.end());
    m_cis_f1.push_back(0xff);
}

uint8_t sdio_frontend::cis_byte(uint32_t addr) const {
    if (addr >= sdio_reg::CIS_COMMON && addr - sdio_reg::CIS_COMMON < m_cis_common.size())
        return m_cis_common[addr - sdio_reg::CIS_COMMON];
    if (addr >= sdio_reg::CIS_F1 && addr - sdio_reg::CIS_F1 < m_cis_f1.size())
        return m_cis_f1[addr - sdio_reg::CIS_F1];
    return 0x00; // unused CIS space
}

// ---------------------------------------------------------------------------------------------
void sdio_frontend::sdio_transport(sdio::sdio_payload& p, sc_time& delay) {
    const sc_time t = sc_time_stamp() + delay;
    p.response = sdio_response::ok;
    p.error.clear();
    p.r5_flags = 0;
    result r;
    const char* cmd = p.is_cmd52() ? "CMD52" : "CMD53";
    // A transfer window only continues in the very next command (MMC core splitting).
    const uint32_t f0_cont = m_f0_cont, f1_cont = m_f1_cont;
    m_f0_cont = m_f1_cont = no_cont;

    if (!strapped()) {
        r = fail(t, finding_kind::unexpected_frame, sdio_response::no_response,
                 std::string(cmd) + " " + where(p.fn, p.addr) +
                     ": the chip is strapped for SPI (params.bus_strap), the SDIO interface does "
                     "not answer");
    } else if (p.fn > 1) {
        r = fail(t, finding_kind::unknown_command, sdio_response::illegal,
                 std::string(cmd) + " to function " + std::to_string(p.fn) +
                     ": the WILC1000 has only functions 0 and 1");
    } else if (p.addr > 0x1ffff) {
        r = fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                 std::string(cmd) + " " + where(p.fn, p.addr) + ": address exceeds 17 bits");
    } else if (p.is_cmd52()) {
        ++m_stats.cmd52;
        r = cmd52(p, t);
    } else {
        ++m_stats.cmd53;
        r = cmd53(p, t, f0_cont, f1_cont);
    }

    p.response = r.rsp;
    p.error = r.error;
    p.r5_flags =
        p.is_cmd53() && r.rsp == sdio_response::ok ? sdio::r5_state_trn : sdio::r5_state_cmd;
    switch (r.rsp) {
    case sdio_response::ok:
        break;
    case sdio_response::no_response:
        p.r5_flags = 0;
        break;
    case sdio_response::illegal:
        p.r5_flags |= sdio::r5_function_number;
        break;
    case sdio_response::out_of_range:
        p.r5_flags |= sdio::r5_out_of_range;
        break;
    case sdio_response::protocol_error:
        p.r5_flags |= sdio::r5_error;
        break;
    }
    if (r.rsp != sdio_response::ok) {
        ++m_stats.errors;
        if (!p.write && p.data)
            std::memset(p.data, 0, p.is_cmd53() ? p.data_bytes() : 1);
    }
}

sdio_frontend::result sdio_frontend::fail(sc_time t, finding_kind k, sdio_response r,
                                          std::string text) {
    m_core.finding(t, k, text);
    result res;
    res.rsp = r;
    res.error = "wilc1000 SDIO: " + text;
    return res;
}

// The core has already logged the finding for a non-ok access.
sdio_frontend::result sdio_frontend::from_core(access_status s, sc_time, const std::string& what) {
    result res;
    switch (s) {
    case access_status::ok:
        return res;
    case access_status::out_of_range:
        res.rsp = sdio_response::out_of_range;
        res.error = "wilc1000 SDIO: " + what + ": nothing decodes this chip address";
        return res;
    case access_status::clock_off:
        res.rsp = sdio_response::protocol_error;
        res.error = "wilc1000 SDIO: " + what + " while the chip clock is off (0xf1 CLK_STATUS = 0)";
        return res;
    }
    return res;
}

// ---------------------------------------------------------------------------------------------
// CMD52
sdio_frontend::result sdio_frontend::cmd52(sdio::sdio_payload& p, sc_time t) {
    using namespace sdio_reg;
    if (!p.data)
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    "CMD52 " + where(p.fn, p.addr) + ": payload has no data byte");
    if (p.fn == 0) {
        if (!p.write)
            return f0_read(p.addr, *p.data, t);
        result r = f0_write(p.addr, *p.data, t);
        if (r.rsp == sdio_response::ok && p.raw)
            r = f0_read(p.addr, *p.data, t);
        return r;
    }
    // Function 1.
    result r = f1_check_enabled(t, "CMD52");
    if (r.rsp != sdio_response::ok)
        return r;
    if (p.addr == F1_IRQ_FLAG) {
        if (p.write)
            return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                        "CMD52 write to F1 0x4 (IRQ flags) which is read-only");
        *p.data = uint8_t((m_core.int_status() >> 16) & 0x1f);
        return r;
    }
    if (p.addr == F1_DATA)
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    "CMD52 to the F1 data port 0x0: the VMM DMA port is only served by CMD53");
    return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                "CMD52 to F1 register " + hex(p.addr) +
                    ": F1 decodes only 0x0 (data port) and 0x4 (IRQ flags)");
}

uint8_t sdio_frontend::io_ready(sc_time t) const {
    return (m_ioe & sdio_reg::IO_F1) && t >= m_f1_ready_at ? sdio_reg::IO_F1 : 0;
}

sdio_frontend::result sdio_frontend::f1_check_enabled(sc_time t, const char* what) {
    if (io_ready(t))
        return result::ok();
    return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                std::string(what) + " to function 1 while it is not enabled/ready (CCCR IOEx/IORx "
                                    "0x02/0x03 bit 1 = 0)");
}

sdio_frontend::result sdio_frontend::f0_read(uint32_t a, uint8_t& v, sc_time t) {
    using namespace sdio_reg;
    v = 0;
    switch (a) {
    case CCCR_REV:
        v = kCccrRev;
        return {};
    case SD_REV:
        v = kSdRev;
        return {};
    case IOEx:
        v = m_ioe;
        return {};
    case IORx:
        v = io_ready(t);
        return {};
    case IENx:
        v = m_ien;
        return {};
    case INTx:
        // Pending function interrupts; assumption: only reported for an enabled function.
        v = m_core.int0_pending() && (m_ien & IEN_F1) && (m_ioe & IO_F1) ? IO_F1 : 0;
        return {};
    case ABORT:
        return {}; // action bits read 0
    case BUS_IF:
        v = m_bus_if;
        return {};
    case CAPS:
        v = kCapSMB | kCapS4MI | m_caps_e4mi;
        return {};
    case CIS_PTR:
    case CIS_PTR + 1:
    case CIS_PTR + 2:
        v = uint8_t(CIS_COMMON >> (8 * (a - CIS_PTR)));
        return {};
    case BUS_SUSPEND:
    case FN_SELECT:
    case EXEC:
    case READY:
    case POWER:
    case UHS:
    case DRIVE:
    case INT_EXT:
        return {}; // suspend/resume, power control, UHS, async interrupt: not supported
    case F0_BLKSIZE:
    case F0_BLKSIZE + 1:
        v = uint8_t(m_blk[0] >> (8 * (a - F0_BLKSIZE)));
        return {};
    case SPEED:
        v = kSpeedSHS | m_speed_ehs;
        return {};
    // --- WILC vendor registers ---
    case WAKEUP:
        v = m_wakeup;
        return {};
    case CLK_STATUS: {
        uint32_t cs = 0;
        m_core.clockless_read(regmap::CL_CLK_STATUS, cs, t);
        v = (cs & regmap::CLK_STATUS_BIT) ? 1 : 0;
        return {};
    }
    case INT_SIZE_LO:
    case INT_SIZE_HI:
        v = uint8_t((m_core.int_status() & regmap::INT_SIZE_MASK) >> (8 * (a - INT_SIZE_LO)));
        return {};
    case VMM_CTL:
        v = core_to_vmm_ctl(m_core.int_clear_readback());
        return {};
    case IRQ_FLAG:
        v = uint8_t((m_core.int_status() >> 16) & 0x1f);
        return {};
    case IRQ_CLEAR:
        v = core_to_irq_clear(m_core.int_clear_readback());
        return {};
    case HOST_TO_FW:
        v = m_host_to_fw;
        return {};
    case FW_TO_HOST: {
        uint32_t f = 0;
        m_core.clockless_read(regmap::CL_FW_TO_HOST, f, t);
        v = uint8_t(f & 1);
        return {};
    }
    // --- FBR1 ---
    case FBR1:
        v = kF1InterfaceCode | CSA_SUPPORT | m_fbr1;
        return {};
    case FBR1_IF_EXT:
    case FBR1_POWER:
    case 0x103:
    case 0x104:
    case 0x105:
    case 0x106:
    case 0x107:
    case 0x108:
        return {};
    case FBR1_CIS_PTR:
    case FBR1_CIS_PTR + 1:
    case FBR1_CIS_PTR + 2:
        v = uint8_t(CIS_F1 >> (8 * (a - FBR1_CIS_PTR)));
        return {};
    case CSA_PTR:
    case CSA_PTR + 1:
    case CSA_PTR + 2:
        v = uint8_t(m_csa_ptr >> (8 * (a - CSA_PTR)));
        return {};
    case CSA_DATA: {
        if (!(m_fbr1 & CSA_ENABLE))
            return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                        "read of the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 bit 7)");
        const uint32_t addr = m_csa_ptr;
        const access_status s = m_core.block_read(addr, &v, 1, t);
        if (s != access_status::ok)
            return from_core(s, t, "CSA byte read of chip address " + hex(addr));
        m_csa_ptr = (addr + 1) & 0xffffff;
        ++m_stats.csa_bytes_read;
        return {};
    }
    case F1_BLKSIZE:
    case F1_BLKSIZE + 1:
        v = uint8_t(m_blk[1] >> (8 * (a - F1_BLKSIZE)));
        return {};
    default:
        break;
    }
    if (a >= CIS_BASE && a < CIS_END) {
        v = cis_byte(a);
        return {};
    }
    return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                "read of F0 register " + hex(a) +
                    ": not implemented (reserved CCCR/vendor/FBR space or FBR of a missing "
                    "function)");
}

sdio_frontend::result sdio_frontend::f0_write(uint32_t a, uint8_t v, sc_time t) {
    using namespace sdio_reg;
    auto read_only = [&](const char* name) {
        // SDIO: writes to read-only CCCR/FBR bits are ignored; the driver never does it.
        m_core.finding(t, finding_kind::out_of_range,
                       "write " + hex(v) + " to read-only F0 " + hex(a) + " (" + name +
                           ") ignored");
        return result::ok();
    };
    switch (a) {
    case CCCR_REV:
        return read_only("CCCR/SDIO revision");
    case SD_REV:
        return read_only("SD revision");
    case IOEx: {
        const uint8_t nv = v & IO_F1;
        if (nv && !(m_ioe & IO_F1))
            m_f1_ready_at = t + m_core.config().sdio_io_ready_delay;
        if (!nv && (m_ioe & IO_F1))
            abandon_streams(t, "function 1 disabled in IOEx");
        m_ioe = nv;
        update_irq();
        return {};
    }
    case IORx:
        return read_only("IORx");
    case IENx:
        m_ien = v & (IEN_MASTER | IEN_F1);
        update_irq();
        return {};
    case INTx:
        return read_only("INTx");
    case ABORT:
        if (v & ABORT_RES) {
            io_reset(t);
        } else if ((v & ABORT_AS_MASK) == 1) {
            abandon_streams(t, "CCCR ABORT of function 1");
        }
        return {};
    case BUS_IF:
        if ((v & 0x03) == 0x01)
            m_core.finding(t, finding_kind::unexpected_frame,
                           "CCCR bus interface control 0x07 = " + hex(v) +
                               ": bus width 01b is reserved");
        m_bus_if = v & 0xa3; // bus width, ECSI, CD disable (SCSI bit 6 is read-only 0)
        return {};
    case CAPS:
        m_caps_e4mi = v & kCapE4MI;
        return {};
    case CIS_PTR:
    case CIS_PTR + 1:
    case CIS_PTR + 2:
        return read_only("common CIS pointer");
    case BUS_SUSPEND:
    case FN_SELECT:
    case EXEC:
    case READY:
    case POWER:
    case UHS:
    case DRIVE:
    case INT_EXT:
        return read_only("unsupported CCCR feature");
    case F0_BLKSIZE:
    case F0_BLKSIZE + 1: {
        const unsigned sh = 8 * (a - F0_BLKSIZE);
        m_blk[0] = uint16_t((m_blk[0] & ~(0xff << sh)) | v << sh);
        return {};
    }
    case SPEED:
        m_speed_ehs = v & kSpeedEHS;
        return {};
    // --- WILC vendor registers: bit 0 maps onto the core's clockless sleep/wake registers ---
    case WAKEUP:
        m_wakeup = v;
        m_core.clockless_write(regmap::CL_WAKEUP, (v & 1) ? regmap::WAKEUP_BIT : 0, t);
        return {};
    case HOST_TO_FW:
        m_host_to_fw = v;
        m_core.clockless_write(regmap::CL_HOST_TO_FW, (v & 1) ? regmap::HOST_TO_FW_BIT : 0, t);
        return {};
    case FW_TO_HOST:
        m_core.clockless_write(regmap::CL_FW_TO_HOST, v & 1, t);
        return {};
    case CLK_STATUS:
        return read_only("CLK_STATUS");
    case INT_SIZE_LO:
    case INT_SIZE_HI:
        return read_only("interrupt size");
    case IRQ_FLAG:
        return read_only("IRQ flags");
    case VMM_CTL:
        abandon_streams(t, "VMM control 0xf6 written");
        m_core.int_clear(vmm_ctl_to_core(v), t);
        return {};
    case IRQ_CLEAR:
        if (v & 0xe0)
            abandon_streams(t, "VMM selected again through 0xf8");
        m_core.int_clear(irq_clear_to_core(v), t);
        return {};
    // --- FBR1 ---
    case FBR1:
        m_fbr1 = v & CSA_ENABLE; // interface code and CSA support are read-only
        return {};
    case FBR1_IF_EXT:
    case FBR1_POWER:
        return read_only("FBR1 interface/power");
    case FBR1_CIS_PTR:
    case FBR1_CIS_PTR + 1:
    case FBR1_CIS_PTR + 2:
        return read_only("F1 CIS pointer");
    case CSA_PTR:
    case CSA_PTR + 1:
    case CSA_PTR + 2: {
        const unsigned sh = 8 * (a - CSA_PTR);
        m_csa_ptr = (m_csa_ptr & ~(0xffu << sh)) | uint32_t(v) << sh;
        return {};
    }
    case CSA_DATA: {
        if (!(m_fbr1 & CSA_ENABLE))
            return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                        "write to the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 "
                        "bit 7)");
        const uint32_t addr = m_csa_ptr;
        const access_status s = m_core.block_write(addr, &v, 1, t);
        if (s != access_status::ok)
            return from_core(s, t, "CSA byte write to chip address " + hex(addr));
        m_csa_ptr = (addr + 1) & 0xffffff;
        ++m_stats.csa_bytes_written;
        return {};
    }
    case F1_BLKSIZE:
    case F1_BLKSIZE + 1: {
        const unsigned sh = 8 * (a - F1_BLKSIZE);
        m_blk[1] = uint16_t((m_blk[1] & ~(0xff << sh)) | v << sh);
        return {};
    }
    default:
        break;
    }
    if (a >= CIS_BASE && a < CIS_END)
        return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                    "write to F0 " + hex(a) + ": the CIS is read-only");
    return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                "write to F0 register " + hex(a) +
                    ": not implemented (reserved CCCR/vendor/FBR space or FBR of a missing "
                    "function)");
}

// ---------------------------------------------------------------------------------------------
// CMD53
sdio_frontend::result sdio_frontend::cmd53(sdio::sdio_payload& p, sc_time t, uint32_t f0_cont,
                                           uint32_t f1_cont) {
    using namespace sdio_reg;
    const std::string w =
        std::string("CMD53 ") + (p.write ? "write " : "read ") + where(p.fn, p.addr);
    if (!p.data)
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    w + ": payload has no data buffer");
    if (p.block_mode ? (p.count < 1 || p.count > 511 || p.block_size < 1 || p.block_size > 2048)
                     : (p.count < 1 || p.count > 512))
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    w + ": count " + std::to_string(p.count) +
                        (p.block_mode ? " blocks of " + std::to_string(p.block_size) + " bytes"
                                      : " bytes") +
                        " outside the CMD53 limits (1..511 blocks of 1..2048, 1..512 bytes)");
    if (p.block_mode) {
        const uint16_t reg = m_blk[p.fn];
        const uint32_t reg_addr = p.fn == 0 ? F0_BLKSIZE : F1_BLKSIZE;
        if (reg == 0 || reg > m_core.config().sdio_max_block_size || p.block_size != reg)
            return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                        w + ": block size " + std::to_string(p.block_size) + " but the F" +
                            std::to_string(p.fn) + " block size register " + hex(reg_addr) +
                            " holds " + std::to_string(reg) + " (max " +
                            std::to_string(m_core.config().sdio_max_block_size) + ")");
    }
    const size_t n = p.data_bytes();
    if (p.fn == 0) {
        if (p.addr == CSA_DATA || p.addr == f0_cont) {
            result r = csa_transfer(p, t);
            if (r.rsp == sdio_response::ok && p.incr_addr && p.addr + n <= 0x1ffff)
                m_f0_cont = uint32_t(p.addr + n);
            return r;
        }
        // Any other F0 address: byte-wise register access, as CMD52s would do.
        for (size_t i = 0; i < n; ++i) {
            const uint32_t a = p.incr_addr ? uint32_t(p.addr + i) : p.addr;
            result r = p.write ? f0_write(a, p.data[i], t) : f0_read(a, p.data[i], t);
            if (r.rsp != sdio_response::ok)
                return r;
        }
        return {};
    }
    // Function 1: the VMM data port. A split transfer continues at the incremented address.
    result r = f1_check_enabled(t, "CMD53");
    if (r.rsp != sdio_response::ok)
        return r;
    if (p.addr != F1_DATA && p.addr != f1_cont)
        return fail(t, finding_kind::out_of_range, sdio_response::out_of_range,
                    w + ": CMD53 on F1 must address the data port 0x0 (0x4 IRQ flags is CMD52 "
                        "only)");
    r = p.write ? f1_data_write(p.data, n, t) : f1_data_read(p.data, n, t);
    if (r.rsp == sdio_response::ok && p.incr_addr && p.addr + n <= 0x1ffff)
        m_f1_cont = uint32_t(p.addr + n);
    return r;
}

sdio_frontend::result sdio_frontend::csa_transfer(sdio::sdio_payload& p, sc_time t) {
    if (!(m_fbr1 & sdio_reg::CSA_ENABLE))
        return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                    std::string("CMD53 ") + (p.write ? "write" : "read") +
                        " on the CSA window F0 0x10f while CSA is disabled (FBR1 0x100 bit 7)");
    const size_t n = p.data_bytes();
    const uint32_t addr = m_csa_ptr;
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
    m_csa_ptr = uint32_t(addr + n) & 0xffffff; // the CSA pointer auto-increments
    (p.write ? m_stats.csa_bytes_written : m_stats.csa_bytes_read) += n;
    return {};
}

sdio_frontend::result sdio_frontend::f1_data_write(const uint8_t* d, size_t n, sc_time t) {
    if (m_rx_active)
        abandon_streams(t, "F1 write started");
    if (!m_core.clock_ready(t) || !m_core.tx_port_armed()) {
        // Let the core report it (clock off / "VMM TX port not armed").
        m_tx_buf.clear();
        return from_core(m_core.block_write(0, d, n, t), t,
                         "F1 data port write of " + std::to_string(n) + " bytes");
    }
    // The host may split the DMA into a block and a byte-mode CMD53 (wilc_sdio_write): gather
    // until the allocated VMM entries are covered, then hand the whole DMA to the core.
    m_tx_buf.insert(m_tx_buf.end(), d, d + n);
    m_stats.f1_bytes_written += n;
    const uint32_t expected = m_core.tx_port_expected();
    if (expected != 0 && m_tx_buf.size() < expected)
        return {};
    std::vector<uint8_t> dma;
    dma.swap(m_tx_buf);
    return from_core(m_core.block_write(0, dma.data(), dma.size(), t), t,
                     "F1 data port write of " + std::to_string(dma.size()) + " bytes");
}

sdio_frontend::result sdio_frontend::f1_data_read(uint8_t* d, size_t n, sc_time t) {
    if (!m_tx_buf.empty())
        abandon_streams(t, "F1 read started");
    const std::string what = "F1 data port read of " + std::to_string(n) + " bytes";
    if (!m_core.clock_ready(t))
        return from_core(m_core.block_read(0, d, n, t), t, what);
    if (!m_rx_active) {
        if (!m_core.rx_port_armed() || m_core.rx_batch().empty())
            return from_core(m_core.block_read(0, d, n, t), t, what); // the core reports it
        m_rx_active = true;
        m_rx_pos = 0;
    }
    // Serve the announced batch; the core consumes it (INT0 drops, next batch may follow) with
    // the chunk that reaches its end, so the interrupt clears when the whole DMA is done.
    const std::vector<uint8_t>& batch = m_core.rx_batch();
    m_stats.f1_bytes_read += n;
    if (m_rx_pos + n < batch.size()) {
        std::memcpy(d, batch.data() + m_rx_pos, n);
        m_rx_pos += n;
        return {};
    }
    std::vector<uint8_t> all(m_rx_pos + n);
    const access_status s = m_core.block_read(0, all.data(), all.size(), t);
    std::memcpy(d, all.data() + m_rx_pos, n);
    m_rx_active = false;
    m_rx_pos = 0;
    return from_core(s, t, what);
}

void sdio_frontend::abandon_streams(sc_time t, const char* why) {
    if (m_rx_active) {
        m_core.finding(t, finding_kind::unexpected_frame,
                       "F1 RX DMA abandoned after " + std::to_string(m_rx_pos) + " of " +
                           std::to_string(m_core.rx_batch().size()) + " bytes (" + why + ")");
        m_rx_active = false;
        m_rx_pos = 0;
    }
    if (!m_tx_buf.empty()) {
        m_core.finding(t, finding_kind::unexpected_frame,
                       "F1 TX DMA abandoned after " + std::to_string(m_tx_buf.size()) + " of " +
                           std::to_string(m_core.tx_port_expected()) + " bytes (" + why + ")");
        m_tx_buf.clear();
    }
}

void sdio_frontend::io_reset(sc_time t) {
    // CCCR ABORT.RES: the I/O part returns to its reset state. The chip behind it (CPU,
    // firmware, sleep/wake registers) keeps running: the driver resets the SDIO interface on
    // suspend and expects the firmware alive after resume.
    abandon_streams(t, "CCCR ABORT.RES");
    m_ioe = m_ien = m_bus_if = m_caps_e4mi = m_speed_ehs = 0;
    m_blk[0] = m_blk[1] = 0;
    m_fbr1 = 0;
    m_csa_ptr = 0;
    m_f0_cont = m_f1_cont = no_cont;
    update_irq();
}

void sdio_frontend::update_irq() {
    using namespace sdio_reg;
    const bool level = strapped() && m_core.int0_pending() && (m_ioe & IO_F1) &&
                       (m_ien & (IEN_MASTER | IEN_F1)) == (IEN_MASTER | IEN_F1);
    if (level == m_irq)
        return;
    m_irq = level;
    if (level)
        ++m_stats.irq_assertions;
    if (on_irq)
        on_irq(level);
}

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
// WILC1000 SDIO commands: CMD52/CMD53 decoding, R5 responses and errors, the in-band
// interrupt. Function 0 is in wilc1000_sdio_f0.cc, the F1 data port in wilc1000_sdio_f1.cc.
#include "models/wilc1000/wilc1000_sdio.h"

#include "bus/common/local_time.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

using namespace sc_core;

namespace nicsim::wilc {

namespace {

using sdio::sdio_response;

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// What the WILC1000 announces as an SDIO card.
sdio::card_info card_info_of(const params& p) {
    using namespace sdio::card_reg;
    sdio::card_info i;
    i.vendor_id = p.sdio_vendor_id;
    i.device_id = p.sdio_device_id;
    i.max_block_size = p.sdio_max_block_size;
    // Card capabilities [assumption]: multi-block CMD53 (SMB; the driver's firmware download
    // uses it) and interrupts between blocks of a 4-bit multi-block transfer (S4MI, enabled via
    // E4MI).
    i.caps = CAP_SMB | CAP_S4MI;
    // FBR1 standard interface code [assumption]: 7 = SDIO WLAN interface.
    i.f1_interface_code = 0x07;
    i.f1_csa = true;
    i.f1_enable_timeout = 10; // [assumption] 100 ms enable timeout (IORx follows IOEx, see params)
    i.io_ready_delay = p.sdio_io_ready_delay;
    return i;
}

std::string where(unsigned fn, uint32_t addr) {
    return "F" + std::to_string(fn) + " " + hex(addr);
}

} // namespace

sdio_frontend::sdio_frontend(core& c) : m_core(c), m_card(card_info_of(c.config())) {
    const auto& p = c.config();
    if (p.sdio_max_block_size == 0 || p.sdio_max_block_size > 2048)
        throw std::invalid_argument(std::string(c.name()) +
                                    ": sdio_max_block_size must be in [1, 2048] (SDIO limit)");
    declare_vendor_registers(m_vendor);
    attach_vendor_handlers();
    m_card.f1_interrupt = [this] { return m_core.int0_pending(); };
    m_card.on_f1_stop = [this](sc_time t, const char* why) { abandon_streams(t, why); };
    // CCCR ABORT.RES: the chip behind the I/O part (CPU, firmware, sleep/wake registers) keeps
    // running: the driver resets the SDIO interface on suspend and expects the firmware alive.
    m_card.on_io_reset = [this](sc_time) {
        m_f0_cont = m_f1_cont = no_cont;
        update_irq();
    };
    m_card.on_enables = [this] { update_irq(); };
    m_card.on_note = [this](sc_time t, sdio::card_note n, const std::string& text) {
        m_core.finding(t,
                       n == sdio::card_note::protocol ? finding_kind::unexpected_frame
                                                      : finding_kind::out_of_range,
                       text);
    };
}

// ---------------------------------------------------------------------------------------------
bool sdio_frontend::answers_at_local_time(const sdio::sdio_payload& p) const {
    // These read the core at the time given (as reg_read and clockless_read do for the SPI
    // front-end), or only move the CSA pointer: no state another process sees, no event. Writes
    // that reach the core (wake-up, interrupt clear, host-to-firmware, registers, DMA), DMA
    // reads and every command while a fault point is attached run at SystemC time.
    if (p.fn != 0 || !strapped() || faults.crc_error.attached() || faults.timeout.attached())
        return false;
    if (p.is_cmd52()) {
        if (!p.write)
            return p.addr != sdio_reg::CSA_DATA;
        return !p.raw && p.addr >= sdio::card_reg::CSA_PTR && p.addr < sdio::card_reg::CSA_PTR + 3;
    }
    return !p.write && p.addr == sdio_reg::CSA_DATA && p.data_bytes() == 4;
}

void sdio_frontend::sdio_transport(sdio::sdio_payload& p, sc_time& delay) {
    const sc_time t = local_time::now() + delay; // synchronised unless answers_at_local_time(p)
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
    } else if (faults.timeout.attached() && faults.timeout.fires(t)) {
        // The command never reaches the card (or its response is lost): nothing executes.
        r = {sdio_response::no_response,
             std::string(cmd) + " " + where(p.fn, p.addr) + ": no response (fault sdio_timeout)"};
        faults.timeout.effect(t, std::string(cmd) + " " + where(p.fn, p.addr) + " not answered");
    } else if (faults.crc_error.attached() && faults.crc_error.fires(t)) {
        // Writes and CMD52: the card sees a bad CRC and does not execute the command. CMD53
        // reads: the card sends the data, the host finds its CRC16 wrong and discards it.
        if (p.is_cmd53() && !p.write) {
            ++m_stats.cmd53;
            r = cmd53(p, t, f0_cont, f1_cont);
        }
        r = {sdio_response::crc_error,
             std::string(cmd) + " " + where(p.fn, p.addr) + ": CRC error (fault sdio_crc_error)"};
        faults.crc_error.effect(t, std::string(cmd) + (p.write ? " write " : " read ") +
                                       where(p.fn, p.addr) + ": CRC error");
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
    case sdio_response::crc_error:
        p.r5_flags |= sdio::r5_com_crc_error;
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

sdio_frontend::result sdio_frontend::f1_check_enabled(sc_time t, const char* what) {
    if (m_card.f1_ready(t))
        return result::ok();
    return fail(t, finding_kind::unexpected_frame, sdio_response::protocol_error,
                std::string(what) + " to function 1 while it is not enabled/ready (CCCR IOEx/IORx "
                                    "0x02/0x03 bit 1 = 0)");
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
        const uint16_t reg = m_card.block_size(p.fn);
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

void sdio_frontend::update_irq() {
    const bool level = strapped() && m_core.int0_pending() && m_card.f1_irq_enabled();
    if (level == m_irq)
        return;
    m_irq = level;
    if (level)
        ++m_stats.irq_assertions;
    if (on_irq)
        on_irq(level);
}

} // namespace nicsim::wilc

// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_core.h"

#include "bus/common/local_time.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "models/wilc1000/wilc1000_regmap.h"

using namespace sc_core;

namespace nicsim::wilc {

namespace {

constexpr uint32_t kPage = 4096;

uint32_t le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint16_t le16(const uint8_t* p) {
    return uint16_t(p[0] | p[1] << 8);
}
void put_le32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}
void push_le16(std::vector<uint8_t>& v, uint16_t x) {
    v.push_back(uint8_t(x));
    v.push_back(uint8_t(x >> 8));
}
uint32_t align4(uint32_t x) {
    return (x + 3) & ~3u;
}

std::string hex(uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

// Notify `ev` at absolute time `at` (>= now). A caller running ahead of SystemC time (a bus
// access answered at the host's local time) catches up first: a new event changes what the
// host may run ahead over (bus/common/local_time.h).
void notify_at(sc_event& ev, sc_time at) {
    if (local_time::offset() != SC_ZERO_TIME)
        local_time::sync();
    const sc_time now = sc_time_stamp();
    ev.notify(at > now ? at - now : SC_ZERO_TIME);
}

} // namespace

const char* to_string(finding_kind k) {
    switch (k) {
    case finding_kind::bad_crc7:
        return "bad_crc7";
    case finding_kind::bad_crc16:
        return "bad_crc16";
    case finding_kind::unknown_command:
        return "unknown_command";
    case finding_kind::out_of_range:
        return "out_of_range";
    case finding_kind::unexpected_frame:
        return "unexpected_frame";
    case finding_kind::clock_off_access:
        return "clock_off_access";
    case finding_kind::sck_too_fast:
        return "sck_too_fast";
    case finding_kind::firmware:
        return "firmware";
    }
    return "?";
}

core::core(sc_module_name name, const params& p)
    : sc_module(name), m_p(p), m_power(m_p), m_ps(m_p, m_power) {
    const std::string me = this->name();
    if (m_p.rx_pkt_offset < 16 || m_p.rx_pkt_offset > 0xff || (m_p.rx_pkt_offset & 3))
        throw std::invalid_argument(me + ": rx_pkt_offset must be a multiple of 4 in [16, 252] "
                                         "(driver reads addr2 at bytes 10..15; bit 8 = mgmt)");
    if (m_p.firmware_version.size() > 128)
        throw std::invalid_argument(me + ": firmware_version longer than the driver's 128 bytes");
    if (m_p.rx_aggregation_bytes < 4)
        throw std::invalid_argument(me + ": rx_aggregation_bytes must be >= 4");
    if (m_p.tx_vmm_bytes == 0 || m_p.rx_buffer_bytes == 0)
        throw std::invalid_argument(me + ": tx_vmm_bytes and rx_buffer_bytes must be > 0");
    if ((m_p.protocol_config_reset & regmap::PROTO_PKT_SZ_MASK) >> regmap::PROTO_PKT_SZ_SHIFT > 5)
        throw std::invalid_argument(me + ": protocol_config_reset packet size field > 5 (8 KiB)");
    for (const auto& r : m_p.memory) {
        if (r.size == 0 || r.base == 0 || uint64_t(r.base) + r.size > 0x1000000)
            throw std::invalid_argument(me + ": memory region '" + r.name +
                                        "' must be non-empty, above 0 and inside 24 bits");
        for (const auto& o : m_p.memory)
            if (&o != &r && r.base < o.base + o.size && o.base < r.base + r.size)
                throw std::invalid_argument(me + ": memory regions '" + r.name + "' and '" +
                                            o.name + "' overlap");
    }
    declare_registers();

    SC_HAS_PROCESS(core);
    SC_METHOD(boot_done);
    sensitive << m_boot_ev;
    dont_initialize();
    SC_METHOD(cfg_process);
    sensitive << m_cfg_ev;
    dont_initialize();
    SC_METHOD(raise_int0);
    sensitive << m_irq_ev;
    dont_initialize();
    SC_METHOD(ps_timer);
    sensitive << m_ps_ev;
    dont_initialize();
    SC_METHOD(join_done);
    sensitive << m_join_ev;
    dont_initialize();
}

// ---------------------------------------------------------------------------------------------
// Register map (docs/models/wilc1000.md mirrors this table).
void core::declare_registers() {
    using namespace regmap;
    using A = regs::access;
    // One 32-bit register, the whole word of access kind `acc`, with optional handlers.
    auto reg = [this](uint32_t addr, const char* name, uint32_t reset, A acc,
                      std::function<uint32_t(uint32_t)> rd = nullptr,
                      std::function<void(uint32_t, uint32_t)> wr = nullptr) {
        auto& r = m_regs.declare({name, addr, 0, reset, acc});
        r.on_read = std::move(rd);
        r.on_write = std::move(wr);
    };
    reg(CHIPID, "CHIPID", 0, A::ro,
        [this](uint32_t) { return m_p.fault_wrong_chip_id ? m_p.fault_chip_id : m_p.chip_id; });
    reg(HOST_TX_CTRL, "HOST_TX_CTRL", 0, A::rw, [this](uint32_t) { return host_tx_ctrl_value(); });
    reg(HOST_RX_CTRL_0, "HOST_RX_CTRL_0", 0, A::rw);
    reg(HOST_RX_CTRL_1, "HOST_RX_CTRL_1", 0, A::rw);
    reg(HOST_VMM_CTL, "HOST_VMM_CTL", 0, A::rw, nullptr, [this](uint32_t, uint32_t v) {
        if (v & VMM_CTL_REQUEST) {
            vmm_request(m_now);
        } else if (v == 0 && !m_vmm_alloc.empty()) {
            // Host gave up on an allocation (driver timeout path): release it.
            for (uint32_t b : m_vmm_alloc)
                m_vmm_used -= b;
            m_vmm_alloc.clear();
            update_busy(m_now);
        }
    });
    reg(HOST_RX_CTRL, "HOST_RX_CTRL", 0, A::rw);
    reg(HOST_RX_EXTRA_SIZE, "HOST_RX_EXTRA_SIZE", 0, A::rw);
    reg(HOST_TX_CTRL_1, "HOST_TX_CTRL_1", 0, A::rw);
    reg(CHANGING_VIR_IF, "CHANGING_VIR_IF", 0, A::rw);
    reg(CORTUS_INTERRUPT_1, "CORTUS_INTERRUPT_1", 0, A::rw);
    reg(CORTUS_INTERRUPT_2, "CORTUS_INTERRUPT_2", 0, A::rw);
    reg(CORTUS_RESET_MUX_SEL, "CORTUS_RESET_MUX_SEL", 0, A::rw);
    reg(FW_HOST_COMM, "FW_HOST_COMM", 0, A::rw);
    reg(RF_REVISION_ID, "RF_REVISION_ID", 0, A::ro,
        [this](uint32_t) { return m_p.rf_revision_id; });
    reg(GLB_RESET_0, "GLB_RESET_0", 0, A::rw, nullptr, [this](uint32_t o, uint32_t v) {
        if ((o ^ v) & GLB_RESET_CPU_RUN)
            cpu_run_changed(v & GLB_RESET_CPU_RUN, m_now);
    });
    reg(PIN_MUX_0, "PIN_MUX_0", 0, A::rw, nullptr,
        [this](uint32_t, uint32_t) { update_irq_pin(); });
    reg(MISC, "MISC", 0, A::rw);
    // The 6.12 driver's eFuse MAC banks and WiFi enable bits (wilc1000_regmap.h).
    static const char* const nv_names[NVMEM_BANKS][2] = {
        {"NVMEM_BANK0_LO", "NVMEM_BANK0_HI"}, {"NVMEM_BANK1_LO", "NVMEM_BANK1_HI"},
        {"NVMEM_BANK2_LO", "NVMEM_BANK2_HI"}, {"NVMEM_BANK3_LO", "NVMEM_BANK3_HI"},
        {"NVMEM_BANK4_LO", "NVMEM_BANK4_HI"}, {"NVMEM_BANK5_LO", "NVMEM_BANK5_HI"}};
    for (unsigned i = 0; i < NVMEM_BANKS; ++i) {
        const uint32_t off = i < 2 ? NVMEM_LOW_BANK + 32 * i : NVMEM_HIGH_BANK + 16 * (i - 2);
        const auto& m = m_p.mac_addr;
        const uint32_t lo =
            i ? 0 : NVMEM_BANK_USED | uint32_t(m[0]) << 16 | uint32_t(m[1]) << 8 | m[2];
        const uint32_t hi =
            i ? 0 : uint32_t(m[3]) << 24 | uint32_t(m[4]) << 16 | uint32_t(m[5]) << 8;
        for (const uint32_t base : {NVMEM_BANK_BASE, 0u}) {
            reg(base + off, nv_names[i][0], lo, A::ro);
            reg(base + off + 4, nv_names[i][1], hi, A::ro);
        }
    }
    reg(GLOBAL_MODE_CONTROL, "GLOBAL_MODE_CONTROL", 1u << 0, A::rw);
    reg(PWR_SEQ_MISC_CTRL, "PWR_SEQ_MISC_CTRL", 1u << 28, A::rw);
    reg(GP_REG_0, "GP_REG_0", 0, A::rw);
    reg(GP_REG_1, "GP_REG_1", 0, A::rw);
    reg(INTR_ENABLE, "INTR_ENABLE", 0, A::rw, nullptr,
        [this](uint32_t, uint32_t) { update_irq_pin(); });
    reg(INTR2_ENABLE, "INTR2_ENABLE", 0, A::rw);
    reg(INTR_POLARITY, "INTR_POLARITY", 0, A::rw);
    reg(INTR_TYPE, "INTR_TYPE", 0, A::rw);
    reg(INTR_CLEAR, "INTR_CLEAR", 0, A::rw);
    reg(INTR_STATUS, "INTR_STATUS", 0, A::rw);
    reg(REG_4_TO_1_RX, "REG_4_TO_1_RX", 0, A::rw);
    reg(REG_4_TO_1_TX_BANK0, "REG_4_TO_1_TX_BANK0", 0, A::rw);
    reg(CORTUS_BOOT_REGISTER, "CORTUS_BOOT_REGISTER", 0, A::rw);
    static const char* const vmm_names[] = {"VMM_CORE_CTL",  "VMM_TBL_CTL",      "VMM_TBL_ENTRY",
                                            "VMM_TBL0_SIZE", "VMM_TO_HOST_SIZE", "VMM_CORE_CFG"};
    for (uint32_t i = 0; i < 5; ++i)
        reg(VMM_BASE + 4 * i, vmm_names[i], 0, A::rw);
    // The driver writes 1 on SPI and bit 3 on SDIO (wilc_wlan_start); a value naming the other
    // bus than the strap is a host configuration error.
    reg(VMM_CORE_CFG, vmm_names[5], 0, A::rw, nullptr, [this](uint32_t, uint32_t v) {
        const bool strap_sdio = m_p.bus_strap == host_bus::sdio;
        if ((strap_sdio && (v & VMM_CORE_CFG_SPI)) || (!strap_sdio && (v & VMM_CORE_CFG_SDIO)))
            finding(m_now, finding_kind::unexpected_frame,
                    "VMM_CORE_CFG = " + hex(v) + " selects " + (strap_sdio ? "SPI" : "SDIO") +
                        " but the chip is strapped for " + (strap_sdio ? "SDIO" : "SPI"));
    });
    reg(VMM_BASE + 0x20, "VMM_TBL_ACTIVE", 0, A::rw);
    reg(VMM_BASE + 0x44, "VMM_TBL_STATUS", 0, A::rw);

    reg(SPI_CTL, "SPI_CTL", 0, A::rw);
    reg(SPI_MASTER_DMA_ADDR, "SPI_MASTER_DMA_ADDR", 0, A::rw);
    reg(SPI_MASTER_DMA_COUNT, "SPI_MASTER_DMA_COUNT", 0, A::rw);
    reg(SPI_SLAVE_DMA_ADDR, "SPI_SLAVE_DMA_ADDR", 0, A::rw);
    reg(SPI_SLAVE_DMA_COUNT, "SPI_SLAVE_DMA_COUNT", 0, A::rw);
    reg(SPI_TX_MODE, "SPI_TX_MODE", 0, A::rw);
    reg(SPI_PROTOCOL_CONFIG, "SPI_PROTOCOL_CONFIG", m_p.protocol_config_reset, A::rw, nullptr,
        [this](uint32_t, uint32_t v) {
            if (((v & PROTO_PKT_SZ_MASK) >> PROTO_PKT_SZ_SHIFT) > 5) {
                finding(m_now, finding_kind::unexpected_frame,
                        "PROTOCOL_CONFIG packet size field > 5 (" + hex(v) +
                            "): the chip uses 8 KiB");
            }
        });
    reg(SPI_INTR_CTL, "SPI_INTR_CTL", 0, A::rw);
    reg(SPI_INT_STATUS, "SPI_INT_STATUS", 0, A::ro, [this](uint32_t) { return read_int_status(); });
    reg(
        SPI_INT_CLEAR, "SPI_INT_CLEAR", 0, A::rw, [this](uint32_t) { return m_int_clear_readback; },
        [this](uint32_t, uint32_t v) { int_clear_write(v, m_now); });
}

uint32_t core::host_tx_ctrl_value() const {
    // bit 0 (busy) is always 0: the model's firmware never holds the host off this way.
    // Per-AC counts of frames waiting in the chip; ACM bits 1/8/16/24 are 0.
    auto sat = [](unsigned v, unsigned max) { return std::min(v, max); };
    return sat(m_ac_count[0], 127) << 25 | sat(m_ac_count[1], 127) << 17 |
           sat(m_ac_count[2], 127) << 9 | sat(m_ac_count[3], 31) << 3;
}

// ---------------------------------------------------------------------------------------------
// Memory.
const mem_region* core::region_of(uint32_t addr, size_t n) const {
    for (const auto& r : m_p.memory)
        if (addr >= r.base && uint64_t(addr) + n <= uint64_t(r.base) + r.size)
            return &r;
    return nullptr;
}

void core::mem_write(uint32_t addr, const uint8_t* p, size_t n) {
    while (n) {
        const uint32_t page = addr & ~(kPage - 1), off = addr - page;
        const size_t k = std::min<size_t>(n, kPage - off);
        auto& pg = m_pages[page];
        if (!pg) {
            pg = std::make_unique<uint8_t[]>(kPage);
            std::memset(pg.get(), 0, kPage);
        }
        std::memcpy(pg.get() + off, p, k);
        addr += uint32_t(k);
        p += k;
        n -= k;
    }
}

void core::mem_read(uint32_t addr, uint8_t* p, size_t n) const {
    while (n) {
        const uint32_t page = addr & ~(kPage - 1), off = addr - page;
        const size_t k = std::min<size_t>(n, kPage - off);
        auto it = m_pages.find(page);
        if (it == m_pages.end())
            std::memset(p, 0, k);
        else
            std::memcpy(p, it->second.get() + off, k);
        addr += uint32_t(k);
        p += k;
        n -= k;
    }
}

void core::mem_peek(uint32_t addr, uint8_t* p, size_t n) const {
    mem_read(addr, p, n);
}

uint64_t core::mem_bytes_written(const std::string& region) const {
    auto it = m_region_written.find(region);
    return it == m_region_written.end() ? 0 : it->second;
}

std::vector<uint8_t> core::wid_value(uint16_t wid) const {
    auto it = m_wids.find(wid);
    return it == m_wids.end() ? std::vector<uint8_t>{} : it->second;
}

// ---------------------------------------------------------------------------------------------
// Bus-facing accesses.
access_status core::clockless_read(uint32_t off, uint32_t& v, sc_time t) {
    using namespace regmap;
    m_now = t;
    m_power.host_access(t);
    switch (off) {
    case CL_WAKEUP:
        v = m_cl_wakeup;
        return access_status::ok;
    case CL_HOST_TO_FW:
        v = m_cl_h2f;
        return access_status::ok;
    case CL_FW_TO_HOST:
        v = m_cl_f2h;
        return access_status::ok;
    case CL_CLK_STATUS:
        v = (!m_p.fault_clk_status_stuck && clock_ready(t)) ? CLK_STATUS_BIT : 0;
        if (v && faults.clk_flapping.fires(t)) {
            v = 0;
            faults.clk_flapping.effect(t, "CLK_STATUS read 0 with the clock running");
        }
        m_power.clk_status_read(t, v != 0);
        return access_status::ok;
    default:
        v = 0;
        finding(t, finding_kind::out_of_range, "clockless read of undecoded offset " + hex(off));
        return access_status::out_of_range;
    }
}

access_status core::clockless_write(uint32_t off, uint32_t v, sc_time t) {
    using namespace regmap;
    m_now = t;
    m_power.host_access(t);
    switch (off) {
    case CL_WAKEUP:
        m_cl_wakeup = v;
        break;
    case CL_HOST_TO_FW:
        m_cl_h2f = v;
        break;
    case CL_FW_TO_HOST:
        m_cl_f2h = v;
        return access_status::ok;
    case CL_CLK_STATUS:
        return access_status::ok; // read-only status, write ignored
    default:
        finding(t, finding_kind::out_of_range, "clockless write to undecoded offset " + hex(off));
        return access_status::out_of_range;
    }
    m_power.set_host_bits(t, m_cl_wakeup & WAKEUP_BIT, m_cl_h2f & HOST_TO_FW_BIT);
    return access_status::ok;
}

access_status core::reg_read(uint32_t addr, uint32_t& v, sc_time t) {
    m_now = t;
    v = 0;
    m_power.host_access(t);
    if (sdio_vendor_on_spi(addr))
        return access_status::ok;
    if (!clock_ready(t)) {
        finding(t, finding_kind::clock_off_access,
                "register read " + hex(addr) + " while the chip clock is off");
        return access_status::clock_off;
    }
    if (const auto* r = m_regs.find(0, addr)) {
        v = r->read();
        return access_status::ok;
    }
    if (region_of(addr, 4)) {
        uint8_t b[4];
        mem_read(addr, b, 4);
        v = le32(b);
        return access_status::ok;
    }
    finding(t, finding_kind::out_of_range, "read of unmapped address " + hex(addr));
    return access_status::out_of_range;
}

access_status core::reg_write(uint32_t addr, uint32_t v, sc_time t) {
    m_now = t;
    m_power.host_access(t);
    if (sdio_vendor_on_spi(addr))
        return access_status::ok;
    if (!clock_ready(t)) {
        finding(t, finding_kind::clock_off_access,
                "register write " + hex(addr) + " while the chip clock is off");
        return access_status::clock_off;
    }
    if (auto* r = m_regs.find(0, addr)) {
        if (r->mask(regs::access::ro) == ~0u) // write ignored
            finding(t, finding_kind::out_of_range,
                    std::string("write to read-only register ") + r->name());
        else
            r->write(v);
        return access_status::ok;
    }
    if (const mem_region* r = region_of(addr, 4)) {
        uint8_t b[4];
        put_le32(b, v);
        mem_write(addr, b, 4);
        m_region_written[r->name] += 4;
        return access_status::ok;
    }
    finding(t, finding_kind::out_of_range, "write to unmapped address " + hex(addr));
    return access_status::out_of_range;
}

access_status core::block_write(uint32_t addr, const uint8_t* p, size_t n, sc_time t) {
    m_now = t;
    m_power.host_access(t);
    if (!clock_ready(t)) {
        finding(t, finding_kind::clock_off_access,
                "block write " + hex(addr) + " while the chip clock is off");
        return access_status::clock_off;
    }
    if (addr == 0 && m_tx_port_armed) {
        tx_port_write(p, n, t);
        return access_status::ok;
    }
    if (const mem_region* r = region_of(addr, n)) {
        mem_write(addr, p, n);
        m_region_written[r->name] += n;
        return access_status::ok;
    }
    finding(t, finding_kind::out_of_range,
            "block write of " + std::to_string(n) + " bytes to unmapped address " + hex(addr) +
                (addr == 0 ? " (VMM TX port not armed by INT_CLEAR)" : ""));
    return access_status::out_of_range;
}

access_status core::block_read(uint32_t addr, uint8_t* p, size_t n, sc_time t) {
    // Every path below fills all n bytes, with zeros where there is no data.
    m_now = t;
    m_power.host_access(t);
    if (!clock_ready(t)) {
        std::memset(p, 0, n);
        finding(t, finding_kind::clock_off_access,
                "block read " + hex(addr) + " while the chip clock is off");
        return access_status::clock_off;
    }
    if (addr == 0 && m_rx_port_armed) {
        rx_port_read(p, n, t);
        return access_status::ok;
    }
    if (region_of(addr, n)) {
        mem_read(addr, p, n);
        return access_status::ok;
    }
    std::memset(p, 0, n);
    finding(t, finding_kind::out_of_range,
            "block read of " + std::to_string(n) + " bytes from unmapped address " + hex(addr) +
                (addr == 0 ? " (VMM RX port not armed by INT_CLEAR)" : ""));
    return access_status::out_of_range;
}

// ---------------------------------------------------------------------------------------------
// Interrupt logic.
void core::int_clear_write(uint32_t v, sc_time t) {
    using namespace regmap;
    // CLR_INTn bits act and self-clear; the VMM select/enable bits read back (the driver checks
    // EN_VMM after every write).
    m_int_clear_readback = v & (SEL_VMM_TBL0 | SEL_VMM_TBL1 | EN_VMM);
    if (v & CLR_INT0) {
        m_int_status &= ~INT0;
        update_irq_pin();
    }
    m_tx_port_armed = (v & EN_VMM) && (v & SEL_VMM_TBL0);
    m_rx_port_armed = (v & EN_VMM) && (v & SEL_VMM_TBL1);
    (void)t;
}

uint32_t core::tx_port_expected() const {
    uint32_t n = 0;
    for (uint32_t b : m_vmm_alloc)
        n += b;
    return n;
}

const std::vector<uint8_t>& core::rx_batch() const {
    static const std::vector<uint8_t> none;
    return m_batch_posted ? m_rx_batch : none;
}

void core::update_irq_pin() {
    using namespace regmap;
    const bool int0 = (m_int_status & INT0) != 0;
    if (int0 != m_int0_reported) {
        m_int0_reported = int0;
        if (on_int0)
            on_int0(int0);
    }
    const bool pin_enabled = m_regs.at(0, PIN_MUX_0).test(PIN_MUX_IRQ) &&
                             m_regs.at(0, INTR_ENABLE).test(INTR_ENABLE_INT0);
    const bool high = !((m_int_status & INT0) && pin_enabled);
    if (high == m_irq_high)
        return;
    m_irq_high = high;
    if (!high)
        ++m_stats.irq_falling_edges;
    if (on_irq)
        on_irq(high);
}

void core::update_busy(sc_time t) {
    // What the firmware holds for the host: it finishes all of it before it sleeps.
    const bool host_work = m_booting || !m_cfg_jobs.empty() || !m_vmm_alloc.empty() ||
                           !m_rx_q.empty() || m_batch_posted;
    // ... and on the air: frames waiting for the radio to leave doze, frames on their way, a
    // frame being received.
    const bool air_work =
        !m_tx_hold.empty() || !m_tx_inflight.empty() || m_radio_rx || m_radio_tx;
    m_power.set_fw_busy(t, host_work, air_work);
}

// ---------------------------------------------------------------------------------------------
// Firmware: boot.
void core::cpu_run_changed(bool run, sc_time t) {
    if (run) {
        m_cpu_running = true;
        uint64_t iram = 0;
        for (const auto& r : m_p.memory)
            if (r.name == "iram")
                iram = mem_bytes_written(r.name);
        if (iram == 0) {
            finding(t, finding_kind::firmware,
                    "CPU started (GLB_RESET_0 bit 10) with no firmware downloaded to IRAM: "
                    "the firmware does not boot");
            return;
        }
        m_booting = true;
        notify_at(m_boot_ev, t + m_p.boot_delay);
        update_busy(t);
        return;
    }
    // CPU halted: the firmware state is lost.
    m_cpu_running = m_fw_ready = m_booting = false;
    m_boot_ev.cancel();
    m_ps_mode = 0;
    m_ps_change_pending = false;
    m_wids.clear();
    m_cfg_jobs.clear();
    m_rx_q.clear();
    m_rx_batch.clear();
    m_batch_posted = false;
    m_rx_used = 0;
    m_int_status = 0;
    for (uint32_t b : m_vmm_alloc)
        m_vmm_used -= b;
    m_vmm_alloc.clear();
    m_regs.at(0, regmap::HOST_VMM_CTL).set(0);
    update_irq_pin();
    m_power.set_ps_enabled(t, false);
    m_ps.reset(t);
    leave_bss(t); // after the reset: a halted firmware sends no frame to the AP
    for (const held_frame& h : m_tx_hold)
        m_vmm_used -= h.vmm_bytes;
    m_tx_hold.clear();
    arm_ps_timer();
    m_power.set_radio_on(t, false);
    update_busy(t);
}

void core::boot_done() {
    if (!m_booting)
        return;
    const sc_time t = sc_time_stamp();
    m_booting = false;
    m_fw_ready = true;
    m_power.set_radio_on(t, true); // the firmware brings the RF up and listens
    if (!m_p.fault_no_fw_ready && !fw_silent(t, "no 'I' status message after boot")) {
        // 'I' status message: [type][id][len16][WID_STATUS le16][len8][status][le32 drv].
        std::vector<uint8_t> f = {'I', 0, 12, 0, 0x05, 0x00, 0x01, m_p.init_status, 0, 0, 0, 0};
        put_le32(&f[8], m_p.init_drv_handler);
        queue_rx(true, f.data(), f.size(), t);
    }
    update_busy(t);
}

// ---------------------------------------------------------------------------------------------
// Firmware: TX VMM handshake.
void core::vmm_request(sc_time t) {
    using namespace regmap;
    ++m_stats.vmm_alloc_requests;
    if (fw_silent(t, "VMM allocation request not answered"))
        return;
    if (faults.tx_full.fires(t)) {
        // Answered as a full VMM: BIT2 with 0 entries (the driver's VMM_ENTRY_FULL_RETRY).
        ++m_stats.vmm_alloc_full;
        faults.tx_full.effect(t, "VMM allocation answered with 0 entries (TX buffer full)");
        m_regs.at(0, regmap::HOST_VMM_CTL).set(regmap::VMM_ENTRY_AVAILABLE);
        update_busy(t);
        return;
    }
    if (!m_fw_ready) {
        finding(t, finding_kind::firmware,
                "HOST_VMM_CTL request while the firmware is not running: not answered");
        return;
    }
    if (!m_vmm_alloc.empty()) {
        finding(t, finding_kind::firmware,
                "new VMM request while " + std::to_string(m_vmm_alloc.size()) +
                    " allocated entries were never filled: released");
        for (uint32_t b : m_vmm_alloc)
            m_vmm_used -= b;
        m_vmm_alloc.clear();
    }
    uint8_t tbl[4 * VMM_TBL_SIZE];
    mem_read(VMM_TABLE, tbl, sizeof tbl);
    uint32_t free = m_p.tx_vmm_bytes - m_vmm_used;
    for (unsigned i = 0; i < VMM_TBL_SIZE - 1; ++i) {
        const uint32_t e = le32(&tbl[4 * i]);
        const uint32_t bytes = (e & VMM_TBL_WORDS_MASK) * 4;
        if (bytes == 0)
            break;
        if (bytes > free)
            break; // allocate a prefix of the table
        free -= bytes;
        m_vmm_used += bytes;
        m_vmm_alloc.push_back(bytes);
    }
    const uint32_t n = uint32_t(m_vmm_alloc.size());
    if (n == 0)
        ++m_stats.vmm_alloc_full;
    m_regs.at(0, HOST_VMM_CTL).set(VMM_ENTRY_AVAILABLE | (n << VMM_ENTRY_COUNT_SHIFT));
    update_busy(t);
}

void core::tx_port_write(const uint8_t* p, size_t n, sc_time t) {
    using namespace regmap;
    m_tx_port_armed = false;
    m_int_clear_readback &= ~EN_VMM;
    size_t off = 0, k = 0;
    uint32_t expect = 0;
    for (uint32_t b : m_vmm_alloc)
        expect += b;
    for (; k < m_vmm_alloc.size() && off + 4 <= n; ++k) {
        const uint32_t hdr = le32(p + off);
        const uint32_t buff = hdr & TXH_BUFF_SIZE_MASK;
        const uint32_t len = (hdr >> TXH_PKT_SIZE_SHIFT) & 0x7fff;
        const uint32_t alloc = m_vmm_alloc[k];
        if (buff == 0 || off + buff > n) {
            finding(t, finding_kind::firmware,
                    "VMM entry " + std::to_string(k) + " header " + hex(hdr) +
                        " has a buffer size outside the DMA");
            break;
        }
        if (buff != alloc)
            finding(t, finding_kind::firmware,
                    "VMM entry " + std::to_string(k) + " header size " + std::to_string(buff) +
                        " != allocated " + std::to_string(alloc));
        const uint8_t* e = p + off;
        if (hdr & TXH_TYPE_CFG) {
            if (TX_CFG_OFFSET + len > buff) {
                finding(t, finding_kind::firmware, "CFG entry length exceeds its buffer");
                m_vmm_used -= alloc;
            } else {
                m_cfg_jobs.push_back(
                    {t + m_p.cfg_response_delay,
                     std::vector<uint8_t>(e + TX_CFG_OFFSET, e + TX_CFG_OFFSET + len)});
                ++m_stats.cfg_frames;
                m_vmm_used -= alloc; // copied into the firmware's own config buffer
                notify_at(m_cfg_ev, m_cfg_jobs.front().due);
            }
        } else if (hdr & TXH_MGMT) {
            ++m_stats.tx_mgmt_dropped; // no 802.11 management in the model
            m_vmm_used -= alloc;
        } else if (TX_NET_OFFSET + len > buff) {
            finding(t, finding_kind::firmware, "NET entry length exceeds its buffer");
            m_vmm_used -= alloc;
        } else {
            const unsigned ac = le32(e + 4) & 3;
            send_to_air(std::vector<uint8_t>(e + TX_NET_OFFSET, e + TX_NET_OFFSET + len), ac, alloc,
                        t);
        }
        off += buff;
    }
    if (off != n || n != expect)
        finding(t, finding_kind::firmware,
                "TX DMA of " + std::to_string(n) + " bytes, entries cover " + std::to_string(off) +
                    ", allocation was " + std::to_string(expect));
    for (; k < m_vmm_alloc.size(); ++k)
        m_vmm_used -= m_vmm_alloc[k]; // allocated but not filled
    m_vmm_alloc.clear();
    m_regs.at(0, HOST_VMM_CTL).set(0);
    update_busy(t);
}

void core::send_to_air(std::vector<uint8_t> frame, unsigned ac, uint32_t vmm_bytes, sc_time t) {
    if (!m_air) {
        ++m_stats.tx_frames_to_air;
        m_stats.tx_bytes_to_air += frame.size();
        m_tx_unlinked.push_back(std::move(frame));
        m_vmm_used -= vmm_bytes;
        return;
    }
    if (m_join != join_state::associated) {
        // Not associated: there is no one to send a data frame to.
        ++m_stats.tx_dropped_unassociated;
        m_vmm_used -= vmm_bytes;
        return;
    }
    ++m_stats.tx_frames_to_air;
    m_stats.tx_bytes_to_air += frame.size();
    const bool radio_up = m_ps.uplink(t);
    arm_ps_timer();
    if (!radio_up || !m_tx_hold.empty()) {
        m_tx_hold.push_back({std::move(frame), ac, vmm_bytes});
        return;
    }
    const uint64_t id = m_air->station_send(std::move(frame));
    m_tx_inflight[id] = {ac, vmm_bytes};
    ++m_ac_count[ac];
}

// ---------------------------------------------------------------------------------------------
// Firmware: configuration frames ('W' set, 'Q' query -> 'R' reply).
// The link statistics the driver queries every 5 s while connected (hif.c wilc_get_statistics):
// the link speed in whole Mbit/s (the station's PHY rate, 0 while not associated; the driver
// enables its TCP ACK filter above 54 unless it reads 72, docs/models/wilc1000.md "Statistics
// and the TCP ACK filter"), the frame counters from the air link, and the RSSI as the last value
// set (0: the model has no radio level). Other WIDs: nullopt.
std::optional<std::vector<uint8_t>> core::statistic(uint16_t wid) const {
    using namespace regmap;
    const bool joined = m_air && m_join == join_state::associated;
    auto le32v = [](uint64_t v) {
        std::vector<uint8_t> b(4);
        put_le32(b.data(), uint32_t(v));
        return b;
    };
    switch (wid) {
    case WID_LINKSPEED:
        return std::vector<uint8_t>{
            uint8_t(joined ? std::min(255.0, std::floor(m_air->params().phy_rate_bps / 1e6)) : 0)};
    case WID_SUCCESS_FRAME_COUNT:
        return le32v(m_air ? m_air->stats().station_frames : 0);
    case WID_RECEIVED_FRAGMENT_COUNT:
        return le32v(m_air ? m_air->stats().peer_frames : 0);
    case WID_FAILED_COUNT:
        return le32v(m_air ? m_air->stats().station_frames_lost : 0);
    default:
        return std::nullopt;
    }
}

void core::cfg_process() {
    const sc_time now = sc_time_stamp();
    while (!m_cfg_jobs.empty() && m_cfg_jobs.front().due <= now) {
        std::vector<uint8_t> f = std::move(m_cfg_jobs.front().frame);
        m_cfg_jobs.pop_front();
        handle_cfg(f, now);
    }
    if (!m_cfg_jobs.empty())
        notify_at(m_cfg_ev, m_cfg_jobs.front().due);
    update_busy(now);
}

void core::handle_cfg(const std::vector<uint8_t>& f, sc_time t) {
    using namespace regmap;
    if (f.size() < 8) {
        finding(t, finding_kind::firmware, "config frame shorter than its 8-byte header");
        return;
    }
    const uint8_t type = f[0], seq = f[1];
    size_t total = le16(&f[2]);
    if (total < 8 || total > f.size()) {
        finding(t, finding_kind::firmware,
                "config frame total_len " + std::to_string(total) + " != frame of " +
                    std::to_string(f.size()));
        total = f.size();
    }
    std::vector<uint8_t> reply = {'R', seq, 0, 0};
    if (type == 'W') {
        size_t i = 8;
        while (i + 4 <= total) {
            const uint16_t wid = le16(&f[i]);
            const uint16_t len = le16(&f[i + 2]);
            const unsigned wtype = (wid >> 12) & 0xf;
            const size_t vlen = len + (wtype == 4 ? 1 : 0); // BIN carries a checksum byte
            if (i + 4 + vlen > total) {
                finding(t, finding_kind::firmware, "'W' WID " + hex(wid) + " runs past the frame");
                break;
            }
            const uint8_t* v = &f[i + 4];
            if (wtype == 4) {
                uint8_t sum = 0;
                for (size_t j = 0; j < len; ++j)
                    sum = uint8_t(sum + v[j]);
                if (sum != v[len])
                    finding(t, finding_kind::firmware, "'W' BIN WID " + hex(wid) + " bad checksum");
            }
            m_wids[wid].assign(v, v + len);
            m_wid_log.push_back({t, 'W', wid, m_wids[wid]});
            if (wid == WID_JOIN_REQ_EXTENDED)
                start_join(v, len, le32(&f[4]), t); // le32 driver handler of the frame header
            if (wid == WID_DISCONNECT)
                leave_bss(t);
            if (wid == WID_POWER_MANAGEMENT && len >= 1) {
                // Takes effect once the host has fetched the reply (see apply_ps_mode): the driver
                // sets power_save_mode only after the 'R', and reads it without a wake-up.
                m_ps_mode = v[0];
                m_ps_change_pending = true;
            }
            if (wid == WID_LISTEN_INTERVAL && len >= 1)
                m_ps.set_listen_interval(v[0]);
            i += 4 + vlen;
        }
    } else if (type == 'Q') {
        for (size_t i = 8; i + 2 <= total; i += 2) {
            const uint16_t wid = le16(&f[i]);
            const unsigned wtype = (wid >> 12) & 0xf;
            std::vector<uint8_t> val;
            m_wid_log.push_back({t, 'Q', wid, {}});
            if (wid == WID_ASSOC_RES_INFO) {
                val = m_assoc_resp; // empty unless associated
            } else if (wid == WID_FIRMWARE_VERSION) {
                val.assign(m_p.firmware_version.begin(), m_p.firmware_version.end());
            } else if (wid == WID_MAC_ADDR) {
                val.assign(m_p.mac_addr.begin(), m_p.mac_addr.end());
            } else if (const auto stat = statistic(wid)) {
                val = *stat;
            } else if (wtype <= 2) {
                val = wid_value(wid);
                val.resize(size_t(1) << wtype, 0); // CHAR 1, SHORT 2, INT 4 bytes
            } else if (wtype == 3) {
                val = wid_value(wid);
            } else {
                // BIN and unknown types: the driver's reply parser cannot step over them.
                finding(t, finding_kind::firmware,
                        "'Q' of WID " + hex(wid) + " (type " + std::to_string(wtype) +
                            ") not answered");
                continue;
            }
            push_le16(reply, wid);
            push_le16(reply, uint16_t(val.size()));
            reply.insert(reply.end(), val.begin(), val.end());
        }
    } else {
        finding(t, finding_kind::firmware,
                "config frame of unknown type " + hex(type) + ": not answered");
        return;
    }
    if (m_p.fault_cfg_unanswered)
        return;
    if (fw_silent(t, "config frame not answered"))
        return;
    if (faults.cfg_reply_lost.fires(t)) {
        faults.cfg_reply_lost.effect(t, std::string("reply to the '") + char(type) +
                                            "' config frame lost");
        return;
    }
    reply[2] = uint8_t(reply.size());
    reply[3] = uint8_t(reply.size() >> 8);
    ++m_stats.cfg_replies;
    queue_rx(true, reply.data(), reply.size(), t);
}

// ---------------------------------------------------------------------------------------------
// RX: chip -> host.
void core::queue_rx(bool cfg, const uint8_t* payload, size_t len, sc_time t) {
    using namespace regmap;
    const uint32_t off = m_p.rx_pkt_offset;
    const uint32_t total = align4(off + uint32_t(len));
    if (len == 0 || len > RXH_LEN_MASK || total > 0x7ff) {
        finding(t, finding_kind::firmware,
                "RX packet of " + std::to_string(len) +
                    " bytes does not fit the 11-bit RX header fields: dropped");
        ++m_stats.rx_frames_dropped;
        return;
    }
    rx_packet pk;
    pk.bytes.assign(total, 0);
    const uint32_t hdr =
        (cfg ? RXH_CFG : 0) | off << RXH_OFFSET_SHIFT | total << RXH_TOTAL_SHIFT | uint32_t(len);
    put_le32(&pk.bytes[0], hdr);
    if (!cfg) {
        // The driver reads the "802.11 header" addr1/addr2 here and drops the frame unless
        // addr2 equals the BSSID it associated with.
        std::copy(m_p.mac_addr.begin(), m_p.mac_addr.end(), pk.bytes.begin() + 4);
        const auto& bssid = m_join == join_state::associated ? m_join_req.bssid : m_p.bssid;
        std::copy(bssid.begin(), bssid.end(), pk.bytes.begin() + 10);
    }
    std::memcpy(&pk.bytes[off], payload, len);
    m_rx_used += total;
    m_rx_q.push_back(std::move(pk));
    update_busy(t);
    try_post_batch(t);
}

// Moves queued frames into the batch, up to the aggregation limit.
void core::fill_batch() {
    while (!m_rx_q.empty()) {
        const size_t sz = m_rx_q.front().bytes.size();
        if (!m_rx_batch.empty() && m_rx_batch.size() + sz > m_p.rx_aggregation_bytes)
            break;
        if (m_rx_batch.size() + sz > size_t(regmap::INT_SIZE_MASK) * 4)
            break;
        m_rx_batch.insert(m_rx_batch.end(), m_rx_q.front().bytes.begin(),
                          m_rx_q.front().bytes.end());
        m_rx_q.pop_front();
    }
}

void core::try_post_batch(sc_time t) {
    if (m_batch_posted && !m_batch_sized) {
        // The size register is live until the host reads it: frames that arrive before then
        // join the announced batch (docs/models/wilc1000.md "Firmware functional model", RX).
        fill_batch();
        if (m_int_status & regmap::INT0)
            m_int_status = announced_status();
        return;
    }
    if (m_batch_posted || m_rx_q.empty() || !m_fw_ready)
        return;
    m_rx_batch.clear();
    fill_batch();
    m_batch_posted = true;
    m_batch_sized = false;
    update_busy(t); // wakes the chip if it was asleep
    const sc_time at = std::max(t + m_p.irq_delay, m_power.ready_time(t));
    notify_at(m_irq_ev, at);
}

void core::raise_int0() {
    if (!m_batch_posted || m_rx_batch.empty())
        return;
    const sc_time t = sc_time_stamp();
    if (!clock_ready(t)) {
        notify_at(m_irq_ev, m_power.ready_time(t));
        return;
    }
    ++m_stats.rx_batches;
    m_int_status = announced_status();
    update_irq_pin();
    update_busy(t);
}

void core::rx_port_read(uint8_t* p, size_t n, sc_time t) {
    m_rx_port_armed = false;
    m_int_clear_readback &= ~regmap::EN_VMM;
    if (!m_batch_posted || m_rx_batch.empty()) {
        std::memset(p, 0, n);
        finding(t, finding_kind::firmware,
                "RX DMA read of " + std::to_string(n) + " bytes with no RX data pending");
        return;
    }
    if (n != m_rx_batch.size())
        finding(t, finding_kind::firmware,
                "RX DMA read of " + std::to_string(n) + " bytes, " +
                    std::to_string(m_rx_batch.size()) + " were announced in INT_STATUS");
    const size_t k = std::min(n, m_rx_batch.size());
    std::memcpy(p, m_rx_batch.data(), k);
    std::memset(p + k, 0, n - k);
    m_rx_used -= uint32_t(m_rx_batch.size());
    m_rx_batch.clear();
    m_batch_posted = false;
    m_int_status = 0;
    update_irq_pin();
    update_busy(t);
    if (m_air)
        m_air->station_ready();
    try_post_batch(t);
    apply_ps_mode(t);
}

void core::apply_ps_mode(sc_time t) {
    if (!m_ps_change_pending || m_batch_posted || !m_rx_q.empty() || !m_cfg_jobs.empty())
        return;
    m_ps_change_pending = false;
    m_power.set_ps_enabled(t, m_fw_ready && m_ps_mode != 0);
    update_station_ps(t);
}

void core::update_station_ps(sc_time t) {
    m_ps.set_enabled(t, m_fw_ready && m_ps_mode != 0 && m_join == join_state::associated);
    if (m_ps.take_uplink_ready())
        release_held_tx();
    arm_ps_timer();
}

// ---------------------------------------------------------------------------------------------
// Firmware: the connect sequence (wilc1000_join.h).
void core::start_join(const uint8_t* v, size_t len, uint32_t drv_handler, sc_time t) {
    join_request r;
    std::string err;
    if (!parse_join_request(v, len, drv_handler, r, err)) {
        finding(t, finding_kind::firmware, err + ": no join");
        return;
    }
    if (m_join == join_state::associated)
        leave_bss(t); // a new join replaces the association
    ++m_join_stats.requests;
    m_join_stats.requested_at = t;
    m_join_req = std::move(r);
    m_join = join_state::joining;
    m_join_ev.cancel();
    notify_at(m_join_ev, t + m_p.join_time);
}

// The exchange with the AP is over: the AP answered (associated, 'I' connected) or did not
// (the firmware waits; the driver's connect timer gives up and sends WID_DISCONNECT).
void core::join_done() {
    const sc_time t = sc_time_stamp();
    if (m_join != join_state::joining || !m_fw_ready)
        return;
    const join_request& r = m_join_req;
    if (!m_air || !m_air->station_join(r.bssid, r.ssid, r.channel)) {
        m_join = join_state::unanswered;
        ++m_join_stats.unanswered;
        if (m_air && m_air->params().associated)
            finding(t, finding_kind::firmware,
                    "join request for SSID '" + r.ssid + "' channel " + std::to_string(r.channel) +
                        " does not name the AP's BSS ('" + m_air->params().bss.ssid + "' channel " +
                        std::to_string(m_air->params().bss.channel) + "): unanswered");
        return;
    }
    m_join = join_state::associated;
    ++m_join_stats.associations;
    m_join_stats.associated_at = t;
    m_assoc_resp = assoc_response(r, m_p.assoc_id);
    if (!fw_silent(t, "no 'I' connect status after the join")) {
        const std::vector<uint8_t> f = status_message(mac_status_connected, r.drv_handler);
        queue_rx(true, f.data(), f.size(), t);
    }
    if (!m_ps_change_pending) // otherwise apply_ps_mode starts power save with the new mode
        update_station_ps(t);
}

void core::leave_bss(sc_time t) {
    if (m_join == join_state::idle)
        return;
    ++m_join_stats.leaves;
    m_join = join_state::idle;
    m_join_ev.cancel();
    m_assoc_resp.clear();
    if (m_air)
        m_air->station_leave();
    update_station_ps(t);
}

// Re-notifies only when the deadline moved: frames in the active state do not move it.
void core::arm_ps_timer() {
    const sc_time next = m_ps.next_event();
    if (next == m_ps_armed)
        return;
    m_ps_armed = next;
    m_ps_ev.cancel();
    if (next > SC_ZERO_TIME)
        notify_at(m_ps_ev, next);
}

void core::ps_timer() {
    const sc_time t = sc_time_stamp();
    m_ps_armed = SC_ZERO_TIME; // fired
    m_ps.timer(t, tx_idle());
    if (m_ps.take_uplink_ready())
        release_held_tx();
    arm_ps_timer();
}

// The radio is up again: the frames the host handed over while it dozed go to the air.
void core::release_held_tx() {
    while (!m_tx_hold.empty()) {
        held_frame h = std::move(m_tx_hold.front());
        m_tx_hold.pop_front();
        const uint64_t id = m_air->station_send(std::move(h.bytes));
        m_tx_inflight[id] = {h.ac, h.vmm_bytes};
        ++m_ac_count[h.ac];
    }
}

void core::inject_rx_frame(std::vector<uint8_t> eth_frame) {
    const sc_time t = sc_time_stamp();
    ++m_stats.rx_frames_from_air;
    m_stats.rx_bytes_from_air += eth_frame.size();
    queue_rx(false, eth_frame.data(), eth_frame.size(), t);
}

// ---------------------------------------------------------------------------------------------
// Air side.
void core::attach_air(air_link& link) {
    m_air = &link;
    m_ps.attach(&link);
    link.attach_station(*this);
    link.station_leave(); // associated only once the firmware has joined (join_done)
}

bool core::air_can_receive(size_t bytes) const {
    return m_fw_ready &&
           m_rx_used + align4(m_p.rx_pkt_offset + uint32_t(bytes)) <= m_p.rx_buffer_bytes;
}

void core::air_tx_started(const air_frame&) {
    const sc_time t = sc_time_stamp();
    m_radio_tx = true;
    m_power.set_radio(t, m_radio_tx, m_radio_rx);
}

void core::air_tx_done(const air_frame& f) {
    const sc_time t = sc_time_stamp();
    m_radio_tx = false;
    auto it = m_tx_inflight.find(f.id);
    if (it != m_tx_inflight.end()) {
        m_vmm_used -= it->second.vmm_bytes;
        --m_ac_count[it->second.ac];
        m_tx_inflight.erase(it);
    }
    // Power save first, so a radio that dozes after this frame goes from tx straight to doze.
    m_ps.sent(t, f, tx_idle());
    arm_ps_timer();
    m_power.set_radio(t, m_radio_tx, m_radio_rx);
    update_busy(t);
}

void core::air_rx_started(const air_frame& f) {
    const sc_time t = sc_time_stamp();
    // A dozing radio hears nothing (the AP buffers unicast frames for it; see station_ps).
    m_rx_unheard = !m_ps.hears(f);
    if (m_rx_unheard)
        return;
    m_radio_rx = true;
    m_power.set_radio(t, m_radio_tx, m_radio_rx);
    update_busy(t); // the radio wakes the chip
}

void core::air_rx_done(air_frame f) {
    const sc_time t = sc_time_stamp();
    if (m_rx_unheard) {
        m_rx_unheard = false;
        if (f.kind == air_kind::data) { // on the air but lost: counted in and dropped
            m_ps.frame_missed();
            ++m_stats.rx_frames_from_air;
            ++m_stats.rx_frames_dropped;
        }
        return;
    }
    m_radio_rx = false;
    m_ps.received(t, f); // before the meter: rx goes straight to doze when power save dozes
    arm_ps_timer();
    m_power.set_radio(t, m_radio_tx, m_radio_rx);
    if (f.kind == air_kind::beacon) { // the firmware's own: nothing goes to the host
        update_busy(t);
        return;
    }
    if (!m_fw_ready) {
        ++m_stats.rx_frames_dropped;
        update_busy(t);
        return;
    }
    ++m_stats.rx_frames_from_air;
    m_stats.rx_bytes_from_air += f.bytes.size();
    if (fw_silent(t, "frame from the air not passed to the host")) {
        ++m_stats.rx_frames_dropped;
        update_busy(t);
        return;
    }
    if (faults.rx_overrun.fires(t)) {
        ++m_stats.rx_frames_dropped;
        faults.rx_overrun.effect(t, "frame from the air dropped: RX buffer overrun");
        update_busy(t);
        return;
    }
    queue_rx(false, f.bytes.data(), f.bytes.size(), t);
    update_busy(t);
}

// ---------------------------------------------------------------------------------------------
// Faults (docs/faults.md).
bool core::clock_ready_faulted(bool ready, sc_time t) {
    if (!faults.wake_stuck.active(t)) {
        m_wake_blocked = false;
        return ready;
    }
    // Inside the window a chip that stopped its clock (asleep or waking) never gets it back.
    if (!ready && !m_wake_blocked) {
        m_wake_blocked = true;
        faults.wake_stuck.effect(t, "chip clock stopped: wake-up will not complete");
    }
    return ready && !m_wake_blocked;
}

bool core::fw_silent(sc_time t, const char* what) {
    if (!faults.fw_silent.active(t))
        return false;
    faults.fw_silent.effect(t, what);
    return true;
}

} // namespace nicsim::wilc

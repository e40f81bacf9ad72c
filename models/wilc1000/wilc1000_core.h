// SPDX-License-Identifier: MIT
// WILC1000 chip core, independent of the host bus: register file, sparse memory, interrupt
// logic, VMM TX/RX buffers, the firmware functional model (boot, config WIDs, frame hand-off to
// the air) and the power state machine. Bus front-ends (wilc1000_spi, wilc1000_sdio) translate
// wire transactions into the calls below, so a register behaves the same on every bus.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "bus/common/reg.h"
#include "models/air/air_link.h"
#include "models/common/fault_point.h"
#include "models/wilc1000/wilc1000_findings.h"
#include "models/wilc1000/wilc1000_join.h"
#include "models/wilc1000/wilc1000_params.h"
#include "models/wilc1000/wilc1000_power.h"
#include "models/wilc1000/wilc1000_regmap.h"
#include "models/wilc1000/wilc1000_station_ps.h"

namespace nicsim::wilc {

enum class access_status {
    ok,
    out_of_range, // nothing decodes this address (reads return 0, writes are dropped)
    clock_off,    // clocked access while the chip clock is stopped
};

struct core_stats {
    uint64_t tx_frames_to_air = 0, tx_bytes_to_air = 0; // NET frames handed to the air link
    uint64_t tx_mgmt_dropped = 0;
    uint64_t tx_dropped_unassociated = 0; // NET frames dropped: no association
    uint64_t cfg_frames = 0, cfg_replies = 0;
    uint64_t rx_frames_from_air = 0, rx_bytes_from_air = 0;
    uint64_t rx_frames_dropped = 0; // no buffer space / not representable
    uint64_t rx_batches = 0;        // interrupts raised (INT0 assertions)
    uint64_t irq_falling_edges = 0;
    uint64_t vmm_alloc_requests = 0, vmm_alloc_full = 0;
};

// Fault points of the chip core (models/common/fault_point.h, docs/faults.md).
struct core_faults {
    fault::point cfg_reply_lost{"cfg_reply_lost"};    // per config frame: no 'R'
    fault::point fw_silent{"fw_silent"};              // window: the firmware does nothing
    fault::point clk_flapping{"clk_status_flapping"}; // per CLK_STATUS read while ready: reads 0
    fault::point wake_stuck{"wake_never_completes"};  // window: a sleeping chip's clock stays off
    fault::point tx_full{"tx_buffer_full"};           // per VMM request: answered full
    fault::point rx_overrun{"rx_overrun"};            // per frame from the air: dropped
    fault::point_list all() {
        return {&cfg_reply_lost, &fw_silent, &clk_flapping, &wake_stuck, &tx_full, &rx_overrun};
    }
};

// One WID of a config frame the firmware processed (observation: the connect sequence's order).
struct wid_record {
    sc_core::sc_time t; // when the firmware processed the frame
    char type;          // 'W' set or 'Q' query
    uint16_t wid;
    std::vector<uint8_t> value; // 'W' only
};

class core : public sc_core::sc_module, public air_station_if {
  public:
    core(sc_core::sc_module_name name, const params& p);

    core_faults faults;

    // ---- bus-independent access; t = simulated time of the access ----
    access_status clockless_read(uint32_t off, uint32_t& v, sc_core::sc_time t);
    access_status clockless_write(uint32_t off, uint32_t v, sc_core::sc_time t);
    access_status reg_read(uint32_t addr, uint32_t& v, sc_core::sc_time t);
    access_status reg_write(uint32_t addr, uint32_t v, sc_core::sc_time t);
    access_status block_write(uint32_t addr, const uint8_t* p, size_t n, sc_core::sc_time t);
    access_status block_read(uint32_t addr, uint8_t* p, size_t n, sc_core::sc_time t);
    // The power model's clock, unless wake_never_completes holds it off.
    bool clock_ready(sc_core::sc_time t) {
        const bool ready = m_power.clock_ready(t);
        if (!faults.wake_stuck.attached())
            return ready;
        return clock_ready_faulted(ready, t);
    }

    uint32_t protocol_config() const { return m_regs.at(0, regmap::SPI_PROTOCOL_CONFIG).get(); }

    // ---- host-interface interrupt/VMM state (SDIO exposes it in F0/F1 registers) ----
    // INT_STATUS: [14:0] announced RX batch in words, bit 16 INT0 (same value SPI reads at 0xe840).
    uint32_t int_status() const { return m_int_status; }
    // The host reads the announced size (SPI INT_STATUS, SDIO 0xf2/0xf3): the batch is fixed
    // from here; until then frames that arrive join it.
    uint32_t read_int_status() {
        m_batch_sized = m_batch_posted;
        return m_int_status;
    }
    bool int0_pending() const { return (m_int_status & regmap::INT0) != 0; }
    // INT_CLEAR write (SPI layout: bit 0 CLR_INT0, bit 6/7 SEL_VMM_TBL0/1, bit 8 EN_VMM) and the
    // bits that read back.
    void int_clear(uint32_t v, sc_core::sc_time t) {
        m_now = t;
        int_clear_write(v, t);
    }
    uint32_t int_clear_readback() const { return m_int_clear_readback; }
    bool tx_port_armed() const { return m_tx_port_armed; }
    bool rx_port_armed() const { return m_rx_port_armed; }
    // Bytes the armed TX port expects: the sum of the allocated VMM entries (0 = none allocated).
    uint32_t tx_port_expected() const;
    // The RX batch announced (or about to be) in INT_STATUS; empty when none is pending.
    const std::vector<uint8_t>& rx_batch() const;

    // ---- outputs ----
    // IRQ pin level (true = high = inactive; the pin is active low).
    std::function<void(bool high)> on_irq;
    bool irq_level() const { return m_irq_high; }
    // INT0 pending changed (independent of the pin routing): the SDIO in-band interrupt source.
    std::function<void(bool pending)> on_int0;

    // ---- air side ----
    void attach_air(air_link& link);
    bool air_can_receive(size_t bytes) const override;
    void air_tx_started(const air_frame& f) override;
    void air_tx_done(const air_frame& f) override;
    void air_rx_started(const air_frame& f) override;
    void air_rx_done(air_frame f) override;

    // ---- observation ----
    const params& config() const { return m_p; }
    finding_log& findings() { return m_findings; }
    const finding_log& findings() const { return m_findings; }
    power_model& power() { return m_power; }
    const station_ps& power_save() const { return m_ps; }
    const core_stats& stats() const { return m_stats; }
    const regs::reg_map<uint32_t>& registers() const { return m_regs; }
    bool cpu_running() const { return m_cpu_running; }
    bool firmware_ready() const { return m_fw_ready; }
    uint8_t fw_power_mode() const { return m_ps_mode; }
    // Last value the host set for a WID ('W'), empty if never set.
    std::vector<uint8_t> wid_value(uint16_t wid) const;
    // Every WID of every config frame processed, in order.
    const std::vector<wid_record>& wid_log() const { return m_wid_log; }
    // The firmware's association (wilc1000_join.h): data frames flow only while associated.
    join_state join() const { return m_join; }
    const join_request& join_request_received() const { return m_join_req; }
    const join_stats& join_statistics() const { return m_join_stats; }
    // Sparse memory peek (tests): bytes never written read as 0.
    void mem_peek(uint32_t addr, uint8_t* p, size_t n) const;
    uint64_t mem_bytes_written(const std::string& region) const;
    // Frames handed to the air when no air link is attached (tests without a link).
    const std::vector<std::vector<uint8_t>>& tx_frames_unlinked() const { return m_tx_unlinked; }

    // Queue a frame as if it had arrived from the air (tests without a link).
    void inject_rx_frame(std::vector<uint8_t> eth_frame);

    void finding(sc_core::sc_time t, finding_kind k, std::string text) {
        m_findings.add(t, k, std::move(text));
    }

    // The firmware's config decoder: what one config frame from the host's TX port does ('W'
    // sets WIDs and starts what they start, 'Q' queues the 'R' reply), at time t. The TX port
    // path calls it; public for the fuzz target fuzz/fuzz_wilc1000_config.cc.
    void config_frame(const std::vector<uint8_t>& f, sc_core::sc_time t) { handle_cfg(f, t); }

  private:
    struct rx_packet {
        std::vector<uint8_t> bytes; // header + pad + payload, padded to 4
    };
    struct tx_inflight {
        unsigned ac;
        uint32_t vmm_bytes;
    };
    struct cfg_job {
        sc_core::sc_time due;
        std::vector<uint8_t> frame;
    };

    bool clock_ready_faulted(bool ready, sc_core::sc_time t);
    // The pre-5.17 driver's chip_allow_sleep wrote the SDIO vendor sleep registers (0xf0, 0xfa)
    // on SPI too, where they are AHB addresses no document describes: the model reads 0 and
    // ignores writes there [assumption], so that driver's allow-sleep costs its bus time only.
    bool sdio_vendor_on_spi(uint32_t addr) const {
        return m_p.bus_strap == host_bus::spi && addr >= regmap::SDIO_VENDOR_FIRST &&
               addr <= regmap::SDIO_VENDOR_LAST;
    }
    bool fw_silent(sc_core::sc_time t, const char* what);
    void declare_registers();
    const mem_region* region_of(uint32_t addr, size_t n) const;
    void mem_write(uint32_t addr, const uint8_t* p, size_t n);
    void mem_read(uint32_t addr, uint8_t* p, size_t n) const;

    // firmware model
    void cpu_run_changed(bool run, sc_core::sc_time t);
    void boot_done();
    void vmm_request(sc_core::sc_time t);
    void tx_port_write(const uint8_t* p, size_t n, sc_core::sc_time t);
    void rx_port_read(uint8_t* p, size_t n, sc_core::sc_time t);
    void cfg_process();
    void handle_cfg(const std::vector<uint8_t>& f, sc_core::sc_time t);
    std::optional<std::vector<uint8_t>> statistic(uint16_t wid) const;
    void queue_rx(bool cfg, const uint8_t* payload, size_t len, sc_core::sc_time t);
    void fill_batch();
    // INT_STATUS for the batch: INT0 and its size in words.
    uint32_t announced_status() const {
        return regmap::INT0 | (uint32_t(m_rx_batch.size() / 4) & regmap::INT_SIZE_MASK);
    }
    void try_post_batch(sc_core::sc_time t);
    void raise_int0();
    void int_clear_write(uint32_t v, sc_core::sc_time t);
    void update_irq_pin();
    // Applies a received WID_POWER_MANAGEMENT once every reply the host waits for is fetched.
    void apply_ps_mode(sc_core::sc_time t);
    // 802.11 power save runs while power save is on and the firmware is associated.
    void update_station_ps(sc_core::sc_time t);
    // The connect sequence (wilc1000_join.h): a join request starts the exchange with the AP,
    // join_done() reports it to the host; WID_DISCONNECT or a CPU halt leaves the BSS.
    void start_join(const uint8_t* v, size_t len, uint32_t drv_handler, sc_core::sc_time t);
    void join_done();
    void leave_bss(sc_core::sc_time t);
    void update_busy(sc_core::sc_time t);
    // 802.11 power save (wilc1000_station_ps.h): its timer, and the frames held while the radio
    // wakes for them.
    void ps_timer();
    void arm_ps_timer();
    void release_held_tx();
    bool tx_idle() const { return m_tx_inflight.empty() && m_tx_hold.empty(); }
    void send_to_air(std::vector<uint8_t> frame, unsigned ac, uint32_t vmm_bytes,
                     sc_core::sc_time t);
    uint32_t host_tx_ctrl_value() const;

    params m_p;
    sc_core::sc_time m_now; // time of the bus access being served (register handlers)
    finding_log m_findings;
    power_model m_power;
    station_ps m_ps;
    regs::reg_map<uint32_t> m_regs; // declared once (bus/common/reg.h), see declare_registers
    core_stats m_stats;

    // clockless registers
    uint32_t m_cl_wakeup = 0, m_cl_h2f = 0, m_cl_f2h = 0;

    // sparse memory, 4 KiB pages
    std::unordered_map<uint32_t, std::unique_ptr<uint8_t[]>> m_pages;
    std::map<std::string, uint64_t> m_region_written;

    // firmware state
    bool m_cpu_running = false, m_fw_ready = false, m_booting = false;
    uint8_t m_ps_mode = 0;
    bool m_ps_change_pending = false; // WID_POWER_MANAGEMENT received, reply not fetched yet
    std::map<uint16_t, std::vector<uint8_t>> m_wids;
    sc_core::sc_event m_boot_ev, m_cfg_ev, m_irq_ev, m_ps_ev, m_join_ev;
    sc_core::sc_time m_ps_armed; // when m_ps_ev is due (SC_ZERO_TIME: not armed)
    std::deque<cfg_job> m_cfg_jobs;
    std::vector<wid_record> m_wid_log;
    join_state m_join = join_state::idle;
    join_request m_join_req;
    std::vector<uint8_t> m_assoc_resp; // WID_ASSOC_RES_INFO while associated
    join_stats m_join_stats;

    // TX VMM
    std::vector<uint32_t> m_vmm_alloc; // bytes per allocated entry, awaiting the data DMA
    uint32_t m_vmm_used = 0;           // reserved + in flight to the air
    bool m_tx_port_armed = false, m_rx_port_armed = false;
    std::map<uint64_t, tx_inflight> m_tx_inflight; // by air frame id
    std::array<unsigned, 4> m_ac_count{};
    std::vector<std::vector<uint8_t>> m_tx_unlinked;
    struct held_frame {
        std::vector<uint8_t> bytes;
        unsigned ac;
        uint32_t vmm_bytes;
    };
    std::deque<held_frame> m_tx_hold; // waiting for the radio to leave doze
    air_link* m_air = nullptr;
    bool m_radio_tx = false, m_radio_rx = false;
    bool m_rx_unheard = false; // the frame arriving now started while the radio dozed

    // RX
    std::deque<rx_packet> m_rx_q;
    std::vector<uint8_t> m_rx_batch; // advertised/being read
    bool m_batch_posted = false;     // batch built, INT0 raised or scheduled
    bool m_batch_sized = false;      // the host has read the batch's size: it no longer grows
    uint32_t m_rx_used = 0;          // queued + batch bytes
    uint32_t m_int_status = 0;
    uint32_t m_int_clear_readback = 0;
    bool m_irq_high = true;
    bool m_int0_reported = false; // last INT0 state passed to on_int0
    bool m_wake_blocked = false;  // wake_never_completes: the clock stopped inside the window
};

} // namespace nicsim::wilc

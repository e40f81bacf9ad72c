// SPDX-License-Identifier: MIT
#include "trace/trace_session.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "bus/common/local_time.h"
#include "bus/sdio/sdio_vcd_tracer.h"
#include "bus/spi/spi_vcd_tracer.h"
#include "kernel/include/lx_kit/runtime.h"
#include "core/config/units.h"
#include "core/run_error.h"

namespace nicsim::trace {

using sc_core::sc_time;

namespace {

window window_of(const config::trace_config& c) {
    window w;
    if (c.window_start.ps < 0 || c.window_end.ps < 0)
        throw run_error("trace.window_start/window_end: must not be negative");
    w.start_ps = uint64_t(c.window_start.ps);
    if (c.window_end.ps > 0)
        w.end_ps = uint64_t(c.window_end.ps);
    if (w.end_ps < w.start_ps)
        throw run_error("trace.window_end: must be after trace.window_start");
    return w;
}

std::string one_token(const char* s) {
    std::string t = s ? s : "";
    for (char& c : t)
        if (c == ' ' || c == '\t')
            c = '_';
    return t;
}

// Spans on the lanes of a bus process, for decoders.
class lane_annotations : public bus_annotations {
  public:
    lane_annotations(trace_session& s, trace_session::bus_track& b) : m_s(s), m_b(b) {}
    void span(std::string_view lane, std::string_view name, uint64_t a, uint64_t b,
              std::string_view args) override {
        if (auto* tl = m_s.timeline())
            tl->span(m_b.pid, m_s.lane(m_b, lane), name, a, b, args);
    }
    void instant(std::string_view lane, std::string_view name, uint64_t t,
                 std::string_view args) override {
        if (auto* tl = m_s.timeline())
            tl->instant(m_b.pid, m_s.lane(m_b, lane), name, t, args);
    }

  private:
    trace_session& m_s;
    trace_session::bus_track& m_b;
};

// The pin-level part file of a bus (written by the bus's vcd tracer, merged into the VCD when the
// run ends) is a temporary file: with a size limit, it takes frames until it has grown past the
// limit (looked at every few frames), then the VCD ends at the first frame it did not take.
class part_budget {
  public:
    bool take(trace_session& s, const std::string& path, int part, uint64_t frame_ps) {
        if (m_full)
            return false;
        vcd_writer* v = s.vcd();
        if (!v || v->max_bytes() == 0 || ++m_frames % 16 != 0)
            return true;
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        if (ec || size <= v->max_bytes())
            return true;
        m_full = true;
        v->truncate_part(part, frame_ps);
        return false;
    }

  private:
    uint64_t m_frames = 0;
    bool m_full = false;
};

// ---- SPI ------------------------------------------------------------------------------------

class spi_adapter : public trace_session::adapter, public spi::spi_observer {
  public:
    spi_adapter(trace_session& s, spi::spi_host& host, const std::string& bus,
                std::unique_ptr<spi_decoder> dec, const std::string& vcd_path)
        : m_s(s), m_bus(s.add_bus(bus)), m_dec(std::move(dec)), m_ann(s, m_bus) {
        if (!m_dec)
            m_dec = std::make_unique<generic_spi_decoder>();
        if (vcd_writer* v = s.vcd()) {
            // spi_vcd_tracer owns the pin-level reconstruction of a frame; its file becomes one
            // stream of the merged VCD.
            const std::string part = vcd_path + "." + bus + ".part";
            m_tracer = std::make_unique<spi::spi_vcd_tracer>(part, host.num_cs(), bus);
            m_part_path = part;
            std::map<std::string, int> names;
            const int stream = v->new_stream();
            for (unsigned i = 0; i < host.num_cs(); ++i) {
                const std::string n = "cs_n" + std::to_string(i);
                names[n] = v->add_signal(stream, bus, n, vcd_writer::kind::wire, 1, 1);
            }
            for (const char* n : {"sck", "mosi", "miso"})
                names[n] = v->add_signal(stream, bus, n, vcd_writer::kind::wire, 1, 0);
            m_part = v->add_vcd_part(part, std::move(names));
        }
        host.add_observer(*this);
    }

    void on_frame(const spi::spi_payload& frame, const spi::spi_schedule& s) override {
        if (m_s.finished())
            return; // the ifdown after the run is not traced
        bus_txn t;
        t.start_ps = to_ps(s.origin + s.wire_start);
        t.end_ps = to_ps(s.origin + s.cs_release);
        t.bytes = s.bytes;
        t.task = one_token(lx_kit::current_task_name());
        m_dec->decode(frame, t, m_ann);
        m_s.transaction(m_bus, t);
        if (m_tracer && m_s.win().overlaps(to_ps(s.origin), t.end_ps) &&
            m_part_budget.take(m_s, m_part_path, m_part, to_ps(s.origin)))
            m_tracer->on_frame(frame, s);
    }

    void finish(uint64_t) override {
        if (m_tracer)
            m_tracer->close();
    }

  private:
    trace_session& m_s;
    trace_session::bus_track& m_bus;
    std::unique_ptr<spi_decoder> m_dec;
    lane_annotations m_ann;
    std::unique_ptr<spi::spi_vcd_tracer> m_tracer;
    std::string m_part_path;
    int m_part = -1;
    part_budget m_part_budget;
};

// ---- SDIO ---------------------------------------------------------------------------------------

class sdio_adapter : public trace_session::adapter, public sdio::sdio_observer {
  public:
    sdio_adapter(trace_session& s, sdio::sdio_host& host, const std::string& bus,
                 std::unique_ptr<sdio_decoder> dec, const std::string& vcd_path)
        : m_s(s), m_bus(s.add_bus(bus)), m_dec(std::move(dec)), m_ann(s, m_bus) {
        if (vcd_writer* v = s.vcd()) {
            // sdio_vcd_tracer owns the pin-level reconstruction (its card_irq is not fed: the
            // chip's interrupt is traced by attach_irq).
            const std::string part = vcd_path + "." + bus + ".part";
            m_tracer = std::make_unique<sdio::sdio_vcd_tracer>(part, bus);
            m_part_path = part;
            std::map<std::string, int> names;
            const int stream = v->new_stream();
            for (const char* n : {"clk", "cmd", "dat0", "dat1", "dat2", "dat3"})
                names[n] = v->add_signal(stream, bus, n, vcd_writer::kind::wire, 1,
                                         std::string_view(n) == "clk" ? 0 : 1);
            m_part = v->add_vcd_part(part, std::move(names));
        }
        host.add_observer(*this);
    }

    void on_command(const sdio::sdio_payload& c, const sdio::sdio_schedule& s) override {
        if (m_s.finished())
            return; // the ifdown after the run is not traced
        bus_txn t;
        t.start_ps = to_ps(s.origin + s.cmd_start);
        t.end_ps = to_ps(s.origin + s.wire_end);
        t.bytes = c.is_cmd52() ? 1 : c.data_bytes();
        t.task = one_token(lx_kit::current_task_name());
        if (m_dec) {
            m_dec->decode(c, t, m_ann);
        } else {
            t.dir = c.write ? "wr" : "rd";
            t.name = sdio_command_text(c);
        }
        m_s.transaction(m_bus, t);
        if (m_tracer && m_s.win().overlaps(to_ps(s.origin), t.end_ps) &&
            m_part_budget.take(m_s, m_part_path, m_part, to_ps(s.origin)))
            m_tracer->on_command(c, s);
    }

    void finish(uint64_t) override {
        if (m_tracer)
            m_tracer->close();
    }

  private:
    trace_session& m_s;
    trace_session::bus_track& m_bus;
    std::unique_ptr<sdio_decoder> m_dec;
    lane_annotations m_ann;
    std::unique_ptr<sdio::sdio_vcd_tracer> m_tracer;
    std::string m_part_path;
    int m_part = -1;
    part_budget m_part_budget;
};

// ---- parallel bus -----------------------------------------------------------------------------

class par_adapter : public trace_session::adapter, public par::par_observer {
  public:
    par_adapter(trace_session& s, par::par_host& host, const std::string& bus,
                std::unique_ptr<par_decoder> dec)
        : m_s(s), m_bus(s.add_bus(bus)), m_dec(std::move(dec)), m_ann(s, m_bus),
          m_base(host.window_base()) {
        if (vcd_writer* v = s.vcd()) {
            using k = vcd_writer::kind;
            m_stream = v->new_stream();
            m_cs = v->add_signal(m_stream, bus, "cs_n", k::wire, 1, 1);
            m_rd = v->add_signal(m_stream, bus, "rd_n", k::wire, 1, 1);
            m_wr = v->add_signal(m_stream, bus, "wr_n", k::wire, 1, 1);
            m_addr = v->add_signal(m_stream, bus, "addr", k::vector, 16, 0);
            m_data = v->add_signal(m_stream, bus, "data", k::vector, 16, vcd_writer::z);
        }
        host.add_observer(*this);
    }

    void on_access(const par::par_payload& p, const par::par_access_times& at) override {
        bus_txn t;
        t.start_ps = to_ps(at.cs_assert);
        t.end_ps = to_ps(at.cs_deassert);
        t.bytes = ((p.lanes & par::lane_lo) ? 1 : 0) + ((p.lanes & par::lane_hi) ? 1 : 0);
        t.task = one_token(lx_kit::current_task_name());
        if (m_dec) {
            m_dec->decode(p, t, m_ann);
        } else {
            t.dir = p.is_read() ? "rd" : "wr";
            t.name = std::string(p.is_read() ? "RD " : "WR ") + hex(p.addr - m_base, 4);
            t.detail = (p.is_read() ? "-> " : "= ") + hex(p.data, 4);
        }
        m_s.transaction(m_bus, t);
        if (vcd_writer* v = m_s.vcd()) {
            const uint64_t s0 = to_ps(at.strobe_start), s1 = to_ps(at.strobe_end);
            const int strobe = p.is_read() ? m_rd : m_wr;
            v->change(m_cs, t.start_ps, 0);
            v->change(m_addr, t.start_ps, uint32_t((p.addr - m_base) & 0xffff));
            v->change(strobe, s0, 0);
            if (p.is_write())
                v->change(m_data, s0, p.data);
            v->change(strobe, s1, 1);
            if (p.is_read())
                v->change(m_data, s1, p.data);
            v->change(m_cs, t.end_ps, 1);
            v->change(m_data, t.end_ps, vcd_writer::z);
        }
    }

  private:
    trace_session& m_s;
    trace_session::bus_track& m_bus;
    std::unique_ptr<par_decoder> m_dec;
    lane_annotations m_ann;
    uint64_t m_base;
    int m_stream = -1, m_cs = -1, m_rd = -1, m_wr = -1, m_addr = -1, m_data = -1;
};

// ---- IRQ line -----------------------------------------------------------------------------------

class irq_adapter : public trace_session::adapter, public irq_observer {
  public:
    irq_adapter(trace_session& s, irq_line& line, const std::string& chip) : m_s(s) {
        if (vcd_writer* v = s.vcd()) {
            m_stream = v->new_stream();
            m_sig = v->add_signal(m_stream, chip, "irq", vcd_writer::kind::wire, 1, line.level());
        }
        if (timeline_writer* tl = s.timeline()) {
            m_pid = s.chip_pid(chip);
            m_tid = tl->thread(m_pid, "irq pin");
        }
        line.add_observer(*this);
    }
    void on_irq(const irq_line&, bool level, const sc_time& t) override {
        const uint64_t ps = to_ps(t);
        if (vcd_writer* v = m_s.vcd())
            v->change(m_sig, ps, level);
        if (timeline_writer* tl = m_s.timeline()) {
            tl->instant(m_pid, m_tid, level ? "irq pin rises" : "irq pin falls", ps);
            tl->counter(m_pid, "irq pin level", ps, level);
        }
    }

  private:
    trace_session& m_s;
    int m_stream = -1, m_sig = -1, m_pid = 0, m_tid = 0;
};

// ---- WILC1000 power model -----------------------------------------------------------------------

class power_adapter : public trace_session::adapter, public wilc::power_observer {
  public:
    power_adapter(trace_session& s, wilc::power_model& pm, const std::string& chip)
        : m_s(s), m_pm(pm) {
        m_state = pm.state(local_time::now()); // at elaboration: no advance happens
        if (vcd_writer* v = s.vcd()) {
            m_stream = v->new_stream();
            m_vcd_name = v->add_string_signal(m_stream, chip, "power_state", to_string(m_state));
            m_vcd_code = v->add_signal(m_stream, chip, "power_state_code", vcd_writer::kind::vector,
                                       2, uint32_t(m_state));
            m_vcd_fw = v->add_signal(m_stream, chip, "fw_busy", vcd_writer::kind::wire, 1, 0);
            m_vcd_tx = v->add_signal(m_stream, chip, "radio_tx", vcd_writer::kind::wire, 1, 0);
            m_vcd_rx = v->add_signal(m_stream, chip, "radio_rx", vcd_writer::kind::wire, 1, 0);
        }
        if (timeline_writer* tl = s.timeline()) {
            m_pid = s.chip_pid(chip);
            m_power_tid = tl->thread(m_pid, "power state");
        }
        pm.set_observer(this);
    }
    ~power_adapter() override { m_pm.set_observer(nullptr); }

    void on_power_state(sc_time t, wilc::power_state s) override {
        const uint64_t ps = std::max(to_ps(t), m_since); // spans of a track must not overlap
        if (timeline_writer* tl = m_s.timeline())
            if (ps > m_since)
                tl->span(m_pid, m_power_tid, to_string(m_state), m_since, ps);
        m_state = s;
        m_since = ps;
        if (vcd_writer* v = m_s.vcd()) {
            v->change_string(m_vcd_name, ps, to_string(s));
            v->change(m_vcd_code, ps, uint32_t(s));
        }
    }

    void on_activity(sc_time t, bool host_work, bool air_work, bool tx, bool rx) override {
        const uint64_t ps = to_ps(t);
        // Host work and air work overlap (the radio sends while the host queues the next
        // frame), and slices on one track must nest: a track each.
        step(m_host, host_work, ps, m_fw_host_tid, "firmware host work", "firmware: host work");
        step(m_air, air_work, ps, m_fw_air_tid, "firmware air work", "firmware: air work");
        step(m_tx, tx, ps, m_radio_tid, "radio", "radio tx");
        step(m_rx, rx, ps, m_radio_tid, "radio", "radio rx");
        if (vcd_writer* v = m_s.vcd()) {
            v->change(m_vcd_fw, ps, host_work || air_work);
            v->change(m_vcd_tx, ps, tx);
            v->change(m_vcd_rx, ps, rx);
        }
    }

    void finish(uint64_t end_ps) override {
        // The model is lazy: let it report the transitions due by now (the report advances it to
        // the same instant, so this changes no result).
        m_pm.state(local_time::now());
        m_pm.set_observer(nullptr);
        if (timeline_writer* tl = m_s.timeline()) {
            if (end_ps > m_since)
                tl->span(m_pid, m_power_tid, to_string(m_state), m_since, end_ps);
            for (auto* a : {&m_host, &m_air, &m_tx, &m_rx})
                if (a->on && end_ps > a->since)
                    tl->span(m_pid, a->tid, a->name, a->since, end_ps);
        }
    }

  private:
    struct activity {
        bool on = false;
        uint64_t since = 0;
        const char* name = "";
        int tid = 0;
    };
    // Activity tracks are created when first used (a model without radio events gets none).
    void step(activity& a, bool on, uint64_t ps, int& tid, const char* track, const char* name) {
        if (a.on == on)
            return;
        ps = std::max(ps, a.since);
        timeline_writer* tl = m_s.timeline();
        if (tl && tid == 0)
            tid = tl->thread(m_pid, track);
        if (a.on && ps > a.since && tl)
            tl->span(m_pid, tid, name, a.since, ps);
        a.on = on;
        a.since = ps;
        a.name = name;
        a.tid = tid;
    }

    trace_session& m_s;
    wilc::power_model& m_pm;
    wilc::power_state m_state;
    uint64_t m_since = 0;
    activity m_host, m_air, m_tx, m_rx;
    int m_stream = -1, m_vcd_name = -1, m_vcd_code = -1, m_vcd_fw = -1, m_vcd_tx = -1,
        m_vcd_rx = -1;
    int m_pid = 0, m_power_tid = 0, m_fw_host_tid = 0, m_fw_air_tid = 0, m_radio_tid = 0;
};

// ---- lx_kit tasks
// ---------------------------------------------------------------------------------

class task_adapter : public trace_session::adapter {
  public:
    explicit task_adapter(trace_session& s) : m_s(s) {
        if (timeline_writer* tl = s.timeline())
            m_pid = tl->process("driver");
        s.set_driver_pid(m_pid);
        lx_kit::set_task_observer([this](const lx_kit::task_event& e) { on_task(e); });
    }
    ~task_adapter() override { lx_kit::set_task_observer({}); }

    void finish(uint64_t end_ps) override {
        lx_kit::set_task_observer({});
        timeline_writer* tl = m_s.timeline();
        if (!tl)
            return;
        // In track order: m_tasks is keyed by address, whose order differs from run to run
        // (ASLR), and the file must be the same for the same seed.
        std::vector<const record*> open;
        for (auto& [key, r] : m_tasks)
            if (r.state != lx_kit::task_state::exited && end_ps > r.since)
                open.push_back(&r);
        std::sort(open.begin(), open.end(),
                  [](const record* a, const record* b) { return a->tid < b->tid; });
        for (const record* r : open)
            tl->span(m_pid, r->tid, r->label, r->since, end_ps);
    }

  private:
    struct record {
        int tid = 0;
        uint64_t since = 0;
        lx_kit::task_state state = lx_kit::task_state::running;
        std::string label;
        bool irq_idle = false; // blocked waiting for its interrupt line (lx_emul irq thread)
    };

    static std::string label_of(const lx_kit::task_event& e) {
        switch (e.state) {
        case lx_kit::task_state::running:
            return "running";
        case lx_kit::task_state::blocked:
            return std::string("blocked: ") + e.why + " (" + e.what + ")";
        case lx_kit::task_state::sleeping:
            return std::string("sleep: ") + e.why;
        case lx_kit::task_state::busy:
            return std::string("busy: ") + e.why;
        case lx_kit::task_state::exited:
            return "exited";
        }
        return "?";
    }

    void on_task(const lx_kit::task_event& e) {
        timeline_writer* tl = m_s.timeline();
        if (!tl)
            return;
        const uint64_t now = to_ps(local_time::now());
        auto it = m_tasks.find(e.task);
        if (it == m_tasks.end()) {
            record r;
            r.tid = m_s.adopt_task_track(e.name);
            it = m_tasks.emplace(e.task, std::move(r)).first;
        } else if (now > it->second.since) {
            tl->span(m_pid, it->second.tid, it->second.label, it->second.since, now);
        }
        record& r = it->second;
        if (r.irq_idle && e.state == lx_kit::task_state::running)
            tl->instant(m_pid, r.tid, "interrupt: handler runs", now);
        // lx_emul's IRQ thread parks on its line with this reason (kernel/lx_emul/irq.c).
        r.irq_idle =
            e.state == lx_kit::task_state::blocked && std::string_view(e.why) == "irq thread idle";
        r.since = now;
        r.state = e.state;
        r.label = label_of(e);
    }

    trace_session& m_s;
    int m_pid = 0;
    std::unordered_map<const void*, record> m_tasks;
};

} // namespace

// ---- session
// --------------------------------------------------------------------------------------

std::unique_ptr<trace_session> trace_session::open(const config::trace_config& cfg) {
    const auto files = cfg.files();
    if (std::all_of(files.begin(), files.end(), [](const auto& f) { return f.second.empty(); }))
        return nullptr;
    return std::make_unique<trace_session>(cfg);
}

size_limit trace_session::limit_for_files() {
    size_limit l;
    l.max_bytes = m_max_size;
    l.on_reached = [this](const std::string& file, uint64_t t_ps) {
        m_truncations.push_back({file, t_ps});
        std::cerr << "nicsim: warning: trace file '" << file << "' reached trace.max_size "
                  << config::to_string(config::byte_size{m_max_size}) << " (--trace-max-size) at "
                  << config::to_string(config::duration{int64_t(t_ps)})
                  << " simulated: later records are not written, the file is valid up to there\n";
    };
    return l;
}

trace_session::trace_session(const config::trace_config& cfg)
    : m_win(window_of(cfg)), m_max_size(cfg.max_size.bytes), m_vcd_path(cfg.vcd) {
    auto opened = [](const char* key, auto make) {
        try {
            return make();
        } catch (const std::exception& e) {
            throw run_error(std::string(key) + ": " + e.what());
        }
    };
    if (!cfg.vcd.empty())
        m_vcd = opened("trace.vcd (--vcd)", [&] {
            return std::make_unique<vcd_writer>(cfg.vcd, m_win,
                                                cfg.vcd_format == "sigrok"
                                                    ? vcd_writer::format::sigrok
                                                    : vcd_writer::format::gtkwave,
                                                limit_for_files());
        });
    if (!cfg.timeline.empty())
        m_timeline = opened("trace.timeline (--timeline)", [&] {
            return std::make_unique<timeline_writer>(cfg.timeline, m_win, limit_for_files());
        });
    if (!cfg.log.empty())
        m_log = opened("trace.log (--log)", [&] {
            return std::make_unique<txn_log>(cfg.log, m_win, limit_for_files());
        });
    if (!cfg.pcap.empty())
        m_pcap = opened("trace.pcap (--pcap)", [&] {
            return std::make_unique<pcapng_writer>(
                cfg.pcap, "nicsim: frames at the board's network device, in simulated time",
                limit_for_files());
        });
    if (!cfg.pcap_peer.empty())
        m_pcap_peer = opened("trace.pcap_peer (--pcap-peer)", [&] {
            return std::make_unique<pcapng_writer>(
                cfg.pcap_peer, "nicsim: frames at the far host's network stack, in simulated time",
                limit_for_files());
        });
}

capture_taps trace_session::capture(capture_point where, const std::string& name,
                                                   const std::string& description) {
    pcapng_writer* pcap = (where == capture_point::board ? m_pcap : m_pcap_peer).get();
    if (!pcap)
        return {};
    const unsigned id = pcap->add_interface(name, description);
    const window w = m_win;
    auto dir = [](bool sent) {
        return sent ? pcapng_writer::direction::outbound : pcapng_writer::direction::inbound;
    };
    capture_taps taps;
    taps.frames = [pcap, id, w, dir](bool sent, const uint8_t* data, size_t len) {
        const uint64_t t = to_ps(local_time::now());
        if (w.contains(t))
            pcap->packet(id, t, data, len, dir(sent));
    };
    taps.control = [pcap, id, w, dir](bool sent, const control_frame& f,
                                      const sc_core::sc_time& at) {
        const uint64_t t = to_ps(at);
        if (w.contains(t))
            pcap->packet(id, t, f.bytes.data(), f.bytes.size(), dir(sent), f.comment);
    };
    return taps;
}

trace_session::~trace_session() {
    // Adapters detach from the parts (lx_kit's global observer above all) before the writers go.
    m_adapters.clear();
}

void trace_session::attach_spi(spi::spi_host& host, const std::string& bus,
                               std::unique_ptr<spi_decoder> dec) {
    m_adapters.push_back(
        std::make_unique<spi_adapter>(*this, host, bus, std::move(dec), m_vcd_path));
}

void trace_session::attach_sdio(sdio::sdio_host& host, const std::string& bus,
                                std::unique_ptr<sdio_decoder> dec) {
    m_adapters.push_back(
        std::make_unique<sdio_adapter>(*this, host, bus, std::move(dec), m_vcd_path));
}

void trace_session::attach_par(par::par_host& host, const std::string& bus,
                               std::unique_ptr<par_decoder> dec) {
    m_adapters.push_back(std::make_unique<par_adapter>(*this, host, bus, std::move(dec)));
}

void trace_session::attach_irq(irq_line& line, const std::string& chip) {
    m_adapters.push_back(std::make_unique<irq_adapter>(*this, line, chip));
}

void trace_session::attach_power(wilc::power_model& pm, const std::string& chip) {
    m_adapters.push_back(std::make_unique<power_adapter>(*this, pm, chip));
}

void trace_session::attach_tasks() {
    if (m_tasks_attached)
        throw std::logic_error("trace_session: attach_tasks() twice");
    m_tasks_attached = true;
    m_adapters.push_back(std::make_unique<task_adapter>(*this));
}

trace_session::bus_track& trace_session::add_bus(const std::string& name) {
    m_buses.push_back(std::make_unique<bus_track>());
    bus_track& b = *m_buses.back();
    b.name = name;
    if (m_timeline) {
        b.pid = m_timeline->process(name);
        b.frames_tid = m_timeline->thread(b.pid, "transactions");
    }
    if (m_vcd) {
        b.vcd_stream = m_vcd->new_stream();
        b.vcd_cmd = m_vcd->add_string_signal(b.vcd_stream, name, "decoded", "");
    }
    return b;
}

int trace_session::lane(bus_track& b, std::string_view name) {
    for (const auto& [n, tid] : b.lanes)
        if (n == name)
            return tid;
    const int tid = m_timeline ? m_timeline->thread(b.pid, std::string(name)) : 0;
    b.lanes.emplace_back(std::string(name), tid);
    return tid;
}

int trace_session::adopt_task_track(const std::string& name) {
    auto it = m_task_tracks.find(name);
    if (it != m_task_tracks.end() && !it->second.adopted) {
        it->second.adopted = true;
        return it->second.tid;
    }
    const int tid = m_timeline->thread(m_driver_pid, name);
    if (it == m_task_tracks.end()) // a second task of the same name keeps its own track
        m_task_tracks.emplace(name, task_track_info{m_driver_pid, tid, true});
    return tid;
}

int trace_session::chip_pid(const std::string& chip) {
    for (const auto& [n, pid] : m_chips)
        if (n == chip)
            return pid;
    const int pid = m_timeline ? m_timeline->process(chip) : 0;
    m_chips.emplace_back(chip, pid);
    return pid;
}

void trace_session::transaction(bus_track& b, const bus_txn& t) {
    if (m_log)
        m_log->write(b.name, t);
    if (m_timeline) {
        json_args args;
        args.add("dir", t.dir).add("bytes", t.bytes);
        if (!t.detail.empty())
            args.add("detail", t.detail);
        if (!t.task.empty())
            args.add("task", t.task);
        m_timeline->span(b.pid, b.frames_tid, t.name, t.start_ps, t.end_ps, args.str());
        // An arrow from the driver task that issued it (Perfetto: "Flow events").
        if (!t.task.empty() && m_driver_pid != 0) {
            auto it = m_task_tracks.find(t.task);
            if (it == m_task_tracks.end())
                it = m_task_tracks
                         .emplace(t.task, task_track_info{m_driver_pid,
                                                          m_timeline->thread(m_driver_pid, t.task)})
                         .first;
            m_timeline->flow(it->second.pid, it->second.tid, b.pid, b.frames_tid, "bus call",
                             t.start_ps);
        }
    }
    if (m_vcd) {
        m_vcd->note_transaction(t.start_ps, t.end_ps);
        m_vcd->change_string(b.vcd_cmd, t.start_ps, t.name);
        m_vcd->change_string(b.vcd_cmd, t.end_ps, "");
    }
}

void trace_session::finish() {
    if (m_finished)
        return;
    m_finished = true;
    const uint64_t end = to_ps(local_time::now());
    for (auto& a : m_adapters)
        a->finish(end);
    if (m_vcd)
        m_vcd->close(end);
    if (m_timeline)
        m_timeline->close();
    if (m_log)
        m_log->close();
    if (m_pcap)
        m_pcap->close();
    if (m_pcap_peer)
        m_pcap_peer->close();
}

std::string finish_quietly(trace_session& s) {
    try {
        s.finish();
    } catch (const std::exception& e) {
        return std::string("trace: ") + e.what();
    }
    return {};
}

} // namespace nicsim::trace

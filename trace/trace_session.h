// SPDX-License-Identifier: MIT
// The opt-in traces of one run (scenario.trace / nicsim run --vcd --timeline --log --pcap
// --pcap-peer --trace-window): owns the writers and the observers it attaches to the parts of a system.
//
// A system builds one with trace_session::open(scenario.trace), which returns null when no output
// is asked for: then nothing is attached anywhere and the run pays nothing. Otherwise the system
// attaches its parts (a few lines) and calls finish() after sc_start() returns.
//
// Adding a bus is one adapter: an observer of the bus host that fills a bus_txn per transaction
// and calls transaction() (log line + timeline span + the bus's "decoded" VCD string), optionally
// declaring pin signals on vcd() (see the SPI, SDIO and parallel-bus adapters in the .cc).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bus/irq/irq_line.h"
#include "bus/par/par_host.h"
#include "bus/sdio/sdio_host.h"
#include "bus/spi/spi_host.h"
#include "models/wilc1000/wilc1000_power.h"
#include "core/config/scenario_config.h"
#include "trace/bus_decoder.h"
#include "trace/timeline_writer.h"
#include "trace/trace_common.h"
#include "trace/txn_log.h"
#include "trace/pcapng_writer.h"
#include "host/tcp_capture.h"
#include "trace/vcd_writer.h"
#include "host/traffic/endpoint.h"

namespace nicsim::trace {

class trace_session {
  public:
    // Null when cfg asks for no output. Opens every file at once, so a bad path fails before
    // the run: run_error naming the trace key and the file.
    static std::unique_ptr<trace_session> open(const config::trace_config& cfg);
    explicit trace_session(const config::trace_config& cfg);
    ~trace_session();
    trace_session(const trace_session&) = delete;
    trace_session& operator=(const trace_session&) = delete;

    // The parts must outlive finish(). `bus`/`chip` name the tracks ("spi0", "wilc1000").
    void attach_spi(spi::spi_host& host, const std::string& bus, std::unique_ptr<spi_decoder> dec);
    void attach_par(par::par_host& host, const std::string& bus, std::unique_ptr<par_decoder> dec);
    // SDIO pins (clk, cmd, dat0..3) in the VCD; for the WILC1000 use wilc1000_sdio_decoder.
    void attach_sdio(sdio::sdio_host& host, const std::string& bus,
                     std::unique_ptr<sdio_decoder> dec);
    void attach_irq(irq_line& line, const std::string& chip);
    void attach_power(wilc::power_model& pm, const std::string& chip);
    // The lx_kit runtime's tasks (one per process): a "driver" process with a thread per task.
    void attach_tasks();
    // A capture point, each in a file of its own (trace.pcap: the board's netdev, trace.pcap_peer:
    // the far host), as the one pcap interface `name` there: one file holding both would show
    // every frame twice, and Wireshark's TCP analysis would take the second as a retransmission.
    // `frames` is called with each frame sent or received there; `control` with a frame the
    // model does not simulate (tcp_capture.h) and its time, written with its comment. Both
    // record only inside the trace window; both are empty without the point's file. The caller
    // stops calling them before the session goes.
    enum class capture_point { board, peer };
    capture_taps capture(capture_point where, const std::string& name,
                         const std::string& description);

    // Ends open spans at the current simulated time, detaches from lx_kit, writes and closes the
    // files. Call after sc_start() returned (also after a failed run: the trace shows why).
    // Throws std::runtime_error on a write error. Idempotent.
    void finish();
    // After finish(): bus activity (the ifdown that follows a run) is no longer traced.
    bool finished() const { return m_finished; }

    // ---- for adapters ------------------------------------------------------------------------
    struct bus_track {
        std::string name;
        int pid = 0;        // timeline process
        int frames_tid = 0; // thread with one span per transaction
        std::vector<std::pair<std::string, int>> lanes;
        int vcd_stream = -1;
        int vcd_cmd = -1; // string signal "decoded": the decoded command while CS is asserted
    };
    bus_track& add_bus(const std::string& name);
    // Writes one transaction to the log, the timeline and the VCD "decoded" signal.
    void transaction(bus_track& b, const bus_txn& t);
    int lane(bus_track& b, std::string_view name);
    // Timeline process of a chip (created on first use); 0 without a timeline.
    int chip_pid(const std::string& chip);
    // The timeline thread of a driver task, by the name transactions carry in bus_txn::task.
    // A task can issue transactions before its first state change is observed (system.main at
    // probe, a testbench thread calling ndo_start_xmit): transaction() then makes the track
    // under the driver process, and the task adopts it when its first event comes.
    struct task_track_info {
        int pid = 0, tid = 0;
        bool adopted = false; // a task_adapter record owns it
    };
    void set_driver_pid(int pid) { m_driver_pid = pid; }
    // The tid the first task named `name` takes: one transaction() made, or a new one.
    int adopt_task_track(const std::string& name);
    // The trace files that reached trace.max_size, with the simulated time each stopped at.
    struct truncation {
        std::string file;
        uint64_t t_ps = 0;
    };
    const std::vector<truncation>& truncations() const { return m_truncations; }
    uint64_t max_size() const { return m_max_size; }
    timeline_writer* timeline() { return m_timeline.get(); }
    vcd_writer* vcd() { return m_vcd.get(); }
    const window& win() const { return m_win; }

    class adapter {
      public:
        virtual ~adapter() = default;
        // Close open spans at end_ps.
        virtual void finish(uint64_t /*end_ps*/) {}
    };

  private:
    size_limit limit_for_files();

    window m_win;
    uint64_t m_max_size = 0;
    std::vector<truncation> m_truncations;
    std::unique_ptr<vcd_writer> m_vcd;
    std::unique_ptr<timeline_writer> m_timeline;
    std::unique_ptr<txn_log> m_log;
    std::unique_ptr<pcapng_writer> m_pcap, m_pcap_peer;
    std::string m_vcd_path;
    std::vector<std::unique_ptr<bus_track>> m_buses;
    std::vector<std::pair<std::string, int>> m_chips;
    std::map<std::string, task_track_info> m_task_tracks; // by task name
    int m_driver_pid = 0;
    std::vector<std::unique_ptr<adapter>> m_adapters;
    bool m_tasks_attached = false;
    bool m_finished = false;
};

// finish() for callers that report failures as text: "" or the error message.
std::string finish_quietly(trace_session& s);

} // namespace nicsim::trace

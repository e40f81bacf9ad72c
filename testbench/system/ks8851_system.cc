// SPDX-License-Identifier: MIT
#include "testbench/system/ks8851_system.h"

#include <algorithm>
#include <string>

#include "driver/include/lx_kit/irq_line_source.h"
#include "driver/include/lx_kit/lx_emul_api.h"
#include "driver/include/lx_kit/runtime.h"
#include "driver/include/nicsim/lx_bus.h"
#include "driver/lx_emul_bus/bus_bridge.h"
#include "testbench/runner.h"
#include "testbench/system/system_common.h"
#include "testbench/trace/ks8851_decoder.h"

namespace nicsim {

using namespace sc_core;
using system::to_sc;

namespace {

constexpr int ks_irq_number = 1; // Linux IRQ number of the GPIO INTRN is wired to
// The KSZ8851-16MLL chip-select window on the i.MX6 EIM: CS0 starts at 0x08000000 (i.MX6 memory
// map). Data port at +0, command port at +2 (CMD on host A1, ks::params::par_cmd_addr_mask).
constexpr uint64_t par_window_base = 0x08000000;
constexpr uint64_t par_window_size = 0x10000;
// The board's MAC (device tree local-mac-address). Locally administered.
constexpr std::array<uint8_t, 6> board_mac = {0x02, 0x4b, 0x53, 0x88, 0x51, 0x01};
// How often the application retries a frame the driver refused (SPI: queue stopped until TXI
// wakes it; PAR: NETDEV_TX_BUSY without stopping the queue, which the real kernel retries from
// net_tx_action at once). Assumption: 20 us bounds the extra delay of either.
const sc_time tx_retry_poll(20, SC_US);
// ifup -> carrier: the real stack waits for link before TX. Bound for the wait.
const sc_time carrier_timeout(5, SC_SEC);
// Carrier -> the application starts. Assumption: a person or script starts iperf/ping some time
// after `ip link set up`; 10 ms lets the driver's rx-mode work and its RXPSI handshake (RXCR1
// briefly has RXE = 0, dropping frames) finish, so the traffic does not start into it.
const sc_time ifup_settle(10, SC_MS);

par::par_timing par_timing_of(const config::par_bus_config& c) {
    par::par_timing t;
    t.bus_clock_hz = c.bus_clock.hz;
    t.issue_cycles = c.issue_cycles;
    t.addr_setup_cycles = c.addr_setup_cycles;
    t.read_strobe_cycles = c.read_strobe_cycles;
    t.write_strobe_cycles = c.write_strobe_cycles;
    t.hold_cycles = c.hold_cycles;
    t.recovery_cycles = c.recovery_cycles;
    return t;
}

// spi_sync as a bcm2835-style controller driver (spi-bcm2835.c, Linux 6.1) runs it on the
// board's CPU: the per-message software cost runs on a core; a transfer whose estimated time
// (9 SCK cycles per byte, as bcm2835_spi_transfer_one estimates it) is within polling_limit is
// busy-polled, keeping a core busy for its whole bus time; longer ones go by DMA (len >=
// dma_threshold; the spi_host schedule adds dma_setup) or the controller interrupt, leave the
// CPU free while they shift, and wake the waiting thread through complete() when done
// (kernel.sched_wakeup_latency).
class bcm2835_style_spi_port : public lx_bus::spi_port {
  public:
    bcm2835_style_spi_port(host_cpu& cpu, spi::spi_host& host, const config::spi_host_config& c,
                           sc_time wakeup)
        : m_cpu(cpu), m_host(host), m_overhead(to_sc(c.per_message_overhead)),
          m_polling_limit_s(to_sc(c.polling_limit).to_seconds()), m_wakeup(wakeup) {
        // Two schedules of the same controller: a fully polled message runs its software part
        // and its wire time on one core without a break, so the host's own per-message
        // overhead stage carries it (one wait less per message: this is the hot path); a
        // message with a DMA/IRQ transfer pays the overhead on the core first, then shifts
        // with the core free.
        m_polled = host.timing();
        m_polled.per_message_overhead = m_overhead;
        m_waited = host.timing();
        m_waited.per_message_overhead = SC_ZERO_TIME;
    }

    void transfer(spi::spi_payload& frame) override {
        frame.cs = 0;
        // Plain seconds here, one sc_time at the end: this runs for every spi_sync.
        unsigned waited = 0;
        double polled_s = 0;
        for (const auto& x : frame.xfers) {
            const double hz = x.speed_hz ? x.speed_hz : frame.speed_hz;
            if (polled_transfer(x.len, hz))
                polled_s += 8.0 * double(x.len) / hz;
            else
                ++waited;
        }
        // The calling thread runs the controller driver's software path on a core (kernel
        // class). The ks8851 SPI driver serialises its messages under its mutex, so switching
        // the host's schedule per message cannot affect another caller.
        m_cpu.acquire(cpu_class::kernel);
        if (waited == 0) {
            // Every transfer polled: the core keeps spinning until the frame is done.
            m_host.set_timing(m_polled);
            m_host.transfer(frame);
            m_cpu.release();
            return;
        }
        if (m_overhead != SC_ZERO_TIME)
            wait(m_overhead);
        m_cpu.release();
        m_host.set_timing(m_waited);
        m_host.transfer(frame);
        if (polled_s > 0) // the short polled transfers of a mixed message
            m_cpu.charge(sc_time(polled_s, SC_SEC));
        if (m_wakeup != SC_ZERO_TIME)
            wait(m_wakeup * double(waited));
    }

  private:
    // Estimated wire time (9 SCK cycles a byte) within the polling limit.
    bool polled_transfer(size_t len, double hz) const {
        if (m_polling_limit_s <= 0)
            return false;
        return 9.0 * double(len) / hz <= m_polling_limit_s;
    }

    host_cpu& m_cpu;
    spi::spi_host& m_host;
    sc_time m_overhead;
    double m_polling_limit_s;
    sc_time m_wakeup;
    spi::spi_host_timing m_polled, m_waited;
};

// ioread16/iowrite16 on the EIM: the CPU core stalls on each uncached device access until the
// bus cycle completes (assumption: no posted writes), so every access holds a core.
class cpu_mmio16_port : public lx_bus::mmio16_bus_if {
  public:
    cpu_mmio16_port(host_cpu& cpu, par::par_host& bus) : m_cpu(cpu), m_bus(bus) {}
    uint16_t read16(uint64_t a) override {
        m_cpu.acquire(cpu_class::kernel);
        const uint16_t v = m_bus.read16(a);
        m_cpu.release();
        return v;
    }
    void write16(uint64_t a, uint16_t v) override {
        m_cpu.acquire(cpu_class::kernel);
        m_bus.write16(a, v);
        m_cpu.release();
    }

  private:
    host_cpu& m_cpu;
    par::par_host& m_bus;
};

bool par_bus_selected(const config::scenario_config& sc) {
    return sc.device.bus == config::bus_type::par;
}

ks::params chip_params_for(const config::scenario_config& sc, ks::params p) {
    if (sc.device.type != config::device_type::ks8851)
        throw run_error(std::string("ks8851_system: device.type is ") +
                        config::to_string(sc.device.type) + ", expected ks8851");
    if (sc.device.bus == config::bus_type::sdio)
        throw run_error("device.bus: ks8851 has no SDIO interface (supported: spi, par)");
    p.bus = par_bus_selected(sc) ? ks::bus_variant::par : ks::bus_variant::spi;
    return p;
}

eth::eth_wire_params wire_params(const config::scenario_config& sc) {
    if (sc.link.mac_efficiency != 1.0)
        throw run_error("link.mac_efficiency: must be 1 for ks8851 (Ethernet framing, preamble "
                        "and IFG are modelled by the wire)");
    eth::eth_wire_params w;
    w.rate_bps = sc.link.phy_rate.bps;
    w.record_peer_rx = false; // long runs: the traffic layer checks the bytes
    return w;
}

} // namespace

struct ks8851_system::ports {
    lx_kit::irq_line_source irq_src;
    std::unique_ptr<bcm2835_style_spi_port> spi;
    std::unique_ptr<cpu_mmio16_port> mmio;
    explicit ports(const irq_line& l) : irq_src(l) {}
};

ks8851_system::ks8851_system(sc_module_name name, const config::scenario_config& scenario,
                             const config::platform_profile& platform,
                             const ks::params& chip_params)
    : sc_module(name), m_sc(scenario), m_pf(platform), m_par(par_bus_selected(scenario)),
      m_chip_params(chip_params_for(scenario, chip_params)), m_cpu("cpu", platform.cpu.cores),
      m_irq("irq", true), m_wire("wire", wire_params(scenario)) {
    if (m_sc.device.irq != config::irq_mode::gpio)
        throw run_error(std::string("device.irq: ks8851 needs its INTRN pin on a GPIO (gpio); "
                                    "the driver has no polled mode, got ") +
                        config::to_string(m_sc.device.irq));
    if (m_par && !m_pf.par_bus.present)
        throw run_error("device.bus: par needs a platform with a parallel bus, but platform '" +
                        m_pf.name + "' (" + m_pf.source_file +
                        ") has no par_bus section (e.g. use platform: imx6-class)");

    m_chip = std::make_unique<ks8851>("ks8851", m_chip_params);
    m_chip->irq.bind(m_irq);
    m_chip->attach_wire(m_wire);
    m_ports = std::make_unique<ports>(m_irq);
    if (m_par) {
        m_par_host = std::make_unique<par::par_host>("eim", par_timing_of(m_pf.par_bus),
                                                     par_window_base, par_window_size);
        m_par_host->par_out.bind(m_chip->par_in());
        m_ports->mmio = std::make_unique<cpu_mmio16_port>(m_cpu, *m_par_host);
    } else {
        m_spi_host = std::make_unique<spi::spi_host>("spi_host", 1,
                                                     system::spi_host_timing_of(m_pf.spi_host));
        m_spi_host->spi_out[0].bind(m_chip->spi_in());
        m_ports->spi = std::make_unique<bcm2835_style_spi_port>(
            m_cpu, *m_spi_host, m_pf.spi_host, to_sc(m_pf.kernel.sched_wakeup_latency));
    }

    // Host = the board (the MAC the driver programs from the device tree); peer = the far host
    // on the other end of the cable.
    const auto host_addr = system::endpoint_addr_of(board_mac, 0xc0a80102, 40000);
    const auto peer_addr =
        system::endpoint_addr_of({0x02, 0x00, 0x00, 0x00, 0xb0, 0x01}, 0xc0a80101, 5201);
    m_traffic =
        std::make_unique<traffic_session>(scenario.traffic, scenario.seed, host_addr, peer_addr);
    bind_traffic();
    // Opt-in traces (scenario.trace): nothing is attached when they are off.
    if ((m_trace = trace::trace_session::open(scenario.trace))) {
        m_trace->attach_tasks();
        if (m_par)
            m_trace->attach_par(*m_par_host, "par0",
                                std::make_unique<trace::ks8851_par_decoder>(
                                    par_window_base, m_chip_params.par_cmd_addr_mask));
        else
            m_trace->attach_spi(*m_spi_host, "spi0", std::make_unique<trace::ks8851_spi_decoder>());
        m_trace->attach_irq(m_irq, "ks8851");
    }
    SC_HAS_PROCESS(ks8851_system);
    SC_THREAD(main);
}

ks8851_system::~ks8851_system() = default;

uint64_t ks8851_system::bus_transactions() const {
    if (m_par)
        return m_par_host->stats().reads + m_par_host->stats().writes;
    return m_spi_host->stats().frames;
}

std::string ks8851_system::bring_up() {
    const std::string variant = m_sc.driver.variant;
    system::apply_kernel_platform(m_pf, m_cpu);
    // insmod: module parameters, then module_init of the variant's ks8851 modules.
    const std::string mod = driver_modname();
    if (std::string err = system::load_driver_modules("ks8851", m_sc.driver); !err.empty())
        return err;

    lx_bus_device_desc d{};
    d.irq = ks_irq_number;
    d.has_mac_address = 1;
    std::copy(board_mac.begin(), board_mac.end(), d.mac_address);
    lx_kit::register_irq(d.irq, m_ports->irq_src);
    int ret = 0;
    if (m_par) {
        d.name = "8000000.ethernet";
        d.compatible = "micrel,ks8851-mll";
        d.mem_base[0] = par_window_base; // data port
        d.mem_size[0] = 2;
        d.mem_base[1] = par_window_base + 2; // command port
        d.mem_size[1] = 2;
        ::platform_device* pdev = lx_bus_platform_create(&d);
        lx_bus::mmio16_attach(pdev, *m_ports->mmio);
        ret = lx_bus_platform_probe(pdev, mod.c_str(), variant.c_str());
    } else {
        d.name = "spi0.0";
        d.compatible = "micrel,ks8851";
        d.max_speed_hz = static_cast<uint32_t>(m_sc.device.bus_clock.hz);
        d.spi_mode = 0;
        ::spi_device* spi = lx_bus_spi_create(&d);
        lx_bus::spi_attach(spi, *m_ports->spi, 0);
        ret = lx_bus_spi_probe(spi, mod.c_str(), variant.c_str());
    }
    if (ret)
        return mod + " probe failed: " + std::to_string(ret) + " (see the driver log above)";
    m_ndev = lx_bus_netdev_find(mod.c_str(), variant.c_str(), 0);
    if (!m_ndev)
        return mod + " probe registered no network device";
    lx_emul_netdev_set_rx_sink(
        m_ndev,
        [](void* ctx, ::net_device*, const uint8_t* frame, size_t len) {
            static_cast<traffic_session*>(ctx)->host_side().receive(frame, len);
        },
        m_traffic.get());

    // ip link set eth0 up, then wait for the carrier (link-up seen through P1MBSR) as the stack
    // does before it transmits.
    if (int r = lx_emul_netdev_open(m_ndev))
        return "ndo_open (ifup) of " + std::string(lx_bus_netdev_name(m_ndev)) +
               " failed: " + std::to_string(r) + " (see the driver log above)";
    const sc_time deadline = sc_time_stamp() + carrier_timeout;
    struct lx_bus_netdev_state st {};
    for (;;) {
        lx_bus_netdev_state(m_ndev, &st);
        if (st.carrier)
            break;
        if (sc_time_stamp() >= deadline)
            return std::string(lx_bus_netdev_name(m_ndev)) + ": no carrier " +
                   carrier_timeout.to_string() + " after ifup (link " +
                   (m_wire.link_up() ? "up" : "down") + " on the wire)";
        wait(sc_time(1, SC_MS));
    }
    wait(ifup_settle);
    return {};
}

void ks8851_system::bind_traffic() {
    // Host side: the real driver's xmit; the board CPU pays the stack cost.
    m_traffic->host_side().bind(
        system::host_traffic_port(m_cpu, m_ndev, m_pf.kernel, tx_retry_poll));

    // Peer side: the far host's stack answers after link.latency, then the cable.
    traffic::port peer;
    const sc_time latency = to_sc(m_sc.link.latency);
    peer.send = [this, latency](std::vector<uint8_t> f) {
        m_wire.peer_send(std::move(f), sc_time_stamp() + latency);
    };
    m_traffic->peer_side().bind(peer);
    m_wire.set_peer_sink([this](const eth::eth_frame& f) {
        // Without the FCS; the MAC's pad stays (IPv4 total length tells the stack the end).
        m_traffic->peer_side().receive(f.bytes.data(), f.bytes.size() - 4);
    });
}

void ks8851_system::main() {
    system::run_control::hooks h;
    if (after_up)
        h.after_up = [this] { return after_up(*this); };
    if (after_traffic)
        h.after_traffic = [this] { after_traffic(*this); };
    m_run.drive([this] { return bring_up(); }, *m_traffic, to_sc(m_sc.traffic.start), h);
}

report::report ks8851_system::run() {
    if (std::string error = m_run.simulate(to_sc(m_sc.duration_limit), m_trace.get());
        !error.empty())
        throw run_error(error);
    return make_report();
}

report::report ks8851_system::make_report() const {
    report::report r = system::start_report(m_run, *m_traffic, m_cpu, m_driver_log);

    report::device_report d;
    d.name = m_ndev ? lx_bus_netdev_name(m_ndev) : "ks8851";
    d.type = "ks8851";
    d.bus = m_par ? "par" : "spi";
    d.bus_clock_hz = m_par ? m_pf.par_bus.bus_clock.hz : m_sc.device.bus_clock.hz;
    const auto& cs = m_chip->core.stats();
    d.frames_tx = cs.tx_frames;
    d.frames_rx = cs.rx_released;
    d.irqs = cs.isr_reads;
    d.power_is_proxy = false;
    d.power_source = "not modelled: KSZ8851 supply currents not available (hardware-facts.md §5)";
    d.bus_transactions = bus_transactions();
    if (m_par) {
        const auto& ps = m_par_host->stats();
        d.bus_bytes = 2 * (ps.reads + ps.writes);
        d.bus_busy_s = ps.busy.to_seconds();
    } else {
        const auto& hs = m_spi_host->stats();
        d.bus_bytes = hs.bytes;
        d.bus_busy_s = hs.wire_time.to_seconds();
    }
    r.devices.push_back(d);
    for (const auto& f : m_chip->findings().list())
        r.findings.push_back({f.time.to_seconds(), "ks8851", "warning",
                              std::string(ks::to_string(f.kind)) + ": " + f.text});
    if (cs.rx_overruns > 0)
        r.findings.push_back(
            {sc_time_stamp().to_seconds(), "ks8851", "info",
             std::to_string(cs.rx_overruns) +
                 " RX frames lost to RXQ overrun (ISR.RXOI); the 6.1 driver does not enable "
                 "or count RXOI, so its stats show them only as missing rx_packets"});
    return r;
}

} // namespace nicsim

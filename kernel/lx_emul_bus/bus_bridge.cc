// SPDX-License-Identifier: MIT
// C++ bridges behind spi_sync / sdio_* / ioread16: each kernel device points at one bridge
// object (created here, owned by a registry freed at exit) that forwards to the attached model.
#include "kernel/include/nicsim/bus_attach.h"

#include <cerrno>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "bus/par/par_host.h"
#include "bus/spi/spi_host.h"
#include "kernel/include/lx_kit/lx_kit.h"
#include "kernel/include/lx_kit/runtime.h"
#include "kernel/lx_emul_bus/bridge_c.h"

namespace nicsim::lx_bus {
namespace {

struct spi_bridge {
    spi_port* port = nullptr;
    unsigned cs = 0;
};

class host_port final : public spi_port {
  public:
    explicit host_port(nicsim::spi::spi_host& h) : m_host(h) {}
    void transfer(nicsim::spi::spi_payload& frame) override { m_host.transfer(frame); }

  private:
    nicsim::spi::spi_host& m_host;
};

class par_port final : public mmio16_bus_if {
  public:
    explicit par_port(nicsim::par::par_host& h) : m_host(h) {}
    uint16_t read16(uint64_t addr) override { return m_host.read16(addr); }
    void write16(uint64_t addr, uint16_t value) override { m_host.write16(addr, value); }
    void read16_rep(uint64_t addr, uint16_t* out, size_t n) override {
        m_host.read16_rep(addr, out, n);
    }
    void write16_rep(uint64_t addr, const uint16_t* in, size_t n) override {
        m_host.write16_rep(addr, in, n);
    }

  private:
    nicsim::par::par_host& m_host;
};

struct sdio_bridge {
    sdio_host_if* host = nullptr;
};
struct mmio_bridge {
    mmio16_bus_if* bus = nullptr;
};

// Bridges live as long as the process (kernel devices are never destroyed during a run).
struct registry {
    std::vector<std::unique_ptr<spi_bridge>> spi;
    std::vector<std::unique_ptr<host_port>> host_ports;
    std::vector<std::unique_ptr<sdio_bridge>> sdio;
    std::vector<std::unique_ptr<mmio_bridge>> mmio;
    std::vector<std::unique_ptr<par_port>> par_ports;
};
registry& reg() {
    static registry r;
    return r;
}

} // namespace

void spi_attach(::spi_device* dev, spi_port& port, unsigned cs) {
    auto b = std::make_unique<spi_bridge>();
    b->port = &port;
    b->cs = cs;
    lx_bus_spi_set_bridge(dev, b.get());
    reg().spi.push_back(std::move(b));
}

void spi_attach(::spi_device* dev, nicsim::spi::spi_host& host, unsigned cs) {
    auto p = std::make_unique<host_port>(host);
    spi_attach(dev, *p, cs);
    reg().host_ports.push_back(std::move(p));
}

void sdio_attach(::sdio_func* func, sdio_host_if& host) {
    auto b = std::make_unique<sdio_bridge>();
    b->host = &host;
    lx_bus_sdio_set_bridge(func, b.get());
    reg().sdio.push_back(std::move(b));
}

void mmio16_attach(::platform_device* pdev, mmio16_bus_if& bus) {
    auto b = std::make_unique<mmio_bridge>();
    b->bus = &bus;
    lx_bus_platform_set_bridge(pdev, b.get());
    reg().mmio.push_back(std::move(b));
}

void mmio16_attach(::platform_device* pdev, nicsim::par::par_host& host) {
    auto p = std::make_unique<par_port>(host);
    mmio16_attach(pdev, *p);
    reg().par_ports.push_back(std::move(p));
}

} // namespace nicsim::lx_bus

using namespace nicsim::lx_bus;

extern "C" int lx_bus_spi_bridge_transfer(void* bridge, const char* who, unsigned cs,
                                          uint32_t speed_hz, unsigned mode,
                                          const struct lx_bus_spi_xfer* xfers, size_t n) {
    auto* b = static_cast<spi_bridge*>(bridge);
    if (!b || !b->port)
        lx_kit_abort("spi_sync on %s: no SPI host attached (nicsim::lx_bus::spi_attach)", who);
    nicsim::lx_kit::charge_driver_code(); // the code that built the message ran first
    // Payloads are reused (one per spi_sync in flight; callers are SystemC threads, so a sleeping
    // spi_sync keeps its own) to spare the xfers allocation of every message. `all` owns them for
    // good: a thread still inside spi_sync when the simulation ends is never unwound, and its
    // payload must not be owned by its stack.
    struct payload_pool {
        std::vector<std::unique_ptr<nicsim::spi::spi_payload>> all;
        std::vector<nicsim::spi::spi_payload*> free;
    };
    static payload_pool& pool = *new payload_pool; // never destroyed, like the lx_kit runtime
    if (pool.free.empty()) {
        pool.all.push_back(std::make_unique<nicsim::spi::spi_payload>());
        pool.free.push_back(pool.all.back().get());
    }
    nicsim::spi::spi_payload& frame = *pool.free.back();
    pool.free.pop_back();
    struct give_back {
        payload_pool& pool;
        nicsim::spi::spi_payload* p;
        ~give_back() { pool.free.push_back(p); }
    } back{pool, &frame};
    frame.xfers.clear();
    frame.response = nicsim::spi::spi_response::ok;
    frame.error.clear();
    frame.miso_tail.clear();
    frame.cs = b->cs;
    frame.mode = static_cast<nicsim::spi::spi_mode>(mode & 3u);
    frame.speed_hz = speed_hz;
    frame.xfers.reserve(n);
    for (size_t i = 0; i < n; i++) {
        nicsim::spi::spi_xfer x;
        x.tx = static_cast<const uint8_t*>(xfers[i].tx);
        x.rx = static_cast<uint8_t*>(xfers[i].rx);
        x.len = xfers[i].len;
        x.bits_per_word = xfers[i].bits_per_word;
        x.speed_hz = xfers[i].speed_hz;
        // Building an sc_time from a double is costly; drivers almost never set a delay.
        if (xfers[i].delay_after_ns)
            x.delay_after =
                sc_core::sc_time(static_cast<double>(xfers[i].delay_after_ns), sc_core::SC_NS);
        x.cs_change = xfers[i].cs_change != 0;
        frame.xfers.push_back(x);
    }
    try {
        b->port->transfer(frame);
    } catch (const std::exception& e) {
        lx_kit_abort("spi_sync on %s (cs %u): %s", who, cs, e.what());
    }
    // A real SPI bus has no error channel: spi_sync succeeds whatever the slave thought. A
    // model's protocol complaint is logged so it is never silent.
    if (frame.response != nicsim::spi::spi_response::ok) {
        std::string msg = std::string("spi_sync on ") + who + ": slave reported " +
                          (frame.response == nicsim::spi::spi_response::no_device
                               ? "no device on this chip select"
                               : "a protocol error") +
                          (frame.error.empty() ? "" : ": " + frame.error);
        lx_kit_log(4, "lx_emul_bus", msg.c_str());
    }
    return 0;
}

static sdio_host_if& sdio_host(void* bridge, const char* who, const char* what) {
    auto* b = static_cast<sdio_bridge*>(bridge);
    if (!b || !b->host)
        lx_kit_abort("%s on %s: no SDIO host attached (nicsim::lx_bus::sdio_attach)", what, who);
    nicsim::lx_kit::charge_driver_code(); // the code that built the request ran first
    return *b->host;
}

void sdio_host_if::wait_irq() {
    lx_kit_abort("sdio_claim_irq: the attached SDIO host has no in-band interrupt support");
}

extern "C" void lx_bus_sdio_bridge_wait_irq(void* bridge, const char* who) {
    sdio_host(bridge, who, "SDIO interrupt thread").wait_irq();
}

extern "C" void lx_bus_sdio_bridge_claim(void* bridge, const char* who) {
    auto* b = static_cast<sdio_bridge*>(bridge);
    nicsim::lx_kit::charge_driver_code();
    if (b && b->host)
        b->host->claim();
}

extern "C" void lx_bus_sdio_bridge_release(void* bridge, const char* who) {
    auto* b = static_cast<sdio_bridge*>(bridge);
    if (b && b->host)
        b->host->release();
}

extern "C" void lx_bus_sdio_bridge_enable_irq(void* bridge, const char* who, int on) {
    auto* b = static_cast<sdio_bridge*>(bridge);
    if (b && b->host)
        b->host->enable_sdio_irq(on != 0);
}

extern "C" int lx_bus_sdio_bridge_cmd52(void* bridge, const char* who, unsigned fn, int write,
                                        unsigned addr, uint8_t* data) {
    return sdio_host(bridge, who, write ? "sdio_writeb (CMD52)" : "sdio_readb (CMD52)")
        .cmd52(fn, write != 0, addr, *data);
}

extern "C" int lx_bus_sdio_bridge_cmd53(void* bridge, const char* who, unsigned fn, int write,
                                        unsigned addr, int incr_addr, int block_mode,
                                        unsigned count, unsigned blksz, uint8_t* buf) {
    return sdio_host(bridge, who, write ? "sdio_memcpy_toio (CMD53)" : "sdio_memcpy_fromio (CMD53)")
        .cmd53(fn, write != 0, addr, incr_addr != 0, block_mode != 0, count, blksz, buf);
}

static mmio16_bus_if& mmio_bus(void* bridge, const char* who, const char* what) {
    auto* b = static_cast<mmio_bridge*>(bridge);
    if (!b || !b->bus)
        lx_kit_abort("%s on %s: no 16-bit bus attached (nicsim::lx_bus::mmio16_attach)", what, who);
    nicsim::lx_kit::charge_driver_code(); // the code before the access ran first
    return *b->bus;
}

extern "C" uint16_t lx_bus_mmio16_bridge_read(void* bridge, const char* who, uint64_t addr) {
    return mmio_bus(bridge, who, "ioread16").read16(addr);
}

extern "C" void lx_bus_mmio16_bridge_write(void* bridge, const char* who, uint64_t addr,
                                           uint16_t value) {
    mmio_bus(bridge, who, "iowrite16").write16(addr, value);
}

extern "C" void lx_bus_mmio16_bridge_read_rep(void* bridge, const char* who, uint64_t addr,
                                              uint16_t* buf, size_t count) {
    mmio_bus(bridge, who, "ioread16_rep").read16_rep(addr, buf, count);
}

extern "C" void lx_bus_mmio16_bridge_write_rep(void* bridge, const char* who, uint64_t addr,
                                               const uint16_t* buf, size_t count) {
    mmio_bus(bridge, who, "iowrite16_rep").write16_rep(addr, buf, count);
}

// SPDX-License-Identifier: MIT
#include "tools/config/config_loader.h"

#include "tools/config/schema_recorder.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "tools/config/expect.h"
#include "tools/config/fault_keys.h"
#include "host/net/net_settings.h"

namespace nicsim::config {
namespace fs = std::filesystem;

#ifndef NICSIM_CONFIGS_DIR
#define NICSIM_CONFIGS_DIR "configs"
#endif

std::string default_configs_dir() {
    if (const char* env = std::getenv("NICSIM_CONFIGS_DIR"); env && *env)
        return env;
    // An installed binary (<prefix>/bin/nicsim) finds <prefix>/share/nicsim/configs; a binary
    // in the build tree falls back to the source tree's configs/.
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "nicsim" / "configs";
        if (fs::is_directory(installed / "platforms", ec))
            return installed.string();
    }
    return NICSIM_CONFIGS_DIR;
}

namespace {

template <class E> std::vector<std::pair<std::string, E>> names_of(std::initializer_list<E> all) {
    std::vector<std::pair<std::string, E>> out;
    for (E e : all)
        out.emplace_back(to_string(e), e);
    return out;
}

// A controller input clock: > 0 and within the drivers' 32-bit clock arithmetic.
check_fn<frequency> clock_below_4ghz() {
    return check_fn<frequency>([](const frequency& f) {
        return f.hz >= 1 && f.hz < 4294967296.0 ? std::string()
                                                 : std::string("must be in [1Hz, 4GHz)");
    });
}

// An optional key naming one of `all`: absent leaves out as it is (none, or the profile's).
template <class E>
void optional_enum(yaml_reader& r, const std::string& key, std::optional<E>& out,
                   std::initializer_list<E> all) {
    std::vector<std::pair<std::string, std::optional<E>>> names;
    for (E e : all)
        names.emplace_back(to_string(e), e);
    out = r.enumerated<std::optional<E>>(key, names, std::optional<std::optional<E>>(out));
}

// Why the profile's SPI controller driver refuses the requested clock (its divider does not
// fit), or its SD host driver fails to set it, or empty: said at device.bus_clock before
// anything runs.
std::string refused_bus_clock(const device_config& dev, const platform_profile& p) {
    const auto req = static_cast<std::uint32_t>(dev.bus_clock.hz);
    if (dev.bus == bus_type::sdio && p.sdio_host.present && p.sdio_host.clock_rule) {
        try {
            sdio::sdio_clock_hz(*p.sdio_host.clock_rule, p.sdio_host.clock_inputs(), req);
        } catch (const sdio::sdio_clock_error& e) {
            return to_string(dev.bus_clock) + " cannot be made by the SD host of platform '" +
                   p.name + "': " + e.what();
        }
        return {};
    }
    const auto& c = p.spi_host;
    if (dev.bus != bus_type::spi || !c.clock_rule)
        return {};
    const auto max = static_cast<std::uint32_t>(c.max_speed.hz);
    try {
        spi::spi_sck_hz(*c.clock_rule, static_cast<std::uint32_t>(c.input_clock.hz),
                        max ? std::min(req, max) : req);
    } catch (const spi::spi_clock_error& e) {
        return to_string(dev.bus_clock) + " cannot be made by the SPI controller of platform '" +
               p.name + "': " + e.what();
    }
    return {};
}

// What the profile lacks for the device's bus (the board would stop the run at its start,
// exit 2): {the device key to name, why}, or an empty why.
std::pair<std::string, std::string> missing_bus_host(const device_config& dev,
                                                     const platform_profile& p) {
    const std::string profile = "platform '" + p.name + "' (" + p.source_file + ")";
    if (dev.bus == bus_type::par && !p.par_bus.present)
        return {"bus", "par needs a platform with a parallel bus, but " + profile +
                           " has no par_bus section (e.g. platform: imx6-class)"};
    if (dev.bus == bus_type::sdio && !p.sdio_host.present)
        return {"bus", "sdio needs a platform with an SDIO host, but " + profile +
                           " has no sdio_host section (e.g. platform: sama5-class)"};
    if (dev.bus == bus_type::sdio && dev.bus_clock.hz > p.sdio_host.max_clock.hz)
        return {"bus_clock", to_string(dev.bus_clock) + " is above the SD clock the host of " +
                                 profile + " generates (sdio_host.max_clock = " +
                                 to_string(p.sdio_host.max_clock) + ")"};
    return {};
}

// Reads key into out: required when the whole profile is being read, else an override of out.
template <class T>
void field(yaml_reader& r, const std::string& key, T& out, bool require, check_fn<T> check = {}) {
    out = require ? r.required<T>(key, check) : r.optional<T>(key, out, check);
}

yaml_reader section(yaml_reader& r, const std::string& key, bool require) {
    if (require)
        return r.child(key);
    return r.child_or_empty(key);
}

// The profile keys; with require = false only the keys present change p (scenario overrides).
void read_platform(yaml_reader& r, platform_profile& p, bool require) {
    field(r, "name", p.name, require);
    p.description = r.optional<std::string>("description", p.description);

    yaml_reader cpu = section(r, "cpu", require);
    field(cpu, "cores", p.cpu.cores, require, at_least(1u));
    field(cpu, "hz", p.cpu.hz, require, check_fn<unsigned>([](const unsigned& v) {
              return v >= 24 && v <= 10000
                         ? std::string()
                         : std::string("must be a CONFIG_HZ value in [24, 10000]");
          }));
    field(cpu, "clock", p.cpu.clock, require, check_fn<frequency>([](const frequency& f) {
              return f.hz >= 1e6 && f.hz <= 1e10 ? std::string()
                                                 : std::string("must be in [1MHz, 10GHz]");
          }));
    field(cpu, "cycles_per_block", p.cpu.cycles_per_block, require,
          check_fn<double>([](const double& v) {
              return v >= 0 && v <= 1000 ? std::string() : std::string("must be in [0, 1000]");
          }));
    cpu.reject_unknown_keys();

    yaml_reader k = section(r, "kernel", require);
    field(k, "irq_to_thread_latency", p.kernel.irq_to_thread_latency, require);
    field(k, "sched_wakeup_latency", p.kernel.sched_wakeup_latency, require);
    p.kernel.timer_slack = k.optional<duration>("timer_slack", p.kernel.timer_slack);
    field(k, "per_packet_stack_cost", p.kernel.per_packet_stack_cost, require);
    field(k, "per_byte_stack_cost", p.kernel.per_byte_stack_cost, require);
    field(k, "charge_native_work", p.kernel.charge_native_work, require);
    field(k, "context_switch", p.kernel.context_switch, require);
    field(k, "hardirq", p.kernel.hardirq, require);
    // Optional: without them the distributions have no spread (p99 = median).
    const auto at_least_median = [](const duration& median) {
        return check_fn<duration>([median](const duration& d) {
            return d.ps == 0 || !(d < median)
                       ? std::string()
                       : std::string("must be >= the median (" + to_string(median) + ")");
        });
    };
    p.kernel.irq_to_thread_latency_p99 =
        k.optional<duration>("irq_to_thread_latency_p99", p.kernel.irq_to_thread_latency_p99,
                             at_least_median(p.kernel.irq_to_thread_latency));
    p.kernel.sched_wakeup_latency_p99 =
        k.optional<duration>("sched_wakeup_latency_p99", p.kernel.sched_wakeup_latency_p99,
                             at_least_median(p.kernel.sched_wakeup_latency));
    p.kernel.preemption_share = k.optional<double>(
        "preemption_share", p.kernel.preemption_share, check_fn<double>([](const double& v) {
            return v >= 0 && v < 1 ? std::string() : std::string("must be in [0, 1)");
        }));
    p.kernel.preemption_burst =
        k.optional<duration>("preemption_burst", p.kernel.preemption_burst);
    p.kernel.spi_sync_fast_path =
        k.optional<bool>("spi_sync_fast_path", p.kernel.spi_sync_fast_path);
    if ((p.kernel.preemption_share > 0) != (p.kernel.preemption_burst.ps > 0))
        k.fail(p.kernel.preemption_share > 0 ? "preemption_share" : "preemption_burst",
               "preemption_share and preemption_burst go together (both above zero or both "
               "absent)");
    k.reject_unknown_keys();

    // Optional section, like par_bus below: once present every key is required.
    if (r.has("net_stack")) {
        yaml_reader n = r.child("net_stack");
        const bool all = require || !p.net_stack.present;
        net_stack_costs& c = p.net_stack;
        field(n, "per_syscall", c.per_syscall, all);
        field(n, "per_byte_copied", c.per_byte_copied, all);
        field(n, "per_segment_sent", c.per_segment_sent, all);
        field(n, "per_segment_recv", c.per_segment_recv, all);
        field(n, "per_ack_recv", c.per_ack_recv, all);
        field(n, "per_ack_sent", c.per_ack_sent, all);
        field(n, "per_skb_alloc", c.per_skb_alloc, all);
        field(n, "per_skb_free", c.per_skb_free, all);
        n.reject_unknown_keys();
        c.present = true;
    }

    yaml_reader s = section(r, "spi_host", require);
    field(s, "controller", p.spi_host.controller, require);
    field(s, "cpu_cost", p.spi_host.cpu_cost, require,
          check_fn<std::string>([](const std::string& v) {
              return v == "generic" || v == "bcm2835" || v == "atmel_spi"
                         ? std::string()
                         : std::string("unknown SPI controller CPU cost model '" + v +
                                       "' (known: generic, bcm2835, atmel_spi)");
          }));
    field(s, "max_speed", p.spi_host.max_speed, require);
    optional_enum(s, "clock_rule", p.spi_host.clock_rule,
                  {spi::spi_clock_rule::atmel_scbr, spi::spi_clock_rule::bcm2835_cdiv,
                   spi::spi_clock_rule::imx_ecspi, spi::spi_clock_rule::stm32_mbr,
                   spi::spi_clock_rule::dw_ssi});
    field(s, "input_clock", p.spi_host.input_clock, false, clock_below_4ghz());
    if (p.spi_host.clock_rule && p.spi_host.input_clock.hz <= 0)
        s.fail("clock_rule", "needs spi_host.input_clock, the clock the rule divides");
    field(s, "per_message_overhead", p.spi_host.per_message_overhead, require);
    field(s, "per_transfer_overhead", p.spi_host.per_transfer_overhead, require);
    field(s, "message_pump_overhead", p.spi_host.message_pump_overhead, false);
    field(s, "cs_setup", p.spi_host.cs_setup, require);
    field(s, "cs_hold", p.spi_host.cs_hold, require);
    field(s, "cs_inactive_min", p.spi_host.cs_inactive_min, require);
    field(s, "inter_transfer_gap", p.spi_host.inter_transfer_gap, require);
    field(s, "inter_word_gap_cycles", p.spi_host.inter_word_gap_cycles, require);
    field(s, "inter_word_gap", p.spi_host.inter_word_gap, require);
    field(s, "dma_threshold", p.spi_host.dma_threshold, require);
    field(s, "dma_setup", p.spi_host.dma_setup, require);
    field(s, "polling_limit", p.spi_host.polling_limit, require);
    field(s, "fifo_size", p.spi_host.fifo_size, false);
    s.reject_unknown_keys();

    // Optional section; once present (in the profile or a scenario override of a profile that
    // has none) every key of it is required.
    if (r.has("par_bus")) {
        yaml_reader b = r.child("par_bus");
        const bool all = require || !p.par_bus.present;
        const auto positive_hz = check_fn<frequency>([](const frequency& f) {
            return f.hz > 0 ? std::string() : std::string("must be > 0");
        });
        field(b, "controller", p.par_bus.controller, all);
        field(b, "window_base", p.par_bus.window_base, all);
        field(b, "bus_clock", p.par_bus.bus_clock, all, positive_hz);
        field(b, "issue_cycles", p.par_bus.issue_cycles, all);
        field(b, "addr_setup_cycles", p.par_bus.addr_setup_cycles, all);
        field(b, "read_strobe_cycles", p.par_bus.read_strobe_cycles, all, at_least(1u));
        field(b, "write_strobe_cycles", p.par_bus.write_strobe_cycles, all, at_least(1u));
        field(b, "hold_cycles", p.par_bus.hold_cycles, all);
        field(b, "recovery_cycles", p.par_bus.recovery_cycles, all);
        b.reject_unknown_keys();
        p.par_bus.present = true;
    }
    if (r.has("sdio_host")) {
        yaml_reader h = r.child("sdio_host");
        const bool all = require || !p.sdio_host.present;
        const auto sd_clock = check_fn<frequency>([](const frequency& f) {
            return f.hz > 0 && f.hz <= 50e6
                       ? std::string()
                       : std::string("must be > 0 and <= 50MHz (SD high speed)");
        });
        field(h, "controller", p.sdio_host.controller, all);
        field(h, "max_clock", p.sdio_host.max_clock, all, sd_clock);
        optional_enum(h, "clock_rule", p.sdio_host.clock_rule,
                      {sdio::sdio_clock_rule::sdhci, sdio::sdio_clock_rule::bcm2835_sdhost,
                       sdio::sdio_clock_rule::stm32_sdmmc, sdio::sdio_clock_rule::esdhc_imx,
                       sdio::sdio_clock_rule::meson_gx_mmc});
        field(h, "input_clock", p.sdio_host.input_clock, false, clock_below_4ghz());
        if (p.sdio_host.clock_rule && p.sdio_host.input_clock.hz <= 0)
            h.fail("clock_rule", "needs sdio_host.input_clock, the clock the rule divides");
        // meson-gx-mmc's mux always has its second input (clkin1); the other rules ignore it.
        field(h, "second_input_clock", p.sdio_host.second_input_clock, false,
              clock_below_4ghz());
        if (p.sdio_host.clock_rule == sdio::sdio_clock_rule::meson_gx_mmc &&
            p.sdio_host.second_input_clock.hz <= 0)
            h.fail("clock_rule", "meson_gx_mmc needs sdio_host.second_input_clock, the mux's "
                                 "clkin1 (input_clock is its clkin0)");
        field(h, "clock_multiplier", p.sdio_host.clock_multiplier, false,
              check_fn<unsigned>([](const unsigned& v) {
                  return v <= 256 ? std::string()
                                  : std::string("must be <= 256 (an 8-bit field + 1)");
              }));
        field(h, "per_request_overhead", p.sdio_host.per_request_overhead, all);
        field(h, "completion_overhead", p.sdio_host.completion_overhead, all);
        field(h, "per_block_overhead", p.sdio_host.per_block_overhead, all);
        field(h, "dma_threshold", p.sdio_host.dma_threshold, all);
        field(h, "dma_setup", p.sdio_host.dma_setup, all);
        field(h, "irq_latency", p.sdio_host.irq_latency, all);
        // Runtime PM: optional, off unless asked for (docs/scenarios.md).
        field(h, "runtime_pm", p.sdio_host.runtime_pm, false);
        field(h, "autosuspend_delay", p.sdio_host.autosuspend_delay, false);
        field(h, "resume_latency", p.sdio_host.resume_latency, false);
        p.sdio_host.irq_pm = h.enumerated<sdio_irq_pm>(
            "sdio_irq_pm",
            {{"holds_clock", sdio_irq_pm::holds_clock}, {"wake_irq", sdio_irq_pm::wake_irq}},
            p.sdio_host.irq_pm);
        h.reject_unknown_keys();
        p.sdio_host.present = true;
    }
}

std::string with_yaml_ext(const std::string& v) {
    const std::string ext = fs::path(v).extension().string();
    return ext == ".yaml" || ext == ".yml" ? v : v + ".yaml";
}

// Finds the profile file a scenario names; throws at the platform key when there is none.
std::string resolve_platform(yaml_reader& r, const std::string& key, const std::string& value,
                             const std::string& scenario_file, const std::string& configs_dir) {
    const std::string name = with_yaml_ext(value);
    std::vector<fs::path> candidates;
    if (fs::path(name).is_absolute()) {
        candidates.push_back(name);
    } else {
        const fs::path dir = fs::path(scenario_file).parent_path();
        candidates.push_back(dir / name);
        candidates.push_back(dir / "platforms" / name);
        candidates.push_back(fs::path(configs_dir) / "platforms" / name);
    }
    std::vector<std::string> tried;
    for (const auto& c : candidates) {
        const std::string p = c.lexically_normal().string();
        if (fs::is_regular_file(c))
            return p;
        if (std::find(tried.begin(), tried.end(), p) == tried.end())
            tried.push_back(p);
    }
    std::vector<std::string> known;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(configs_dir) / "platforms", ec))
        if (e.path().extension() == ".yaml")
            known.push_back(e.path().stem().string());
    std::sort(known.begin(), known.end());
    r.fail(key, "no platform profile '" + value + "' (looked for " + yaml_reader::join(tried) +
                    "; profiles in " + configs_dir + "/platforms: " +
                    (known.empty() ? std::string("none") : yaml_reader::join(known)) + ")");
}

const device_keys& read_device_type(yaml_reader& r, const device_catalog& catalog,
                                    std::string& type) {
    std::vector<std::string> known;
    for (const auto* d : catalog.devices)
        known.push_back(d->type);
    type = r.one_of("type", known);
    return *catalog.find(type);
}

std::string bus_list(const device_keys& k) {
    std::vector<std::string> names;
    for (const auto& b : k.buses)
        names.push_back(to_string(b.bus));
    return yaml_reader::join(names);
}

device_config read_device(yaml_reader r, const device_catalog& catalog, const device_keys*& keys) {
    device_config d;
    keys = &read_device_type(r, catalog, d.type);
    const device_keys& k = *keys;
    d.bus = r.enumerated<bus_type>("bus", names_of({bus_type::spi, bus_type::sdio, bus_type::par}));
    const bus_keys* bk = k.find_bus(d.bus);
    if (!bk)
        r.fail("bus", d.type + " has no " +
                          (d.bus == bus_type::par    ? std::string("parallel bus")
                           : d.bus == bus_type::sdio ? std::string("SDIO")
                                                     : std::string("SPI")) +
                          " interface (supported: " + bus_list(k) + ")");

    // Upper limits are the chips' datasheet maxima (docs/scenarios.md,
    // docs/sources.md#wilc1000-host-interfaces, docs/sources.md#ks8851).
    if (bk->default_clock_hz <= 0) {
        if (r.has("bus_clock"))
            r.fail("bus_clock", std::string("does not apply to the ") +
                                    (d.bus == bus_type::par ? "parallel bus" : to_string(d.bus)) +
                                    " (it has no clock)");
    } else {
        const double max_hz = bk->max_clock_hz;
        d.bus_clock = r.optional<frequency>("bus_clock", frequency{bk->default_clock_hz},
                                            check_fn<frequency>([&](const frequency& f) {
                                                return f.hz <= max_hz
                                                           ? std::string()
                                                           : std::string("above the ") + d.type +
                                                                 " " + to_string(d.bus) +
                                                                 " maximum of " +
                                                                 to_string(frequency{max_hz});
                                            }));
    }

    if (d.bus == bus_type::sdio) {
        d.bus_width = r.optional<unsigned>(
            "bus_width", 4u, check_fn<unsigned>([](const unsigned& w) {
                return w == 1 || w == 4 ? std::string() : std::string("must be 1 or 4");
            }));
    } else if (r.has("bus_width")) {
        r.fail("bus_width", "applies to sdio only");
    }

    d.irq = r.enumerated<irq_mode>(
        "irq", names_of({irq_mode::gpio, irq_mode::in_band, irq_mode::none}), bk->default_irq);
    if (d.irq == irq_mode::in_band && d.bus != bus_type::sdio)
        r.fail("irq", "in_band interrupts exist only on sdio");
    if (std::find(bk->irq_modes.begin(), bk->irq_modes.end(), d.irq) == bk->irq_modes.end())
        r.fail("irq", bk->irq_note);

    if (auto p = r.optional_child("power")) {
        d.power.supply_voltage_v = p->optional<voltage>("supply_voltage", voltage{}).volts;
        if (auto c = p->optional_child("currents")) {
            // The chip model's energy states (ns-3 naming), as its binding lists them.
            const auto& states = k.power_states;
            for (const auto& [state, text] : c->scalar_entries()) {
                if (std::find(states.begin(), states.end(), state) == states.end())
                    c->fail_key(state, "unknown power state '" + state + "' (expected one of: " +
                                           yaml_reader::join(states) + ")");
                d.power.state_current_a[state] = c->required<current>(state).amperes;
            }
        }
        p->reject_unknown_keys();
    }
    if (auto t = r.optional_child("timing")) {
        if (k.timing_keys.empty())
            r.fail("timing", "the " + d.type + " model has no chip timing overrides");
        for (const auto& key : k.timing_keys) {
            // optional() (not has()): the schema recorder sees every key this device takes.
            const duration v = t->optional<duration>(key, duration{});
            if (t->has(key))
                d.timing[key] = v;
        }
        t->reject_unknown_keys();
    }
    if (k.buffer_keys.empty()) {
        if (r.has("buffers"))
            r.fail("buffers", "the " + d.type + " model has no buffer size overrides");
    } else {
        // child_or_empty: the schema recorder sees the keys also where no scenario sets them.
        yaml_reader b = r.child_or_empty("buffers");
        for (const auto& key : k.buffer_keys) {
            const auto in_bounds = check_fn<byte_size>([&key](const byte_size& v) {
                if (v.bytes >= key.min && v.bytes <= key.max)
                    return std::string();
                return "must be " + std::to_string(key.min) + " to " + std::to_string(key.max) +
                       " B (" + key.why + ")";
            });
            const byte_size v = b.optional<byte_size>(key.name, byte_size{}, in_bounds);
            if (b.has(key.name))
                d.buffers[key.name] = v;
        }
        b.reject_unknown_keys();
    }
    if (k.firmware_keys.empty()) {
        if (r.has("firmware"))
            r.fail("firmware", "the " + d.type + " model has no firmware choices");
    } else {
        // child_or_empty: the schema recorder sees the choices also where no scenario sets them.
        yaml_reader f = r.child_or_empty("firmware");
        for (const auto& key : k.firmware_keys) {
            const std::string v = f.one_of(key.name, key.values, key.values.front());
            if (f.has(key.name))
                d.firmware[key.name] = v;
        }
        f.reject_unknown_keys();
    }
    r.reject_unknown_keys();
    return d;
}

driver_config read_driver(yaml_reader r, const device_config& dev, const device_keys& keys,
                          const load_options& options) {
    driver_config d;
    std::vector<std::string> variants = {"pristine"};
    for (const auto& known : options.known_variants) {
        // "driver/name" counts for that driver only; a bare name for any.
        const auto slash = known.find('/');
        if (slash != std::string::npos && known.compare(0, slash, dev.type) != 0)
            continue;
        const std::string v = slash == std::string::npos ? known : known.substr(slash + 1);
        if (std::find(variants.begin(), variants.end(), v) == variants.end())
            variants.push_back(v);
    }
    d.variant = r.one_of("variant", variants, std::string("pristine"));
    d.kernel = r.one_of("kernel", kernel_names(), kernel_names().front());
    if (!options.known_builds.empty()) {
        const auto unbuilt = options.unbuilt_drivers.find(d.kernel + "/" + dev.type);
        if (unbuilt != options.unbuilt_drivers.end())
            r.fail("kernel", "the " + dev.type + " driver is not built for " + d.kernel + ": " +
                                 unbuilt->second);
        const std::string build = d.kernel + "/" + dev.type + "/" + d.variant;
        if (std::find(options.known_builds.begin(), options.known_builds.end(), build) ==
            options.known_builds.end())
            r.fail("variant", "variant '" + d.variant + "' of the " + dev.type +
                                  " driver is not built for kernel " + d.kernel);
    }
    d.source = r.optional<std::string>("source", "");
    if (!d.source.empty()) {
        if (d.source.compare(0, 2, "~/") == 0 && std::getenv("HOME"))
            d.source = std::string(std::getenv("HOME")) + d.source.substr(1);
        // Written in a scenario file: relative to that file, as platform: is. From --set or
        // --driver-src: relative to the working directory, as a shell user expects.
        bool from_command_line = false;
        for (const auto& [path, arg] : r.source().overrides)
            from_command_line = from_command_line || path == "driver" || path == "driver.source";
        if (!from_command_line && fs::path(d.source).is_relative() && !r.source().file.empty())
            d.source =
                (fs::path(r.source().file).parent_path() / d.source).lexically_normal().string();
        std::error_code ec;
        if (!std::filesystem::is_directory(d.source, ec))
            r.fail("source", "'" + d.source + "' is not a directory (a kernel tree)");
        if (d.variant != "pristine")
            r.fail("source", "driver.source builds the tree as it is: it takes no driver.variant "
                             "(here '" +
                                 d.variant + "')");
    }
    d.power_save = r.optional<bool>("power_save", false);
    if (d.power_save && !keys.chip_sleep)
        r.fail("power_save", "the " + dev.type + " driver has no chip sleep control");
    if (auto mp = r.optional_child("module_params")) {
        const auto& specs = keys.module_params;
        for (const auto& [name, text] : mp->scalar_entries()) {
            const auto& key = name; // C++17 lambdas cannot capture structured bindings (clang)
            auto it = std::find_if(specs.begin(), specs.end(),
                                   [&](const module_param_keys& s) { return key == s.name; });
            if (it == specs.end() && (d.variant != "pristine" || !d.source.empty())) {
                // A patched variant or a user's tree may add parameters (e.g. no-chip-sleep's
                // chip_sleep); the run checks them against the build's own module registry.
                d.module_params[name] = mp->required<std::string>(name);
                continue;
            }
            if (it == specs.end()) {
                std::vector<std::string> known;
                for (const auto& s : specs)
                    known.push_back(s.name);
                mp->fail_key(name, "unknown module parameter '" + name + "' of the " + dev.type +
                                       " driver (known: " + yaml_reader::join(known) + ")");
            }
            if (it->type == "bool")
                d.module_params[name] = mp->required<bool>(name) ? "true" : "false";
            else
                d.module_params[name] = std::to_string(mp->required<int>(name));
        }
    }
    r.reject_unknown_keys();
    return d;
}

traffic_config read_traffic(yaml_reader r) {
    traffic_config t;
    t.kind = r.enumerated<traffic_kind>(
        "kind", names_of({traffic_kind::ttcp_tx, traffic_kind::ttcp_rx, traffic_kind::udp_tx,
                          traffic_kind::udp_rx, traffic_kind::ping, traffic_kind::iperf_tx,
                          traffic_kind::iperf_rx, traffic_kind::idle}));
    t.start = r.optional<duration>("start", duration{});
    // Only the keys that apply to this kind are read, so e.g. `window` on a UDP flow is rejected.
    const auto positive_size = check_fn<byte_size>([](const byte_size& b) {
        return b.bytes > 0 ? std::string() : std::string("must be > 0");
    });
    const auto max_size = [](std::uint64_t max, const char* why) {
        return check_fn<byte_size>([max, why](const byte_size& b) {
            if (b.bytes == 0)
                return std::string("must be > 0");
            return b.bytes <= max ? std::string()
                                  : "must be <= " + std::to_string(max) + " (" + why + ")";
        });
    };
    switch (t.kind) {
    case traffic_kind::ttcp_tx:
    case traffic_kind::ttcp_rx:
    case traffic_kind::iperf_tx:
    case traffic_kind::iperf_rx: {
        const bool ttcp = t.kind == traffic_kind::ttcp_tx || t.kind == traffic_kind::ttcp_rx;
        // ttcp's defaults: 2048 writes of 8 KiB = 16 MiB; iperf is time-based, 128 KiB writes.
        t.bytes = r.optional<byte_size>("bytes", byte_size{ttcp ? 16u << 20 : 0u});
        t.write_size =
            r.optional<byte_size>("write_size", byte_size{ttcp ? 8192u : 131072u}, positive_size);
        t.segment_size = r.optional<byte_size>("segment_size", byte_size{1460},
                                               max_size(1460, "MTU 1500 minus 40 bytes IP+TCP"));
        t.window = r.optional<byte_size>("window", byte_size{65536}, positive_size);
        if (ttcp && r.has("streams"))
            r.fail("streams", "ttcp has one connection; parallel streams are iperf's (-P): use "
                              "kind iperf_tx or iperf_rx");
        // iperf3 allows up to 128 (MAX_STREAMS).
        t.streams = r.optional<std::uint32_t>(
            "streams", 1, check_fn<std::uint32_t>([](const std::uint32_t& n) {
                return n >= 1 && n <= 128 ? std::string() : std::string("must be 1..128");
            }));
        if (t.window.bytes < t.segment_size.bytes)
            r.fail("window", "must be at least segment_size (" +
                                 std::to_string(t.segment_size.bytes) + " bytes)");
        break;
    }
    case traffic_kind::udp_tx:
    case traffic_kind::udp_rx:
        t.bytes = r.optional<byte_size>("bytes", byte_size{0});
        t.datagram_size = r.optional<byte_size>(
            "datagram_size", byte_size{1472},
            max_size(1472, "MTU 1500 minus 28 bytes IP+UDP; fragmentation is not modelled"));
        // iperf3's default for UDP (-b: "default 1 Mbit/sec for UDP"); 0 = unlimited (-b 0),
        // bounded by the sender's socket buffer and the queues of the path.
        t.rate = r.optional<bit_rate>("rate", bit_rate{1e6});
        t.max_loss = r.optional<double>(
            "max_loss", 0.1, check_fn<double>([](const double& v) {
                return v >= 0 && v <= 1 ? std::string()
                                        : std::string("must be a share of the datagrams, 0…1 "
                                                      "(0.1 = 10 %)");
            }));
        break;
    case traffic_kind::ping:
        t.count = r.optional<std::uint64_t>("count", 10, at_least<std::uint64_t>(1));
        t.interval = r.optional<duration>("interval", parse_duration("1s"), positive<duration>());
        t.payload_size = r.optional<byte_size>(
            "payload_size", byte_size{56},
            max_size(1472, "MTU 1500 minus 28 bytes IP+ICMP; fragmentation is not modelled"));
        t.ping_from_peer = r.enumerated<bool>("from", {{"board", false}, {"peer", true}}, false);
        t.ping_adaptive = r.optional<bool>("adaptive", true);
        break;
    case traffic_kind::idle:
        break;
    }
    r.reject_unknown_keys(std::string("for kind ") + to_string(t.kind));
    return t;
}

link_config read_link(yaml_reader r, const device_keys& keys) {
    link_config l;
    l.phy_rate = r.optional<bit_rate>(
        "phy_rate", bit_rate{keys.default_phy_rate_bps}, check_fn<bit_rate>([](const bit_rate& b) {
            return b.bps > 0 ? std::string() : std::string("must be > 0");
        }));
    l.mac_efficiency =
        r.optional<double>("mac_efficiency", keys.default_mac_efficiency, fraction_in_0_1());
    // A wire models the Ethernet framing, preamble and IFG itself; the chip bindings refuse
    // any other efficiency when the run starts (exit 2), so it is said here.
    if (!keys.wireless && l.mac_efficiency != 1.0)
        r.fail("mac_efficiency", "must be 1 for " + keys.type +
                                     " (Ethernet framing, preamble and IFG are modelled by the "
                                     "wire)");
    l.latency = r.optional<duration>("latency", parse_duration("100us"));
    l.beacon_interval = parse_duration("102.4ms");
    if (!keys.wireless) {
        for (const char* k : {"associated", "beacon_interval", "dtim_period", "ssid", "channel"})
            if (r.has(k))
                r.fail(k, "only for an 802.11 medium (device.type wilc1000); a " + keys.type +
                              " is on a wire");
    } else {
        l.associated = r.optional<bool>("associated", true);
        l.beacon_interval = r.optional<duration>("beacon_interval", l.beacon_interval);
        l.dtim_period = r.optional<unsigned>("dtim_period", 2u, at_least(1u));
        l.ssid = r.optional<std::string>(
            "ssid", std::string(), check_fn<std::string>([](const std::string& v) {
                return !v.empty() && v.size() <= 32 && v.find('\0') == std::string::npos
                           ? std::string()
                           : std::string("must be 1 to 32 bytes");
            }));
        l.channel = r.optional<unsigned>("channel", 0u, check_fn<unsigned>([](const unsigned& c) {
                                             return c >= 1 && c <= 14
                                                        ? std::string()
                                                        : std::string("must be a 2.4 GHz "
                                                                      "channel, 1 to 14");
                                         }));
    }
    r.reject_unknown_keys();
    return l;
}

// host.net.* / peer.net.*: each key is a Linux setting (net_settings.h), checked by the stack's
// own parser so the loader and the run agree; the whole set is validated together.
// r: the net mapping, empty when absent (child_or_empty, so the schema recorder sees a free map).
std::map<std::string, std::string> read_net_settings(yaml_reader r) {
    std::map<std::string, std::string> out;
    // net_settings says "net setting '<key>': why"; the reader puts the key's path in front.
    const auto why = [](const std::string& what) {
        const auto at = what.find("': ");
        return what.rfind("net setting '", 0) == 0 && at != std::string::npos ? what.substr(at + 3)
                                                                              : what;
    };
    net::net_settings probe;
    for (const auto& [key, text] : r.scalar_entries()) {
        try {
            probe.set(key, text);
        } catch (const std::invalid_argument& e) {
            r.fail(key, why(e.what()));
        }
        out[key] = text;
    }
    try {
        probe.validate();
    } catch (const std::invalid_argument& e) {
        // "net setting '<key>': ...": point at that key.
        const std::string what = e.what();
        const auto a = what.find('\''), b = what.find('\'', a + 1);
        const std::string key = a != std::string::npos && b != std::string::npos
                                    ? what.substr(a + 1, b - a - 1)
                                    : out.begin()->first;
        r.fail(out.count(key) ? key : out.begin()->first, why(what));
    }
    return out;
}

host_config read_host(yaml_reader host, yaml_reader peer) {
    host_config h;
    h.stack = host.one_of("stack", {"linux", "fixed_window"}, std::string("linux"));
    h.net = read_net_settings(host.child_or_empty("net"));
    host.reject_unknown_keys();
    h.peer_net = read_net_settings(peer.child_or_empty("net"));
    peer.reject_unknown_keys();
    return h;
}

// A trace path written in a scenario file names a file the run creates or overwrites: it must
// stay inside the output directory (the current directory; a sweep names each point's traces
// itself), so a scenario someone hands over cannot write over ~/.bashrc. Given on the command
// line (--pcap, --set trace.pcap=…) it may be anywhere: the user chose it.
void check_trace_path(yaml_reader& r, const std::string& key, const std::string& path) {
    if (path.empty())
        return;
    for (const auto& [set_path, arg] : r.source().overrides)
        if (set_path == "trace" || set_path == "trace." + key)
            return;
    std::string flag = "--" + key; // trace.pcap_peer: --pcap-peer
    std::replace(flag.begin(), flag.end(), '_', '-');
    const fs::path p = fs::path(path).lexically_normal();
    if (p.is_absolute() || p.empty() || *p.begin() == "..")
        r.fail(key, "'" + path +
                        "' is outside the output directory (the current directory): a trace "
                        "path in a scenario file must be relative and stay inside it; give it on "
                        "the command line (" +
                        flag + " FILE or --set trace." + key + "=FILE) to write elsewhere");
}

trace_config read_trace(yaml_reader r) {
    trace_config t;
    t.vcd = r.optional<std::string>("vcd", "");
    t.vcd_format = r.one_of("vcd_format", {"gtkwave", "sigrok"}, std::string("gtkwave"));
    if (t.vcd_format == "sigrok" && t.vcd.size() > 4 &&
        t.vcd.compare(t.vcd.size() - 4, 4, ".fst") == 0)
        r.fail("vcd", "'" + t.vcd +
                          "' is FST, a GTKWave format: vcd_format sigrok writes VCD "
                          "only (name the file .vcd)");
    t.timeline = r.optional<std::string>("timeline", "");
    t.log = r.optional<std::string>("log", "");
    t.pcap = r.optional<std::string>("pcap", "");
    t.pcap_peer = r.optional<std::string>("pcap_peer", "");
    t.window_start = r.optional<duration>("window_start", duration{});
    t.window_end = r.optional<duration>("window_end", duration{});
    t.max_size = r.optional<byte_size>("max_size", t.max_size);
    check_trace_path(r, "vcd", t.vcd);
    check_trace_path(r, "timeline", t.timeline);
    check_trace_path(r, "log", t.log);
    check_trace_path(r, "pcap", t.pcap);
    check_trace_path(r, "pcap_peer", t.pcap_peer);
    if (t.window_end.ps != 0 && !(t.window_end > t.window_start))
        r.fail("window_end", "must be after window_start (" + to_string(t.window_start) + ")");
    r.reject_unknown_keys();
    return t;
}

sim_config read_sim(yaml_reader r) {
    sim_config s;
    s.quantum = r.optional<duration>("quantum", s.quantum);
    if (s.quantum.ps < 0)
        r.fail("quantum", "must be >= 0 (0 = exact mode)");
    r.reject_unknown_keys();
    return s;
}

yaml_reader optional_section(yaml_reader& r, const std::string& key) {
    return section(r, key, false);
}

} // namespace

loaded_scenario load_scenario(const std::string& file, const load_options& options) {
    auto src = std::make_shared<yaml_source>();
    src->file = file;
    YAML::Node root = load_yaml_file(file);
    if (!root.IsMap() && !root.IsNull())
        throw config_error(file + ": expected a mapping of scenario keys at the top level");
    for (const auto& o : options.overrides) {
        // `platform: NAME` is shorthand for `platform: {profile: NAME}`; a --set into the
        // platform needs the long form.
        if (o.rfind("platform.", 0) == 0 && root.IsMap()) {
            const YAML::Node& croot = root;
            if (croot["platform"] && croot["platform"].IsScalar()) {
                YAML::Node m(YAML::NodeType::Map);
                m["profile"] = croot["platform"].Scalar();
                root["platform"] = m;
            }
        }
        apply_override(root, o, *src);
    }
    const std::string configs_dir =
        options.configs_dir.empty() ? default_configs_dir() : options.configs_dir;

    yaml_reader r(root, "", "scenario", src);
    loaded_scenario out;
    scenario_config& sc = out.scenario;
    sc.source_file = file;
    sc.name = r.optional<std::string>("name", fs::path(file).stem().string());
    sc.description = r.optional<std::string>("description", "");
    sc.duration_limit = r.required<duration>("duration", positive<duration>());
    sc.seed = r.optional<std::uint64_t>("seed", 1);

    // platform: NAME | path | {profile: NAME|path, <profile keys to override>...}
    std::optional<yaml_reader> platform_overrides;
    std::string profile;
    const YAML::Node& croot = root;
    if (r.has("platform") && croot["platform"].IsMap()) {
        platform_overrides = r.child("platform");
        profile = platform_overrides->required<std::string>("profile");
        sc.platform = resolve_platform(*platform_overrides, "profile", profile, file, configs_dir);
    } else {
        profile = r.required<std::string>("platform");
        sc.platform = resolve_platform(r, "platform", profile, file, configs_dir);
    }
    {
        schema_recorder::pause other_format; // the profile file is not part of the scenario
        out.platform = load_platform(sc.platform);
    }
    if (platform_overrides) {
        read_platform(*platform_overrides, out.platform, false);
        platform_overrides->reject_unknown_keys();
    }

    const device_catalog& catalog = options.devices ? *options.devices : device_catalog::linked();
    const device_keys* keys = nullptr;
    sc.device = read_device(r.child("device"), catalog, keys);
    if (const std::string err = refused_bus_clock(sc.device, out.platform); !err.empty()) {
        yaml_reader d = r.child("device"); // only now: a second reader would re-record the section
        d.fail(d.has("bus_clock") ? "bus_clock" : "type", err);
    }
    if (const auto [key, err] = missing_bus_host(sc.device, out.platform); !err.empty()) {
        yaml_reader d = r.child("device");
        d.fail(d.has(key) ? key : "type", err);
    }
    sc.driver = read_driver(optional_section(r, "driver"), sc.device, *keys, options);
    sc.traffic = read_traffic(r.child("traffic"));
    sc.link = read_link(optional_section(r, "link"), *keys);
    sc.host = read_host(optional_section(r, "host"), optional_section(r, "peer"));
    if (sc.host.stack == "linux") {
        // The fixed-window model's two TCP knobs have no meaning for the linux stack: its window
        // is autotuned from tcp_rmem/tcp_wmem and its MSS follows the MTU.
        yaml_reader t = r.child("traffic");
        if (t.has("window"))
            t.fail("window", "not used by host.stack linux, whose windows are autotuned; set "
                             "host.net.tcp_rmem / peer.net.tcp_rmem (or host.stack: fixed_window)");
        if (t.has("segment_size"))
            t.fail("segment_size", "not used by host.stack linux, whose MSS follows the MTU; "
                                   "set host.net.mtu (or host.stack: fixed_window)");
    } else if (sc.traffic.streams > 1) {
        r.child("traffic").fail("streams", "parallel streams need host.stack linux (the "
                                           "fixed-window model has one connection)");
    }
    sc.trace = read_trace(optional_section(r, "trace"));
    sc.sim = read_sim(optional_section(r, "sim"));
    sc.faults = read_faults(r, croot["faults"], src, *keys, sc);
    sc.expect = read_expect_key(r, sc.device.type);
    r.reject_unknown_keys();
    return out;
}

platform_profile load_platform(const std::string& file, const std::vector<std::string>& overrides) {
    auto src = std::make_shared<yaml_source>();
    src->file = file;
    YAML::Node root = load_yaml_file(file);
    if (!root.IsMap())
        throw config_error(file + ": expected a mapping of platform profile keys at the top level");
    for (const auto& o : overrides)
        apply_override(root, o, *src);
    yaml_reader r(root, "", "platform profile", src);
    platform_profile p;
    p.source_file = file;
    read_platform(r, p, true);
    r.reject_unknown_keys();
    return p;
}

config_kind detect_config_kind(const std::string& file) {
    const YAML::Node root = load_yaml_file(file);
    if (root.IsMap() && !root["device"] && (root["spi_host"] || root["cpu"]))
        return config_kind::platform;
    return config_kind::scenario;
}

} // namespace nicsim::config

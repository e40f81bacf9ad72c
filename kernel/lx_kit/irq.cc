// SPDX-License-Identifier: MIT
// lx_kit interrupt lines: binds irq numbers to testbench interrupt sources and latches edges so
// that an edge arriving while the driver's handler runs is not lost (see lx_emul/irq.h policy).
#include "runtime.h"

#include "bus/common/local_time.h"

using namespace sc_core;
namespace lk = nicsim::lx_kit;
namespace dt = nicsim::lx_kit::detail;

struct lx_kit_irq {
    int irq;
    unsigned trigger;
    lk::irq_source* src;
    bool last_level;
    uint64_t last_rising = 0;
    uint64_t last_falling = 0;
    bool latched = false;
    bool open = true;
    lx_kit_wait* waitq;
    sc_process_handle monitor;
};

namespace {

struct irq_state {
    std::map<int, lk::irq_source*> sources;
    std::map<int, unsigned> configured_trigger;
    std::vector<std::unique_ptr<lx_kit_irq>> lines;
};

irq_state& state() {
    static irq_state* s = new irq_state;
    return *s;
}

bool is_edge(unsigned trigger) {
    return trigger & (LX_KIT_IRQ_EDGE_RISING | LX_KIT_IRQ_EDGE_FALLING);
}

void on_change(lx_kit_irq* i) {
    if (!i->open)
        return;
    const bool level = i->src->level();
    if (i->src->counts_edges()) {
        const uint64_t r = i->src->rising_edges(), f = i->src->falling_edges();
        if ((i->trigger & LX_KIT_IRQ_EDGE_FALLING) && f != i->last_falling)
            i->latched = true;
        if ((i->trigger & LX_KIT_IRQ_EDGE_RISING) && r != i->last_rising)
            i->latched = true;
        i->last_rising = r;
        i->last_falling = f;
    } else if (level != i->last_level) {
        if ((i->trigger & LX_KIT_IRQ_EDGE_FALLING) && i->last_level && !level)
            i->latched = true;
        if ((i->trigger & LX_KIT_IRQ_EDGE_RISING) && !i->last_level && level)
            i->latched = true;
    }
    i->last_level = level;
    lx_kit_wait_notify_all(i->waitq);
}

} // namespace

namespace nicsim::lx_kit {

void register_irq(int irq, irq_source& src, unsigned configured_trigger) {
    state().sources[irq] = &src;
    state().configured_trigger[irq] = configured_trigger;
}
void unregister_irq(int irq) {
    state().sources.erase(irq);
    state().configured_trigger.erase(irq);
}

} // namespace nicsim::lx_kit

extern "C" {

unsigned lx_kit_irq_configured_trigger(int irq) {
    const auto& t = state().configured_trigger;
    auto it = t.find(irq);
    return it == t.end() ? 0 : it->second;
}

struct lx_kit_irq* lx_kit_irq_open(int irq, unsigned trigger) {
    irq_state& s = state();
    auto it = s.sources.find(irq);
    if (it == s.sources.end())
        return nullptr;
    s.lines.push_back(std::make_unique<lx_kit_irq>());
    lx_kit_irq* i = s.lines.back().get();
    i->irq = irq;
    i->trigger = trigger;
    i->src = it->second;
    i->last_level = i->src->level();
    i->last_rising = i->src->rising_edges();
    i->last_falling = i->src->falling_edges();
    i->waitq = lx_kit_wait_alloc("irq line");
    nicsim::local_time::sync(); // the monitor starts at the caller's time
    sc_spawn_options opts;
    opts.spawn_method();
    opts.dont_initialize();
    opts.set_sensitivity(&i->src->changed());
    const std::string name =
        "lx_irq_monitor_" + std::to_string(irq) + "_" + std::to_string(s.lines.size());
    i->monitor = sc_spawn([i] { on_change(i); }, name.c_str(), &opts);
    return i;
}

void lx_kit_irq_close(struct lx_kit_irq* i) {
    if (!i)
        return;
    i->open = false;
    lx_kit_wait_notify_all(i->waitq);
}

int lx_kit_irq_pending(struct lx_kit_irq* i) {
    if (is_edge(i->trigger))
        return i->latched;
    const bool level = i->src->level();
    if (i->trigger & LX_KIT_IRQ_LEVEL_LOW)
        return !level;
    return level;
}

void lx_kit_irq_ack(struct lx_kit_irq* i) {
    i->latched = false;
}

struct lx_kit_wait* lx_kit_irq_waitq(struct lx_kit_irq* i) {
    return i->waitq;
}

} // extern "C"

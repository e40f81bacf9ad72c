// SPDX-License-Identifier: MIT
// A small declarative register file (in the spirit of Renode's register collections): each
// register is one table row with address, name, reset value, access and optional handlers, so
// the register map reads like the datasheet table in docs/models/wilc1000.md.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace nicsim::wilc {

enum class reg_access { ro, rw, wo };

struct reg_def {
    uint32_t addr;
    const char* name;
    uint32_t reset;
    reg_access access;
    // Value the bus sees; null = the stored value.
    std::function<uint32_t(uint32_t stored)> on_read = nullptr;
    // Called after a write was stored (rw/wo) with the old and the new stored value.
    std::function<void(uint32_t old_val, uint32_t new_val)> on_write = nullptr;
};

class reg_file {
  public:
    void declare(reg_def d) {
        const uint32_t a = d.addr;
        m_regs[a] = entry{std::move(d), 0};
        m_regs[a].value = m_regs[a].def.reset;
    }
    bool contains(uint32_t addr) const { return m_regs.count(addr) != 0; }
    const reg_def* find(uint32_t addr) const {
        auto it = m_regs.find(addr);
        return it == m_regs.end() ? nullptr : &it->second.def;
    }
    // false: no register at addr.
    bool read(uint32_t addr, uint32_t& v) const {
        auto it = m_regs.find(addr);
        if (it == m_regs.end())
            return false;
        const entry& e = it->second;
        v = e.def.on_read ? e.def.on_read(e.value) : e.value;
        return true;
    }
    // false: no register at addr; *read_only set when the write was ignored for that reason.
    bool write(uint32_t addr, uint32_t v, bool* read_only = nullptr) {
        auto it = m_regs.find(addr);
        if (it == m_regs.end())
            return false;
        entry& e = it->second;
        if (e.def.access == reg_access::ro) {
            if (read_only)
                *read_only = true;
            return true;
        }
        const uint32_t old = e.value;
        e.value = v;
        if (e.def.on_write)
            e.def.on_write(old, v);
        return true;
    }
    // Stored value, for the model's own use (no handlers).
    uint32_t& raw(uint32_t addr) { return m_regs.at(addr).value; }
    uint32_t raw(uint32_t addr) const { return m_regs.at(addr).value; }
    void reset() {
        for (auto& [a, e] : m_regs)
            e.value = e.def.reset;
    }
    template <class F> void for_each(F f) const {
        for (const auto& [a, e] : m_regs)
            f(e.def);
    }

  private:
    struct entry {
        reg_def def;
        uint32_t value;
    };
    std::map<uint32_t, entry> m_regs;
};

} // namespace nicsim::wilc

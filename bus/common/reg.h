// SPDX-License-Identifier: MIT
// Declared registers for chip models, in the spirit of VCML's reg<T> and Renode's register
// definitions: a register is declared once (name, offset, bank, width, reset value, access per
// field, read/write handlers) and everything else (host access rules, reset, names in traces and
// findings, doc tables) is derived from that declaration, never from a second table.
//
//   regs::reg_map<uint8_t> m;
//   auto& econ1 = m.declare({"ECON1", 0x1F, regs::all_banks, 0x00});
//   m.declare({"EIR", 0x1C, regs::all_banks, 0x00, regs::access::rw,
//              {{"PKTIF", 0x40, regs::access::ro}, {"TXIF", 0x08, regs::access::clr}}});
//   econ1.on_write = [this](uint8_t old_v, uint8_t new_v) { write_econ1(old_v, new_v); };
//
// Access kinds apply per bit: a field's kind covers its mask, the register's default kind covers
// the bits no field names. Host writes (reg::write) apply the rules; the model's own updates
// (reg::set) store directly. Header-only, no SystemC: the rules are pure bit arithmetic.
//
// It lives in bus/ (not models/) because bus/sdio declares the standard SDIO card registers with
// it and bus/ must not depend on models/; the chip models already depend on bus/, so both can
// include it without a new dependency.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nicsim::regs {

enum class access : uint8_t {
    rw,   // read/write
    ro,   // read-only: host writes leave the bits unchanged (reported as ignored)
    wo,   // write-only: reads return 0 unless a read handler says otherwise
    w1c,  // write 1 to clear, 0 leaves the bit (e.g. KS8851 ISR)
    clr,  // clear-only: a written 0 clears, a written 1 leaves the bit (ENC28J60 "R/C" flags)
    trig, // self-clearing command: a written 1 reaches on_write, the bit always reads 0
    none, // unimplemented: reads 0, writes ignored silently
};

const char* to_string(access a);

// Declared for every bank of a banked map (e.g. the ENC28J60's common registers 0x1B..0x1F).
inline constexpr unsigned all_banks = ~0u;

template <class T> struct field {
    const char* name;
    T mask;
    access acc = access::rw;
};

template <class T> struct reg_def {
    static_assert(std::is_unsigned<T>::value, "register width is an unsigned integer type");
    // A constructor (not an aggregate) so that trailing members may be left out of a
    // brace-initialised declaration without -Wmissing-field-initializers.
    reg_def(const char* name_, uint32_t offset_, unsigned bank_ = 0, T reset_ = 0,
            access acc_ = access::rw, std::vector<field<T>> fields_ = {}, uint32_t tag_ = 0)
        : name(name_), offset(offset_), bank(bank_), reset(reset_), acc(acc_),
          fields(std::move(fields_)), tag(tag_) {}

    const char* name;
    uint32_t offset;
    unsigned bank;
    T reset;
    access acc; // bits not covered by a field
    std::vector<field<T>> fields;
    uint32_t tag; // model-specific class bits (e.g. "MAC/MII register: needs a dummy byte")
};

// What a host write did, for the model's findings.
template <class T> struct write_result {
    T ignored = 0; // bits the host tried to change that its access kind does not allow
};

template <class T> class reg {
  public:
    // Host read: returns on_read(stored) when a read handler is set (computed registers).
    std::function<T(T stored)> on_read;
    // After a host write stored the new value (trig bits still set in new_v; they are dropped
    // from the stored value once the handler returns).
    std::function<void(T old_v, T new_v)> on_write;

    explicit reg(reg_def<T> d) : m_def(std::move(d)) {
        for (const auto& f : m_def.fields) {
            if (f.mask & m_claimed)
                throw std::invalid_argument(std::string(m_def.name) + ": field " + f.name +
                                            " overlaps another field");
            m_claimed = T(m_claimed | f.mask);
            add_kind(f.acc, f.mask);
        }
        add_kind(m_def.acc, T(~m_claimed));
        m_value = T(m_def.reset & ~m_mask[idx(access::trig)]);
    }

    const reg_def<T>& def() const { return m_def; }
    const char* name() const { return m_def.name; }
    uint32_t offset() const { return m_def.offset; }
    unsigned bank() const { return m_def.bank; }
    static constexpr unsigned width() { return 8 * sizeof(T); }
    T reset_value() const { return m_def.reset; }
    // Bits of a given kind (e.g. mask(access::rw) = plainly writable bits).
    T mask(access a) const { return m_mask[idx(a)]; }

    // --- model side: no access rules, no handlers ---
    T get() const { return m_value; }
    void set(T v) { m_value = v; }
    void set_bits(T m, bool on) { m_value = on ? T(m_value | m) : T(m_value & ~m); }
    bool test(T m) const { return (m_value & m) != 0; }
    void reset() { m_value = T(m_def.reset & ~mask(access::trig)); }

    // --- host side ---
    T read() const {
        const T v = on_read ? on_read(m_value) : m_value;
        return T(v & ~(mask(access::wo) | mask(access::trig) | mask(access::none)));
    }
    // `lanes` limits the write to some bits (byte enables); other bits are not written at all.
    write_result<T> write(T v, T lanes = T(~T(0))) {
        const T old = m_value;
        T n = old;
        const T rw = T((mask(access::rw) | mask(access::wo) | mask(access::trig)) & lanes);
        n = T((n & ~rw) | (v & rw));
        n = T(n & ~(v & mask(access::w1c) & lanes));
        n = T(n & ~(~v & mask(access::clr) & lanes));
        write_result<T> r;
        r.ignored = T((v ^ old) & mask(access::ro) & lanes);
        m_value = n;
        if (on_write)
            on_write(old, n);
        m_value = T(m_value & ~mask(access::trig));
        return r;
    }
    // Bit-field set / clear commands (ENC28J60 BFS/BFC): a write of stored | m / stored & ~m,
    // so the access kinds apply (a clear-only flag cannot be set, a trig bit fires on set).
    write_result<T> host_set_bits(T m) { return write(T(m_value | m)); }
    write_result<T> host_clear_bits(T m) { return write(T(m_value & ~m)); }

    // "NAME{FIELD|FIELD}" for traces: the fields whose bits are set in v.
    std::string describe(T v) const {
        std::string s = m_def.name;
        s += '{';
        bool first = true;
        for (const auto& f : m_def.fields)
            if (v & f.mask) {
                if (!first)
                    s += '|';
                s += f.name;
                first = false;
            }
        s += '}';
        return s;
    }

  private:
    static constexpr unsigned kinds = 7;
    static constexpr unsigned idx(access a) { return static_cast<unsigned>(a); }
    void add_kind(access a, T m) { m_mask[idx(a)] = T(m_mask[idx(a)] | m); }

    reg_def<T> m_def;
    T m_value = 0;
    T m_claimed = 0;
    T m_mask[kinds] = {};
};

// A set of declared registers addressed by (bank, offset). Registers keep their address in
// memory (references from declare() stay valid); iteration is in (bank, offset) order with the
// all-bank registers last, so doc tables and dumps are deterministic.
template <class T> class reg_map {
  public:
    reg<T>& declare(reg_def<T> d) {
        const uint64_t k = key(d.bank, d.offset);
        if (m_index.count(k))
            throw std::invalid_argument(std::string("register ") + d.name +
                                        " declared twice at the same address");
        m_regs.emplace_back(std::move(d));
        m_index[k] = &m_regs.back();
        return m_regs.back();
    }
    // The register at `offset` in `bank`, or one declared for all banks; nullptr if none.
    reg<T>* find(unsigned bank, uint32_t offset) {
        auto it = m_index.find(key(bank, offset));
        if (it == m_index.end())
            it = m_index.find(key(all_banks, offset));
        return it == m_index.end() ? nullptr : it->second;
    }
    const reg<T>* find(unsigned bank, uint32_t offset) const {
        return const_cast<reg_map*>(this)->find(bank, offset);
    }
    reg<T>* find(uint32_t offset) { return find(0, offset); } // unbanked maps
    reg<T>& at(unsigned bank, uint32_t offset) {
        reg<T>* r = find(bank, offset);
        if (!r)
            throw std::out_of_range("no register at bank " + std::to_string(bank) + " offset " +
                                    std::to_string(offset));
        return *r;
    }
    const reg<T>& at(unsigned bank, uint32_t offset) const {
        return const_cast<reg_map*>(this)->at(bank, offset);
    }
    // Register name for traces, "?" when nothing is declared there.
    const char* name_of(unsigned bank, uint32_t offset) const {
        const reg<T>* r = find(bank, offset);
        return r ? r->name() : "?";
    }
    void reset_all() {
        for (auto& r : m_regs)
            r.reset();
    }
    template <class F> void for_each(F f) const {
        for (const auto& kv : m_index)
            f(*kv.second);
    }
    size_t size() const { return m_regs.size(); }

  private:
    static uint64_t key(unsigned bank, uint32_t off) { return uint64_t(bank) << 32 | off; }
    std::deque<reg<T>> m_regs;
    std::map<uint64_t, reg<T>*> m_index;
};

inline const char* to_string(access a) {
    switch (a) {
    case access::rw:
        return "rw";
    case access::ro:
        return "ro";
    case access::wo:
        return "wo";
    case access::w1c:
        return "w1c";
    case access::clr:
        return "clr";
    case access::trig:
        return "trig";
    case access::none:
        return "none";
    }
    return "?";
}

} // namespace nicsim::regs

// SPDX-License-Identifier: MIT
#include "trace/vcd_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <stdexcept>

#include "trace/fst_convert.h"

namespace nicsim::trace {

namespace {
// Records kept in memory per stream before they go to the stream's temporary file (16 MB).
constexpr size_t spill_records = size_t(1) << 20;
constexpr size_t read_chunk = size_t(1) << 16;

std::string vcd_id(size_t i) {
    // Printable ASCII '!'..'~' (94 symbols), shortest first.
    std::string id;
    do {
        id += static_cast<char>('!' + i % 94);
        i /= 94;
    } while (i > 0);
    return id;
}
} // namespace

// One time-ordered source of records for the merge.
class vcd_writer::reader {
  public:
    virtual ~reader() = default;
    // False at the end.
    virtual bool next(record& r) = 0;
};

class vcd_writer::stream_reader : public reader {
  public:
    explicit stream_reader(stream& s) : m_s(s) {
        if (m_s.spill)
            std::rewind(m_s.spill);
    }
    bool next(record& r) override {
        if (m_pos == m_buf.size()) {
            m_buf.clear();
            m_pos = 0;
            if (m_read < m_s.spilled) {
                const size_t n = size_t(std::min<uint64_t>(read_chunk, m_s.spilled - m_read));
                m_buf.resize(n);
                if (std::fread(m_buf.data(), sizeof(record), n, m_s.spill) != n)
                    throw std::runtime_error("vcd_writer: cannot read back a temporary file");
                m_read += n;
            } else if (!m_mem_done) {
                m_mem_done = true;
                m_buf.swap(m_s.mem);
            }
            if (m_buf.empty())
                return false;
        }
        r = m_buf[m_pos++];
        return true;
    }

  private:
    stream& m_s;
    std::vector<record> m_buf;
    size_t m_pos = 0;
    uint64_t m_read = 0;
    bool m_mem_done = false;
};

// The body of a VCD file of 1-bit signals as spi_vcd_tracer writes it.
class vcd_writer::part_reader : public reader {
  public:
    part_reader(const part& p) : m_in(p.path) {
        if (!m_in)
            throw std::runtime_error("vcd_writer: cannot read '" + p.path + "'");
        std::string line;
        while (std::getline(m_in, line)) {
            if (line.rfind("$var", 0) == 0) {
                // $var wire 1 <id> <name> $end
                char type[32], id[32], name[128];
                unsigned width = 0;
                if (std::sscanf(line.c_str(), "$var %31s %u %31s %127s", type, &width, id, name) ==
                    4) {
                    auto it = p.names.find(name);
                    if (it != p.names.end())
                        m_map[id] = it->second;
                }
            } else if (line.rfind("$enddefinitions", 0) == 0) {
                break;
            }
        }
    }
    bool next(record& r) override {
        std::string line;
        while (std::getline(m_in, line)) {
            if (line.empty() || line[0] == '$')
                continue;
            if (line[0] == '#') {
                m_ps = std::stoull(line.substr(1));
                continue;
            }
            if (line[0] != '0' && line[0] != '1' && line[0] != 'z')
                continue;
            auto it = m_map.find(line.substr(1));
            if (it == m_map.end())
                continue;
            r.ps = m_ps;
            r.sig = uint32_t(it->second);
            r.value = line[0] == 'z' ? z : uint32_t(line[0] - '0');
            return true;
        }
        return false;
    }

  private:
    std::ifstream m_in;
    std::map<std::string, int> m_map;
    uint64_t m_ps = 0;
};

namespace {
std::string vcd_file_for(const std::string& path) {
    return is_fst_path(path) ? path + ".vcd.part" : path;
}
} // namespace

vcd_writer::vcd_writer(const std::string& path, window w, format f, size_limit limit)
    : m_path(vcd_file_for(path)), m_win(w), m_format(f), m_limit(std::move(limit)) {
    if (is_fst_path(path)) {
        if (f != format::gtkwave)
            throw std::runtime_error("'" + path +
                                     "': FST is a GTKWave format; the sigrok format is VCD only");
        m_vcd2fst = find_vcd2fst();
        m_fst_path = path;
        // The FST must be writable too: find out now, not after the run.
        std::ofstream probe(path, std::ios::app);
        if (!probe)
            throw std::runtime_error("cannot open FST file '" + path + "' for writing");
    }
    m_out.open(m_path);
    if (!m_out)
        throw std::runtime_error("cannot open VCD file '" + m_path + "' for writing");
}

vcd_writer::~vcd_writer() {
    try {
        close(0);
    } catch (...) {
        // A destructor must not throw; call close() to see errors.
    }
    for (auto& s : m_streams)
        if (s->spill)
            std::fclose(s->spill);
}

int vcd_writer::new_stream() {
    m_streams.push_back(std::make_unique<stream>());
    return int(m_streams.size() - 1);
}

int vcd_writer::add_signal(int stream, const std::string& scope, const std::string& name, kind k,
                           unsigned width, uint32_t initial) {
    if (k == kind::wire)
        width = 1;
    if (width == 0 || width > 32)
        throw std::invalid_argument("vcd_writer: signal '" + name + "' width " +
                                    std::to_string(width) + " (must be 1..32)");
    m_sigs.push_back({scope, name, vcd_id(m_sigs.size()), k, width, initial, stream, {}});
    return int(m_sigs.size() - 1);
}

int vcd_writer::add_string_signal(int stream, const std::string& scope, const std::string& name,
                                  std::string_view initial) {
    return add_signal(stream, scope, name, kind::string, 1, intern(initial));
}

uint32_t vcd_writer::intern(std::string_view s) {
    auto it = m_string_ids.find(s);
    if (it != m_string_ids.end())
        return it->second;
    // GTKWave reads a string value up to the next blank: keep it one token.
    std::string token(s.empty() ? "-" : s);
    for (char& c : token)
        if (c == ' ' || c == '\t' || c == '\n')
            c = '_';
    m_strings.push_back(token);
    const uint32_t id = uint32_t(m_strings.size() - 1);
    m_string_ids.emplace(std::string(s), id);
    return id;
}

void vcd_writer::spill(stream& s) {
    if (!s.spill) {
        s.spill = std::tmpfile();
        if (!s.spill)
            throw std::runtime_error("vcd_writer: cannot create a temporary file for '" + m_path +
                                     "'");
    }
    if (std::fwrite(s.mem.data(), sizeof(record), s.mem.size(), s.spill) != s.mem.size())
        throw std::runtime_error("vcd_writer: cannot write a temporary file for '" + m_path +
                                 "' (disk full?)");
    s.spilled += s.mem.size();
    s.mem.clear();
}

void vcd_writer::change(int sig, uint64_t ps, uint32_t value) {
    if (m_closed || ps > m_win.end_ps)
        return;
    signal& g = m_sigs.at(size_t(sig));
    stream& s = *m_streams.at(size_t(g.stream));
    if (ps < s.last_ps) {
        // A source reported a change dated before its previous one (the WILC1000 power model
        // takes SPI commands at their byte times, which the frame reports after an air event
        // dated at the frame's end). Keep the source's order, which is the order of its states,
        // by showing the change at the previous change's time, and say so in the file.
        if (m_late++ == 0 || m_late_signals.find(g.name) == std::string::npos)
            m_late_signals += (m_late_signals.empty() ? "" : " ") + g.scope + "." + g.name;
        ps = s.last_ps;
    }
    s.last_ps = ps;
    if (ps < m_win.start_ps) {
        g.initial = value; // only the level at the window start matters
        return;
    }
    if (s.cut_ps != UINT64_MAX)
        return;
    if (m_limit.limited() && m_buffered + sizeof(record) > 2 * m_limit.max_bytes) {
        s.cut_ps = ps; // the file will end here: everything before it is kept
        return;
    }
    m_buffered += sizeof(record);
    s.mem.push_back({ps, uint32_t(sig), value});
    if (s.mem.size() >= spill_records)
        spill(s);
}

void vcd_writer::change_string(int sig, uint64_t ps, std::string_view text) {
    if (m_closed || ps > m_win.end_ps)
        return;
    if (m_streams.at(size_t(m_sigs.at(size_t(sig)).stream))->cut_ps != UINT64_MAX)
        return; // not interned: the stream takes no more changes
    change(sig, ps, intern(text));
}

int vcd_writer::add_vcd_part(const std::string& path, std::map<std::string, int> names) {
    m_parts.push_back({path, std::move(names)});
    return int(m_parts.size() - 1);
}

void vcd_writer::truncate_part(int part, uint64_t ps) {
    uint64_t& cut = m_parts.at(size_t(part)).cut_ps;
    cut = std::min(cut, ps);
}

void vcd_writer::write_value(std::string& out, uint32_t sig, uint32_t v) {
    const signal& g = m_sigs[sig];
    if (m_format == format::sigrok) {
        // libsigrok reads 0/1 only: an undriven line reads low.
        if (g.k == kind::wire) {
            out += (v != z && v ? '1' : '0');
            out += g.id;
            out += '\n';
        } else if (g.k == kind::vector) {
            for (unsigned b = 0; b < g.width; ++b) {
                out += (v != z && ((v >> b) & 1u) ? '1' : '0');
                out += g.bit_ids[b];
                out += '\n';
            }
        }
        return;
    }
    switch (g.k) {
    case kind::wire:
        out += (v == z ? 'z' : v ? '1' : '0');
        out += g.id;
        out += '\n';
        return;
    case kind::vector: {
        if (v == z) {
            out += "bz ";
            out += g.id;
            out += '\n';
            return;
        }
        std::string bits;
        for (int b = int(g.width) - 1; b >= 0; --b)
            if ((v >> b) & 1u || !bits.empty())
                bits += ((v >> b) & 1u) ? '1' : '0';
        out += 'b';
        out += bits.empty() ? "0" : bits;
        out += ' ';
        out += g.id;
        out += '\n';
        return;
    }
    case kind::string:
        out += 's';
        out += m_strings.at(v);
        out += ' ';
        out += g.id;
        out += '\n';
        return;
    }
}

void vcd_writer::note_transaction(uint64_t start_ps, uint64_t end_ps) {
    if (m_first_txns.size() < 8 && m_win.contains(start_ps))
        m_first_txns.emplace_back(start_ps, std::max(end_ps, start_ps));
}

gtkw_view view_of_first_transactions(const std::vector<std::pair<uint64_t, uint64_t>>& txns,
                                     uint64_t window_start_ps) {
    gtkw_view v;
    v.start_ps = window_start_ps;
    if (txns.empty())
        return v;
    std::vector<std::pair<uint64_t, uint64_t>> sorted = txns; // buses report in their own order
    std::sort(sorted.begin(), sorted.end());
    const auto& first_txn = sorted.front();
    const uint64_t first = first_txn.first;
    const uint64_t reach = first + 50 * std::max<uint64_t>(first_txn.second - first, 1000);
    uint64_t last = first_txn.second;
    for (const auto& t : sorted)
        if (t.second <= reach)
            last = std::max(last, t.second);
    const uint64_t span = std::max<uint64_t>(last - first, 1000);
    const uint64_t margin = span / 10;
    v.start_ps = first - std::min(margin, first - window_start_ps);
    // 1.2 spans over four 200-pixel frames.
    v.zoom = -std::log2(1.2 * static_cast<double>(span) / 4);
    return v;
}

void vcd_writer::close(uint64_t end_ps) {
    if (m_closed)
        return;
    m_closed = true;

    write_header();
    if (m_format == format::gtkwave)
        write_gtkw();

    // Where the buffer limit made a stream or a part stop: the file ends there.
    uint64_t cutoff = UINT64_MAX;
    for (const auto& s : m_streams)
        cutoff = std::min(cutoff, s->cut_ps);
    for (const auto& p : m_parts)
        cutoff = std::min(cutoff, p.cut_ps);
    // Room kept below the size limit for the final time stamp.
    constexpr uint64_t final_stamp_room = 24;
    uint64_t written = uint64_t(std::max<std::streamoff>(0, m_out.tellp()));

    // k-way merge by time; ties in stream order, so one stream's same-instant changes keep
    // their order (the last one wins).
    std::vector<std::unique_ptr<reader>> readers;
    for (auto& s : m_streams)
        readers.push_back(std::make_unique<stream_reader>(*s));
    for (const auto& p : m_parts)
        readers.push_back(std::make_unique<part_reader>(p));
    using head = std::pair<record, size_t>;
    auto later = [](const head& a, const head& b) {
        return a.first.ps != b.first.ps ? a.first.ps > b.first.ps : a.second > b.second;
    };
    std::priority_queue<head, std::vector<head>, decltype(later)> heap(later);
    for (size_t i = 0; i < readers.size(); ++i) {
        record r;
        if (readers[i]->next(r))
            heap.push({r, i});
    }

    std::vector<uint32_t> cur(m_sigs.size()), written_value(m_sigs.size());
    for (size_t i = 0; i < m_sigs.size(); ++i)
        cur[i] = m_sigs[i].initial;
    std::string text;
    bool dumped = false;
    uint64_t last_stamp = stamp(m_win.start_ps);
    auto dump = [&] {
        text.clear();
        text += '#' + std::to_string(stamp(m_win.start_ps)) + "\n$dumpvars\n";
        for (size_t i = 0; i < m_sigs.size(); ++i) {
            write_value(text, uint32_t(i), cur[i]);
            written_value[i] = cur[i];
        }
        text += "$end\n";
        // The declarations and the state at the start are always written, whatever the limit.
        m_out << text;
        written += text.size();
        dumped = true;
    };
    std::vector<uint32_t> touched;
    std::vector<char> is_touched(m_sigs.size(), 0);
    uint64_t group_ps = 0;
    uint64_t group_time_ps = 0; // group_ps in ps (the stamp is in ns for sigrok)
    bool full = false;          // the size limit was reached: nothing more is written
    auto flush_group = [&] {
        text.clear();
        for (uint32_t s : touched) {
            is_touched[s] = 0;
            if (cur[s] == written_value[s])
                continue;
            if (text.empty())
                text += '#' + std::to_string(group_ps) + '\n';
            write_value(text, s, cur[s]);
            written_value[s] = cur[s];
        }
        touched.clear();
        if (text.empty())
            return;
        if (m_limit.limited() && written + text.size() + final_stamp_room > m_limit.max_bytes) {
            full = true;
            cutoff = std::min(cutoff, group_time_ps);
            return;
        }
        m_out << text;
        written += text.size();
        last_stamp = group_ps;
    };
    while (!heap.empty() && !full) {
        const auto [r, i] = heap.top();
        heap.pop();
        record n;
        if (readers[i]->next(n))
            heap.push({n, i});
        if (r.ps >= cutoff)
            break; // the heap gives the records in time order: none after this is written
        if (r.sig >= m_sigs.size() || r.ps > m_win.end_ps)
            continue;
        if (r.ps <= m_win.start_ps) {
            cur[r.sig] = r.value; // part of the state dumped at the window start
            continue;
        }
        if (!dumped)
            dump();
        // Changes in one time step (1 ps, or 1 ns for sigrok) form a group; the last wins.
        if (stamp(r.ps) != group_ps) {
            flush_group();
            if (full)
                break;
            group_time_ps = r.ps;
        }
        group_ps = stamp(r.ps);
        cur[r.sig] = r.value;
        if (!is_touched[r.sig]) {
            is_touched[r.sig] = 1;
            touched.push_back(r.sig);
        }
    }
    if (!dumped)
        dump();
    if (!full)
        flush_group();
    readers.clear();
    m_truncated = cutoff != UINT64_MAX;
    const uint64_t last = m_truncated ? stamp(cutoff) : stamp(std::min(end_ps, m_win.end_ps));
    if ((end_ps != 0 || m_truncated) && last > last_stamp)
        m_out << '#' << last << '\n';
    m_out.close();
    for (const auto& p : m_parts)
        std::remove(p.path.c_str());
    if (!m_out)
        throw std::runtime_error("error writing VCD file '" + m_path + "'");
    if (!m_fst_path.empty())
        vcd_to_fst(m_vcd2fst, m_path, m_fst_path);
    if (m_truncated && m_limit.on_reached)
        m_limit.on_reached(m_fst_path.empty() ? m_path : m_fst_path, cutoff);
}

void vcd_writer::write_header() {
    const bool sigrok = m_format == format::sigrok;
    // No $date: the file is a deterministic function of the simulation.
    m_out << "$version nicsim trace $end\n$timescale " << (sigrok ? "1ns" : "1ps") << " $end\n";
    if (m_late)
        m_out << "$comment " << m_late
              << " change(s) dated before their source's previous change are shown at that "
                 "change's time ("
              << m_late_signals << ") $end\n";
    m_out << "$scope module nicsim $end\n";
    std::vector<std::string> scopes;
    for (const auto& g : m_sigs)
        if (std::find(scopes.begin(), scopes.end(), g.scope) == scopes.end())
            scopes.push_back(g.scope);
    size_t next_id = m_sigs.size(); // the bit wires get ids after the signals'
    for (const auto& sc : scopes) {
        m_out << "$scope module " << sc << " $end\n";
        for (auto& g : m_sigs) {
            if (g.scope != sc)
                continue;
            if (sigrok) {
                if (g.k == kind::wire)
                    m_out << "$var wire 1 " << g.id << ' ' << g.name << " $end\n";
                else if (g.k == kind::vector)
                    for (unsigned b = 0; b < g.width; ++b) {
                        g.bit_ids.push_back(vcd_id(next_id++));
                        m_out << "$var wire 1 " << g.bit_ids.back() << ' ' << g.name << b
                              << " $end\n";
                    }
                continue;
            }
            const char* type = g.k == kind::wire ? "wire" : g.k == kind::vector ? "reg" : "string";
            m_out << "$var " << type << ' ' << g.width << ' ' << g.id << ' ' << g.name;
            if (g.k == kind::vector && g.width > 1)
                m_out << " [" << g.width - 1 << ":0]";
            m_out << " $end\n";
        }
        m_out << "$upscope $end\n";
    }
    m_out << "$upscope $end\n$enddefinitions $end\n";
}

// GTKWave save file: `gtkwave w.gtkw` opens the VCD with every scope's signals in a group: the
// pins and levels in declaration order, then the text signals (decoded command, power state).
// Flags (hex, GTKWave's TR_* bits): 28 binary, 22 hex, 24 decimal (right-justified); 200 a
// comment line, 800200 / 1000200 the start / end of a group.
void vcd_writer::write_gtkw() const {
    // Next to what the user asked for (the FST when converting), and naming it.
    const std::string& out = m_fst_path.empty() ? m_path : m_fst_path;
    const size_t ext = out.size() > 4 ? out.size() - 4 : std::string::npos;
    const std::string base =
        ext != std::string::npos && (out.compare(ext, 4, ".vcd") == 0 || is_fst_path(out))
            ? out.substr(0, ext)
            : out;
    std::ofstream g(base + ".gtkw");
    if (!g)
        throw std::runtime_error("cannot write GTKWave save file '" + base + ".gtkw'");
    const std::string file = out.substr(out.find_last_of('/') + 1);
    // Opens on the first transactions (GTKWave's default shows the whole run, where they are
    // narrower than a pixel).
    const gtkw_view view = view_of_first_transactions(m_first_txns, m_win.start_ps);
    g << "[*] nicsim: the signals of " << file << " by part (docs/traces.md)\n"
      << "[dumpfile] \"" << file << "\"\n[timestart] " << view.start_ps << "\n";
    if (view.zoom) {
        char zoom[32];
        std::snprintf(zoom, sizeof zoom, "%.6f", *view.zoom);
        g << "[size] 1000 600\n*" << zoom << " -1\n"; // zoom, no marker
    }
    std::vector<std::string> scopes;
    for (const auto& s : m_sigs)
        if (std::find(scopes.begin(), scopes.end(), s.scope) == scopes.end())
            scopes.push_back(s.scope);
    for (const auto& sc : scopes)
        g << "[treeopen] nicsim." << sc << ".\n";
    for (const auto& sc : scopes) {
        g << "@800200\n-" << sc << "\n";
        // Pins and levels first, then the text signals (decoded command, power state name).
        std::vector<const signal*> order;
        for (const auto& s : m_sigs)
            if (s.scope == sc && s.k != kind::string)
                order.push_back(&s);
        for (const auto& s : m_sigs)
            if (s.scope == sc && s.k == kind::string)
                order.push_back(&s);
        for (const signal* sp : order) {
            const signal& s = *sp;
            const bool code = s.k == kind::vector && s.width <= 4;
            g << (s.k == kind::vector ? (code ? "@24\n" : "@22\n") : "@28\n") << "nicsim." << sc
              << '.' << s.name;
            if (s.k == kind::vector && s.width > 1)
                g << '[' << s.width - 1 << ":0]";
            g << '\n';
        }
        g << "@1000200\n-" << sc << "\n";
    }
    if (!g)
        throw std::runtime_error("error writing GTKWave save file '" + base + ".gtkw'");
}

} // namespace nicsim::trace

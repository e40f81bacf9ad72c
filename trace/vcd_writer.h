// SPDX-License-Identifier: MIT
// VCD waveform of a whole system, from several independent sources, for GTKWave or sigrok.
//
// Sources report their changes late and in their own order: an SPI frame is reported when it is
// over (its pin changes start at CS assert), the chip's lazy power model reports a transition when
// it is next advanced. Each source is therefore one *stream* whose changes are in time order by
// themselves; streams are kept apart (in memory, spilled to an anonymous temporary file past a
// few MB) and merged by time when the file is closed. So memory stays bounded on long runs and
// the file has strictly increasing #times, as GTKWave needs.
//
// A stream may also be a VCD file written by another tracer (spi_vcd_tracer, which owns the
// pin-level reconstruction of SPI frames): add_vcd_part() maps its $var names onto signals here.
//
// The window: changes before window.start_ps only set the level shown at the start (the
// $dumpvars block is written at #start with the levels at that instant); changes after
// window.end_ps are dropped.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_common.h"

namespace nicsim::trace {

class vcd_writer {
  public:
    enum class kind { wire, vector, string };
    static constexpr uint32_t z = UINT32_MAX; // high impedance (wire or vector)
    // gtkwave: 1 ps timescale, vectors, $var string (a GTKWave extension), plus a GTKWave save
    // file next to the VCD with every scope's signals in a group. sigrok: what libsigrok's VCD
    // input (PulseView, sigrok-cli) reads: 1-bit wires only (a vector becomes one wire per bit,
    // name0…nameN; strings are left out, the decoders there name the traffic), 1 ns timescale
    // (1 GHz sample rate instead of 1 THz), z read as 0.
    enum class format { gtkwave, sigrok };

    // Opens `path` for writing; throws std::runtime_error naming the path if it cannot. A path
    // ending in ".fst" (gtkwave format only) writes the VCD to `path`.vcd.part and converts it
    // with vcd2fst at close() (trace/fst_convert.h); without vcd2fst in PATH the
    // constructor throws, before anything runs.
    // With a limit the file ends at the time stamp of the first group of changes that would take
    // it past the limit (a final "#T" marks it), and the changes buffered for the merge are
    // bounded by twice the limit (a stream refused a change ends the file at that change's
    // time): the file stays a valid VCD, complete up to T.
    vcd_writer(const std::string& path, window w, format f = format::gtkwave,
               size_limit limit = {});
    ~vcd_writer();
    vcd_writer(const vcd_writer&) = delete;
    vcd_writer& operator=(const vcd_writer&) = delete;

    int new_stream();
    // Declares a signal in `scope` (one level below the top scope "nicsim"). wire: width 1,
    // values 0/1/z; vector: width 1..32, value or z. Must come before the first change.
    int add_signal(int stream, const std::string& scope, const std::string& name, kind k,
                   unsigned width, uint32_t initial);
    int add_string_signal(int stream, const std::string& scope, const std::string& name,
                          std::string_view initial);
    // Changes of one stream should come in non-decreasing time order; one dated earlier than the
    // stream's previous change is shown at that change's time (so the stream's order, i.e. the
    // source's sequence of states, is kept) and counted in a $comment of the file.
    void change(int signal, uint64_t ps, uint32_t value);
    void change_string(int signal, uint64_t ps, std::string_view text);
    // A VCD file another writer produces, read when this one closes: $var names found in `names`
    // feed the mapped signals; the file is deleted after the merge.
    // Returns the part's index for truncate_part().
    int add_vcd_part(const std::string& path, std::map<std::string, int> names);
    // The part's writer stopped at `ps` (its file holds every change before): the merged file
    // ends there too.
    void truncate_part(int part, uint64_t ps);
    // A bus transaction inside the window: the GTKWave save file opens on the first ones
    // (view_of_first_transactions), not on the whole run, where a transaction of a few µs is
    // narrower than a pixel.
    void note_transaction(uint64_t start_ps, uint64_t end_ps);
    uint64_t max_bytes() const { return m_limit.max_bytes; }
    bool truncated() const { return m_truncated; }

    // Merges the streams into the file and closes it; `end_ps` (the end of the run) is written
    // as the last time stamp if it is inside the window. Throws std::runtime_error on a write
    // error. Idempotent.
    void close(uint64_t end_ps);

  private:
    struct record {
        uint64_t ps;
        uint32_t sig;
        uint32_t value;
    };
    struct stream {
        std::vector<record> mem;
        std::FILE* spill = nullptr;
        uint64_t spilled = 0;
        uint64_t last_ps = 0;
        uint64_t cut_ps = UINT64_MAX; // the first change refused by the buffer limit
    };
    struct signal {
        std::string scope, name, id;
        kind k;
        unsigned width;
        uint32_t initial;
        int stream;
        std::vector<std::string> bit_ids; // sigrok: one wire per bit of a vector
    };
    struct part {
        std::string path;
        std::map<std::string, int> names;
        uint64_t cut_ps = UINT64_MAX;
    };
    class reader;
    class stream_reader;
    class part_reader;

    void write_header();
    void write_value(std::string& out, uint32_t sig, uint32_t v);
    void write_gtkw() const;
    uint64_t stamp(uint64_t ps) const {
        return m_format == format::sigrok ? (ps + 500) / 1000 : ps;
    }
    uint32_t intern(std::string_view s);
    void spill(stream& s);

    std::ofstream m_out;
    std::string m_path;     // the VCD being written
    std::string m_fst_path; // the FST it becomes at close() (--vcd FILE.fst), or empty
    std::string m_vcd2fst;  // the converter, found when the writer opens
    window m_win;
    format m_format;
    std::vector<signal> m_sigs;
    std::vector<std::unique_ptr<stream>> m_streams;
    std::vector<part> m_parts;
    std::vector<std::string> m_strings;
    std::map<std::string, uint32_t, std::less<>> m_string_ids;
    size_limit m_limit;
    uint64_t m_buffered = 0; // bytes of records taken into the streams
    bool m_truncated = false;
    uint64_t m_late = 0;
    std::string m_late_signals;
    bool m_closed = false;
    std::vector<std::pair<uint64_t, uint64_t>> m_first_txns; // start, end (ps), a few
};

// What the save file opens on: the first transaction and those that follow it closely (up to
// eight, within 50 times its duration of its start), with a margin, in GTKWave's terms:
// `start_ps` its [timestart], `zoom` its zoom (GTKWave shows 2^-zoom time units per 200 pixels;
// the span fills 800 pixels, which a 1000-pixel-wide window's wave pane has). No transactions:
// start_ps = window start, no zoom.
struct gtkw_view {
    uint64_t start_ps = 0;
    std::optional<double> zoom;
};
gtkw_view view_of_first_transactions(const std::vector<std::pair<uint64_t, uint64_t>>& txns,
                                     uint64_t window_start_ps);

} // namespace nicsim::trace

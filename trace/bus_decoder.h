// SPDX-License-Identifier: MIT
// What a bus adapter of the trace session hands to the writers for each bus transaction, and the
// per-chip decoders that name transactions by their protocol meaning ("0xc4 INTERNAL_READ 0x0f
// clk_status poll" rather than "13-byte frame"). A decoder sees every transaction of its bus in
// order, may keep protocol state across them (the WILC1000 sends one command as several frames)
// and may add spans of higher-level operations on named lanes of the bus's timeline process.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bus/par/par_payload.h"
#include "bus/sdio/sdio_payload.h"
#include "bus/spi/spi_payload.h"
#include "trace/trace_common.h"

namespace nicsim::trace {

struct bus_txn {
    uint64_t start_ps = 0; // CS asserts
    uint64_t end_ps = 0;   // CS released
    uint64_t bytes = 0;    // bytes on the wire (SPI) / data bytes (parallel bus)
    std::string dir;       // "rd", "wr" or "rw"
    std::string name;      // decoded command
    std::string detail;    // value read/written, status ("" if none)
    std::string task;      // the lx_kit task that issued it ("" if unknown)
};

// Lanes are thread tracks of the bus's timeline process, created on first use.
class bus_annotations {
  public:
    virtual ~bus_annotations() = default;
    virtual void span(std::string_view lane, std::string_view name, uint64_t start_ps,
                      uint64_t end_ps, std::string_view args_json = {}) = 0;
    virtual void instant(std::string_view lane, std::string_view name, uint64_t t_ps,
                         std::string_view args_json = {}) = 0;
};

class spi_decoder {
  public:
    virtual ~spi_decoder() = default;
    // Fills t.name, t.dir, t.detail (times, bytes and task are set by the adapter).
    virtual void decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) = 0;
};

class par_decoder {
  public:
    virtual ~par_decoder() = default;
    virtual void decode(const par::par_payload& access, bus_txn& t, bus_annotations& a) = 0;
};

class sdio_decoder {
  public:
    virtual ~sdio_decoder() = default;
    virtual void decode(const sdio::sdio_payload& cmd, bus_txn& t, bus_annotations& a) = 0;
};

// "CMD52 R F0 0x0f1", "CMD53 W F1 0x00000 1548 B (3 x 512)": for cards without a decoder.
std::string sdio_command_text(const sdio::sdio_payload& c);

// The first `max` MOSI and MISO bytes of a frame, transfers concatenated (a null tx buffer
// shifts zeros; a null rx buffer reads as zeros, though spi_host lends buffers to observed
// frames).
void frame_bytes(const spi::spi_payload& f, size_t max, std::vector<uint8_t>& mosi,
                 std::vector<uint8_t>& miso);

// Names frames by size only: for chips without a decoder.
class generic_spi_decoder : public spi_decoder {
  public:
    void decode(const spi::spi_payload& frame, bus_txn& t, bus_annotations& a) override;
};

} // namespace nicsim::trace

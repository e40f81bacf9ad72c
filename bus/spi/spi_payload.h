// SPI protocol payload: one chip-select frame (one Linux spi_message) as it travels from a host
// SPI controller (bus/spi/spi_host.h) to a slave device model over a TLM-2.0 socket.
//
// The frame is carried whole: a slave model's MISO byte i may depend only on MOSI bytes < i
// (causality), so processing the frame at once gives the same bit stream as shifting it bit by
// bit (tests/bus/spi_reference_test.cc proves this for the cycle-stepped reference mode).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace nicsim::spi {

// Clock polarity/phase as in Linux (SPI_MODE_0..3 = CPOL<<1 | CPHA).
enum class spi_mode : uint8_t { mode0 = 0, mode1 = 1, mode2 = 2, mode3 = 3 };

// One spi_transfer inside a frame.
struct spi_xfer {
    const uint8_t* tx = nullptr; // MOSI bytes; nullptr shifts out zeros (Linux semantics)
    uint8_t* rx = nullptr;       // MISO bytes; nullptr discards them
    size_t len = 0;              // bytes on the wire
    unsigned bits_per_word = 8;  // word size for inter-word gaps (1..32)
    uint32_t speed_hz = 0;       // 0 = the frame's speed_hz
    sc_core::sc_time delay_after = sc_core::SC_ZERO_TIME; // spi_transfer.delay
    bool cs_change = false; // deassert CS after this transfer (Linux cs_change)
};

enum class spi_response : uint8_t {
    ok,             // frame accepted
    no_device,      // nothing answers on this chip select
    protocol_error, // the slave saw a protocol violation (details in `error`)
};

// One chip-select frame.
struct spi_payload {
    unsigned cs = 0; // chip-select index on the host controller
    spi_mode mode = spi_mode::mode0;
    uint32_t speed_hz = 1'000'000; // SCK frequency
    std::vector<spi_xfer> xfers;
    spi_response response = spi_response::ok;
    std::string error; // set by the slave when response != ok
    // MISO level the slave leaves after the last clocked bit of each CS window (index = window; a
    // window ends at a cs_change transfer or at the end of the frame) until CS deasserts: a CPHA=0
    // shift register already shows the next byte's MSB there. Optional and only read by waveform
    // reconstruction (spi_vcd_tracer); spi_host clears it before each frame, spi_byte_slave and the
    // cycle-stepped host fill it, other slaves may leave it empty (= the line keeps its level).
    std::vector<bool> miso_tail;

    size_t total_bytes() const {
        size_t n = 0;
        for (const auto& x : xfers)
            n += x.len;
        return n;
    }
};

// TLM-2.0 protocol traits: spi_payload instead of tlm_generic_payload, standard phases.
struct spi_protocol_types {
    using tlm_payload_type = spi_payload;
    using tlm_phase_type = tlm::tlm_phase;
};

} // namespace nicsim::spi

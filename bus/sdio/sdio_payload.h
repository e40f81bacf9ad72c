// SPDX-License-Identifier: MIT
// SDIO protocol payload: one SDIO I/O command (CMD52 IO_RW_DIRECT or CMD53 IO_RW_EXTENDED) with
// its data, as it travels from a host controller (bus/sdio/sdio_host.h) to an SDIO card model
// over a TLM-2.0 socket. Shape after VCML's sd_command/sd_data, merged into one payload because
// the card only ever sees whole commands (docs/bus-sdio.md).
//
// The payload carries what the command argument encodes (SDIO Simplified Spec v3.00, 5.1/5.3)
// in decoded form; the wire cost (48-bit command, response, data blocks with CRC16, write CRC
// status and busy) is computed by bus/sdio/sdio_timing.h from the same fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>

namespace nicsim::sdio {

enum class sdio_command : uint8_t {
    cmd52 = 52, // IO_RW_DIRECT: one byte, carried in the command/response, no data lines
    cmd53 = 53, // IO_RW_EXTENDED: byte or block data on the DAT lines
};

enum class sdio_response : uint8_t {
    ok,
    no_response,    // nothing answers (no card, or the card ignored the command): host times out
    illegal,        // R5 ILLEGAL_COMMAND / FUNCTION_NUMBER: the card rejected the command
    out_of_range,   // R5 OUT_OF_RANGE: address outside the function's register space
    protocol_error, // any other violation the card reports (details in `error`)
    crc_error,      // a CRC7 (command/response) or CRC16 (data) check failed: -EILSEQ
};

// R5 response flag bits (SDIO spec 5.2), as the card reports them.
inline constexpr uint8_t r5_com_crc_error = 0x80;
inline constexpr uint8_t r5_illegal_command = 0x40;
inline constexpr uint8_t r5_state_cmd = 0x10; // IO_CURRENT_STATE = CMD (no data transfer)
inline constexpr uint8_t r5_state_trn = 0x20; // IO_CURRENT_STATE = TRN (data transfer)
inline constexpr uint8_t r5_error = 0x08;
inline constexpr uint8_t r5_function_number = 0x02;
inline constexpr uint8_t r5_out_of_range = 0x01;

struct sdio_payload {
    sdio_command cmd = sdio_command::cmd52;
    bool write = false;      // R/W flag
    unsigned fn = 0;         // function number 0..7
    uint32_t addr = 0;       // register address (17 bits)
    bool raw = false;        // CMD52 RAW flag: read back the register after the write
    bool incr_addr = true;   // CMD53 OP code: incrementing (true) or fixed address
    bool block_mode = false; // CMD53 block mode
    // CMD53: number of blocks (block mode, 1..511) or bytes (byte mode, 1..512). Unused by CMD52.
    unsigned count = 0;
    unsigned block_size = 0; // CMD53 block mode: the function's block size in bytes (1..2048)
    // CMD52: exactly one byte (write: the value; read or raw write: filled by the card).
    // CMD53: data_bytes() bytes (write: from the host; read: filled by the card).
    uint8_t* data = nullptr;

    // Filled by the card.
    sdio_response response = sdio_response::ok;
    uint8_t r5_flags = 0; // R5 flags byte as the card answered
    std::string error;    // set by the card when response != ok

    bool is_cmd52() const { return cmd == sdio_command::cmd52; }
    bool is_cmd53() const { return cmd == sdio_command::cmd53; }
    // Bytes moved on the DAT lines (0 for CMD52).
    size_t data_bytes() const {
        if (!is_cmd53())
            return 0;
        return block_mode ? size_t(count) * block_size : size_t(count);
    }
    // Data blocks on the DAT lines, each with its own start bit, CRC16 and end bit (a byte-mode
    // CMD53 is one block of `count` bytes; CMD52 has none).
    unsigned data_blocks() const { return !is_cmd53() ? 0 : block_mode ? count : 1; }
    // Bytes in each of those blocks.
    size_t block_bytes() const { return block_mode ? block_size : count; }
};

// TLM-2.0 protocol traits: sdio_payload instead of tlm_generic_payload, standard phases.
struct sdio_protocol_types {
    using tlm_payload_type = sdio_payload;
    using tlm_phase_type = tlm::tlm_phase;
};

} // namespace nicsim::sdio

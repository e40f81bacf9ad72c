// SPDX-License-Identifier: MIT
// The TCP frames a capture needs around a connection's data that the model never sends: it opens
// its connections established (ttcp and iperf3 time the data phase) and ends a transfer when the
// last byte is acknowledged and read. Without the handshake Wireshark cannot know the window
// scale (every window reads unscaled) nor where the streams begin; without the close a finished
// transfer looks cut off. The frames are built from the two sockets' settings and state (MSS,
// window scale, SACK-permitted and timestamps as their SYN and SYN-ACK would carry them, the
// sequence numbers the data continues from or ended at), with the option layout Linux writes
// (tcp_options_write: MSS; SACK-permitted with the timestamps; NOP and window scale).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "host/net/tcp_socket.h"
#include "host/traffic/endpoint.h"

namespace nicsim::trace {

struct control_frame {
    bool from_client = true;         // sent by the connecting end (else by the accepting end)
    std::vector<std::uint8_t> bytes; // the Ethernet frame, without FCS
    const char* comment = "";        // the pcapng packet comment saying it is not simulated
};

// A capture point's taps (trace_session::capture): `frames` for each frame sent or received there
// (at the current simulated time), `control` for a frame the model does not simulate, at the
// time given. Either may be empty (no capture there).
using control_tap_fn =
    std::function<void(bool sent, const control_frame& f, const sc_core::sc_time& at)>;
struct capture_taps {
    traffic::frame_tap_fn frames;
    control_tap_fn control;
};

// SYN (client), SYN-ACK (server), ACK (client); the data continues from their sequence numbers.
std::vector<control_frame> tcp_open_frames(const net::tcp_socket& client,
                                           const net::tcp_socket& server);
// The client's FIN, the server's FIN-ACK, the client's ACK: the client closes when its last byte
// is acknowledged, the server (whose application read everything) closes in turn, as ttcp -r and
// iperf3's server do on end of file.
std::vector<control_frame> tcp_close_frames(const net::tcp_socket& client,
                                            const net::tcp_socket& server);

} // namespace nicsim::trace

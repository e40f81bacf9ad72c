// SPDX-License-Identifier: MIT
// Frames of a run as a pcapng capture (Wireshark, tshark, tcpdump read it): one interface per
// capture point (Ethernet link type, nanosecond timestamps in simulated time), one Enhanced
// Packet Block per frame with its direction (inbound/outbound as seen from that interface) and,
// for a frame the model did not simulate, a comment saying so.
// Blocks are written as frames come, so a run stopped early leaves a valid file up to its last
// complete block. Format: pcapng draft (IETF opsawg-pcapng), blocks SHB, IDB, EPB.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

#include "trace/trace_common.h"

namespace nicsim::trace {

class pcapng_writer {
  public:
    // Throws std::runtime_error naming the file if it cannot be created. With a limit, the
    // packet block that would take the file past it and all after it are dropped (the file
    // ends with the last whole block).
    // `comment` describes the capture (the section header's comment).
    pcapng_writer(const std::string& path, const std::string& comment, size_limit limit = {});

    // Declares a capture point; returns its interface id (0, 1, ...).
    unsigned add_interface(const std::string& name, const std::string& description);

    enum class direction { inbound, outbound };
    // One frame (the Ethernet frame without FCS) seen at interface `id` at time_ps; a non-empty
    // `comment` goes into the block (opt_comment).
    void packet(unsigned id, std::uint64_t time_ps, const std::uint8_t* data, std::size_t len,
                direction dir, const std::string& comment = {});

    std::uint64_t packets() const { return m_packets; }
    bool truncated() const { return m_truncated; }
    // Flushes and closes; throws std::runtime_error on a write error. Idempotent.
    void close();

  private:
    void block(std::uint32_t type, const std::string& body);
    std::ofstream m_out;
    std::string m_path;
    size_limit m_limit;
    std::uint64_t m_bytes = 0;
    bool m_truncated = false;
    unsigned m_interfaces = 0;
    std::uint64_t m_packets = 0;
    bool m_closed = false;
};

} // namespace nicsim::trace

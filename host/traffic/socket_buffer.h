// SPDX-License-Identifier: MIT
//
// One socket's buffer as Linux accounts it: every skb is charged by its truesize (frame bytes +
// a fixed overhead) against a limit, sk_sndbuf for sk_wmem_alloc or sk_rcvbuf for
// sk_rmem_alloc. The two directions test the limit differently, as the kernel does:
//   send: sock_alloc_send_pskb sleeps while sk_wmem_alloc >= sk_sndbuf (then charges the skb
//         even if it overshoots), so a blocking sender stops at the limit;
//   receive: __udp_enqueue_schedule_skb (net/ipv4/udp.c) drops when sk_rmem_alloc already
//         exceeds sk_rcvbuf before the skb is added (UDP_MIB_RCVBUFERRORS).
// A default-constructed buffer has no limit (flows whose protocol bounds them: TCP's window,
// ping's one request in flight).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace nicsim::traffic {

class socket_buffer {
  public:
    socket_buffer() = default;
    socket_buffer(std::uint64_t limit, std::uint32_t truesize_overhead)
        : m_limit(limit), m_overhead(truesize_overhead) {}

    std::uint64_t truesize(std::size_t len) const { return len + m_overhead; }
    // Send side: a blocking sender waits while this is true.
    bool full() const { return m_used >= m_limit; }
    // Receive side: charges the skb, or counts it dropped (false) when the buffer is over its
    // limit already.
    bool admit(std::size_t len) {
        if (m_used > m_limit) {
            ++m_drops;
            return false;
        }
        charge(len);
        return true;
    }
    void charge(std::size_t len) { m_used += truesize(len); }
    void uncharge(std::size_t len) { m_used -= truesize(len); }

    std::uint64_t used() const { return m_used; }
    std::uint64_t limit() const { return m_limit; }
    std::uint64_t drops() const { return m_drops; }

  private:
    std::uint64_t m_limit = std::numeric_limits<std::uint64_t>::max();
    std::uint32_t m_overhead = 0;
    std::uint64_t m_used = 0;
    std::uint64_t m_drops = 0;
};

} // namespace nicsim::traffic

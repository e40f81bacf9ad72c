// SPDX-License-Identifier: MIT
//
// The three sizing rules of the TCP transmit path, as pure functions so tests can check them
// against hand-computed numbers:
//   tsq_limit       tcp_output.c: tcp_small_queue_check
//   pacing_rate     tcp_input.c: tcp_update_pacing_rate
//   sndbuf_expand   tcp_input.c: tcp_sndbuf_expand
#pragma once

#include <cstdint>

namespace nicsim::net {

// Bytes a socket may have below TCP (qdisc + driver, sk_wmem_alloc) before tcp_write_xmit stops:
// max(2 * truesize, pacing_rate >> shift), capped by tcp_limit_output_bytes unless the socket is
// paced (sk_pacing_status != SK_PACING_NONE), then << factor (1 for retransmits:
// tcp_xmit_retransmit_queue).
std::uint64_t tsq_limit(std::uint64_t pacing_rate_Bps, std::uint32_t sk_pacing_shift,
                        std::uint32_t truesize, std::uint32_t tcp_limit_output_bytes, bool paced,
                        unsigned factor);

// sk_pacing_rate in bytes/s: mss * max(cwnd, packets_out) / srtt scaled by ss_ratio % while
// cwnd < ssthresh / 2 (well inside slow start) and ca_ratio % otherwise. srtt_us == 0: the
// kernel skips the division (rate is then per "1 us"); we return 0 = unknown instead, and the
// caller keeps the initial rate.
std::uint64_t pacing_rate(std::uint32_t mss, std::uint32_t cwnd, std::uint32_t packets_out,
                          std::uint32_t ssthresh, std::uint64_t srtt_us, std::uint32_t ss_ratio,
                          std::uint32_t ca_ratio);

// sk_sndbuf wanted for cwnd: 2 * max(TCP_INIT_CWND, cwnd, reordering + 1) * per_mss where
// per_mss = roundup_pow_of_two(mss + MAX_TCP_HEADER + sizeof(skb_shared_info)) +
// sizeof(sk_buff) - the non-GSO worst case of one kmalloc'ed skb head per segment - capped by
// tcp_wmem[2]. The caller only ever grows sk_sndbuf with it.
std::uint64_t sndbuf_expand(std::uint32_t mss, std::uint32_t cwnd, std::uint32_t init_cwnd,
                            std::uint32_t reordering, std::uint32_t wmem_max);

// tcp_output.c: tcp_tso_autosize + tcp_tso_segs - segments per GSO skb:
// bytes = min((pacing_rate >> shift) + (gso_max_size >> (min_rtt_us >> tso_rtt_log)),
// gso_max_size) (the second term only while the shift is < 32), then max(bytes / mss,
// min_tso_segs), capped by gso_max_segs.
std::uint32_t tso_autosize(std::uint64_t pacing_rate_Bps, std::uint32_t sk_pacing_shift,
                           std::uint64_t min_rtt_us, std::uint32_t tso_rtt_log,
                           std::uint32_t gso_max_size, std::uint32_t gso_max_segs,
                           std::uint32_t mss, std::uint32_t min_tso_segs);

// Sizes entering sndbuf_expand. *assumption*: x86-64 6.1 values (MAX_TCP_HEADER with
// MAX_HEADER 128 + 192 of TCP option/IP room; SKB_DATA_ALIGN of the structs).
constexpr std::uint32_t max_tcp_header = 320;
constexpr std::uint32_t skb_shared_info_size = 320;
constexpr std::uint32_t sk_buff_size = 256;

} // namespace nicsim::net

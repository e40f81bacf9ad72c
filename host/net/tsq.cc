// SPDX-License-Identifier: MIT
#include "host/net/tsq.h"

#include <algorithm>

namespace nicsim::net {

std::uint64_t tsq_limit(std::uint64_t rate, std::uint32_t shift, std::uint32_t truesize,
                        std::uint32_t limit_output, bool paced, unsigned factor) {
    std::uint64_t limit = std::max<std::uint64_t>(2ull * truesize, rate >> shift);
    if (!paced)
        limit = std::min<std::uint64_t>(limit, limit_output);
    return limit << factor;
}

std::uint64_t pacing_rate(std::uint32_t mss, std::uint32_t cwnd, std::uint32_t packets_out,
                          std::uint32_t ssthresh, std::uint64_t srtt_us, std::uint32_t ss_ratio,
                          std::uint32_t ca_ratio) {
    if (srtt_us == 0)
        return 0;
    const std::uint64_t ratio = cwnd < ssthresh / 2 ? ss_ratio : ca_ratio;
    // mss * ratio% * max(cwnd, packets_out) per srtt, in bytes per second.
    return static_cast<std::uint64_t>(mss) * ratio * std::max(cwnd, packets_out) * 10000ull /
           srtt_us;
}

std::uint32_t tso_autosize(std::uint64_t rate, std::uint32_t shift, std::uint64_t min_rtt_us,
                           std::uint32_t rtt_log, std::uint32_t gso_max_size,
                           std::uint32_t gso_max_segs, std::uint32_t mss,
                           std::uint32_t min_tso_segs) {
    std::uint64_t bytes = rate >> shift;
    const std::uint64_t r = min_rtt_us >> rtt_log;
    if (r < 32)
        bytes += gso_max_size >> r;
    bytes = std::min<std::uint64_t>(bytes, gso_max_size);
    const auto segs =
        std::max<std::uint32_t>(static_cast<std::uint32_t>(bytes / mss), min_tso_segs);
    return std::min(segs, gso_max_segs);
}

std::uint64_t sndbuf_expand(std::uint32_t mss, std::uint32_t cwnd, std::uint32_t init_cwnd,
                            std::uint32_t reordering, std::uint32_t wmem_max) {
    std::uint32_t per_mss = mss + max_tcp_header + skb_shared_info_size;
    std::uint32_t p2 = 1;
    while (p2 < per_mss)
        p2 <<= 1;
    per_mss = p2 + sk_buff_size;
    const std::uint32_t nr_segs = std::max({init_cwnd, cwnd, reordering + 1});
    const std::uint64_t sndmem = 2ull * nr_segs * per_mss;
    return std::min<std::uint64_t>(sndmem, wmem_max);
}

} // namespace nicsim::net

// SPDX-License-Identifier: MIT
// net::skb's object cache (skb.h): a free list of skb-sized blocks, as the kernel's
// skbuff_head_cache. In sanitizer builds every skb is its own allocation, so that a use after
// free is still caught.
#include "host/net/skb.h"

#include <new>
#include <vector>

#ifdef NICSIM_ASAN // set by the build with the address sanitizer
#define NICSIM_SKB_CACHE 0
#else
#define NICSIM_SKB_CACHE 1
#endif

namespace nicsim::net {

namespace {
// A few hundred skbs are alive at most (socket queues, qdisc, driver); beyond that blocks go
// back to the allocator.
constexpr std::size_t max_cached = 256;
std::vector<void*>& cache() {
    static std::vector<void*>* c = new std::vector<void*>(); // never destroyed: skbs may die late
    return *c;
}
} // namespace

void* skb::operator new(std::size_t n) {
    if (NICSIM_SKB_CACHE && n == sizeof(skb) && !cache().empty()) {
        void* p = cache().back();
        cache().pop_back();
        return p;
    }
    return ::operator new(n);
}

void skb::operator delete(void* p) noexcept {
    if (NICSIM_SKB_CACHE && p && cache().size() < max_cached) {
        cache().push_back(p);
        return;
    }
    ::operator delete(p);
}

} // namespace nicsim::net

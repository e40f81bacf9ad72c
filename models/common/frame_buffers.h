// SPDX-License-Identifier: MIT
//
// frame_buffers: the storage of frames that are done with, kept for the next frame to be built,
// so that a frame's journey (stack -> driver -> chip -> wire -> chip -> stack) does not allocate
// and free its bytes at every hop. Whoever drops a frame's bytes may give() them; whoever builds
// one may take() a buffer (empty, with the capacity it had) instead of a new vector. The same
// for other per-frame vectors (take<T>/give: a GSO skb's list of frames). Buffers carry no
// state: a taken buffer is cleared, so a run's results do not depend on the pool. One pool per
// vector type and process, as SystemC runs one simulation thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace nicsim::frame_buffers {

using bytes = std::vector<std::uint8_t>;

namespace detail {
// A few dozen frames are in flight at most; beyond that buffers go back to the allocator.
constexpr std::size_t max_kept = 64;
// Byte buffers smaller than a short frame (options, headers) are not worth keeping.
// (A function, not a variable template: an explicit specialisation of a namespace-scope variable
// template is not inline, so clang defines it in every object file that uses it.)
template <class V> constexpr std::size_t min_capacity() {
    return std::is_same_v<V, bytes> ? 128 : 1;
}
template <class V> std::vector<V>& kept() {
    // Never destroyed: frames may still die during static destruction at exit.
    static auto* pool = new std::vector<V>();
    return *pool;
}
} // namespace detail

// An empty vector, with the storage of a given one if the pool has one.
template <class V = bytes> V take() {
    auto& k = detail::kept<V>();
    if (k.empty())
        return {};
    V b = std::move(k.back());
    k.pop_back();
    b.clear();
    return b;
}

// Keeps `b`'s storage for a later take(); `b` is left empty.
template <class V> void give(V& b) {
    auto& k = detail::kept<V>();
    if (b.capacity() >= detail::min_capacity<V>() && k.size() < detail::max_kept)
        k.push_back(std::move(b));
    b = V();
}

} // namespace nicsim::frame_buffers

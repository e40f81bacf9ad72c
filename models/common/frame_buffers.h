// SPDX-License-Identifier: MIT
//
// frame_buffers: byte buffers of frames that are done with, kept for the next frame to be built,
// so that a frame's journey (stack -> driver -> chip -> wire -> chip -> stack) does not allocate
// and free its bytes at every hop. Whoever drops a frame's bytes may give() them; whoever builds
// one may take() a buffer (empty, with the capacity it had) instead of a new vector. Buffers
// carry no state: a taken buffer is cleared, so a run's results do not depend on the pool.
// One pool per process, as SystemC runs one simulation thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace nicsim::frame_buffers {

using bytes = std::vector<std::uint8_t>;

namespace detail {
// A few dozen frames are in flight at most; beyond that buffers go back to the allocator.
constexpr std::size_t max_kept = 64;
// Smaller buffers (options, headers) are not worth keeping.
constexpr std::size_t min_capacity = 128;
inline std::vector<bytes>& kept() {
    // Never destroyed: frames may still die during static destruction at exit.
    static auto* pool = new std::vector<bytes>();
    return *pool;
}
} // namespace detail

// An empty buffer, with room for a frame if the pool had one.
inline bytes take() {
    auto& k = detail::kept();
    if (k.empty())
        return {};
    bytes b = std::move(k.back());
    k.pop_back();
    b.clear();
    return b;
}

// Keeps `b`'s storage for a later take(); `b` is left empty.
inline void give(bytes& b) {
    auto& k = detail::kept();
    if (b.capacity() >= detail::min_capacity && k.size() < detail::max_kept)
        k.push_back(std::move(b));
    b = bytes();
}

} // namespace nicsim::frame_buffers

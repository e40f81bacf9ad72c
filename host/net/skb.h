// SPDX-License-Identifier: MIT
//
// net::skb: one frame on its way down (or up) the host stack, with the two things the kernel's
// sk_buff carries that matter for queueing: truesize (what the socket is charged for it) and a
// destructor (tcp_wfree for TCP data: it returns the truesize to the socket's TSQ budget).
//
// Ownership is the whole contract: whoever holds the skb_ptr owns the skb; destroying it (reset,
// going out of scope) is kfree_skb/consume_skb and runs the destructor exactly once. So a driver
// that copies the frame into chip memory and then drops the skb_ptr returns the budget at that
// moment (wilc1000 tx_complete_fn, ks8851 after the TXQ write), and a link model that keeps the
// skb_ptr until the last bit has left returns it then. orphan() runs the destructor early and
// keeps the data (skb_orphan, e.g. netem's skb_orphan_partial at enqueue).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <systemc>

#include "models/common/frame_buffers.h"

namespace nicsim::net {

struct skb {
    std::vector<std::uint8_t> data; // the complete Ethernet frame (skb->len == data.size())
    // A GSO skb: `data` is empty and these are its segments, each a complete frame. The stack
    // splits it before a device that does not take GSO (validate_xmit_skb -> skb_gso_segment).
    std::vector<std::vector<std::uint8_t>> gso_frames;
    std::uint32_t truesize = 0; // bytes charged to the owning socket
    std::uint32_t priority = 0; // skb->priority: pfifo_fast band via prio2band (0 -> band 1)
    std::uint64_t id = 0;       // per-stack sequence number, for traces and tests
    sc_core::sc_time created;   // when the stack built it
    // skb->sk and skb->destructor, as in the kernel: the owner (the socket's accounting, kept
    // alive by every skb it charged, as sk_wmem_alloc keeps the sock) and a plain function that
    // returns the skb's share to it when the skb is freed (tcp_wfree). Null = nothing to return.
    // Function pointers, not std::function: a capture holding the owner cost an allocation per
    // skb and per GSO segment.
    std::shared_ptr<void> sk;
    void (*destructor)(skb&) = nullptr;
    // sk_wmem_alloc adjusted by `delta`: segmentation moves the budget from the GSO skb to its
    // segments with it (tcp_gso_segment's sum_truesize delta). Null = not owned by a socket.
    void (*charge_owner)(skb&, std::int64_t delta) = nullptr;

    skb() = default;
    skb(const skb&) = delete;
    skb& operator=(const skb&) = delete;
    // Like the kernel's skbuff_head_cache: freed skb objects serve the next ones (one was
    // allocated per segment, per ACK and per GSO split). Sanitizer builds allocate each one.
    static void* operator new(std::size_t n);
    static void operator delete(void* p) noexcept;
    ~skb() {
        orphan();
        frame_buffers::give(data); // kfree_skb: the bytes' storage serves the next frame
        for (auto& f : gso_frames)
            frame_buffers::give(f);
        frame_buffers::give(gso_frames); // the list's storage serves the next GSO skb
    }

    // Runs the destructor now (once) and clears it; the data stays valid.
    void orphan() {
        if (destructor) {
            const auto d = destructor;
            destructor = nullptr;
            d(*this);
        }
    }
    std::size_t len() const {
        std::size_t n = data.size();
        for (const auto& f : gso_frames)
            n += f.size();
        return n;
    }
    bool is_gso() const { return !gso_frames.empty(); }
    // Frames on the wire (gso_segs).
    std::size_t segs() const { return is_gso() ? gso_frames.size() : 1; }
};

using skb_ptr = std::unique_ptr<skb>;

} // namespace nicsim::net

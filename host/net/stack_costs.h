// SPDX-License-Identifier: MIT
//
// Host CPU cost of the network stack in named parts, charged through the cpu-cost hook
// (cpu_cost_fn). All default to zero (a free, infinitely fast host); a platform profile sets them
// (calibrated against a board, or measured with perf). Where each is charged:
//
//   per_syscall        each write()/send() or read()/recv() call (syscall entry/exit, socket
//                      lock, tcp_sendmsg/tcp_recvmsg bookkeeping) - process context
//   per_byte_copied    each payload byte copied user <-> kernel (copy_from_iter/copy_to_iter)
//                      - process context
//   per_segment_sent   each TCP segment built and sent (tcp_transmit_skb, ip_queue_xmit,
//                      dev_queue_xmit, qdisc enqueue/dequeue) - softirq/kernel context
//   per_segment_recv   each data segment received (netif_rx -> backlog -> ip_rcv -> tcp_v4_rcv
//                      -> tcp_rcv_established) - softirq
//   per_ack_recv       each ACK processed by the sender (tcp_ack, tcp_clean_rtx_queue, cc) -
//                      softirq
//   per_ack_sent       each pure ACK built and sent by the receiver - softirq
//   per_skb_alloc      each skb allocation (alloc_skb / clone in tcp_transmit_skb) - where it
//                      happens
//   per_skb_free       each skb free (the destructor path, tcp_wfree) - charged in the stack
//                      thread when the freed budget is processed
#pragma once

#include <functional>

#include <systemc>

namespace nicsim::net {

// Who the work is charged as. process: syscall context of the application (host_cpu's
// cpu_class::application - it competes with the app); softirq: kernel (cpu_class::kernel).
enum class cpu_context { process, softirq };

using cpu_cost_fn = std::function<void(sc_core::sc_time, cpu_context)>;

struct stack_costs {
    sc_core::sc_time per_syscall = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_byte_copied = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_segment_sent = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_segment_recv = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_ack_recv = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_ack_sent = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_skb_alloc = sc_core::SC_ZERO_TIME;
    sc_core::sc_time per_skb_free = sc_core::SC_ZERO_TIME;
};

} // namespace nicsim::net

/* SPDX-License-Identifier: MIT */
/* Ethernet header, EtherTypes and the MAC-address helpers of linux/etherdevice.h. Pure header
 * semantics, written to the kernel's behaviour (include/uapi/linux/if_ether.h values). */
#ifndef LX_EMUL_IF_ETHER_H
#define LX_EMUL_IF_ETHER_H

#include <linux/types.h>
#include <linux/kernel.h> /* before string.h: lx_emul bitops must precede glibc string.h */

#define ETH_ALEN 6
#define ETH_TLEN 2
#define ETH_HLEN 14
#define ETH_ZLEN 60
#define ETH_DATA_LEN 1500
#define ETH_FRAME_LEN 1514
#define ETH_FCS_LEN 4
#define ETH_MIN_MTU 68
#define ETH_MAX_MTU 0xFFFFU

#define ETH_P_LOOP 0x0060
#define ETH_P_IP 0x0800
#define ETH_P_ARP 0x0806
#define ETH_P_8021Q 0x8100
#define ETH_P_IPV6 0x86DD
#define ETH_P_PAE 0x888E
#define ETH_P_802_3_MIN 0x0600
#define ETH_P_802_3 0x0001
#define ETH_P_802_2 0x0004
#define ETH_P_ALL 0x0003

struct ethhdr {
    unsigned char h_dest[ETH_ALEN];
    unsigned char h_source[ETH_ALEN];
    __be16 h_proto;
} __attribute__((packed));
_Static_assert(sizeof(struct ethhdr) == 14, "ethhdr is 14 bytes on the wire");

#endif

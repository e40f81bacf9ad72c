/* SPDX-License-Identifier: MIT */
/* IPv4/IPv6/TCP headers and DSCP helpers (linux/ip.h, ipv6.h, tcp.h, net/dsfield.h). Layouts
 * are the wire layouts; bitfields in __LITTLE_ENDIAN_BITFIELD order (gcc on LE hosts allocates
 * bitfields LSB first, which is what wlan.c's TCP-ACK filter expects). */
#ifndef LX_EMUL_INET_H
#define LX_EMUL_INET_H

#include <linux/types.h>
#include <linux/skbuff.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "nicsim's network headers assume a little-endian host"
#endif

struct iphdr {
    __u8 ihl : 4, version : 4;
    __u8 tos;
    __be16 tot_len;
    __be16 id;
    __be16 frag_off;
    __u8 ttl;
    __u8 protocol;
    __sum16 check;
    __be32 saddr;
    __be32 daddr;
};
_Static_assert(sizeof(struct iphdr) == 20, "iphdr is 20 bytes");

struct in6_addr {
    union {
        __u8 u6_addr8[16];
        __be16 u6_addr16[8];
        __be32 u6_addr32[4];
    } in6_u;
};

struct ipv6hdr {
    __u8 priority : 4, version : 4;
    __u8 flow_lbl[3];
    __be16 payload_len;
    __u8 nexthdr;
    __u8 hop_limit;
    struct in6_addr saddr;
    struct in6_addr daddr;
};
_Static_assert(sizeof(struct ipv6hdr) == 40, "ipv6hdr is 40 bytes");

struct tcphdr {
    __be16 source;
    __be16 dest;
    __be32 seq;
    __be32 ack_seq;
    __u16 res1 : 4, doff : 4, fin : 1, syn : 1, rst : 1, psh : 1, ack : 1, urg : 1, ece : 1,
        cwr : 1;
    __be16 window;
    __sum16 check;
    __be16 urg_ptr;
};
_Static_assert(sizeof(struct tcphdr) == 20, "tcphdr is 20 bytes");

#define IPPROTO_IP 0
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define IPPROTO_IPV6 41

static inline unsigned char* skb_network_header_lx(const struct sk_buff* skb)
{
    return skb->head + skb->network_header;
}
static inline struct iphdr* ip_hdr(const struct sk_buff* skb)
{
    return (struct iphdr*)skb_network_header_lx(skb);
}
static inline struct ipv6hdr* ipv6_hdr(const struct sk_buff* skb)
{
    return (struct ipv6hdr*)skb_network_header_lx(skb);
}

static inline __u8 ipv4_get_dsfield(const struct iphdr* iph) { return iph->tos; }
static inline __u8 ipv6_get_dsfield(const struct ipv6hdr* ipv6h)
{
    const __u8* p = (const __u8*)ipv6h;
    return (__u8)((((unsigned)p[0] << 8) | p[1]) >> 4);
}

#endif

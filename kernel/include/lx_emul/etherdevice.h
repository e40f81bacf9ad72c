/* SPDX-License-Identifier: MIT */
/* linux/etherdevice.h: MAC address helpers (pure, kernel semantics) and the etherdev
 * functions implemented in kernel/lx_emul_bus/netdev.c. */
#ifndef LX_EMUL_ETHERDEVICE_H
#define LX_EMUL_ETHERDEVICE_H

#include <lx_emul/if_ether.h>
#include <lx_emul/netdevice.h>

static inline bool is_zero_ether_addr(const u8* a)
{
    return (a[0] | a[1] | a[2] | a[3] | a[4] | a[5]) == 0;
}
static inline bool is_multicast_ether_addr(const u8* a) { return a[0] & 0x01; }
static inline bool is_broadcast_ether_addr(const u8* a)
{
    return (a[0] & a[1] & a[2] & a[3] & a[4] & a[5]) == 0xff;
}
static inline bool is_unicast_ether_addr(const u8* a) { return !is_multicast_ether_addr(a); }
static inline bool is_valid_ether_addr(const u8* a)
{
    return !is_multicast_ether_addr(a) && !is_zero_ether_addr(a);
}
static inline void ether_addr_copy(u8* dst, const u8* src) { memcpy(dst, src, ETH_ALEN); }
static inline bool ether_addr_equal(const u8* a, const u8* b)
{
    return memcmp(a, b, ETH_ALEN) == 0;
}
static inline bool ether_addr_equal_unaligned(const u8* a, const u8* b)
{
    return memcmp(a, b, ETH_ALEN) == 0;
}
static inline void eth_zero_addr(u8* a) { memset(a, 0, ETH_ALEN); }
static inline void eth_broadcast_addr(u8* a) { memset(a, 0xff, ETH_ALEN); }

/* Random locally administered unicast address. nicsim is deterministic: the bytes come from a
 * counter-seeded generator in netdev.c, not from the wall clock. */
void eth_random_addr(u8* addr);

static inline void eth_hw_addr_set(struct net_device* dev, const u8* addr)
{
    memcpy(dev->nicsim_addr, addr, ETH_ALEN);
    dev->dev_addr = dev->nicsim_addr;
}
static inline void eth_hw_addr_random(struct net_device* dev)
{
    u8 addr[ETH_ALEN];
    eth_random_addr(addr);
    eth_hw_addr_set(dev, addr);
    dev->addr_assign_type = NET_ADDR_RANDOM;
}

/* net/ethernet/eth.c: the MAC address from the device's firmware node (nicsim: the device-tree
 * node's "local-mac-address", lx_bus_device_desc.has_mac_address), -ENOENT when it has no valid
 * one; device_get_ethdev_address also sets it on the netdev. In kernel/lx_emul_bus/firmware.c. */
struct device;
int device_get_mac_address(struct device* dev, char* addr);
int device_get_ethdev_address(struct device* dev, struct net_device* netdev);

int eth_validate_addr(struct net_device* dev);
int eth_prepare_mac_addr_change(struct net_device* dev, void* p);
void eth_commit_mac_addr_change(struct net_device* dev, void* p);
int eth_mac_addr(struct net_device* dev, void* p);
__be16 eth_type_trans(struct sk_buff* skb, struct net_device* dev);

/* CRC-32 (IEEE 802.3, reflected): the kernel's own lib/crc32.c (nicsim_klib). */
u32 crc32_le(u32 crc, const unsigned char* p, size_t len);
#define crc32(seed, data, length) crc32_le(seed, (const unsigned char*)(data), length)
static inline u32 lx_emul_bitrev32(u32 x)
{
    u32 r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
/* ether_crc: the kernel's bitrev32(crc32_le(~0, buf, len)) (the KS8851 hash filter uses it). */
static inline u32 ether_crc(int length, const unsigned char* data)
{
    return lx_emul_bitrev32(crc32_le(~0u, data, (size_t)length));
}
static inline u32 ether_crc_le(int length, const unsigned char* data)
{
    return crc32_le(~0u, data, (size_t)length);
}

#endif

// SPDX-License-Identifier: MIT
// Scenarios for the emulation compiled against the real kernel headers (nicsim_lx_real_<tree>):
// C compiled like a driver on the real headers; the GoogleTest driver (real_emul_test.cc) sees
// only this interface of plain C types.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Events recorded by the scenarios: simulated time (ns) and a value, in order.
#define RH_TEST_MAX_EVENTS 32
extern unsigned rh_test_events;
extern unsigned long long rh_test_t[RH_TEST_MAX_EVENTS];
extern long rh_test_v[RH_TEST_MAX_EVENTS];

// Holds a mutex 0..1 ms (usleep_range(1000, 1000)); records 1 (locked) at 0 and 2 at unlock.
void rh_scn_mutex_holder(void* arg);
// Busy 100 us (udelay), records its failed trylock (0) and 3 once mutex_lock returns.
void rh_scn_mutex_contender(void* arg);
// Records the pid of `current` and whether comm is the task's name (1).
void rh_scn_current(void* arg);
// local_bh_disable/enable around a recorded in_softirq(); the BH hook records 9 when it runs.
void rh_scn_bh(void* arg);
// Queues a work item on system_wq (twice: the second finds it pending), flushes it, queues and
// cancels it; the work function busy-waits 50 us and records 7 (8 if still pending).
void rh_scn_work(void* arg);
// netdev_info on a device named eth7 ("up 3" and a MAC by %pM), netdev_err on NULL; the
// optional reset GPIO is none (records 1), naming it succeeds (0).
void rh_scn_log_gpio(void* arg);
// eth_hw_addr_random on a device: records each address byte | 0x100 when dev_addr_shadow has
// it too, then 1 when the address is marked random.
void rh_scn_random_addr(void* arg);
// An MDIO bus with a private area (records 1), whose read op records addr * 16 + reg and has a
// PHY only at address 1; registered with addresses 0 and 1 unmasked (records the reads, then 0
// and 1 for registered), unregistered and freed (9).
void rh_scn_mdio(void* arg);
// An skb from netdev_alloc_skb (records its fresh state as 1), put, queued with a second one,
// dequeued in order and freed; a third purged with its queue. Records the live count between.
void rh_scn_skb(void* arg);
// A 64-byte skb misused as arg says: 0 put past end, 1 freed twice, 2 written before head,
// 3 written past end into its skb_shared_info. Each stops the run.
void rh_scn_skb_bad(void* arg);
// A devm net device and a plain one registered (eth0, eth1), opened, its TX queue stopped and
// woken, carrier and presence toggled, two frames received, unregistered and freed.
void rh_scn_netdev(void* arg);
// Module parameters (rh_test.rh_level int, rh_test.rh_flag bool) set and read by name;
// bitrev8/bitrev16 of non-constants; gpiod_set_value_cansleep on no GPIO.
void rh_scn_param_bitrev(void* arg);
// An SPI and a platform driver of one name registered (0, 0) and found on their buses (1, 1),
// the SPI name registered again (-EBUSY), each unregistered (1, 1).
void rh_scn_drivers(void* arg);
// The tree's drivers/net/mii.c on a PHY at address 1 whose writes record
// addr * 0x100000 + reg * 0x10000 + value: link down, then up (carrier follows), the ethtool
// settings (100 Mbit/s full duplex by autonegotiation), SIOCGMIIREG of BMSR, an nway restart.
void rh_scn_mii(void* arg);
// kmalloc of a constant and a variable size, kzalloc, a zeroed one above every kmalloc cache,
// kmemdup and devm_kzalloc on the tree's GFP bits: records 1 for each content as expected
// (poisoned or zeroed) and for kmalloc(0); frees them all (the devm one by devres).
void rh_scn_slab(void* arg);
// spi_sync on spi0.1 (chip select 1, 20 MHz, mode 3) through the bus bridge `arg`: a 2-byte
// write then a 4-byte read (16-bit words, 1 MHz, cs_change, 8 SCK after), an empty message, a
// message of one transfer. Records each result, status * 100 + actual_length (+ 10 when the
// message names the device) and the bytes read; then spi_write_then_read of 1 byte out, 2 in.
void rh_scn_spi_sync(void* arg);
// A platform device with resources MEM 0x10000000+0x10, IRQ 42, MEM 0x20000000+0x100 on the
// parallel bus bridge `arg`: its IRQs 0 and 1, the second MEM mapped and accessed (a write at
// +4, a read at +6, 3 reads of +2, 2 writes of +8), a third MEM mapped (fails).
void rh_scn_platform(void* arg);
// pr_info, pr_warn with %pM, dev_err on rh_par.0, dev_info on no device, print_hex_dump of 5
// bytes with ASCII, then platform_get_irq of a missing IRQ (records -ENXIO).
void rh_scn_printk(void* arg);
// MAC addresses from a device_node whose properties are "address" (02:aa:bb:cc:dd:02),
// "mac-address" (multicast) and "local-mac-address" (…:01): of_get_ethdev_address on it, on a
// node without them and on NULL; device_get_ethdev_address with the node as of_node and
// without. Records each result and the address's last byte.
void rh_scn_of_mac(void* arg);
// mutex_lock with BH disabled: stops the run.
void rh_scn_sleep_in_bh(void* arg);

#ifdef __cplusplus
}
#endif

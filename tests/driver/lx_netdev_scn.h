/* SPDX-License-Identifier: MIT */
/* The netdev transmit scenarios (lx_netdev_scn.c), callable from C++. */
#ifndef NICSIM_TEST_LX_NETDEV_SCN_H
#define NICSIM_TEST_LX_NETDEV_SCN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LX_TEST_MAX_OFFERS 16

/* What the stand-in driver saw per ndo_start_xmit: the skb, its length, and how many skbs the
 * emulation counted live (held by the driver) at that moment. */
struct lx_test_xmit_log {
    int offers;
    const void* skb[LX_TEST_MAX_OFFERS];
    unsigned len[LX_TEST_MAX_OFFERS];
    size_t live_during[LX_TEST_MAX_OFFERS];
};

void* lx_test_netdev_up(struct lx_test_xmit_log* log); /* registered and open; NULL on failure */
/* Offers `frame` as the stack would; the driver refuses the next `refuse` offers. */
int lx_test_netdev_xmit(void* dev, const unsigned char* frame, unsigned len, int refuse);
void lx_test_netdev_down(void* dev); /* ifdown, unregister, free */

#ifdef __cplusplus
}
#endif

#endif

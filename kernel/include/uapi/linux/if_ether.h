/* SPDX-License-Identifier: MIT */
/* uapi/linux/if_ether.h: the shadow linux/if_ether.h has what the drivers use (6.12's wilc1000
 * netdev.h includes the uapi path directly). */
#include <linux/if_ether.h>

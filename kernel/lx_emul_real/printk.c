// SPDX-License-Identifier: MIT
/* lx_emul_real: netdev_printk and its levels. The line is lx_emul's (its vsnprintf with the %p
 * extensions drivers use, the lx_kit log sink), prefixed with the device's name as the shadow
 * headers' netdev_printk prefixes it. */
#include <linux/kern_levels.h>
#include <linux/netdevice.h>

#include <lx_emul/shared.h>

#include "internal.h"

static void netdev_log(const char *level, const struct net_device *dev, const char *fmt,
                       va_list ap)
{
    lx_emul_vlog_prefixed(level, dev ? dev->name : "(null net_device)", fmt, ap);
}

void netdev_printk(const char *level, const struct net_device *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    netdev_log(level, dev, fmt, ap);
    va_end(ap);
}

#define NETDEV_LEVEL(name, level)                                                                  \
    void name(const struct net_device *dev, const char *fmt, ...)                                  \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        netdev_log(level, dev, fmt, ap);                                                           \
        va_end(ap);                                                                                \
    }
NETDEV_LEVEL(netdev_emerg, KERN_EMERG)
NETDEV_LEVEL(netdev_alert, KERN_ALERT)
NETDEV_LEVEL(netdev_crit, KERN_CRIT)
NETDEV_LEVEL(netdev_err, KERN_ERR)
NETDEV_LEVEL(netdev_warn, KERN_WARNING)
NETDEV_LEVEL(netdev_notice, KERN_NOTICE)
NETDEV_LEVEL(netdev_info, KERN_INFO)

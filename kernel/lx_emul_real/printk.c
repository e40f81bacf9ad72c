// SPDX-License-Identifier: MIT
/* lx_emul_real: printk, dev_printk, netdev_printk and their levels (CONFIG_PRINTK). The line is
 * lx_emul's (its vsnprintf with the %p extensions drivers use, the lx_kit log sink); dev_* and
 * netdev_* lines are prefixed with the device's name as the shadow headers' are, and a plain
 * printk line, whose caller the real headers do not pass, has the origin "kernel" (the shadow
 * headers' names the module). */
#include <linux/device.h>
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

static int emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = lx_emul_vprintk("kernel", fmt, ap);
    va_end(ap);
    return n;
}

/* The kernel takes the level from the formatted text (print_hex_dump passes it as a %s
 * argument), so the line is formatted first and its leading KERN_SOH prefixes read from it. */
int vprintk(const char *fmt, va_list args)
{
    char line[1024];
    lx_emul_vscnprintf(line, sizeof(line), fmt, args);
    const char *text = line;
    char level[3] = "";
    while (text[0] == KERN_SOH_ASCII && text[1]) {
        level[0] = KERN_SOH_ASCII;
        level[1] = text[1];
        text += 2;
    }
    char with_level[8];
    lx_emul_scnprintf(with_level, sizeof(with_level), "%s%%s", level);
    return emit(with_level, text);
}

int _printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintk(fmt, ap);
    va_end(ap);
    return n;
}

static void dev_log(const char *level, const struct device *dev, const char *fmt, va_list ap)
{
    lx_emul_vlog_prefixed(level, dev ? dev_name(dev) : "(NULL device *)", fmt, ap);
}

void _dev_printk(const char *level, const struct device *dev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dev_log(level, dev, fmt, ap);
    va_end(ap);
}

#define DEV_LEVEL(name, level)                                                                     \
    void name(const struct device *dev, const char *fmt, ...)                                      \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        dev_log(level, dev, fmt, ap);                                                              \
        va_end(ap);                                                                                \
    }
DEV_LEVEL(_dev_emerg, KERN_EMERG)
DEV_LEVEL(_dev_alert, KERN_ALERT)
DEV_LEVEL(_dev_crit, KERN_CRIT)
DEV_LEVEL(_dev_err, KERN_ERR)
DEV_LEVEL(_dev_warn, KERN_WARNING)
DEV_LEVEL(_dev_notice, KERN_NOTICE)
DEV_LEVEL(_dev_info, KERN_INFO)

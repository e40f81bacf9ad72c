/* SPDX-License-Identifier: MIT */
/* lx_emul: kernel logging (linux/printk.h, dev_printk.h, netdev_* printing).
 * Every line goes to one lx_kit sink with the simulated time stamp (deterministic run log).
 * Levels: KERN_EMERG (0) .. KERN_DEBUG (7); errors and warnings are counted whether or not the
 * verbosity prints them. pr_debug/dev_dbg/netdev_dbg compile to nothing unless DEBUG is defined
 * (a kernel without CONFIG_DYNAMIC_DEBUG), but their arguments are still type-checked. */
#ifndef LX_EMUL_PRINTK_H
#define LX_EMUL_PRINTK_H

#include <stdarg.h>

#include <lx_emul/types.h>

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT KERN_SOH "c"
#define LOGLEVEL_EMERG 0
#define LOGLEVEL_ERR 3
#define LOGLEVEL_WARNING 4
#define LOGLEVEL_INFO 6
#define LOGLEVEL_DEBUG 7

struct device;
struct net_device;
struct va_format {
    const char* fmt;
    va_list* va;
};

int lx_emul_printk(const char* origin, const char* fmt, ...) __printf(2, 3);
int lx_emul_vprintk(const char* origin, const char* fmt, va_list args)
    __attribute__((format(printf, 2, 0)));
void lx_emul_dev_printk(const char* level, const struct device* dev, const char* fmt, ...)
    __printf(3, 4);
void lx_emul_netdev_printk(const char* level, const struct net_device* dev, const char* fmt, ...)
    __printf(3, 4);
int lx_emul_dev_err_probe(const struct device* dev, int err, const char* fmt, ...) __printf(3, 4);

/* Log prefixes ("<driver> <device>" like the kernel's dev_printk). lx_emul provides weak
 * defaults; the device/netdev emulation overrides them with strong definitions. */
const char* lx_emul_dev_log_name(const struct device* dev, char* buf, size_t size);
const char* lx_emul_netdev_log_name(const struct net_device* dev, char* buf, size_t size);

static inline __printf(1, 2) int no_printk(const char* fmt, ...) { return 0; }

#define printk(fmt, ...) lx_emul_printk(LX_EMUL_MODNAME, fmt, ##__VA_ARGS__)
#define vprintk(fmt, args) lx_emul_vprintk(LX_EMUL_MODNAME, fmt, args)
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning pr_warn
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)
#define pr_err_ratelimited pr_err
#define pr_warn_ratelimited pr_warn
#define pr_info_ratelimited pr_info
#define pr_err_once pr_err
#define pr_warn_once pr_warn
#define pr_info_once pr_info
#define printk_ratelimit() 1
#define net_ratelimit() 1
#ifdef DEBUG
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...) no_printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#endif
#define pr_devel pr_debug
#define pr_debug_ratelimited pr_debug

#ifndef dev_fmt
#define dev_fmt(fmt) fmt
#endif
#define dev_printk(level, dev, fmt, ...) lx_emul_dev_printk(level, dev, fmt, ##__VA_ARGS__)
#define dev_emerg(dev, fmt, ...) lx_emul_dev_printk(KERN_EMERG, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_alert(dev, fmt, ...) lx_emul_dev_printk(KERN_ALERT, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_crit(dev, fmt, ...) lx_emul_dev_printk(KERN_CRIT, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_err(dev, fmt, ...) lx_emul_dev_printk(KERN_ERR, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...) lx_emul_dev_printk(KERN_WARNING, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_notice(dev, fmt, ...) lx_emul_dev_printk(KERN_NOTICE, dev, dev_fmt(fmt), ##__VA_ARGS__)
#define dev_info(dev, fmt, ...) lx_emul_dev_printk(KERN_INFO, dev, dev_fmt(fmt), ##__VA_ARGS__)
#ifdef DEBUG
#define dev_dbg(dev, fmt, ...) lx_emul_dev_printk(KERN_DEBUG, dev, dev_fmt(fmt), ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...) ((void)(dev), no_printk(dev_fmt(fmt), ##__VA_ARGS__))
#endif
#define dev_vdbg dev_dbg
#define dev_err_ratelimited dev_err
#define dev_warn_ratelimited dev_warn
#define dev_info_ratelimited dev_info
#define dev_dbg_ratelimited dev_dbg
#define dev_err_once dev_err
#define dev_warn_once dev_warn
#define dev_info_once dev_info
#define dev_err_probe(dev, err, fmt, ...) lx_emul_dev_err_probe(dev, err, fmt, ##__VA_ARGS__)

#define netdev_printk(level, dev, fmt, ...) lx_emul_netdev_printk(level, dev, fmt, ##__VA_ARGS__)
#define netdev_emerg(dev, fmt, ...) lx_emul_netdev_printk(KERN_EMERG, dev, fmt, ##__VA_ARGS__)
#define netdev_alert(dev, fmt, ...) lx_emul_netdev_printk(KERN_ALERT, dev, fmt, ##__VA_ARGS__)
#define netdev_crit(dev, fmt, ...) lx_emul_netdev_printk(KERN_CRIT, dev, fmt, ##__VA_ARGS__)
#define netdev_err(dev, fmt, ...) lx_emul_netdev_printk(KERN_ERR, dev, fmt, ##__VA_ARGS__)
#define netdev_warn(dev, fmt, ...) lx_emul_netdev_printk(KERN_WARNING, dev, fmt, ##__VA_ARGS__)
#define netdev_notice(dev, fmt, ...) lx_emul_netdev_printk(KERN_NOTICE, dev, fmt, ##__VA_ARGS__)
#define netdev_info(dev, fmt, ...) lx_emul_netdev_printk(KERN_INFO, dev, fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define netdev_dbg(dev, fmt, ...) lx_emul_netdev_printk(KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define netdev_dbg(dev, fmt, ...) ((void)(dev), no_printk(fmt, ##__VA_ARGS__))
#endif
#define netdev_err_once netdev_err
#define netdev_warn_once netdev_warn

enum { DUMP_PREFIX_NONE, DUMP_PREFIX_ADDRESS, DUMP_PREFIX_OFFSET };
void lx_emul_print_hex_dump(const char* origin, const char* level, const char* prefix_str,
                            int prefix_type, int rowsize, int groupsize, const void* buf,
                            size_t len, bool ascii);
#define print_hex_dump(level, prefix_str, prefix_type, rowsize, groupsize, buf, len, ascii)        \
    lx_emul_print_hex_dump(LX_EMUL_MODNAME, level, prefix_str, prefix_type, rowsize, groupsize,    \
                           buf, len, ascii)
#define print_hex_dump_bytes(prefix_str, prefix_type, buf, len)                                    \
    print_hex_dump(KERN_DEBUG, prefix_str, prefix_type, 16, 1, buf, len, true)
#ifdef DEBUG
#define print_hex_dump_debug(prefix_str, prefix_type, rowsize, groupsize, buf, len, ascii)         \
    print_hex_dump(KERN_DEBUG, prefix_str, prefix_type, rowsize, groupsize, buf, len, ascii)
#else
#define print_hex_dump_debug(prefix_str, prefix_type, rowsize, groupsize, buf, len, ascii)         \
    ((void)(buf), (void)(len))
#endif

#endif /* LX_EMUL_PRINTK_H */

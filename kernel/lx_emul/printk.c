// SPDX-License-Identifier: MIT
/* lx_emul: the kernel's vsnprintf (with the %p extensions drivers use) and printk routing to the
 * lx_kit log sink (see lx_emul/printk.h). Written for nicsim; no kernel code.
 * Plain %p and unknown %p extensions print the kernel's placeholder "(____ptrval____)" instead of
 * an address: a real kernel hashes pointers too, and raw addresses would make the run log differ
 * from run to run. %px prints the raw value. */
#include "internal.h"

#include <lx_kit/lx_emul_api.h>

#undef snprintf
#undef vsnprintf
#undef sprintf
#undef scnprintf
#undef vscnprintf
#include <ctype.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>

#define PTRVAL "(____ptrval____)"

struct out {
    char* buf;
    size_t size;
    size_t pos; /* bytes that would have been written */
};

static void put_char(struct out* o, char c)
{
    if (o->pos + 1 < o->size)
        o->buf[o->pos] = c;
    o->pos++;
}

static void put_str(struct out* o, const char* s)
{
    while (*s)
        put_char(o, *s++);
}

static const char hexdig[] = "0123456789abcdef";

static void put_hex_byte(struct out* o, u8 b)
{
    put_char(o, hexdig[b >> 4]);
    put_char(o, hexdig[b & 15]);
}

static const char* errname(long err)
{
    static const struct {
        int e;
        const char* n;
    } names[] = {
        {EPERM, "EPERM"},         {ENOENT, "ENOENT"},     {EINTR, "EINTR"},
        {EIO, "EIO"},             {ENXIO, "ENXIO"},       {E2BIG, "E2BIG"},
        {EAGAIN, "EAGAIN"},       {ENOMEM, "ENOMEM"},     {EACCES, "EACCES"},
        {EFAULT, "EFAULT"},       {EBUSY, "EBUSY"},       {EEXIST, "EEXIST"},
        {ENODEV, "ENODEV"},       {EINVAL, "EINVAL"},     {ENOSPC, "ENOSPC"},
        {ERANGE, "ERANGE"},       {ENOSYS, "ENOSYS"},     {ENODATA, "ENODATA"},
        {ETIME, "ETIME"},         {EPROTO, "EPROTO"},     {EOVERFLOW, "EOVERFLOW"},
        {EILSEQ, "EILSEQ"},       {EMSGSIZE, "EMSGSIZE"}, {EOPNOTSUPP, "EOPNOTSUPP"},
        {EADDRNOTAVAIL, "EADDRNOTAVAIL"}, {ENETDOWN, "ENETDOWN"}, {ENOBUFS, "ENOBUFS"},
        {ETIMEDOUT, "ETIMEDOUT"}, {EALREADY, "EALREADY"}, {EINPROGRESS, "EINPROGRESS"},
        {ECONNREFUSED, "ECONNREFUSED"}, {EPROBE_DEFER, "EPROBE_DEFER"},
        {ENOTSUPP, "ENOTSUPP"},   {ERESTARTSYS, "ERESTARTSYS"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].e == -err)
            return names[i].n;
    return NULL;
}

static void format_vsn(struct out* o, const char* fmt, va_list* ap);

/* Handles the characters after "%p"; returns the number of format characters consumed. */
static size_t format_pointer(struct out* o, const char* ext, int width, const void* p)
{
    size_t used = 0;
    while (isalnum((unsigned char)ext[used]))
        used++;
    const u8* b = p;
    char tmp[64];

    switch (ext[0]) {
    case 'M':
    case 'm': {
        if (!p) {
            put_str(o, "(null)");
            break;
        }
        bool rev = used > 1 && (ext[1] == 'R' || (used > 2 && ext[2] == 'R'));
        char sep = ext[0] == 'm' ? 0 : ((used > 1 && ext[1] == 'F') ? '-' : ':');
        for (int i = 0; i < 6; i++) {
            put_hex_byte(o, b[rev ? 5 - i : i]);
            if (sep && i < 5)
                put_char(o, sep);
        }
        break;
    }
    case 'I':
    case 'i':
        if (!p) {
            put_str(o, "(null)");
        } else if (used > 1 && ext[1] == '4') {
            snprintf(tmp, sizeof(tmp), ext[0] == 'I' ? "%u.%u.%u.%u" : "%03u.%03u.%03u.%03u",
                     b[0], b[1], b[2], b[3]);
            put_str(o, tmp);
        } else if (used > 1 && ext[1] == '6') {
            for (int i = 0; i < 16; i++) {
                put_hex_byte(o, b[i]);
                if (ext[0] == 'I' && (i & 1) && i < 15)
                    put_char(o, ':');
            }
        } else {
            put_str(o, PTRVAL);
        }
        break;
    case 'h': {
        char sep = ' ';
        if (used > 1)
            sep = ext[1] == 'C' ? ':' : ext[1] == 'D' ? '-' : ext[1] == 'N' ? 0 : ' ';
        int n = width < 0 ? 1 : width;
        if (n > 64)
            n = 64;
        if (!p) {
            put_str(o, "(null)");
            break;
        }
        for (int i = 0; i < n; i++) {
            put_hex_byte(o, b[i]);
            if (sep && i + 1 < n)
                put_char(o, sep);
        }
        break;
    }
    case 'e': {
        long err = (long)p;
        const char* name = IS_ERR(p) ? errname(err) : NULL;
        if (name) {
            put_char(o, '-');
            put_str(o, name);
        } else if (IS_ERR(p)) {
            snprintf(tmp, sizeof(tmp), "%ld", err);
            put_str(o, tmp);
        } else {
            put_str(o, PTRVAL);
        }
        break;
    }
    case 'x':
        snprintf(tmp, sizeof(tmp), "%016lx", (unsigned long)(uintptr_t)p);
        put_str(o, tmp);
        break;
    case 'a':
        if (!p) {
            put_str(o, "(null)");
            break;
        }
        snprintf(tmp, sizeof(tmp), "0x%016llx", (unsigned long long)*(const u64*)p);
        put_str(o, tmp);
        break;
    case 'V': {
        const struct va_format* vaf = p;
        va_list aq;
        va_copy(aq, *vaf->va);
        format_vsn(o, vaf->fmt, &aq);
        va_end(aq);
        break;
    }
    default:
        /* %p, %pK, %pS, %pB, %pOF, %pR, ... : the deterministic placeholder. */
        put_str(o, p ? PTRVAL : "(null)");
        break;
    }
    return used;
}

static void format_vsn(struct out* o, const char* fmt, va_list* ap)
{
    while (*fmt) {
        if (*fmt != '%') {
            put_char(o, *fmt++);
            continue;
        }
        const char* start = fmt++;
        if (*fmt == '%') {
            put_char(o, '%');
            fmt++;
            continue;
        }
        char spec[32];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*fmt && strchr("-+ #0'", *fmt) && sl < 8)
            spec[sl++] = *fmt++;
        int width = -1, prec = -1;
        if (*fmt == '*') {
            width = va_arg(*ap, int);
            fmt++;
        } else if (isdigit((unsigned char)*fmt)) {
            width = (int)strtol(fmt, (char**)&fmt, 10);
        }
        if (*fmt == '.') {
            fmt++;
            if (*fmt == '*') {
                prec = va_arg(*ap, int);
                fmt++;
            } else {
                prec = (int)strtol(fmt, (char**)&fmt, 10);
            }
        }
        char len[3] = {0};
        if (*fmt == 'h' || *fmt == 'l') {
            len[0] = *fmt++;
            if (*fmt == len[0])
                len[1] = *fmt++;
        } else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j' || *fmt == 'L' || *fmt == 'q') {
            len[0] = *fmt++;
        }
        char conv = *fmt;
        if (!conv) {
            put_str(o, start);
            return;
        }
        fmt++;
        if (conv == 'p') {
            const void* p = va_arg(*ap, const void*);
            fmt += format_pointer(o, fmt, width, p);
            continue;
        }
        if (width >= 0)
            sl += (size_t)snprintf(spec + sl, sizeof(spec) - sl, "%d", width);
        if (prec >= 0)
            sl += (size_t)snprintf(spec + sl, sizeof(spec) - sl, ".%d", prec);
        char tmp[512];
        int n;
        switch (conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'o':
        case 'x':
        case 'X': {
            bool sgn = conv == 'd' || conv == 'i';
            long long sv = 0;
            unsigned long long uv = 0;
            if (len[0] == 'l' && len[1] == 'l')
                sgn ? (sv = va_arg(*ap, long long)) : (uv = va_arg(*ap, unsigned long long));
            else if (len[0] == 'l' || len[0] == 'z' || len[0] == 't' || len[0] == 'j' ||
                     len[0] == 'q' || len[0] == 'L')
                sgn ? (sv = va_arg(*ap, long)) : (uv = va_arg(*ap, unsigned long));
            else {
                if (sgn)
                    sv = va_arg(*ap, int);
                else
                    uv = va_arg(*ap, unsigned int);
                if (len[0] == 'h' && len[1] == 'h')
                    sgn ? (sv = (signed char)sv) : (uv = (unsigned char)uv);
                else if (len[0] == 'h')
                    sgn ? (sv = (short)sv) : (uv = (unsigned short)uv);
            }
            spec[sl++] = 'l';
            spec[sl++] = 'l';
            spec[sl++] = conv;
            spec[sl] = 0;
            n = sgn ? snprintf(tmp, sizeof(tmp), spec, sv) : snprintf(tmp, sizeof(tmp), spec, uv);
            break;
        }
        case 'c':
            spec[sl++] = 'c';
            spec[sl] = 0;
            n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, int));
            break;
        case 's': {
            const char* s = va_arg(*ap, const char*);
            spec[sl++] = 's';
            spec[sl] = 0;
            /* Long strings: copy directly (the kernel does not truncate either). */
            if (s && width < 0 && prec < 0) {
                put_str(o, s);
                continue;
            }
            n = snprintf(tmp, sizeof(tmp), spec, s ? s : "(null)");
            break;
        }
        case 'e':
        case 'f':
        case 'g':
        case 'E':
        case 'G':
            spec[sl++] = conv;
            spec[sl] = 0;
            n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, double));
            break;
        default:
            /* Unknown conversion: print it verbatim, consume nothing. */
            for (const char* c = start; c < fmt; c++)
                put_char(o, *c);
            continue;
        }
        (void)n;
        put_str(o, tmp);
    }
}

int lx_emul_vsnprintf(char* buf, size_t size, const char* fmt, va_list args)
{
    struct out o = {buf, size, 0};
    va_list aq;
    va_copy(aq, args);
    format_vsn(&o, fmt, &aq);
    va_end(aq);
    if (size)
        buf[o.pos < size ? o.pos : size - 1] = 0;
    return (int)o.pos;
}

int lx_emul_snprintf(char* buf, size_t size, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = lx_emul_vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int lx_emul_vscnprintf(char* buf, size_t size, const char* fmt, va_list args)
{
    int n = lx_emul_vsnprintf(buf, size, fmt, args);
    if (size == 0)
        return 0;
    return (size_t)n < size ? n : (int)(size - 1);
}

int lx_emul_scnprintf(char* buf, size_t size, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = lx_emul_vscnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

int lx_emul_sprintf(char* buf, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = lx_emul_vsnprintf(buf, INT32_MAX, fmt, ap);
    va_end(ap);
    return n;
}

/* ---- printk ---- */

/* Strips KERN_SOH level prefixes; returns the level (-1 for KERN_CONT, 4 = default). */
static const char* strip_level(const char* fmt, int* level)
{
    *level = 4;
    while (fmt[0] == KERN_SOH[0] && fmt[1]) {
        char c = fmt[1];
        if (c >= '0' && c <= '7')
            *level = c - '0';
        else if (c == 'c')
            *level = -1;
        fmt += 2;
    }
    return fmt;
}

int lx_emul_vprintk(const char* origin, const char* fmt, va_list args)
{
    char line[1024];
    int level;
    fmt = strip_level(fmt, &level);
    int n = lx_emul_vsnprintf(line, sizeof(line), fmt, args);
    if (level < 0)
        lx_kit_log_cont(line);
    else
        lx_kit_log(level, origin, line);
    return n;
}

int lx_emul_printk(const char* origin, const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = lx_emul_vprintk(origin, fmt, ap);
    va_end(ap);
    return n;
}

__attribute__((weak)) const char* lx_emul_dev_log_name(const struct device* dev, char* buf,
                                                       size_t size)
{
    (void)buf;
    (void)size;
    return dev ? "(device)" : "(NULL device *)";
}

__attribute__((weak)) const char* lx_emul_netdev_log_name(const struct net_device* dev, char* buf,
                                                          size_t size)
{
    (void)buf;
    (void)size;
    return dev ? "(net_device)" : "(NULL net_device)";
}

void lx_emul_vlog_prefixed(const char* level, const char* prefix, const char* fmt, va_list ap)
{
    char line[1024];
    int lvl;
    strip_level(level, &lvl);
    int n = snprintf(line, sizeof(line), "%s: ", prefix);
    if (n < 0 || (size_t)n >= sizeof(line))
        n = 0;
    lx_emul_vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
    lx_kit_log(lvl < 0 ? 4 : lvl, prefix, line);
}

void lx_emul_dev_printk(const char* level, const struct device* dev, const char* fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    lx_emul_vlog_prefixed(level, lx_emul_dev_log_name(dev, name, sizeof(name)), fmt, ap);
    va_end(ap);
}

void lx_emul_netdev_printk(const char* level, const struct net_device* dev, const char* fmt, ...)
{
    char name[128];
    va_list ap;
    va_start(ap, fmt);
    lx_emul_vlog_prefixed(level, lx_emul_netdev_log_name(dev, name, sizeof(name)), fmt, ap);
    va_end(ap);
}

int lx_emul_dev_err_probe(const struct device* dev, int err, const char* fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    lx_emul_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* -EPROBE_DEFER is a debug message in the kernel (not printed here). */
    if (err != -EPROBE_DEFER)
        lx_emul_dev_printk(KERN_ERR, dev, "error %pe: %s", ERR_PTR(err), msg);
    return err;
}

void lx_emul_print_hex_dump(const char* origin, const char* level, const char* prefix_str,
                            int prefix_type, int rowsize, int groupsize, const void* buf,
                            size_t len, bool ascii)
{
    const u8* p = buf;
    int lvl;
    strip_level(level, &lvl);
    if (rowsize != 16 && rowsize != 32)
        rowsize = 16;
    if (groupsize != 1 && groupsize != 2 && groupsize != 4 && groupsize != 8)
        groupsize = 1;
    for (size_t off = 0; off < len; off += (size_t)rowsize) {
        char line[256];
        struct out o = {line, sizeof(line), 0};
        size_t n = len - off < (size_t)rowsize ? len - off : (size_t)rowsize;
        size_t g = (n % (size_t)groupsize) ? 1 : (size_t)groupsize;
        put_str(&o, prefix_str ? prefix_str : "");
        if (prefix_type != DUMP_PREFIX_NONE) {
            /* Offsets also for DUMP_PREFIX_ADDRESS: addresses would make logs differ per run. */
            char t[32];
            snprintf(t, sizeof(t), "%08zx: ", off);
            put_str(&o, t);
        }
        for (size_t i = 0; i < n; i += g) {
            for (size_t k = g; k > 0; k--) /* little-endian words, most significant byte first */
                put_hex_byte(&o, p[off + i + k - 1]);
            if (i + g < n)
                put_char(&o, ' ');
        }
        if (ascii) {
            put_str(&o, "  ");
            for (size_t i = 0; i < n; i++) {
                u8 c = p[off + i];
                put_char(&o, isprint(c) ? (char)c : '.');
            }
        }
        line[o.pos < sizeof(line) ? o.pos : sizeof(line) - 1] = 0;
        lx_kit_log(lvl < 0 ? 4 : lvl, origin, line);
    }
}

unsigned long lx_emul_log_count(int level) { return lx_kit_log_count(level); }

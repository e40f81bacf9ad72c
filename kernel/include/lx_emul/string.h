/* SPDX-License-Identifier: MIT */
/* lx_emul: linux/string.h and the kernel's formatted-print-to-buffer functions. libc's
 * <string.h> supplies mem and str basics; snprintf and friends are redirected to lx_emul's
 * formatter because kernel formats have %p extensions (%pM, %*ph, ...) that libc lacks. */
#ifndef LX_EMUL_STRING_H
#define LX_EMUL_STRING_H

#include <stdarg.h>
#include <string.h>

#include <lx_emul/types.h>

/* Copies at most size-1 bytes and NUL-terminates; returns the length or -E2BIG if truncated. */
ssize_t lx_emul_strscpy(char* dst, const char* src, size_t size);
#define strscpy lx_emul_strscpy
size_t lx_emul_strlcpy(char* dst, const char* src, size_t size);
#define strlcpy lx_emul_strlcpy
size_t lx_emul_strlcat(char* dst, const char* src, size_t size);
#define strlcat lx_emul_strlcat
char* lx_emul_skip_spaces(const char* str);
#define skip_spaces lx_emul_skip_spaces
char* lx_emul_strim(char* s);
#define strim lx_emul_strim
bool sysfs_streq(const char* s1, const char* s2);
static inline void memzero_explicit(void* s, size_t count)
{
    memset(s, 0, count);
    barrier();
}
static inline void* memset_after_lx(void* p, int c, size_t off, size_t size)
{
    return memset((char*)p + off, c, size - off);
}

/* Kernel vsnprintf semantics (kernel %p extensions; see lx_emul/printk.c). */
int lx_emul_vsnprintf(char* buf, size_t size, const char* fmt, va_list args)
    __attribute__((format(printf, 3, 0)));
int lx_emul_snprintf(char* buf, size_t size, const char* fmt, ...) __printf(3, 4);
int lx_emul_scnprintf(char* buf, size_t size, const char* fmt, ...) __printf(3, 4);
int lx_emul_vscnprintf(char* buf, size_t size, const char* fmt, va_list args)
    __attribute__((format(printf, 3, 0)));
int lx_emul_sprintf(char* buf, const char* fmt, ...) __printf(2, 3);
#define snprintf(...) lx_emul_snprintf(__VA_ARGS__)
#define vsnprintf(...) lx_emul_vsnprintf(__VA_ARGS__)
#define scnprintf(...) lx_emul_scnprintf(__VA_ARGS__)
#define vscnprintf(...) lx_emul_vscnprintf(__VA_ARGS__)
#define sprintf(...) lx_emul_sprintf(__VA_ARGS__)
int sscanf(const char* str, const char* fmt, ...) __scanf(2, 3);

/* kstrto*: kernel semantics (whole string must parse, one trailing newline allowed). */
int kstrtoint(const char* s, unsigned int base, int* res);
int kstrtouint(const char* s, unsigned int base, unsigned int* res);
int kstrtol(const char* s, unsigned int base, long* res);
int kstrtoul(const char* s, unsigned int base, unsigned long* res);
int kstrtoull(const char* s, unsigned int base, unsigned long long* res);
int kstrtou8(const char* s, unsigned int base, u8* res);
int kstrtou16(const char* s, unsigned int base, u16* res);
int kstrtobool(const char* s, bool* res);

#endif /* LX_EMUL_STRING_H */

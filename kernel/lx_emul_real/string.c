// SPDX-License-Identifier: MIT
/* lx_emul_real: the kernel's string functions with no C library equivalent, as lx_emul
 * implements them (kernel/lx_emul/string.c; its declaration there is the shadow headers'). */
#include <linux/string.h>

ssize_t lx_emul_strscpy(char *dst, const char *src, size_t size);

/* 6.12's strscpy is a macro that adds the destination's size check, over sized_strscpy. */
#ifdef strscpy
ssize_t sized_strscpy(char *dst, const char *src, size_t count)
#else
ssize_t strscpy(char *dst, const char *src, size_t count)
#endif
{
    return lx_emul_strscpy(dst, src, count);
}

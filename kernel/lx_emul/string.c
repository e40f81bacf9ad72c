// SPDX-License-Identifier: MIT
/* lx_emul: kernel string helpers (see lx_emul/string.h). */
#include <stdlib.h>

#include "internal.h"

ssize_t lx_emul_strscpy(char* dst, const char* src, size_t size)
{
    if (size == 0)
        return -E2BIG;
    size_t len = strnlen(src, size);
    if (len == size) {
        memcpy(dst, src, size - 1);
        dst[size - 1] = 0;
        return -E2BIG;
    }
    memcpy(dst, src, len + 1);
    return (ssize_t)len;
}

size_t lx_emul_strlcpy(char* dst, const char* src, size_t size)
{
    size_t len = strlen(src);
    if (size) {
        size_t n = len >= size ? size - 1 : len;
        memcpy(dst, src, n);
        dst[n] = 0;
    }
    return len;
}

size_t lx_emul_strlcat(char* dst, const char* src, size_t size)
{
    size_t dlen = strnlen(dst, size);
    if (dlen == size)
        return size + strlen(src);
    return dlen + lx_emul_strlcpy(dst + dlen, src, size - dlen);
}

char* lx_emul_skip_spaces(const char* str)
{
    while (*str == ' ' || (*str >= '\t' && *str <= '\r'))
        ++str;
    return (char*)str;
}

char* lx_emul_strim(char* s)
{
    size_t size = strlen(s);
    if (!size)
        return s;
    char* end = s + size - 1;
    while (end >= s && (*end == ' ' || (*end >= '\t' && *end <= '\r')))
        end--;
    *(end + 1) = '\0';
    return lx_emul_skip_spaces(s);
}

bool sysfs_streq(const char* s1, const char* s2)
{
    while (*s1 && *s1 == *s2) {
        s1++;
        s2++;
    }
    if (*s1 == *s2)
        return true;
    if (!*s1 && *s2 == '\n' && !s2[1])
        return true;
    if (*s1 == '\n' && !s1[1] && !*s2)
        return true;
    return false;
}

/* kstrto*: the whole string must be a number, optionally followed by one newline. */
static int parse_ull(const char* s, unsigned int base, unsigned long long* res)
{
    char* end;
    if (*s == '+')
        s++;
    if (!*s || *s == '-' || *s == ' ')
        return -EINVAL;
    unsigned long long v = strtoull(s, &end, (int)base);
    if (end == s)
        return -EINVAL;
    if (*end == '\n')
        end++;
    if (*end)
        return -EINVAL;
    *res = v;
    return 0;
}

static int parse_ll(const char* s, unsigned int base, long long* res)
{
    unsigned long long v;
    int neg = *s == '-';
    int rc = parse_ull(neg ? s + 1 : s, base, &v);
    if (rc)
        return rc;
    if (neg ? v > (unsigned long long)LLONG_MAX + 1 : v > (unsigned long long)LLONG_MAX)
        return -ERANGE;
    *res = neg ? (long long)(0 - v) : (long long)v;
    return 0;
}

int kstrtoull(const char* s, unsigned int base, unsigned long long* res)
{
    return parse_ull(s, base, res);
}

int kstrtoul(const char* s, unsigned int base, unsigned long* res)
{
    unsigned long long v;
    int rc = parse_ull(s, base, &v);
    if (!rc)
        *res = (unsigned long)v;
    return rc;
}

int kstrtol(const char* s, unsigned int base, long* res)
{
    long long v;
    int rc = parse_ll(s, base, &v);
    if (!rc)
        *res = (long)v;
    return rc;
}

int kstrtoint(const char* s, unsigned int base, int* res)
{
    long long v;
    int rc = parse_ll(s, base, &v);
    if (rc)
        return rc;
    if (v < INT_MIN || v > INT_MAX)
        return -ERANGE;
    *res = (int)v;
    return 0;
}

int kstrtouint(const char* s, unsigned int base, unsigned int* res)
{
    unsigned long long v;
    int rc = parse_ull(s, base, &v);
    if (rc)
        return rc;
    if (v > UINT_MAX)
        return -ERANGE;
    *res = (unsigned int)v;
    return 0;
}

int kstrtou16(const char* s, unsigned int base, u16* res)
{
    unsigned long long v;
    int rc = parse_ull(s, base, &v);
    if (rc)
        return rc;
    if (v > 0xffff)
        return -ERANGE;
    *res = (u16)v;
    return 0;
}

int kstrtou8(const char* s, unsigned int base, u8* res)
{
    unsigned long long v;
    int rc = parse_ull(s, base, &v);
    if (rc)
        return rc;
    if (v > 0xff)
        return -ERANGE;
    *res = (u8)v;
    return 0;
}

int kstrtobool(const char* s, bool* res)
{
    if (!s)
        return -EINVAL;
    switch (s[0]) {
    case 'y': case 'Y': case 't': case 'T': case '1':
        *res = true;
        return 0;
    case 'n': case 'N': case 'f': case 'F': case '0':
        *res = false;
        return 0;
    case 'o': case 'O':
        if (s[1] == 'n' || s[1] == 'N') {
            *res = true;
            return 0;
        }
        if (s[1] == 'f' || s[1] == 'F') {
            *res = false;
            return 0;
        }
        break;
    }
    return -EINVAL;
}

// SPDX-License-Identifier: MIT
/* lx_emul_real: module parameters on the kernel's struct kernel_param. module_param() puts one in
 * the section __param, named "<KBUILD_MODNAME>.<name>" (a built-in module's prefix), with the
 * ops of its type; the ops here parse and print as the kernel's kernel/params.c (the kstrto*
 * parsers both header sets declare alike are lx_emul's; "%i\n" and "Y\n"/"N\n" as
 * param_get_int/param_get_bool print). lx_real_param_set/_get find a parameter in the section by
 * its full name, as the kernel's command-line parsing does. */
#include <asm/page.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include <lx_emul/shared.h>

#include "internal.h"

#define PARAM_GET_SIZE PAGE_SIZE /* the kernel hands .get a page */

#define INTEGER_PARAM(type, ctype, parse, fmt)                                                      \
    int param_set_##type(const char *val, const struct kernel_param *kp)                          \
    {                                                                                              \
        return parse(val, 0, (ctype *)kp->arg);                                                    \
    }                                                                                              \
    int param_get_##type(char *buffer, const struct kernel_param *kp)                             \
    {                                                                                              \
        return lx_emul_scnprintf(buffer, PARAM_GET_SIZE, fmt "\n", *(ctype *)kp->arg);            \
    }                                                                                              \
    const struct kernel_param_ops param_ops_##type = {                                             \
        .set = param_set_##type,                                                                   \
        .get = param_get_##type,                                                                   \
    };

INTEGER_PARAM(int, int, kstrtoint, "%i")
INTEGER_PARAM(uint, unsigned int, kstrtouint, "%u")

/* An empty value is "true" (KERNEL_PARAM_OPS_FL_NOARG: "foo" alone sets it). */
int param_set_bool(const char *val, const struct kernel_param *kp)
{
    if (!val || !*val)
        val = "1";
    return kstrtobool(val, (bool *)kp->arg);
}

int param_get_bool(char *buffer, const struct kernel_param *kp)
{
    return lx_emul_scnprintf(buffer, PARAM_GET_SIZE, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = {
    .flags = KERNEL_PARAM_OPS_FL_NOARG,
    .set = param_set_bool,
    .get = param_get_bool,
};

/* The section's bounds, which the linker defines when some object has a parameter. */
extern const struct kernel_param __start___param[] __attribute__((weak));
extern const struct kernel_param __stop___param[] __attribute__((weak));

static const struct kernel_param *find_param(const char *name)
{
    for (const struct kernel_param *kp = __start___param; kp && kp < __stop___param; kp++)
        if (strcmp(kp->name, name) == 0)
            return kp;
    return NULL;
}

int lx_real_param_set(const char *name, const char *value)
{
    const struct kernel_param *kp = find_param(name);
    if (!kp)
        return -ENOENT;
    if (!kp->ops->set)
        return -EPERM;
    return kp->ops->set(value, kp);
}

int lx_real_param_get(const char *name, char *buffer)
{
    const struct kernel_param *kp = find_param(name);
    if (!kp)
        return -ENOENT;
    if (!kp->ops->get)
        return -EPERM;
    return kp->ops->get(buffer, kp);
}

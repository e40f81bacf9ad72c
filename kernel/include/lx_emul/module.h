/* SPDX-License-Identifier: MIT */
/* lx_emul: modules and parameters (linux/module.h, moduleparam.h, init.h, export.h).
 * Several drivers and several variants of one driver link into one binary, so nothing here
 * emits a global symbol: module_init/exit and module_param register static functions and
 * variables from static constructors into a registry keyed by (KBUILD_MODNAME, NICSIM_VARIANT).
 * The harness lists modules, sets parameters by name before init, and calls init/exit
 * (lx_kit/lx_emul_api.h). MODULE_* and EXPORT_SYMBOL* expand to nothing. */
#ifndef LX_EMUL_MODULE_H
#define LX_EMUL_MODULE_H

#include <lx_emul/types.h>

struct module;
#define THIS_MODULE ((struct module*)0)
#define KBUILD_BASENAME LX_EMUL_MODNAME

typedef int (*initcall_t)(void);
typedef void (*exitcall_t)(void);

enum lx_emul_param_type {
    LX_EMUL_PARAM_int,
    LX_EMUL_PARAM_uint,
    LX_EMUL_PARAM_long,
    LX_EMUL_PARAM_ulong,
    LX_EMUL_PARAM_short,
    LX_EMUL_PARAM_ushort,
    LX_EMUL_PARAM_byte,
    LX_EMUL_PARAM_hexint,
    LX_EMUL_PARAM_bool,
    LX_EMUL_PARAM_invbool,
    LX_EMUL_PARAM_charp,
    /* `bool` is a macro for _Bool: module_param(x, bool, p) reaches module_param_named as _Bool */
    LX_EMUL_PARAM__Bool = LX_EMUL_PARAM_bool,
};

void lx_emul_module_register_init(const char* mod, const char* variant, initcall_t fn,
                                  const char* fn_name);
void lx_emul_module_register_exit(const char* mod, const char* variant, exitcall_t fn,
                                  const char* fn_name);
void lx_emul_module_register_param(const char* mod, const char* variant, const char* name,
                                   enum lx_emul_param_type type, void* value);
void lx_emul_module_register_param_desc(const char* mod, const char* variant, const char* name,
                                        const char* desc);

#define __lx_param_ctype_int int
#define __lx_param_ctype_uint unsigned int
#define __lx_param_ctype_long long
#define __lx_param_ctype_ulong unsigned long
#define __lx_param_ctype_short short
#define __lx_param_ctype_ushort unsigned short
#define __lx_param_ctype_byte unsigned char
#define __lx_param_ctype_hexint unsigned int
#define __lx_param_ctype_bool bool
#define __lx_param_ctype_invbool bool
#define __lx_param_ctype_charp char*
#define __lx_param_ctype__Bool bool
/* The kernel's param_check_<type> (__param_check) compares pointer types, which its
 * -Wno-pointer-sign lets pass for the other signedness of the same integer (enc28j60.c:
 * module_param_named(debug, debug.msg_enable, int, 0) on a u32). The same is accepted here. */
#define __lx_param_ctype_sign_int unsigned int
#define __lx_param_ctype_sign_uint int
#define __lx_param_ctype_sign_long unsigned long
#define __lx_param_ctype_sign_ulong long
#define __lx_param_ctype_sign_short unsigned short
#define __lx_param_ctype_sign_ushort short
#define __lx_param_ctype_sign_byte signed char
#define __lx_param_ctype_sign_hexint int
#define __lx_param_ctype_sign_bool bool
#define __lx_param_ctype_sign_invbool bool
#define __lx_param_ctype_sign_charp char*
#define __lx_param_ctype_sign__Bool bool

#define module_init(fn)                                                                            \
    static void __attribute__((constructor, used)) __lx_module_init_##fn(void)                     \
    {                                                                                              \
        initcall_t __lx_check = (fn);                                                              \
        lx_emul_module_register_init(LX_EMUL_MODNAME, LX_EMUL_VARIANT, __lx_check, #fn);           \
    }
#define module_exit(fn)                                                                            \
    static void __attribute__((constructor, used)) __lx_module_exit_##fn(void)                     \
    {                                                                                              \
        exitcall_t __lx_check = (fn);                                                              \
        lx_emul_module_register_exit(LX_EMUL_MODNAME, LX_EMUL_VARIANT, __lx_check, #fn);           \
    }
#define late_initcall(fn) module_init(fn)
#define subsys_initcall(fn) module_init(fn)
#define device_initcall(fn) module_init(fn)
#define arch_initcall(fn) module_init(fn)

/* module_driver(drv, register, unregister, ...): init/exit that (un)register one driver. */
#define module_driver(__driver, __register, __unregister, ...)                                     \
    static int __init __driver##_init(void) { return __register(&(__driver), ##__VA_ARGS__); }     \
    module_init(__driver##_init);                                                                  \
    static void __exit __driver##_exit(void) { __unregister(&(__driver), ##__VA_ARGS__); }         \
    module_exit(__driver##_exit)

#define module_param_named(name, value, type, perm)                                                \
    static void __attribute__((constructor, used)) __lx_module_param_##name(void)                  \
    {                                                                                              \
        _Static_assert(__builtin_types_compatible_p(__typeof__(value), __lx_param_ctype_##type) || \
                           __builtin_types_compatible_p(__typeof__(value),                         \
                                                        __lx_param_ctype_sign_##type),             \
                       "module_param " #name ": variable type does not match '" #type "'");        \
        lx_emul_module_register_param(LX_EMUL_MODNAME, LX_EMUL_VARIANT, #name,                     \
                                      LX_EMUL_PARAM_##type, (void*)&(value));                      \
    }
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define module_param_unsafe module_param
#define MODULE_PARM_DESC(name, desc)                                                               \
    static void __attribute__((constructor, used)) __lx_module_param_desc_##name(void)             \
    {                                                                                              \
        lx_emul_module_register_param_desc(LX_EMUL_MODNAME, LX_EMUL_VARIANT, #name, desc);         \
    }

#define __lx_module_nothing _Static_assert(1, "")
#define MODULE_LICENSE(x) __lx_module_nothing
#define MODULE_AUTHOR(x) __lx_module_nothing
#define MODULE_DESCRIPTION(x) __lx_module_nothing
#define MODULE_ALIAS(x) __lx_module_nothing
#define MODULE_VERSION(x) __lx_module_nothing
#define MODULE_FIRMWARE(x) __lx_module_nothing
#define MODULE_SOFTDEP(x) __lx_module_nothing
#define MODULE_IMPORT_NS(x) __lx_module_nothing
#define MODULE_INFO(tag, info) __lx_module_nothing
/* References the table so it counts as used, emits no symbol. */
#define MODULE_DEVICE_TABLE(type, name)                                                            \
    static const void* const __UNIQUE_ID(lx_devtab) __attribute__((unused)) = &(name)
#define EXPORT_SYMBOL(sym) __lx_module_nothing
#define EXPORT_SYMBOL_GPL(sym) __lx_module_nothing
#define EXPORT_SYMBOL_NS(sym, ns) __lx_module_nothing
#define EXPORT_SYMBOL_NS_GPL(sym, ns) __lx_module_nothing

static inline bool try_module_get(struct module* m)
{
    (void)m;
    return true;
}
static inline void module_put(struct module* m) { (void)m; }
#define __module_get(m) ((void)(m))

#endif /* LX_EMUL_MODULE_H */

// SPDX-License-Identifier: MIT
/* lx_emul: registry of modules and parameters, filled by the static constructors that
 * module_init/module_exit/module_param expand to (see lx_emul/module.h), used by the harness
 * through lx_kit/lx_emul_api.h. Runs before main(): only plain C and lx_kit_abort here. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#include <lx_emul/module.h>
#include <lx_kit/lx_emul_api.h>

#undef snprintf

#define MAX_MODULES 64
#define MAX_PARAMS 16

struct param {
    const char* name;
    const char* desc;
    enum lx_emul_param_type type;
    void* value;
    char* owned_string; /* charp values set by the harness */
};

struct module_entry {
    const char* name;
    const char* variant;
    initcall_t init;
    exitcall_t exit;
    const char* init_name;
    const char* exit_name;
    struct param params[MAX_PARAMS];
    int nparams;
    int initialized;
};

static struct module_entry modules[MAX_MODULES];
static int nmodules;

static struct module_entry* entry(const char* mod, const char* variant)
{
    for (int i = 0; i < nmodules; i++)
        if (!strcmp(modules[i].name, mod) && !strcmp(modules[i].variant, variant))
            return &modules[i];
    if (nmodules == MAX_MODULES)
        lx_kit_abort("module registry full (%d modules) registering '%s'", MAX_MODULES, mod);
    struct module_entry* m = &modules[nmodules++];
    m->name = mod;
    m->variant = variant;
    return m;
}

void lx_emul_module_register_init(const char* mod, const char* variant, initcall_t fn,
                                  const char* fn_name)
{
    struct module_entry* m = entry(mod, variant);
    if (m->init)
        lx_kit_abort("module '%s' (variant '%s') has two module_init functions: %s and %s — "
                     "give each translation unit its own KBUILD_MODNAME",
                     mod, variant, m->init_name, fn_name);
    m->init = fn;
    m->init_name = fn_name;
}

void lx_emul_module_register_exit(const char* mod, const char* variant, exitcall_t fn,
                                  const char* fn_name)
{
    struct module_entry* m = entry(mod, variant);
    if (m->exit)
        lx_kit_abort("module '%s' (variant '%s') has two module_exit functions: %s and %s", mod,
                     variant, m->exit_name, fn_name);
    m->exit = fn;
    m->exit_name = fn_name;
}

static struct param* find_param(struct module_entry* m, const char* name)
{
    for (int i = 0; i < m->nparams; i++)
        if (!strcmp(m->params[i].name, name))
            return &m->params[i];
    return NULL;
}

static struct param* param_slot(const char* mod, const char* variant, const char* name)
{
    struct module_entry* m = entry(mod, variant);
    struct param* p = find_param(m, name);
    if (p)
        return p;
    if (m->nparams == MAX_PARAMS)
        lx_kit_abort("module '%s': more than %d parameters", mod, MAX_PARAMS);
    p = &m->params[m->nparams++];
    p->name = name;
    return p;
}

void lx_emul_module_register_param(const char* mod, const char* variant, const char* name,
                                   enum lx_emul_param_type type, void* value)
{
    struct param* p = param_slot(mod, variant, name);
    if (p->value)
        lx_kit_abort("module '%s': parameter '%s' declared twice", mod, name);
    p->type = type;
    p->value = value;
}

void lx_emul_module_register_param_desc(const char* mod, const char* variant, const char* name,
                                        const char* desc)
{
    param_slot(mod, variant, name)->desc = desc;
}

/* ---- harness API ---- */

static struct module_entry* at(int index)
{
    return index >= 0 && index < nmodules ? &modules[index] : NULL;
}

int lx_emul_module_count(void) { return nmodules; }
const char* lx_emul_module_name(int index) { return at(index) ? at(index)->name : NULL; }
const char* lx_emul_module_variant(int index) { return at(index) ? at(index)->variant : NULL; }

int lx_emul_module_find(const char* mod, const char* variant)
{
    int found = -1;
    for (int i = 0; i < nmodules; i++) {
        if (strcmp(modules[i].name, mod))
            continue;
        if (variant && !strcmp(modules[i].variant, variant))
            return i;
        if (!variant) {
            if (found >= 0)
                return -1; /* ambiguous */
            found = i;
        }
    }
    return variant ? -1 : found;
}

int lx_emul_module_param_count(int index) { return at(index) ? at(index)->nparams : 0; }

const char* lx_emul_module_param_name(int index, int param)
{
    struct module_entry* m = at(index);
    return m && param >= 0 && param < m->nparams ? m->params[param].name : NULL;
}

const char* lx_emul_module_param_desc(int index, int param)
{
    struct module_entry* m = at(index);
    return m && param >= 0 && param < m->nparams ? m->params[param].desc : NULL;
}

static int set_integer(struct param* p, const char* v)
{
    long long s;
    unsigned long long u;
    switch (p->type) {
    case LX_EMUL_PARAM_int:
        if (kstrtoint(v, 0, (int*)p->value))
            return -EINVAL;
        return 0;
    case LX_EMUL_PARAM_long:
        if (kstrtol(v, 0, (long*)p->value))
            return -EINVAL;
        return 0;
    case LX_EMUL_PARAM_short:
        if (kstrtol(v, 0, (long*)&s) || s < SHRT_MIN || s > SHRT_MAX)
            return -EINVAL;
        *(short*)p->value = (short)s;
        return 0;
    case LX_EMUL_PARAM_uint:
    case LX_EMUL_PARAM_hexint:
        if (kstrtouint(v, 0, (unsigned int*)p->value))
            return -EINVAL;
        return 0;
    case LX_EMUL_PARAM_ulong:
        if (kstrtoul(v, 0, (unsigned long*)p->value))
            return -EINVAL;
        return 0;
    case LX_EMUL_PARAM_ushort:
        if (kstrtoull(v, 0, &u) || u > USHRT_MAX)
            return -EINVAL;
        *(unsigned short*)p->value = (unsigned short)u;
        return 0;
    case LX_EMUL_PARAM_byte:
        if (kstrtoull(v, 0, &u) || u > 0xff)
            return -EINVAL;
        *(unsigned char*)p->value = (unsigned char)u;
        return 0;
    default:
        return -EINVAL;
    }
}

int lx_emul_module_param_set(int index, const char* param, const char* value)
{
    struct module_entry* m = at(index);
    struct param* p = m ? find_param(m, param) : NULL;
    bool b;
    if (!p || !p->value)
        return -ENOENT;
    switch (p->type) {
    case LX_EMUL_PARAM_bool:
    case LX_EMUL_PARAM_invbool:
        /* The kernel's param_set_bool also accepts an empty value as "true". */
        if (!*value)
            b = true;
        else if (kstrtobool(value, &b))
            return -EINVAL;
        *(bool*)p->value = p->type == LX_EMUL_PARAM_invbool ? !b : b;
        return 0;
    case LX_EMUL_PARAM_charp: {
        char* copy = strdup(value);
        if (!copy)
            return -ENOMEM;
        free(p->owned_string);
        p->owned_string = copy;
        *(char**)p->value = copy;
        return 0;
    }
    default:
        return set_integer(p, value);
    }
}

int lx_emul_module_param_get(int index, const char* param, char* buf, size_t size)
{
    struct module_entry* m = at(index);
    struct param* p = m ? find_param(m, param) : NULL;
    if (!p || !p->value)
        return -ENOENT;
    switch (p->type) {
    case LX_EMUL_PARAM_int: snprintf(buf, size, "%d", *(int*)p->value); break;
    case LX_EMUL_PARAM_uint: snprintf(buf, size, "%u", *(unsigned int*)p->value); break;
    case LX_EMUL_PARAM_hexint: snprintf(buf, size, "0x%x", *(unsigned int*)p->value); break;
    case LX_EMUL_PARAM_long: snprintf(buf, size, "%ld", *(long*)p->value); break;
    case LX_EMUL_PARAM_ulong: snprintf(buf, size, "%lu", *(unsigned long*)p->value); break;
    case LX_EMUL_PARAM_short: snprintf(buf, size, "%d", *(short*)p->value); break;
    case LX_EMUL_PARAM_ushort: snprintf(buf, size, "%u", *(unsigned short*)p->value); break;
    case LX_EMUL_PARAM_byte: snprintf(buf, size, "%u", *(unsigned char*)p->value); break;
    case LX_EMUL_PARAM_bool: snprintf(buf, size, "%c", *(bool*)p->value ? 'Y' : 'N'); break;
    case LX_EMUL_PARAM_invbool: snprintf(buf, size, "%c", *(bool*)p->value ? 'N' : 'Y'); break;
    case LX_EMUL_PARAM_charp:
        snprintf(buf, size, "%s", *(char**)p->value ? *(char**)p->value : "(null)");
        break;
    }
    return 0;
}

int lx_emul_module_init(int index)
{
    struct module_entry* m = at(index);
    if (!m)
        return -ENOENT;
    if (m->initialized)
        lx_kit_abort("module '%s' (variant '%s') initialised twice", m->name, m->variant);
    int rc = m->init ? m->init() : 0;
    m->initialized = rc == 0;
    lx_kit_time_sync(); /* probe ran in the caller's local time */
    return rc;
}

void lx_emul_module_exit(int index)
{
    struct module_entry* m = at(index);
    if (!m || !m->initialized)
        return;
    if (m->exit)
        m->exit();
    m->initialized = 0;
}

int lx_emul_module_initialized(int index) { return at(index) ? at(index)->initialized : 0; }

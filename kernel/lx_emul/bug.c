// SPDX-License-Identifier: MIT
/* lx_emul: BUG(), WARN() and the trace-and-stop dummy hook. */
#include "internal.h"

#include <lx_emul/dummy.h>

void lx_emul_bug(const char* file, int line, const char* func)
{
    lx_kit_abort("kernel BUG at %s:%d in %s()", file, line, func);
}

void lx_emul_warn(const char* file, int line, const char* func, const char* fmt, ...)
{
    char msg[512];
    char out[768];
    va_list ap;
    va_start(ap, fmt);
    lx_emul_vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    lx_emul_snprintf(out, sizeof(out), "WARNING: at %s:%d %s(): %s", file, line, func, msg);
    lx_kit_log(4, "WARN", out);
}

void lx_emul_trace_and_stop(const char* name)
{
    lx_kit_abort("driver called unimplemented kernel function '%s' (generated dummy) — stopping",
                 name);
}

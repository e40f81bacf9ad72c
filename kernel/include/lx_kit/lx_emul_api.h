/* SPDX-License-Identifier: MIT */
/*
 * What the harness (C++) may call in lx_emul (C): modules and parameters, end-of-run leak
 * reports, skb accessors, log counters. Plain C types only; no Linux headers (C++ never includes
 * lx_emul headers). Opaque pointers stand for kernel objects (`void* skb` is a struct sk_buff*).
 */
#ifndef LX_KIT_LX_EMUL_API_H
#define LX_KIT_LX_EMUL_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- modules (registered by module_init/module_exit/module_param constructors) ---- */
int lx_emul_module_count(void);
const char* lx_emul_module_name(int index);
const char* lx_emul_module_variant(int index);
/* Index of the module (mod, variant); variant NULL matches the only module of that name.
 * Returns -1 if unknown or ambiguous. */
int lx_emul_module_find(const char* mod, const char* variant);
int lx_emul_module_param_count(int index);
const char* lx_emul_module_param_name(int index, int param);
const char* lx_emul_module_param_desc(int index, int param);
/* Parses `value` like the kernel's param_set_* for the parameter's type. Returns 0, -ENOENT
 * (no such module/parameter) or -EINVAL (value does not parse / out of range). */
int lx_emul_module_param_set(int index, const char* param, const char* value);
/* Formats the current value; returns 0 or -ENOENT. */
int lx_emul_module_param_get(int index, const char* param, char* buf, size_t size);
/* Calls the module's init function (0 if it has none) / exit function. Must run in an lx_kit
 * task or a SystemC thread when init may block (driver probe does). */
int lx_emul_module_init(int index);
void lx_emul_module_exit(int index);
int lx_emul_module_initialized(int index);

/* ---- memory and skb accounting ---- */
size_t lx_emul_mem_live_count(void);
size_t lx_emul_mem_live_bytes(void);
/* Logs one line per leaking call site (count, bytes, function [module]); returns the count. */
size_t lx_emul_mem_report_leaks(void);
size_t lx_emul_skb_live_count(void);
size_t lx_emul_skb_report_leaks(void);
/* Checks the canaries of every live skb (stops the run on corruption). */
void lx_emul_skb_check_all(void);
/* Number of frees that found driver writes inside the tail slack (allowed, but noted). */
unsigned long lx_emul_skb_slack_writes(void);

/* skb accessors for the netdev/testbench glue. */
unsigned char* lx_emul_skb_data(void* skb);
unsigned int lx_emul_skb_len(const void* skb);
void* lx_emul_skb_alloc_for_rx(unsigned int len, const char* who); /* NET_SKB_PAD headroom */
void lx_emul_skb_free(void* skb, const char* who);

/* ---- logging ---- */
/* Lines logged at `level` (0..7) so far, printed or not (see lx_kit_log_count). */
unsigned long lx_emul_log_count(int level);

#ifdef __cplusplus
}
#endif

#endif /* LX_KIT_LX_EMUL_API_H */

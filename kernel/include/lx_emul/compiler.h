/* SPDX-License-Identifier: MIT */
/* lx_emul: compiler attributes and annotations the kernel headers provide (linux/compiler*.h).
 * Written for nicsim to the kernel's documented semantics; no kernel code. */
#ifndef LX_EMUL_COMPILER_H
#define LX_EMUL_COMPILER_H

#ifndef __KERNEL__
#define __KERNEL__ 1
#endif

/* Name of the translation unit's module and build variant (set per file by the build). */
#ifdef KBUILD_MODNAME
#define LX_EMUL_MODNAME KBUILD_MODNAME
#else
#define LX_EMUL_MODNAME "?"
#endif
/* The registry key of the build: the variant name for the default kernel tree,
 * "<variant>@<kernel>" for another (kernel/cmake/DriverVariant.cmake). */
#if defined(NICSIM_BUILD_KEY)
#define LX_EMUL_VARIANT NICSIM_BUILD_KEY
#elif defined(NICSIM_VARIANT)
#define LX_EMUL_VARIANT NICSIM_VARIANT
#else
#define LX_EMUL_VARIANT ""
#endif

/* The kernel tree a build comes from (kernel/cmake/DriverVariant.cmake passes
 * NICSIM_LINUX_VERSION_CODE per build): emulation code that must differ between the kernels'
 * APIs compares it with KERNEL_VERSION(a,b,c). Without it (emulation libraries, tests): 6.1. */
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#ifndef NICSIM_LINUX_VERSION_CODE
#define NICSIM_LINUX_VERSION_CODE KERNEL_VERSION(6, 1, 0)
#endif

/* Sparse annotations: nothing at compile time. */
#define __iomem
#define __user
#define __kernel
#define __force
#define __rcu
#define __percpu
#define __bitwise
#define __safe
#define __nocast
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __acquire(x) (void)0
#define __release(x) (void)0
#define __cond_lock(x, c) (c)

#define __init
#define __exit
#define __initdata
#define __initconst
#define __exitdata
#define __devinit
#define __devexit
#define __ref
#define __refdata
#define __read_mostly
#define __ro_after_init
#define __cacheline_aligned __attribute__((__aligned__(64)))
#define ____cacheline_aligned __attribute__((__aligned__(64)))
#define ____cacheline_aligned_in_smp __attribute__((__aligned__(64)))
#define __cacheline_aligned_in_smp __attribute__((__aligned__(64)))

#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __noreturn __attribute__((__noreturn__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __cold __attribute__((__cold__))
#define __weak __attribute__((__weak__))
#define __pure __attribute__((__pure__))
#ifndef __attribute_const__ /* glibc sys/cdefs.h has the same */
#define __attribute_const__ __attribute__((__const__))
#endif
#define __alias(symbol) __attribute__((__alias__(#symbol)))
#define __must_check __attribute__((__warn_unused_result__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __scanf(a, b) __attribute__((__format__(scanf, a, b)))
#define __section(s) __attribute__((__section__(s)))
#define __deprecated
#define __counted_by(m)
#define __randomize_layout
#define __no_randomize_layout
#define __nonstring
#define notrace
#define __visible
#define asmlinkage
#define __latent_entropy
#define __designated_init
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#ifndef __same_type
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* The cooperative scheduler never reorders or tears accesses between contexts; keep the
 * kernel's single-access semantics anyway (volatile access of the exact width). */
#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x)*)&(x))
#define WRITE_ONCE(x, val)                                                                        \
    do {                                                                                           \
        *(volatile __typeof__(x)*)&(x) = (val);                                                    \
    } while (0)
#define mb() barrier()
#define rmb() barrier()
#define wmb() barrier()
#define smp_mb() barrier()
#define smp_rmb() barrier()
#define smp_wmb() barrier()
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()
#define smp_store_release(p, v) WRITE_ONCE(*(p), v)
#define smp_load_acquire(p) READ_ONCE(*(p))
#define dma_wmb() barrier()
#define dma_rmb() barrier()
#define cpu_relax() barrier()

#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

/* IS_ENABLED(CONFIG_FOO): 1 if CONFIG_FOO is defined to 1 (or CONFIG_FOO_MODULE is), else 0,
 * usable in #if and in C expressions. Same placeholder technique as the kernel (own wording). */
#define __LX_ARG_PLACEHOLDER_1 0,
#define __lx_take_second_arg(ignored, val, ...) val
#define __lx_is_defined(x) ___lx_is_defined(x)
#define ___lx_is_defined(val) ____lx_is_defined(__LX_ARG_PLACEHOLDER_##val)
#define ____lx_is_defined(arg1_or_junk) __lx_take_second_arg(arg1_or_junk 1, 0)
#define __is_defined(x) __lx_is_defined(x)
#define __or(x, y) ___lx_or(x, y)
#define ___lx_or(x, y) ____lx_or(__LX_ARG_PLACEHOLDER_##x, y)
#define ____lx_or(arg1_or_junk, y) __lx_take_second_arg(arg1_or_junk 1, y)
#define IS_BUILTIN(option) __lx_is_defined(option)
#define IS_MODULE(option) __lx_is_defined(option##_MODULE)
#define IS_REACHABLE(option) __or(IS_BUILTIN(option), IS_MODULE(option))
#define IS_ENABLED(option) __or(IS_BUILTIN(option), IS_MODULE(option))

#endif /* LX_EMUL_COMPILER_H */

// SPDX-License-Identifier: MIT
//
// operator new[] for blocks of 1 MiB and more: 2 MiB aligned, and marked for transparent huge
// pages (madvise MADV_HUGEPAGE; the kernel's default THP mode honours it).
//
// Why: libsystemc's static initialiser allocates its 3 MiB temporary heap (sc_temp_heap,
// `new char[0x300000]`) and clears it, before main(). In 4 KiB pages that clearing costs 768 page
// faults, two thirds of a short run's faults: `perf stat -r 20 -e task-clock,page-faults
// build/nicsim run configs/ks8851-spi-ping.yaml` counts 1152-1158 faults and 5.7-6.1 ms with the
// plain operator, 387-390 faults and 4.8 ms with this one (a fixed cost of every run).
// The executable's definition replaces the library's for every shared object (ENABLE_EXPORTS).
// Smaller blocks, and every block in a sanitizer build (the runtime's own operator tracks them),
// take the ordinary path; delete[] stays the library's, which frees either kind (free()).
#include <cstdlib>
#include <new>

#include <sys/mman.h>

#ifndef NICSIM_ASAN // set by the build with the address sanitizer

namespace {
void* allocate(std::size_t n) {
    constexpr std::size_t large = std::size_t(1) << 20;
    constexpr std::size_t huge_page = std::size_t(2) << 20;
    if (n < large)
        return std::malloc(n ? n : 1);
    const std::size_t len = (n + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, len);
    if (p)
        madvise(p, len, MADV_HUGEPAGE); // advice only: without THP the pages stay small
    return p;
}
} // namespace

void* operator new[](std::size_t n) {
    for (;;) { // as the library's: the new-handler may free memory, else bad_alloc
        if (void* p = allocate(n))
            return p;
        const std::new_handler h = std::get_new_handler();
        if (!h)
            throw std::bad_alloc();
        h();
    }
}

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* What the processor offers beyond the baseline instruction set the library is built for.
 * On x86-64 the baseline has no popcount instruction; nearly every processor sold since
 * 2008 has one (POPCNT), and most since 2013 AVX2 (the search index of a ring past 64
 * tokens counts a bucket's tokens with it); batches of keys of one length are hashed eight
 * at a time where there is AVX-512 (lib/token/murmur3.c). The process asks the processor
 * once; each placement or index records the answer when it is built and its lookups branch
 * on it (a branch that never changes direction). Elsewhere the answer is "none". */
#include "internal.h"

#if defined(TR_CPU_X86)
#include <cpuid.h>
#include <stdatomic.h>

unsigned tr_cpu_features(void)
{
    /* Asked once (cpuid may trap to a hypervisor); the top bit says "known". */
    static atomic_uint known;
    unsigned k = atomic_load_explicit(&known, memory_order_relaxed);
    if (!k) {
        unsigned a = 0, b = 0, c = 0, d = 0;
        k = 0x80000000u;
        if (__get_cpuid(1, &a, &b, &c, &d)) {
            if (c & bit_POPCNT)
                k |= TR_CPU_POPCNT;
            /* AVX2: the instructions (leaf 7) and the system saving the YMM registers
             * (OSXSAVE, then XCR0's SSE and AVX state bits) */
            unsigned a7 = 0, b7 = 0, c7 = 0, d7 = 0, lo = 0, hi = 0;
            if ((c & bit_OSXSAVE) && (c & bit_AVX) && __get_cpuid_count(7, 0, &a7, &b7, &c7, &d7) &&
                (b7 & bit_AVX2)) {
                __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
                if ((lo & 6) == 6)
                    k |= TR_CPU_AVX2;
                /* AVX-512 F and DQ (64-bit multiplies), and XCR0's opmask and upper ZMM
                 * state bits */
                if ((b7 & bit_AVX512F) && (b7 & bit_AVX512DQ) && (lo & 0xe6) == 0xe6)
                    k |= TR_CPU_AVX512;
            }
        }
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k & ~0x80000000u;
}
#else
unsigned tr_cpu_features(void)
{
    return 0;
}
#endif

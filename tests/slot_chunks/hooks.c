/* The atomic loads and stores a program built with gcc -fno-inline-atomics calls: each does
 * its access and notes, for every byte of the traced range it touches, where the access began
 * and how wide it was. Single-threaded: plain volatile accesses do the work. */
#include <stddef.h>
#include <stdint.h>

#include "hooks.h"

struct chunk *trace;
const unsigned char *trace_base;
size_t trace_len;

static void note(const volatile void *p, unsigned size) {
    const unsigned char *at = (const unsigned char *)(uintptr_t)p;
    size_t i;
    if (trace == NULL || at < trace_base || at >= trace_base + trace_len) {
        return;
    }
    for (i = 0; i < size && (size_t)(at - trace_base) + i < trace_len; i++) {
        trace[(size_t)(at - trace_base) + i].start = (int32_t)(at - trace_base);
        trace[(size_t)(at - trace_base) + i].size = (uint8_t)size;
    }
}

#define HOOKS(N, T)                                                                        \
    T hook_load_##N(const volatile void *p, int order) __asm__("__atomic_load_" #N);      \
    T hook_load_##N(const volatile void *p, int order) {                                   \
        (void)order;                                                                       \
        note(p, N);                                                                        \
        return *(const volatile T *)p;                                                     \
    }                                                                                      \
    void hook_store_##N(volatile void *p, T value, int order) __asm__("__atomic_store_" #N); \
    void hook_store_##N(volatile void *p, T value, int order) {                            \
        (void)order;                                                                       \
        note(p, N);                                                                        \
        *(volatile T *)p = value;                                                          \
    }

HOOKS(1, uint8_t)
HOOKS(2, uint16_t)
HOOKS(4, uint32_t)
HOOKS(8, uint64_t)

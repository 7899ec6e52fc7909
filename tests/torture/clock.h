/* What the C clients of the protocol torture (protocols.c, churn.c) share: the monotonic clock
 * in nanoseconds (CLOCK_MONOTONIC, the clock the Python clients' time.monotonic_ns reads) and
 * a sleep that resumes after a signal. POSIX; define _POSIX_C_SOURCE before including it. */
#ifndef TORTURE_CLOCK_H
#define TORTURE_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void sleep_us(long us) {
    struct timespec t;
    t.tv_sec = us / 1000000L;
    t.tv_nsec = (us % 1000000L) * 1000L;
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

#endif

/* The floor of bench/wake.sh (issue 47): a raw futex ping-pong between two processes, with no
 * generated code. `wake_floor TICKS` forks; the parent (the host) stores tick t in a shared
 * word (an anonymous MAP_SHARED mapping), wakes it with FUTEX_WAKE (shared: no
 * FUTEX_PRIVATE_FLAG) and spins until the child stored t in its answer word; the child sleeps
 * in FUTEX_WAIT while the word holds the tick it answered. The host publishes each tick half
 * the time at once and half after 20-100 us (the child asleep), as tests/events.rs's host
 * does. Prints `floor: p50 X us, p99 Y us` of publish-to-answer, the host's clock
 * (CLOCK_MONOTONIC) both ends. Linux only; gcc -std=c11 -O2 -Wall -Wextra -Werror -pedantic. */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000U + (uint64_t)t.tv_nsec;
}

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    uint32_t *words, t, n;
    uint64_t *times, rng = 0x9E3779B97F4A7C15ULL;
    pid_t child;
    int status;
    if (argc != 2 || (n = (uint32_t)strtoul(argv[1], NULL, 10)) == 0) {
        fprintf(stderr, "usage: wake_floor TICKS\n");
        return 2;
    }
    words = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    times = malloc(sizeof *times * n);
    if (words == MAP_FAILED || times == NULL) {
        return 2;
    }
    child = fork();
    if (child == 0) {
        uint32_t last = 0;
        while (last < n) {
            uint32_t seq = __atomic_load_n(&words[0], __ATOMIC_ACQUIRE);
            if (seq == last) {
                struct timespec ts = {1, 0};
                syscall(SYS_futex, &words[0], FUTEX_WAIT, last, &ts, NULL, 0);
                continue;
            }
            last = seq;
            __atomic_store_n(&words[16], seq, __ATOMIC_RELEASE);
        }
        _exit(0);
    }
    for (t = 1; t <= n; t++) {
        uint64_t published, deadline;
        if (next(&rng) % 2 == 0) {
            struct timespec d = {0, (long)(20000 + next(&rng) % 80000)};
            nanosleep(&d, NULL);
        }
        published = now_ns();
        __atomic_store_n(&words[0], t, __ATOMIC_RELEASE);
        syscall(SYS_futex, &words[0], FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
        deadline = published + 5000000000ULL;
        {
            unsigned spins = 0;
            while (__atomic_load_n(&words[16], __ATOMIC_ACQUIRE) != t) {
                if (++spins > 64) {
                    sched_yield();
                }
                if (now_ns() > deadline) {
                    fprintf(stderr, "wake_floor: no answer to tick %u in 5 s\n", t);
                    return 1;
                }
            }
        }
        times[t - 1] = now_ns() - published;
    }
    waitpid(child, &status, 0);
    qsort(times, n, sizeof *times, cmp);
    printf("floor: p50 %.1f us, p99 %.1f us\n", (double)times[(n - 1) * 50 / 100] / 1000.0,
           (double)times[(n - 1) * 99 / 100] / 1000.0);
    return 0;
}

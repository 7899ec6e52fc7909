/* The `waiting` handshake's litmus test in C (issue 36, item 8), for tests/c_protocols.rs:
 * `litmus ROUNDS`. The host stores snapshot_seq, then loads the row's waiting
 * (ibf_client_host_waiting: a seq_cst fence, then the load); the client stores waiting = 1
 * (ibf_client_set_waiting: the store, then a seq_cst fence), then loads snapshot_seq. Two
 * threads play the rounds, each after a short random spin; a round is lost when the host saw
 * no waiter and the client no new snapshot. Prints, for the fenced helpers and for the plain
 * accessors (release store, acquire load, no fence):
 *   unfenced LOST OVERLAPPED
 *   fenced LOST OVERLAPPED
 * where OVERLAPPED counts rounds in which each side saw the other's store. Valid C11 with
 * pthreads and the GCC/Clang __atomic builtins (-Wall -Wextra -Werror -pedantic). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"

#define ROW 1U

static ibf_bridge_header header;
static ibf_client_session me;
static uint64_t rounds;
static int fenced;
static unsigned char *host_saw, *client_saw;
static uint64_t start, done; /* through the __atomic builtins only */

static void jitter(uint64_t *s) {
    uint64_t i, n;
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    n = *s % 64U;
    for (i = 0; i < n; i++) {
        __asm__ __volatile__("" ::: "memory");
    }
}

static void *host(void *arg) {
    uint64_t k, rng = 0x9E3779B97F4A7C15ULL;
    ibf_client_entry *row = &header.clients[ROW];
    (void)arg;
    for (k = 1; k <= rounds; k++) {
        while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != k - 1) {
        }
        ibf_client_entry_store_waiting(row, 0);
        __atomic_store_n(&start, k, __ATOMIC_RELEASE);
        jitter(&rng);
        ibf_bridge_header_store_snapshot_seq(&header, k);
        if (fenced) {
            host_saw[k - 1] = (unsigned char)ibf_client_host_waiting(&header, sizeof header, ROW);
        } else {
            host_saw[k - 1] = (unsigned char)(ibf_client_entry_load_waiting(row) == 1U);
        }
    }
    return NULL;
}

static void *client(void *arg) {
    uint64_t k, rng = 0xD1B54A32D192ED03ULL;
    ibf_client_entry *row = &header.clients[ROW];
    (void)arg;
    for (k = 1; k <= rounds; k++) {
        while (__atomic_load_n(&start, __ATOMIC_ACQUIRE) != k) {
        }
        jitter(&rng);
        if (fenced) {
            (void)ibf_client_set_waiting(&header, sizeof header, &me, 1U);
        } else {
            ibf_client_entry_store_waiting(row, 1U);
        }
        client_saw[k - 1] = (unsigned char)(ibf_bridge_header_load_snapshot_seq(&header) == k);
        __atomic_store_n(&done, k, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void run(int with_fences) {
    pthread_t h, c;
    uint64_t k, lost = 0, overlapped = 0;
    fenced = with_fences;
    __atomic_store_n(&start, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&done, 0, __ATOMIC_RELAXED);
    ibf_bridge_header_store_snapshot_seq(&header, 0);
    if (pthread_create(&h, NULL, host, NULL) != 0 || pthread_create(&c, NULL, client, NULL) != 0) {
        fprintf(stderr, "litmus.c: cannot start the threads\n");
        exit(1);
    }
    pthread_join(h, NULL);
    pthread_join(c, NULL);
    for (k = 0; k < rounds; k++) {
        lost += (uint64_t)(!host_saw[k] && !client_saw[k]);
        overlapped += (uint64_t)(host_saw[k] && client_saw[k]);
    }
    printf("%s %" PRIu64 " %" PRIu64 "\n", with_fences ? "fenced" : "unfenced", lost, overlapped);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: litmus ROUNDS\n");
        return 2;
    }
    rounds = (uint64_t)strtoull(argv[1], NULL, 10);
    host_saw = (unsigned char *)calloc((size_t)rounds, 1);
    client_saw = (unsigned char *)calloc((size_t)rounds, 1);
    if (rounds == 0 || host_saw == NULL || client_saw == NULL) {
        fprintf(stderr, "litmus.c: no rounds\n");
        return 2;
    }
    header.host_generation = 1;
    header.host_state = IBF_HOST_STATE_RUNNING;
    if (ibf_client_claim(&header, sizeof header, 1, ROW, &me) != IBF_OK ||
        ibf_client_activate(&header, sizeof header, &me) != IBF_OK) {
        fprintf(stderr, "litmus.c: cannot claim row %u\n", ROW);
        return 1;
    }
    run(0);
    run(1);
    free(host_saw);
    free(client_saw);
    return 0;
}

#!/usr/bin/env bash
# The host's service turn with every client dead mid-write (issue 48, item 4): 8 rows, each
# active, its client killed mid-write: a request's text and length written but not its
# request_seq, a log entry's bytes written but not the queue's write position, a draw list
# begun but not published, and its seqlocked records (pad_input, param_defs, stats) left with
# an odd counter. One tick is ibf_host_service_turn over the 8 rows plus the host's 24
# bounded reads (IBF_HOST_TRIES) of those records. Two cases: the clients' pids are gone, so
# the turn probes and frees every row (drain, free, drain, new reader), the dearest turn; and
# pid 0 (nothing to probe: the rows wait for the hung time), the turn a host pays every tick
# until then. C with the generated header (gcc -O2); the rows are set up again before each
# timed turn. Prints the shortest and the median of RUNS turns; bench/README.md ("Issue 48:
# the service turn") records one run. No test asserts a time.
#
# Usage: bench/service_turn.sh [RUNS]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-200}"
WORK="$(mktemp -d -t bridge-service-turn.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/turn.c" <<'C'
#define _POSIX_C_SOURCE 200809L
#include "bridge.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "turn.c:%d: %s\n", __LINE__, #c); exit(1); } } while (0)

static const ibf_geometry_value geometry[] = {
    {"mailbox.request_capacity", 2048},
    {"mailbox.response_capacity", 8192},
};
static uint64_t mapping[(8U << 20) / 8U];
static ibf_attached host;
static unsigned char *header;
static size_t header_len;
static ibf_host_service service;
static char request[2048], answer[8192];
static ibf_pad_input pad;
static ibf_param_defs_copy defs;
static ibf_stats_copy st;
static ibf_host_callbacks cb; /* no callbacks but the probe */

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* Every row active, its client dead mid-write; pid `pid`. */
static void dead_clients(uint32_t pid) {
    uint32_t row;
    for (row = 0; row < IBF_MAX_CLIENTS; row++) {
        ibf_client_session c;
        ibf_client_entry values;
        ibf_draw_writer w;
        unsigned char *box = (unsigned char *)(void *)ibf_attached_client_blocks_mailbox(&host, row);
        unsigned char *queue = (unsigned char *)(void *)ibf_attached_client_blocks_log_queue(&host, row);
        void *draw = ibf_attached_bot_blocks_draw(&host, row);
        size_t draw_len = (size_t)ibf_attached_bot_blocks_draw_size(&host, row);
        ibf_draw_cmd cmd;
        memset(&values, 0, sizeof values);
        memset(&cmd, 0, sizeof cmd);
        values.pid = pid;
        CHECK(box != NULL && queue != NULL && draw != NULL);
        CHECK(ibf_client_claim(header, header_len, (uint32_t)host.generation, row, &c) == IBF_OK);
        CHECK(ibf_client_fill(header, header_len, &c, &values) == IBF_OK);
        CHECK(ibf_client_activate(header, header_len, &c) == IBF_OK);
        /* The request's text and length, not its seq; an entry's bytes, not the position. */
        ibf_live_write_bytes_(box + 64U, "half a request", 14);
        ibf_live_store_relaxed_u32_(box + offsetof(ibf_mailbox_header, request_len), 14U);
        ibf_live_write_bytes_(queue + 64U, "\x40\x00\x01\x02half an entry...", 16);
        /* A list begun, never published. */
        ibf_draw_writer_init(&w);
        CHECK(ibf_draw_begin(&w, draw, draw_len) == IBF_OK);
        CHECK(ibf_draw_add_unscoped(&w, &cmd, NULL, 0) == IBF_OK);
        /* Odd seqlock counters: killed mid-write. */
        ibf_live_store_release_u32_(ibf_attached_client_blocks_pad_input(&host, row), 3U);
        ibf_live_store_release_u32_((unsigned char *)(void *)ibf_attached_bot_blocks_params(&host, row) + offsetof(ibf_params_header, defs_seq), 3U);
        ibf_live_store_release_u32_((unsigned char *)(void *)ibf_attached_bot_blocks_stats(&host, row) + offsetof(ibf_stats_header, seq), 3U);
    }
}

/* One tick's client-facing work: the service turn and the 24 bounded reads. */
static uint64_t tick(ibf_host_counts *c) {
    uint32_t row;
    uint64_t start = now_ns(), end;
    CHECK(ibf_host_service_turn(&host, &service, &cb, start, c) == IBF_OK);
    for (row = 0; row < IBF_MAX_CLIENTS; row++) {
        int a = ibf_pad_input_read(ibf_attached_client_blocks_pad_input(&host, row), &pad, IBF_HOST_TRIES, NULL);
        int b = ibf_param_defs_read(ibf_attached_bot_blocks_params(&host, row), (size_t)ibf_attached_bot_blocks_params_size(&host, row), &defs, IBF_HOST_TRIES, NULL);
        int d = ibf_stats_read(ibf_attached_bot_blocks_stats(&host, row), (size_t)ibf_attached_bot_blocks_stats_size(&host, row), &st, IBF_HOST_TRIES, NULL);
        CHECK(a == IBF_CONTENDED && b == IBF_CONTENDED && d == IBF_CONTENDED);
    }
    end = now_ns();
    return end - start;
}

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* RUNS ticks over rows set up again each time: the shortest and the median, in ns. */
static void measure(const char *what, uint32_t pid, int runs, uint64_t expect_freed) {
    uint64_t *t = (uint64_t *)calloc((size_t)runs, sizeof *t);
    int r;
    uint32_t row;
    CHECK(t != NULL);
    for (r = 0; r < runs; r++) {
        ibf_host_counts c;
        memset(&c, 0, sizeof c);
        dead_clients(pid);
        t[r] = tick(&c);
        CHECK(c.freed[IBF_HOST_FREED_DEAD] == expect_freed && c.errors == 0);
        for (row = 0; row < IBF_MAX_CLIENTS; row++) {
            (void)ibf_host_free_row(&host, &service, NULL, row, IBF_HOST_KEEP, &c);
        }
    }
    qsort(t, (size_t)runs, sizeof *t, by_value);
    printf("%s: shortest %.1f us, median %.1f us (%.3f%% of a 60 Hz tick)\n", what, (double)t[0] / 1e3,
           (double)t[runs / 2] / 1e3, 100.0 * (double)t[runs / 2] / 1e9 * 60.0);
    free(t);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 200;
    unsigned char *image;
    size_t n = 0;
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        _exit(0);
    }
    CHECK(waitpid(child, NULL, 0) == child);
    CHECK(runs > 0);
    CHECK(ibf_lay_out(NULL, 0, geometry, 2, 1, &n, NULL) == IBF_PRODUCE_BUFFER_TOO_SHORT && n <= sizeof mapping);
    image = (unsigned char *)calloc(n, 1);
    CHECK(image != NULL && ibf_lay_out(image, n, geometry, 2, 1, &n, NULL) == IBF_PRODUCE_OK);
    CHECK(ibf_produce_attached(mapping, n, image, n, &host, NULL) == IBF_PRODUCE_OK);
    free(image);
    header = (unsigned char *)(void *)ibf_attached_header(&host);
    header_len = (size_t)ibf_attached_header_size(&host);
    ibf_host_service_init(&service, 0, request, sizeof request, answer, sizeof answer);
    cb.probe = ibf_process_probe;
    printf("8 rows, every client dead mid-write; one tick = ibf_host_service_turn + 24 reads at IBF_HOST_TRIES (%u)\n", IBF_HOST_TRIES);
    measure("pids gone, every row probed and freed", (uint32_t)child, runs, IBF_MAX_CLIENTS);
    measure("pid 0, every row waiting for the hung time", 0U, runs, 0);
    return 0;
}
C
cp generated/bridge.h "$WORK/"
gcc -std=c11 -O2 -Wall -Wextra -Werror -pedantic "$WORK/turn.c" -o "$WORK/turn"
echo "host: $(uname -m), $(nproc) cores; $RUNS ticks a case"
"$WORK/turn" "$RUNS"

/* Hostile peers for the region-protocol helpers of bridge.h (tests/c_protocols_races.rs, built
 * with AddressSanitizer and UndefinedBehaviorSanitizer): for each protocol, a thread stores
 * random words (a seeded xorshift; half of them small numbers, which pass more checks) into
 * the whole region, header and area, while the main thread calls every helper of both sides
 * on it. Each region is a heap block of exactly its length, so any access past it is caught.
 * Every result must be a valid outcome or one of the helper's named errors; the counts of
 * each are printed, `fuzz <protocol>: <name>=<count> ...`. `fuzz SEED ROUNDS`. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"

#define CODES 40

static unsigned char *region;
static size_t region_len;
static uint64_t seed;
static int stop;
static int started;
static uint64_t counts[CODES];
static int failed;
/* The header's geometry words (offset, value) the peer puts back after most stores, so that
 * the helpers get past their first checks often. */
static size_t repair_at[4];
static uint32_t repair_value[4];
static size_t repairs;

static uint64_t next(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void *hostile(void *arg) {
    uint64_t x = seed;
    (void)arg;
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        uint64_t r = next(&x);
        /* One store in eight anywhere, the others past the first 64 bytes (an area). */
        size_t at = (r & 0x7000000U) == 0 || region_len <= 64U ? (size_t)(r % (region_len / 8U)) * 8U
                                                                : 64U + (size_t)(r % ((region_len - 64U) / 8U)) * 8U;
        uint64_t value = next(&x);
        if (r & 0x100U) {
            value %= 2U * region_len;
        }
        if ((r & 0x600U) == 0x600U) {
            value &= 0xffffU;
        }
        if ((r & 0x1800U) == 0x1800U) {
            value &= 0x0000000300000003ULL;
        }
        __atomic_store_n((uint64_t *)(void *)(region + at), value, __ATOMIC_RELAXED);
        if (((r >> 32) & 0xffU) == 0) {
            /* Now and then a header as new (positions and counters 0), for valid outcomes. */
            size_t k;
            for (k = 0; k < 64U && k < region_len; k += 8U) {
                __atomic_store_n((uint64_t *)(void *)(region + k), (uint64_t)0, __ATOMIC_RELAXED);
            }
        }
        if ((r & 0xf000U) != 0) {
            size_t i;
            for (i = 0; i < repairs; i++) {
                __atomic_store_n((uint32_t *)(void *)(region + repair_at[i]), repair_value[i], __ATOMIC_RELAXED);
            }
        }
    }
    return NULL;
}

/* Counts `code`, which must be one of the `n` allowed. */
static void outcome(const char *what, int code, const int *allowed, size_t n) {
    static uint64_t calls;
    size_t i;
    if (++calls % 256U == 0) {
        sched_yield(); /* a loaded machine still interleaves the two threads */
    }
    for (i = 0; i < n; i++) {
        if (allowed[i] == code) {
            counts[code]++;
            return;
        }
    }
    fprintf(stderr, "fuzz.c: %s gave %s (%d)\n", what, ibf_protocol_result_name(code), code);
    failed = 1;
}
#define OUTCOME(what, code, ...)                                                \
    do {                                                                        \
        static const int allowed_[] = {__VA_ARGS__};                            \
        outcome(what, code, allowed_, sizeof allowed_ / sizeof allowed_[0]);     \
    } while (0)

/* Starts the peer on a new region of `len` bytes whose geometry words are the `n` pairs. */
static void start(size_t len, pthread_t *t, size_t n, const size_t *at, const uint32_t *value) {
    size_t i;
    repairs = n;
    for (i = 0; i < n; i++) {
        repair_at[i] = at[i];
        repair_value[i] = value[i];
    }
    region_len = len;
    region = (unsigned char *)malloc(len);
    if (region == NULL) {
        exit(1);
    }
    for (i = 0; i < len; i++) {
        region[i] = 0;
    }
    for (i = 0; i < n; i++) {
        memcpy(region + at[i], &value[i], 4);
    }
    memset(counts, 0, sizeof counts);
    __atomic_store_n(&stop, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&started, 0, __ATOMIC_RELEASE);
    pthread_create(t, NULL, hostile, NULL);
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
        sched_yield();
    }
}

/* Stops the peer, prints the counts; errors must have been seen. */
static void finish(const char *name, pthread_t t, const int *errors, size_t n) {
    int code;
    uint64_t seen = 0;
    size_t i;
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    printf("fuzz %s:", name);
    for (code = 0; code < CODES; code++) {
        if (counts[code] != 0) {
            printf(" %s=%" PRIu64, ibf_protocol_result_name(code), counts[code]);
        }
    }
    printf("\n");
    for (i = 0; i < n; i++) {
        seen += counts[errors[i]];
    }
    if (seen == 0) {
        fprintf(stderr, "fuzz.c: %s: no named error seen\n", name);
        failed = 1;
    }
    free(region);
}

static void queue(uint64_t rounds) {
    static const int errors[] = {IBF_QUEUE_CAPACITY, IBF_QUEUE_POSITIONS, IBF_QUEUE_ENTRY_SIZE,
                                 IBF_ENTRY_PART_TOO_LONG, IBF_ENTRY_PART_PAST_ENTRY};
    static ibf_log_queue_record rec;
    ibf_log_entry e;
    pthread_t t;
    uint64_t i;
    memset(&e, 0, sizeof e);
    static const size_t at[] = {16};
    static const uint32_t value[] = {512};
    start(sizeof(ibf_log_queue_header) + 512U, &t, 1, at, value);
    for (i = 0; i < rounds; i++) {
        int r = ibf_log_queue_pop(region, region_len, &rec);
        OUTCOME("pop", r, IBF_OK, IBF_EMPTY, IBF_QUEUE_CAPACITY, IBF_QUEUE_POSITIONS, IBF_QUEUE_ENTRY_SIZE,
                IBF_ENTRY_PART_TOO_LONG, IBF_ENTRY_PART_PAST_ENTRY);
        if (r == IBF_OK && (rec.head.text_len > IBF_LOG_TEXT_MAX || rec.text[rec.head.text_len] != '\0')) {
            failed = 1;
        }
        r = ibf_log_queue_push_unscoped(region, region_len, &e, "s", 1, "text", 4);
        OUTCOME("push", r, IBF_OK, IBF_DROPPED, IBF_QUEUE_CAPACITY, IBF_QUEUE_POSITIONS);
        (void)ibf_log_queue_dropped(region, region_len);
    }
    finish("queue", t, errors, 5);
}

static void ring(uint64_t rounds) {
    static const int errors[] = {IBF_RING_CAPACITY, IBF_RING_POSITIONS, IBF_RING_ENTRY_SIZE};
    static ibf_log_ring_reader reader;
    static ibf_log_ring_record rec;
    ibf_log_entry e;
    pthread_t t;
    uint64_t i;
    int joined = 0;
    memset(&e, 0, sizeof e);
    static const size_t at[] = {16};
    static const uint32_t value[] = {512};
    start(sizeof(ibf_log_ring_header) + 512U, &t, 1, at, value);
    for (i = 0; i < rounds; i++) {
        int r;
        if (!joined) {
            r = (i & 1U) ? ibf_log_ring_join_latest(&reader, region, region_len)
                         : ibf_log_ring_join_oldest(&reader, region, region_len);
            OUTCOME("join", r, IBF_OK, IBF_RING_CAPACITY, IBF_RING_POSITIONS);
            joined = r == IBF_OK;
            continue;
        }
        r = ibf_log_ring_read_next(&reader, region, region_len, &rec, NULL);
        OUTCOME("read_next", r, IBF_OK, IBF_EMPTY, IBF_LAPPED, IBF_RING_CAPACITY, IBF_RING_POSITIONS,
                IBF_RING_ENTRY_SIZE, IBF_ENTRY_PART_TOO_LONG, IBF_ENTRY_PART_PAST_ENTRY);
        joined = r != IBF_RING_CAPACITY && i % 64U != 0;
        r = ibf_log_ring_push(region, region_len, &e, "s", 1, "text", 4, NULL);
        OUTCOME("push", r, IBF_OK, IBF_RING_CAPACITY, IBF_RING_POSITIONS, IBF_RING_BAD_ENTRY);
    }
    finish("ring", t, errors, 3);
}

static void mailbox(uint64_t rounds) {
    static const int errors[] = {IBF_MAILBOX_CAPACITY, IBF_MAILBOX_LENGTH, IBF_MAILBOX_SEQUENCE};
    static char text[1024];
    pthread_t t;
    uint64_t i;
    static const size_t at[] = {24, 28};
    static const uint32_t value[] = {128, 128};
    start(sizeof(ibf_mailbox_header) + 256U, &t, 2, at, value);
    for (i = 0; i < rounds; i++) {
        ibf_mailbox_response resp;
        size_t n;
        uint32_t seq = (uint32_t)i;
        int r = ibf_mailbox_request_unscoped(region, region_len, "req", 3, &seq);
        OUTCOME("request", r, IBF_OK, IBF_MAILBOX_BUSY, IBF_MAILBOX_CAPACITY, IBF_MAILBOX_TOO_LONG);
        r = ibf_mailbox_poll_response(region, region_len, seq, &resp, text, sizeof text);
        OUTCOME("poll_response", r, IBF_OK, IBF_PENDING, IBF_MAILBOX_CAPACITY, IBF_MAILBOX_LENGTH);
        if (r == IBF_OK && resp.len > 256U) {
            failed = 1;
        }
        r = ibf_mailbox_serve_begin(region, region_len, text, sizeof text, &n, &seq);
        OUTCOME("serve_begin", r, IBF_OK, IBF_PENDING, IBF_MAILBOX_CAPACITY, IBF_MAILBOX_LENGTH,
                IBF_MAILBOX_SEQUENCE);
        r = ibf_mailbox_serve_answer(region, region_len, seq, 0, text, 300);
        OUTCOME("serve_answer", r, IBF_OK, IBF_MAILBOX_CAPACITY, IBF_MAILBOX_SEQUENCE);
    }
    finish("mailbox", t, errors, 3);
}

static void draw(uint64_t rounds) {
    static const int errors[] = {IBF_EXCHANGE_GEOMETRY, IBF_EXCHANGE_STATE, IBF_EXCHANGE_LIST_LENGTH,
                                 IBF_EXCHANGE_CONTENDED};
    static unsigned char payload[1024];
    ibf_draw_writer w;
    ibf_draw_reader rd;
    pthread_t t;
    uint64_t i;
    static const size_t at[] = {4, 8, 12, 16};
    static const uint32_t value[] = {3, 336, 4, 64};
    start(sizeof(ibf_draw_header) + 1024U, &t, 4, at, value);
    ibf_draw_writer_init(&w);
    ibf_draw_reader_init(&rd);
    for (i = 0; i < rounds; i++) {
        ibf_draw_list_header head;
        ibf_draw_cmd cmd;
        uint64_t bytes = i;
        int r = ibf_draw_take(&rd, region, region_len, &head);
        OUTCOME("take", r, IBF_OK, IBF_EMPTY, IBF_EXCHANGE_STATE, IBF_EXCHANGE_CONTENDED, IBF_EXCHANGE_GEOMETRY,
                IBF_EXCHANGE_LIST_LENGTH);
        if (r == IBF_OK) {
            uint32_t k;
            for (k = 0; k < head.count && k < 4U; k++) {
                OUTCOME("item", ibf_draw_item(&rd, k, &cmd), IBF_OK, IBF_EXCHANGE_LIST_LENGTH);
            }
            /* The list fits the region: its payload fits a third of the 1024 bytes. */
            OUTCOME("payload", ibf_draw_payload(&rd, 0, head.payload_len, payload), IBF_OK, IBF_EXCHANGE_LIST_LENGTH);
        }
        r = ibf_draw_begin(&w, region, region_len);
        OUTCOME("begin", r, IBF_OK, IBF_EXCHANGE_GEOMETRY);
        memset(&cmd, 0, sizeof cmd);
        OUTCOME("add", ibf_draw_add_unscoped(&w, &cmd, &bytes, 8), IBF_OK, IBF_DROPPED, IBF_EXCHANGE_GEOMETRY);
        memset(&head, 0, sizeof head);
        r = ibf_draw_publish_unscoped(&w, region, region_len, &head, NULL);
        OUTCOME("publish", r, IBF_OK, IBF_EXCHANGE_STATE, IBF_EXCHANGE_CONTENDED, IBF_EXCHANGE_GEOMETRY);
    }
    finish("draw", t, errors, 4);
}

static void session(uint64_t rounds) {
    static const int errors[] = {IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING, IBF_NOT_FREE};
    ibf_client_session s;
    static ibf_client_watch watch;
    pthread_t t;
    uint64_t i, owner;
    int claimed = 0;
    ibf_client_watch_init(&watch, 0U);
    /* Rows 0 to 2 freed again and again, the host running. */
    static const size_t at[] = {256, 384, 512, 24};
    static const uint32_t value[] = {0, 0, 0, 1};
    start(sizeof(ibf_bridge_header), &t, 4, at, value);
    for (i = 0; i < rounds; i++) {
        int r;
        uint32_t row = (uint32_t)(i % 4U);
        if (!claimed) {
            r = ibf_client_claim(region, region_len, 0U, row, &s);
            OUTCOME("claim", r, IBF_OK, IBF_NOT_FREE, IBF_RELOADED, IBF_HOST_EXITING);
            claimed = r == IBF_OK;
            continue;
        }
        r = ibf_client_activate(region, region_len, &s);
        OUTCOME("activate", r, IBF_OK, IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING);
        r = ibf_client_heartbeat(region, region_len, &s, i);
        OUTCOME("heartbeat", r, IBF_OK, IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING);
        r = ibf_client_bind_pad(region, region_len, &s, (uint32_t)(i % IBF_MAX_PLAYERS), &owner);
        OUTCOME("bind_pad", r, IBF_OK, IBF_NOT_FREE, IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING);
        r = ibf_client_close(region, region_len, &s);
        OUTCOME("close", r, IBF_OK, IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING);
        claimed = 0;
        (void)ibf_client_hung(region, region_len, &watch, row, i);
    }
    finish("session", t, errors, 4);
}

int main(int argc, char **argv) {
    uint64_t rounds;
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz SEED ROUNDS\n");
        return 2;
    }
    seed = strtoull(argv[1], NULL, 0);
    rounds = strtoull(argv[2], NULL, 0);
    if (seed == 0) {
        seed = 1;
    }
    printf("fuzz seed %" PRIu64 "\n", seed);
    queue(rounds);
    ring(rounds);
    mailbox(rounds);
    draw(rounds);
    session(rounds);
    return failed;
}

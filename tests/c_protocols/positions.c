/* Positions at the edges (issue 37) for bridge.h's log queue and log ring helpers: header
 * words drawn from 0, capacity multiples, values just under UINT64_MAX, misaligned values and
 * random words (a fixed xorshift), then every operation of both sides. Each call gives a valid
 * outcome or one of its named errors, and no position goes backwards (a wrap); the snapshot
 * ring's head at UINT64_MAX wraps to 0. Built with clang's -fsanitize=unsigned-integer-overflow
 * too (tests/c_positions.rs), which stops at the first unsigned sum or difference that wraps.
 * Prints the counts, then `ok`. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"

#define CAP 256U
#define CHECK(c, what)                                                                   \
    do {                                                                                 \
        if (!(c)) {                                                                      \
            fprintf(stderr, "positions.c:%d: check failed: %s (%s)\n", __LINE__, #c, what); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

static unsigned char *region;
static const size_t region_len = 64U + CAP;
static char what[160];

static void put64(size_t at, uint64_t v) { memcpy(region + at, &v, 8); }
static uint64_t get64(size_t at) {
    uint64_t v;
    memcpy(&v, region + at, 8);
    return v;
}

static uint64_t state = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* A random word, half of them just under UINT64_MAX or small, where the checks are. */
static uint64_t word(void) {
    uint64_t r = next();
    switch (r % 4U) {
    case 0:
        return UINT64_MAX - next() % (8U * CAP);
    case 1:
        return next() % (8U * CAP);
    case 2:
        return (UINT64_MAX - next() % (8U * CAP)) & ~(uint64_t)7;
    default:
        return next();
    }
}

/* The edges: the ends, capacity multiples and neighbours, misaligned values, values a few
 * entries under UINT64_MAX. */
static const uint64_t edges[] = {
    0, 3, 8, 64, CAP - 8U, CAP, CAP + 8U, 2U * CAP, (uint64_t)1 << 63, ((uint64_t)1 << 63) - 8U,
    UINT64_MAX, UINT64_MAX - 1U, UINT64_MAX - 7U, UINT64_MAX - 8U, UINT64_MAX - 15U,
    UINT64_MAX - 16U, UINT64_MAX - 63U, UINT64_MAX - 64U, UINT64_MAX - (CAP - 1U),
    UINT64_MAX - CAP, UINT64_MAX - (CAP + 7U), UINT64_MAX - (CAP + 8U), UINT64_MAX - 4U * CAP,
};
#define EDGES (sizeof edges / sizeof edges[0])
#define RANDOM 3000U

/* Case `k`: each pair of edges, then random words (half the pairs in order). */
static void case_words(size_t k, uint64_t *a, uint64_t *b, uint64_t *c) {
    if (k < EDGES * EDGES) {
        *a = edges[k / EDGES];
        *b = edges[k % EDGES];
        *c = edges[(k / EDGES * 7U) % EDGES];
        return;
    }
    *a = word();
    if (k % 2U == 0) {
        uint64_t back = next() % (CAP + 16U);
        *b = (*a > back ? *a - back : 0) & ~(next() % 2U * 7U);
    } else {
        *b = word();
    }
    *c = word();
}

static ibf_log_entry head(void) {
    ibf_log_entry e;
    memset(&e, 0, sizeof e);
    e.tick = 5;
    return e;
}

static void queue(void) {
    static char text[CAP];
    ibf_log_queue_record rec;
    ibf_log_entry e = head();
    uint64_t written = 0, refused = 0, popped = 0;
    size_t k, tl;
    memset(text, 't', sizeof text);
    memset(region, 0, region_len);
    put64(16, CAP);
    for (k = 0; k < EDGES * EDGES + RANDOM; k++) {
        uint64_t write, read, unused;
        case_words(k, &write, &read, &unused);
        /* Entries of 48 to 256 bytes: a 40-byte header, a 1-byte source, the text. */
        for (tl = 7; tl + 41U <= CAP; tl += 8) {
            uint64_t after, before, now;
            int r;
            put64(0, write);
            put64(32, read);
            snprintf(what, sizeof what, "queue push of %zu text bytes, write_pos %#" PRIx64 ", read_pos %#" PRIx64, tl, write, read);
            r = ibf_log_queue_push_unscoped(region, region_len, &e, "s", 1, text, tl);
            after = get64(0);
            if (r == IBF_OK) {
                written++;
                CHECK(after > write && after - read <= CAP && after % 8U == 0, what);
            } else {
                CHECK(r == IBF_DROPPED || r == IBF_QUEUE_POSITIONS, what);
                CHECK(after == write, what);
                refused += r == IBF_QUEUE_POSITIONS;
            }
            before = get64(32);
            r = ibf_log_queue_pop(region, region_len, &rec);
            now = get64(32);
            if (r == IBF_OK || r == IBF_ENTRY_PART_TOO_LONG || r == IBF_ENTRY_PART_PAST_ENTRY) {
                popped++;
                CHECK(now > before && now <= get64(0), what);
            } else {
                CHECK(r == IBF_EMPTY || r == IBF_QUEUE_POSITIONS || r == IBF_QUEUE_ENTRY_SIZE, what);
                /* Padding before a broken entry may have been consumed, no more. */
                CHECK(now == before || (now > before && now <= get64(0)), what);
            }
        }
    }
    /* The review's case, then the last entry whose end is a u64, then the one after it. */
    put64(0, UINT64_MAX - 7U);
    put64(32, UINT64_MAX - 7U);
    CHECK(ibf_log_queue_push_unscoped(region, region_len, &e, "s", 1, text, 7) == IBF_QUEUE_POSITIONS, "u64::MAX - 7");
    CHECK(get64(0) == UINT64_MAX - 7U, "nothing stored");
    put64(0, UINT64_MAX - 55U);
    put64(32, UINT64_MAX - 55U);
    CHECK(ibf_log_queue_push_unscoped(region, region_len, &e, "s", 1, text, 7) == IBF_OK, "the last entry");
    CHECK(get64(0) == UINT64_MAX - 7U, "ends at u64::MAX - 7");
    CHECK(ibf_log_queue_pop(region, region_len, &rec) == IBF_OK && rec.head.text_len == 7, "read back");
    CHECK(ibf_log_queue_push_unscoped(region, region_len, &e, "s", 1, text, 7) == IBF_QUEUE_POSITIONS, "the next");
    printf("queue written=%" PRIu64 " refused=%" PRIu64 " popped=%" PRIu64 "\n", written, refused, popped);
    CHECK(written > 1000U && refused > 1000U && popped > 100U, "enough of each");
}

static void ring(void) {
    static char text[CAP];
    ibf_log_ring_record rec;
    ibf_log_ring_reader reader;
    ibf_log_entry e = head();
    uint64_t written = 0, refused = 0, read = 0, junk = 7;
    size_t k, tl;
    memset(text, 't', sizeof text);
    memset(region, 0, region_len);
    put64(16, CAP);
    for (k = 0; k < EDGES * EDGES + RANDOM; k++) {
        uint64_t write, tail, entries;
        case_words(k, &write, &tail, &entries);
        if (k % 4U == 0) {
            /* An area of random words: sizes no writer wrote. */
            size_t at;
            for (at = 64; at < region_len; at += 8) {
                junk ^= junk << 13;
                junk ^= junk >> 7;
                junk ^= junk << 17;
                put64(at, junk & 0x00ff00ff00ff01f8ULL);
            }
        }
        for (tl = 7; tl + 41U <= CAP; tl += 8) {
            uint64_t seq = 0, after, new_tail;
            int r, oldest, turn;
            put64(0, write);
            put64(8, tail);
            put64(24, entries);
            snprintf(what, sizeof what, "ring push of %zu text bytes, write_pos %#" PRIx64 ", tail_pos %#" PRIx64, tl, write, tail);
            r = ibf_log_ring_push(region, region_len, &e, "s", 1, text, tl, &seq);
            after = get64(0);
            new_tail = get64(8);
            if (r == IBF_OK) {
                written++;
                CHECK(seq == entries && after > write, what);
                CHECK(new_tail <= after && after - new_tail <= CAP, what);
                CHECK(get64(24) == (entries == UINT64_MAX ? 0 : entries + 1U), what);
            } else {
                CHECK(r == IBF_RING_POSITIONS, what);
                CHECK(after == write && new_tail == tail, what);
                refused++;
            }
            for (oldest = 0; oldest < 2; oldest++) {
                r = oldest ? ibf_log_ring_join_oldest(&reader, region, region_len)
                           : ibf_log_ring_join_latest(&reader, region, region_len);
                if (r != IBF_OK) {
                    CHECK(r == IBF_RING_POSITIONS, what);
                    continue;
                }
                for (turn = 0; turn < 3; turn++) {
                    r = ibf_log_ring_read_next(&reader, region, region_len, &rec, NULL);
                    if (r == IBF_OK || r == IBF_LAPPED) {
                        read++;
                        continue;
                    }
                    CHECK(r == IBF_EMPTY || r == IBF_RING_POSITIONS || r == IBF_RING_ENTRY_SIZE ||
                              r == IBF_ENTRY_PART_TOO_LONG || r == IBF_ENTRY_PART_PAST_ENTRY,
                          what);
                    break;
                }
            }
        }
    }
    put64(0, UINT64_MAX - 7U);
    put64(8, UINT64_MAX - 7U);
    CHECK(ibf_log_ring_push(region, region_len, &e, "s", 1, text, 7, NULL) == IBF_RING_POSITIONS, "u64::MAX - 7");
    CHECK(get64(0) == UINT64_MAX - 7U && get64(8) == UINT64_MAX - 7U, "nothing stored");
    put64(0, 0);
    put64(8, 0);
    put64(24, UINT64_MAX);
    CHECK(ibf_log_ring_push(region, region_len, &e, "s", 1, text, 7, NULL) == IBF_OK, "entries at u64::MAX");
    CHECK(get64(24) == 0, "the entries counter wraps to 0");
    printf("ring written=%" PRIu64 " refused=%" PRIu64 " read=%" PRIu64 "\n", written, refused, read);
    CHECK(written > 1000U && refused > 1000U && read > 100U, "enough of each");
}

/* The snapshot ring's head at UINT64_MAX: the next publication wraps it to 0 explicitly. */
static void snapshot(void) {
    ibf_bridge_header *h = (ibf_bridge_header *)calloc(1, sizeof *h);
    unsigned char *slots = (unsigned char *)calloc(IBF_RING_SLOTS, IBF_RING_SLOT_SIZE);
    ibf_ring_slot_copy *value = (ibf_ring_slot_copy *)calloc(1, sizeof *value);
    CHECK(h != NULL && slots != NULL && value != NULL, "calloc");
    ibf_bridge_header_store_snapshot_seq(h, UINT64_MAX);
    CHECK(ibf_snapshot_ring_publish(h, slots, IBF_RING_SLOTS, IBF_RING_SLOT_SIZE, value, NULL) == IBF_OK, "publish");
    CHECK(ibf_bridge_header_load_snapshot_seq(h) == 0, "the head wraps to 0");
    printf("snapshot head=%" PRIu64 "\n", (uint64_t)ibf_bridge_header_load_snapshot_seq(h));
    free(value);
    free(slots);
    free(h);
}

int main(void) {
    /* Exactly the region's length, so that AddressSanitizer catches any access past it. */
    region = (unsigned char *)malloc(region_len);
    CHECK(region != NULL, "malloc");
    queue();
    ring();
    snapshot();
    free(region);
    printf("ok\n");
    return 0;
}

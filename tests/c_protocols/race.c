/* A C writer thread and a C reader thread racing on each region protocol of bridge.h, for
 * ThreadSanitizer (tests/c_protocols_races.rs): the log queue (a writer that never waits, so
 * it drops; a reader that checks every entry arrives whole and in order), the log ring (a
 * slow reader lapped by the writer: every entry read whole, read + missed = the span), the
 * mailbox (a client and a server; every answer right, polls that waited) and the draw lists
 * (a writer publishing as fast as it can; every list taken whole and newer, some overwritten).
 * One line of counts per protocol; exit 1 on any wrong count. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"

#define ENTRIES 60000U
#define REQUESTS 2000U
#define LISTS 20000U

static unsigned char *region;
static size_t region_len;
static int failed;

static void expect(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "race.c: %s\n", what);
        failed = 1;
    }
}

static unsigned char *zeroed(size_t len) {
    uint64_t *words = (uint64_t *)calloc(len / 8U, 8U);
    if (words == NULL) {
        exit(1);
    }
    return (unsigned char *)words;
}

/* ---- the writers of decimal entries: the log queue's and the log ring's ---- */
static uint64_t queue_dropped, end_dropped;
static int writer_done;

typedef struct writer_ {
    int (*push)(const ibf_log_entry *e, const char *text, size_t n);
} writer_;

static int queue_push(const ibf_log_entry *e, const char *text, size_t n) {
    return ibf_log_queue_push_unscoped(region, region_len, e, "w", 1, text, n);
}

static int ring_push(const ibf_log_entry *e, const char *text, size_t n) {
    return ibf_log_ring_push(region, region_len, e, "", 0, text, n, NULL);
}

/* Entries 0 to ENTRIES - 1, their text the decimal number, as fast as it can: a drop is
 * counted, never retried. */
static void *entries_writer(void *arg) {
    const writer_ *w = (const writer_ *)arg;
    ibf_log_entry e;
    char text[32];
    uint64_t k;
    memset(&e, 0, sizeof e);
    for (k = 0; k < ENTRIES; k++) {
        int n = snprintf(text, sizeof text, "%" PRIu64, k);
        int r = w->push(&e, text, (size_t)n);
        if (r == IBF_DROPPED) {
            queue_dropped++;
        } else {
            expect(r == IBF_OK, "push");
        }
    }
    __atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void *queue_writer(void *arg) {
    static const writer_ w = {queue_push};
    ibf_log_entry e;
    (void)arg;
    entries_writer((void *)(uintptr_t)&w);
    memset(&e, 0, sizeof e);
    while (queue_push(&e, "end", 3) == IBF_DROPPED) {
        end_dropped++;
        sched_yield();
    }
    return NULL;
}

static void queue(void) {
    pthread_t w;
    ibf_log_queue_record rec;
    uint64_t received = 0, empty = 0, last = 0;
    region_len = sizeof(ibf_log_queue_header) + 1024U;
    region = zeroed(region_len);
    ((ibf_log_queue_header *)(void *)region)->capacity = 1024U;
    pthread_create(&w, NULL, queue_writer, NULL);
    for (;;) {
        int r = ibf_log_queue_pop(region, region_len, &rec);
        if (r == IBF_EMPTY) {
            empty++;
            continue;
        }
        expect(r == IBF_OK, "queue pop");
        if (r != IBF_OK || strcmp(rec.text, "end") == 0) {
            break;
        }
        {
            uint64_t k = strtoull(rec.text, NULL, 10);
            expect(received == 0 || k > last, "queue order");
            last = k;
            received++;
        }
    }
    pthread_join(w, NULL);
    expect(received + queue_dropped == ENTRIES, "queue: received + dropped = written");
    expect(queue_dropped > 0 && ibf_log_queue_dropped(region, region_len) == queue_dropped + end_dropped,
           "queue: every drop counted");
    printf("race queue: %u written, %" PRIu64 " received, %" PRIu64 " dropped, %" PRIu64 " empty polls\n", ENTRIES,
           received, queue_dropped, empty);
    free(region);
}

/* ---- the log ring ---- */
static void *ring_writer(void *arg) {
    static const writer_ w = {ring_push};
    (void)arg;
    return entries_writer((void *)(uintptr_t)&w);
}

static ibf_log_ring_reader ring_reader;
static ibf_log_ring_record ring_rec;

static void ring(void) {
    pthread_t w;
    uint64_t read = 0, laps = 0, missed = 0, corrupt = 0, first = 0, last = 0, before = 0;
    region_len = sizeof(ibf_log_ring_header) + 2048U;
    region = zeroed(region_len);
    ((ibf_log_ring_header *)(void *)region)->capacity = 2048U;
    expect(ibf_log_ring_join_latest(&ring_reader, region, region_len) == IBF_OK, "ring join");
    __atomic_store_n(&writer_done, 0, __ATOMIC_RELEASE);
    pthread_create(&w, NULL, ring_writer, NULL);
    for (;;) {
        uint64_t lost = 0;
        int done = __atomic_load_n(&writer_done, __ATOMIC_ACQUIRE);
        int r = ibf_log_ring_read_next(&ring_reader, region, region_len, &ring_rec, &lost);
        if (r == IBF_OK) {
            char want[32];
            snprintf(want, sizeof want, "%" PRIu64, ring_rec.head.seq);
            corrupt += strcmp(want, ring_rec.text) != 0;
            if (read == 0) {
                first = ring_rec.head.seq;
            }
            last = ring_rec.head.seq;
            read++;
            if (read % 16U == 0) {
                sched_yield();
            }
        } else if (r == IBF_LAPPED) {
            laps++;
            missed += lost;
            if (read == 0) {
                before += lost;
            }
        } else {
            expect(r == IBF_EMPTY, "ring read");
            if (done || r != IBF_EMPTY) {
                break;
            }
        }
    }
    pthread_join(w, NULL);
    expect(corrupt == 0 && laps > 0 && read > 0, "ring: whole entries, lapped");
    expect(read + missed == last - first + 1U + before, "ring: read + missed = span");
    expect(last == ENTRIES - 1U, "ring: read to the last entry");
    printf("race ring: %u written, %" PRIu64 " read, %" PRIu64 " laps, %" PRIu64 " missed, %" PRIu64 " corrupt\n",
           ENTRIES, read, laps, missed, corrupt);
    free(region);
}

/* ---- the mailbox ---- */
static void *mailbox_server(void *arg) {
    uint32_t served = 0;
    char request[64], answer[128];
    (void)arg;
    while (served < REQUESTS) {
        size_t n = 0;
        uint32_t seq = 0;
        int r = ibf_mailbox_serve_begin(region, region_len, request, sizeof request - 1, &n, &seq);
        if (r == IBF_PENDING) {
            sched_yield();
            continue;
        }
        expect(r == IBF_OK, "serve_begin");
        request[n] = '\0';
        n = (size_t)snprintf(answer, sizeof answer, "ans %s", request + 4);
        expect(ibf_mailbox_serve_answer(region, region_len, seq, 0, answer, n) == IBF_OK, "serve_answer");
        served++;
    }
    return NULL;
}

static void mailbox(void) {
    pthread_t s;
    uint32_t k;
    uint64_t waits = 0, wrong = 0;
    char text[64], answer[128], want[64];
    region_len = sizeof(ibf_mailbox_header) + 64U + 64U;
    region = zeroed(region_len);
    ((ibf_mailbox_header *)(void *)region)->request_capacity = 64U;
    ((ibf_mailbox_header *)(void *)region)->response_capacity = 64U;
    pthread_create(&s, NULL, mailbox_server, NULL);
    for (k = 0; k < REQUESTS; k++) {
        ibf_mailbox_response resp;
        uint32_t seq = 0;
        int r, n = snprintf(text, sizeof text, "req %u", k);
        memset(&resp, 0, sizeof resp);
        expect(ibf_mailbox_request_unscoped(region, region_len, text, (size_t)n, &seq) == IBF_OK, "request");
        while ((r = ibf_mailbox_poll_response(region, region_len, seq, &resp, answer, sizeof answer)) == IBF_PENDING) {
            waits++;
            sched_yield();
        }
        expect(r == IBF_OK, "poll_response");
        n = snprintf(want, sizeof want, "ans %u", k);
        wrong += resp.len != (uint64_t)n || memcmp(answer, want, (size_t)n) != 0 || resp.status != 0;
    }
    pthread_join(s, NULL);
    expect(wrong == 0 && waits > 0, "mailbox: every answer right, polls waited");
    printf("race mailbox: %u requests, %u answered, %" PRIu64 " wrong, %" PRIu64 " waits\n", REQUESTS, REQUESTS, wrong,
           waits);
    free(region);
}

/* ---- the draw lists ---- */
static uint64_t overwritten;
static int draw_done;

static void *draw_writer(void *arg) {
    ibf_draw_writer w;
    uint32_t n;
    (void)arg;
    ibf_draw_writer_init(&w);
    for (n = 1; n <= LISTS; n++) {
        ibf_draw_list_header head;
        ibf_draw_cmd cmd;
        uint64_t bytes = n;
        uint32_t i;
        bool over = false;
        expect(ibf_draw_begin(&w, region, region_len) == IBF_OK, "begin");
        memset(&cmd, 0, sizeof cmd);
        cmd.color = n;
        cmd.payload_len = 8;
        for (i = 0; i < 1U + n % 7U; i++) {
            cmd.payload_off = w.payload_len;
            expect(ibf_draw_add_unscoped(&w, &cmd, &bytes, 8) == IBF_OK, "add");
        }
        memset(&head, 0, sizeof head);
        head.seq = n;
        expect(ibf_draw_publish_unscoped(&w, region, region_len, &head, &over) == IBF_OK, "publish");
        overwritten += over;
    }
    __atomic_store_n(&draw_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void draw(void) {
    pthread_t w;
    ibf_draw_reader r;
    uint64_t taken = 0, bad = 0;
    uint32_t last = 0;
    ibf_draw_header *h;
    size_t list = sizeof(ibf_draw_list_header) + 16U * sizeof(ibf_draw_cmd) + 128U;
    region_len = sizeof(ibf_draw_header) + 3U * list;
    region = zeroed(region_len);
    h = (ibf_draw_header *)(void *)region;
    h->buffers = 3;
    h->buffer_size = (uint32_t)list;
    h->max_commands = 16;
    h->max_payload = 128;
    ibf_draw_reset(region, region_len);
    ibf_draw_reader_init(&r);
    pthread_create(&w, NULL, draw_writer, NULL);
    for (;;) {
        ibf_draw_list_header head;
        int done = __atomic_load_n(&draw_done, __ATOMIC_ACQUIRE);
        int res = ibf_draw_take(&r, region, region_len, &head);
        if (res == IBF_OK) {
            uint32_t i;
            int good = head.seq > last && head.count == 1U + head.seq % 7U;
            for (i = 0; good && i < head.count; i++) {
                ibf_draw_cmd cmd;
                uint64_t bytes = 0;
                good = ibf_draw_item(&r, i, &cmd) == IBF_OK && cmd.color == head.seq
                       && ibf_draw_payload(&r, cmd.payload_off, 8, &bytes) == IBF_OK && bytes == head.seq;
            }
            bad += !good;
            last = head.seq;
            taken++;
        } else {
            expect(res == IBF_EMPTY, "take");
            if (done) {
                break;
            }
            sched_yield();
        }
    }
    pthread_join(w, NULL);
    expect(bad == 0 && last == LISTS && taken > 0 && overwritten > 0, "draw: whole, newest, some overwritten");
    printf("race draw: %u published, %" PRIu64 " taken, %" PRIu64 " stale or torn, %" PRIu64 " overwritten\n", LISTS,
           taken, bad, overwritten);
    free(region);
}

int main(void) {
    queue();
    ring();
    mailbox();
    draw();
    return failed;
}

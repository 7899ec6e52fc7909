/* The C client of the protocol torture (examples/torture_protocols.rs, the contract in
 * tests/torture/PROTOCOLS.md): `protocols PATH ROW MILLIS`. It maps the bridge file, attaches
 * it with ibf_attach_all, and runs the five phases with only the generated helpers of
 * bridge.h: its block's log queue (writer), the log ring (a slow reader), its block's mailbox
 * (client), its bot block's draw lists (writer) and its client row (session). One line per
 * phase on stdout; exit 1 with a message on stderr for anything that is not a normal outcome.
 * Built with `gcc -std=c11 -O2 -Igenerated -pthread`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "clock.h"

/* The status the host answers every request with: `ok` of the schema's command_status. */
#define ANSWER_STATUS ((uint32_t)IBF_COMMAND_STATUS_OK)

static unsigned char *base;
static size_t base_len;
static unsigned row;
static uint64_t millis;

static void fail(const char *phase, const char *what, int code) {
    fprintf(stderr, "protocols.c: %s: %s: %s\n", phase, what, ibf_protocol_result_name(code));
    exit(1);
}

/* The attach handle, retried while the host is not running yet. */
static void attach(ibf_attached *a) {
    ibf_attach_error err;
    int tries;
    for (tries = 0; tries < 5000; tries++) {
        int code = ibf_attach_all(base, base_len, a, &err);
        if (code == IBF_ATTACH_OK) {
            return;
        }
        if (code != IBF_ATTACH_HOST_NOT_RUNNING && code != IBF_ATTACH_HOST_RELOADED) {
            fprintf(stderr, "protocols.c: attach: %s (%s)\n", err.check_name, err.region);
            exit(1);
        }
        sleep_us(1000);
    }
    fprintf(stderr, "protocols.c: attach: the host never ran\n");
    exit(1);
}

/* A re-layout moves the blocks, a reload does not: when the producer's generation changed
 * since `a` attached, attach again. Nonzero when the region `*p` (of `*len` bytes), taken
 * again from the new handle by `take`, moved: the phase starts over on it. */
typedef void *(*region_of)(const ibf_attached *a, size_t *len);

static int moved(ibf_attached *a, region_of take, void **p, size_t *len) {
    size_t n = 0;
    void *at;
    if (!ibf_attached_reloaded(a)) {
        return 0;
    }
    attach(a);
    at = take(a, &n);
    if (at == NULL) {
        fail("follow", "the region is gone after a re-layout", IBF_EXCHANGE_GEOMETRY);
    }
    if (at == *p && n == *len) {
        return 0;
    }
    *p = at;
    *len = n;
    return 1;
}

static void *queue_of(const ibf_attached *a, size_t *len) {
    *len = (size_t)ibf_attached_client_blocks_log_queue_size(a, row);
    return ibf_attached_client_blocks_log_queue(a, row);
}

static void *ring_of(const ibf_attached *a, size_t *len) {
    *len = (size_t)ibf_attached_log_ring_size(a);
    return ibf_attached_log_ring(a);
}

static void *mailbox_of(const ibf_attached *a, size_t *len) {
    *len = (size_t)ibf_attached_client_blocks_mailbox_size(a, row);
    return ibf_attached_client_blocks_mailbox(a, row);
}

static void *draw_of(const ibf_attached *a, size_t *len) {
    *len = (size_t)ibf_attached_bot_blocks_draw_size(a, row);
    return ibf_attached_bot_blocks_draw(a, row);
}

static void log_queue(ibf_attached *a) {
    size_t len;
    void *q = queue_of(a, &len);
    uint64_t end = now_ns() + millis * 1000000ULL;
    uint64_t k = 0, dropped = 0;
    char text[32];
    ibf_log_entry e;
    int code;
    if (q == NULL) {
        fail("log_queue", "no log queue", IBF_QUEUE_CAPACITY);
    }
    memset(&e, 0, sizeof e);
    while (now_ns() < end) {
        int n = snprintf(text, sizeof text, "%" PRIu64, k);
        e.level = (ibf_log_level)(k % 5U);
        e.tick = k;
        (void)moved(a, queue_of, &q, &len); /* the entries in the old queue are lost: not an error */
        code = ibf_log_queue_push_unscoped(q, len, &e, "torture", 7, text, (size_t)n);
        if (code == IBF_DROPPED) {
            dropped++;
        } else if (code != IBF_OK && !ibf_attached_reloaded(a)) {
            fail("log_queue", "push", code); /* not read while the queue was being replaced */
        }
        k++;
    }
    e.level = (ibf_log_level)(k % 5U);
    e.tick = k;
    for (end = now_ns() + 30000000000ULL;; sleep_us(1000)) {
        (void)moved(a, queue_of, &q, &len);
        code = ibf_log_queue_push_unscoped(q, len, &e, "torture", 7, "end", 3);
        if ((code != IBF_DROPPED && (code == IBF_OK || !ibf_attached_reloaded(a))) || now_ns() > end) {
            break; /* `end` still dropped after 30 s: failed below */
        }
    }
    if (code != IBF_OK) {
        fail("log_queue", "push end", code);
    }
    printf("log_queue %" PRIu64 " %" PRIu64 "\n", k, dropped);
    fflush(stdout);
}

static ibf_log_ring_reader ring_reader;
static ibf_log_ring_record ring_record;

static void log_ring(ibf_attached *a) {
    size_t len;
    void *ring = ring_of(a, &len);
    uint64_t end = now_ns() + millis * 1000000ULL;
    uint64_t read = 0, gaps = 0, missed = 0, corrupt = 0, first = 0, last = 0, before = 0, spans = 0, in_span = 0;
    int code;
    if (ring == NULL) {
        fail("log_ring", "no log ring", IBF_RING_CAPACITY);
    }
    if ((code = ibf_log_ring_join_latest(&ring_reader, ring, len)) != IBF_OK) {
        fail("log_ring", "join", code);
    }
    while (now_ns() < end) {
        uint64_t lost = 0;
        if (moved(a, ring_of, &ring, &len)) {
            /* A new ring after a re-layout, its seqs from 0: the span so far kept, a new one
             * started from its newest entry. */
            spans += in_span == 0 ? 0 : last - first + 1U + before;
            in_span = before = 0;
            if ((code = ibf_log_ring_join_latest(&ring_reader, ring, len)) != IBF_OK) {
                fail("log_ring", "join again", code);
            }
        }
        code = ibf_log_ring_read_next(&ring_reader, ring, len, &ring_record, &lost);
        if (code == IBF_OK) {
            char want[32];
            snprintf(want, sizeof want, "%" PRIu64, ring_record.head.seq);
            if (strcmp(ring_record.text, want) != 0) {
                corrupt++;
            }
            if (in_span == 0) {
                first = ring_record.head.seq;
            }
            last = ring_record.head.seq;
            in_span++;
            read++;
            if (read % 64U == 0) {
                sleep_us(1000);
            }
        } else if (code == IBF_LAPPED) {
            gaps++;
            missed += lost;
            if (in_span == 0) {
                before += lost;
            }
        } else if (code == IBF_EMPTY) {
            sched_yield();
        } else if (!ibf_attached_reloaded(a)) {
            fail("log_ring", "read_next", code);
        }
    }
    /* The span of seqs the reader was given or told it missed: from the first entry read,
     * less what a lap before it missed, to the last; summed over the rings a re-layout made. */
    printf("log_ring %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", read, gaps, missed, corrupt,
           spans + (in_span == 0 ? 0 : last - first + 1U + before));
    fflush(stdout);
}

static void mailbox(ibf_attached *a) {
    size_t len;
    void *m = mailbox_of(a, &len);
    uint64_t end = now_ns() + millis * 1000000ULL;
    uint64_t k = 0, answered = 0, wrong = 0, waits = 0;
    static char answer[65536];
    if (m == NULL) {
        fail("mailbox", "no mailbox", IBF_MAILBOX_CAPACITY);
    }
    while (now_ns() < end) {
        char text[32], want[128];
        int n = snprintf(text, sizeof text, "req %" PRIu64, k);
        int w = snprintf(want, 64, "ans %" PRIu64, k);
        uint64_t deadline;
        uint32_t seq;
        ibf_mailbox_response resp;
        int code;
        memset(want + w, 'x', (size_t)(k % 50U));
        w += (int)(k % 50U);
        deadline = now_ns() + 5000000000ULL;
    send:
        (void)moved(a, mailbox_of, &m, &len);
        if ((code = ibf_mailbox_request_unscoped(m, len, text, (size_t)n, &seq)) != IBF_OK) {
            if (!ibf_attached_reloaded(a) || now_ns() > deadline) {
                fail("mailbox", "request", code);
            }
            goto send;
        }
        for (;;) {
            code = ibf_mailbox_poll_response(m, len, seq, &resp, answer, sizeof answer);
            /* An answer read after a re-layout (of a mailbox that moved) is no answer: the
             * request was lost with the old mailbox, and is sent again. */
            if (moved(a, mailbox_of, &m, &len)) {
                if (now_ns() > deadline) {
                    fail("mailbox", "re-sent for 5 s", code);
                }
                goto send;
            }
            if (code == IBF_OK) {
                break;
            }
            if (code != IBF_PENDING && !ibf_attached_reloaded(a)) {
                fail("mailbox", "poll_response", code);
            }
            waits++;
            if (now_ns() > deadline) {
                fail("mailbox", "no answer in 5 s", code);
            }
            sched_yield();
        }
        answered++;
        if (resp.status != ANSWER_STATUS || resp.cut || resp.len != (uint64_t)w || memcmp(answer, want, (size_t)w) != 0) {
            wrong++;
        }
        k++;
    }
    printf("mailbox %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", k, answered, wrong, waits);
    fflush(stdout);
}

static void draw(ibf_attached *a) {
    size_t len;
    void *d = draw_of(a, &len);
    uint64_t end = now_ns() + millis * 1000000ULL;
    uint64_t n = 0;
    ibf_draw_writer w;
    if (d == NULL) {
        fail("draw", "no draw lists", IBF_EXCHANGE_GEOMETRY);
    }
    ibf_draw_writer_init(&w);
    while (now_ns() < end) {
        ibf_draw_list_header head;
        ibf_draw_cmd cmd;
        unsigned char bytes[8];
        uint64_t i;
        int code;
        n++;
        if (moved(a, draw_of, &d, &len)) {
            ibf_draw_writer_init(&w); /* the new block's lists start over; n goes on */
        }
        if ((code = ibf_draw_begin(&w, d, len)) != IBF_OK) {
            if (!ibf_attached_reloaded(a)) {
                fail("draw", "begin", code);
            }
            continue; /* read while the block was being replaced: the next list in the new one */
        }
        for (i = 0; i < 8; i++) {
            bytes[i] = (unsigned char)(n >> (8U * i));
        }
        memset(&cmd, 0, sizeof cmd);
        cmd.color = (uint32_t)n;
        cmd.payload_len = 8;
        for (i = 0; i < 1U + n % 7U; i++) {
            cmd.payload_off = w.payload_len;
            if ((code = ibf_draw_add_unscoped(&w, &cmd, bytes, 8)) != IBF_OK) {
                fail("draw", "add", code);
            }
        }
        memset(&head, 0, sizeof head);
        head.seq = (uint32_t)n;
        head.for_tick = n;
        if (moved(a, draw_of, &d, &len)) {
            ibf_draw_writer_init(&w); /* list n was built in the old block: not published */
            continue;
        }
        if ((code = ibf_draw_publish_unscoped(&w, d, len, &head, NULL)) != IBF_OK && !ibf_attached_reloaded(a)) {
            fail("draw", "publish", code);
        }
    }
    printf("draw %" PRIu64 " %" PRIu64 "\n", n, n);
    fflush(stdout);
}

/* Claims the row (retrying while the host has not freed it yet), fills it in, activates it:
 * 1 claim, or the counters of what activate noticed. */
static void claim(ibf_attached *a, void *h, size_t len, ibf_client_session *s, uint64_t *claims, uint64_t *disconnects, uint64_t *reloads) {
    uint64_t deadline = now_ns() + 5000000000ULL;
    for (;;) {
        ibf_client_entry values;
        int code = ibf_client_claim(h, len, (uint32_t)a->generation, row, s);
        if ((code == IBF_RELOADED || code == IBF_NOT_FREE) && now_ns() > deadline) {
            fail("lifecycle", "the row was never claimed", code);
        }
        if (code == IBF_RELOADED) {
            /* The host reloaded since this handle attached: attach again, then claim. */
            attach(a);
            continue;
        }
        if (code == IBF_NOT_FREE) {
            sleep_us(100);
            continue;
        }
        if (code != IBF_OK) {
            fail("lifecycle", "claim", code);
        }
        (*claims)++;
        memset(&values, 0, sizeof values);
        values.pid = (uint32_t)getpid();
        values.connected_ns = now_ns();
        values.heartbeat_ns = values.connected_ns;
        values.pad = IBF_NO_PAD;
        snprintf(values.name, sizeof values.name, "torture-c-%u", row);
        code = ibf_client_fill(h, len, s, &values);
        if (code == IBF_OK) {
            code = ibf_client_activate(h, len, s);
        }
        if (code == IBF_OK) {
            return;
        }
        if (code == IBF_DISCONNECTED) {
            (*disconnects)++;
        } else if (code == IBF_RELOADED) {
            (*reloads)++;
        } else {
            fail("lifecycle", "activate", code);
        }
    }
}

static void lifecycle(const ibf_attached *attached) {
    ibf_attached again = *attached;
    ibf_attached *a = &again;
    void *h = ibf_attached_header(a);
    size_t len = (size_t)ibf_attached_header_size(a);
    uint64_t end = now_ns() + millis * 1000000ULL;
    uint64_t claims = 0, disconnects = 0, reloads = 0;
    ibf_client_session s;
    int code;
    claim(a, h, len, &s, &claims, &disconnects, &reloads);
    while (now_ns() < end) {
        code = ibf_client_heartbeat(h, len, &s, now_ns());
        if (code == IBF_DISCONNECTED || code == IBF_RELOADED) {
            if (code == IBF_DISCONNECTED) {
                disconnects++;
            } else {
                reloads++;
            }
            claim(a, h, len, &s, &claims, &disconnects, &reloads);
        } else if (code != IBF_OK) {
            fail("lifecycle", "heartbeat", code);
        }
        sleep_us(100);
    }
    code = ibf_client_close(h, len, &s);
    if (code == IBF_DISCONNECTED) {
        disconnects++;
    } else if (code == IBF_RELOADED) {
        reloads++;
    } else if (code != IBF_OK) {
        fail("lifecycle", "close", code);
    }
    printf("lifecycle %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", claims, disconnects, reloads);
    fflush(stdout);
}

int main(int argc, char **argv) {
    struct stat st;
    ibf_attached a;
    int fd;
    if (argc != 4) {
        fprintf(stderr, "usage: protocols PATH ROW MILLIS\n");
        return 1;
    }
    row = (unsigned)strtoul(argv[2], NULL, 10);
    millis = strtoull(argv[3], NULL, 10);
    fd = open(argv[1], O_RDWR);
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "protocols.c: cannot open %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    base_len = (size_t)st.st_size;
    base = (unsigned char *)mmap(NULL, base_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        fprintf(stderr, "protocols.c: cannot map %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    attach(&a);
    if (row >= ibf_attached_client_blocks_count(&a)) {
        fprintf(stderr, "protocols.c: row %u is past the %" PRIu64 " client blocks\n", row,
                ibf_attached_client_blocks_count(&a));
        return 1;
    }
    log_queue(&a);
    log_ring(&a);
    mailbox(&a);
    draw(&a);
    lifecycle(&a);
    munmap(base, base_len);
    close(fd);
    return 0;
}

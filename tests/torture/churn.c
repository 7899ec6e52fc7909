/* The C client of the churn torture (examples/torture_churn/, the contract in
 * tests/torture/PROTOCOLS.md, "Churn"): `churn_c churn PATH ROW ACTION HARNESS`. It attaches
 * the bridge file, claims row ROW, activates and reports `connected TAG T_BEFORE T_AFTER`,
 * then runs ACTION with the generated helpers of bridge.h, whose writers are bound to its
 * claim (ibf_log_queue_push(h, hlen, &s, ...) and the like check its standing), heartbeating, and reporting `still T_BEFORE` at
 * most every 10 ms while it stands Connected. Once ready it stores its tag at HARNESS + 8 * ROW
 * (release). On losing the row it reports `lost STANDING` and exits 0; anything else that is
 * not a normal outcome exits 1 with a message on stderr. Actions: push, draw, hold, stall
 * (see the Rust client, examples/torture_churn/client.rs). TORTURE_CHURN_BREAK=unscoped: the
 * stalled client writes through the _unscoped helpers, without loading its standing; =standing: its standing looks at the
 * host's generation only. Built with
 * `gcc -std=c11 -O2 -Igenerated`. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "clock.h"

static unsigned char *base;
static size_t base_len;
static ibf_attached a;
static ibf_client_session s;
static unsigned char *h;
static size_t hlen;
static unsigned row;
static uint64_t me, still;
static uint64_t *ready_word;

static void fail(const char *what, int code) {
    fprintf(stderr, "churn.c: %s: %s\n", what, ibf_protocol_result_name(code));
    exit(1);
}

/* Reports the standing the row was lost with, and exits 0. */
static void lost(int code) {
    printf("lost %s\n", ibf_protocol_result_name(code));
    fflush(stdout);
    exit(0);
}

/* A heartbeat; exits through lost() once the row is no longer the claim's. */
static void beat(void) {
    uint64_t t = now_ns();
    int code = ibf_client_heartbeat(h, hlen, &s, t);
    if (code != IBF_OK) {
        lost(code);
    }
    if (t - still >= 10000000ULL) {
        printf("still %" PRIu64 "\n", t);
        fflush(stdout);
        still = t;
    }
}

/* The standing loaded before a write: the write goes on only while it is Connected. */
static void stand(void) {
    int code = ibf_client_standing(h, hlen, &s);
    if (code != IBF_OK) {
        lost(code);
    }
}

/* A write the claim refused (it was lost between stand() and the write): its standing. */
static void refused(int code) {
    if (code == IBF_DISCONNECTED || code == IBF_RELOADED || code == IBF_HOST_EXITING) {
        lost(code);
    }
}

static void set_ready(void) { __atomic_store_n(ready_word, me, __ATOMIC_RELEASE); }

/* Attaches (again while the host is starting or reloading) and claims the row: 10 s at most. */
static void claim(void) {
    ibf_attach_error err;
    uint64_t until = now_ns() + 10000000000ULL;
    for (;;) {
        int code = ibf_attach_all(base, base_len, &a, &err);
        if (code == IBF_ATTACH_OK) {
            h = (unsigned char *)ibf_attached_header(&a);
            hlen = (size_t)ibf_attached_header_size(&a);
            code = ibf_client_claim(h, hlen, (uint32_t)a.generation, row, &s);
            if (code == IBF_OK) {
                return;
            }
            if (code != IBF_NOT_FREE && code != IBF_RELOADED) {
                fail("claim", code);
            }
        } else if (code != IBF_ATTACH_HOST_NOT_RUNNING && code != IBF_ATTACH_HOST_RELOADED) {
            fprintf(stderr, "churn.c: attach: %s (%s)\n", err.check_name, err.region);
            exit(1);
        }
        if (now_ns() > until) {
            fprintf(stderr, "churn.c: row %u not claimed in 10 s\n", row);
            exit(1);
        }
        sleep_us(200);
    }
}

/* TORTURE_CHURN_BREAK=unscoped: the stalled client's writes check no claim. */
static int unscoped_writes;

static int push_entry(void *q, size_t len, uint64_t k) {
    ibf_log_entry e;
    char text[64];
    int n = snprintf(text, sizeof text, "%" PRIu64 " %" PRIu64, me, k);
    memset(&e, 0, sizeof e);
    e.tick = k;
    if (unscoped_writes) {
        return ibf_log_queue_push_unscoped(q, len, &e, "churn", 5, text, (size_t)n);
    }
    return ibf_log_queue_push(h, hlen, &s, q, len, &e, "churn", 5, text, (size_t)n);
}

static int publish_list(ibf_draw_writer *w, void *d, size_t len, uint64_t k) {
    ibf_draw_list_header head;
    ibf_draw_cmd cmd;
    unsigned char bytes[8];
    unsigned i;
    int code = ibf_draw_begin(w, d, len);
    if (code != IBF_OK) {
        return code;
    }
    for (i = 0; i < 8; i++) {
        bytes[i] = (unsigned char)(k >> (8U * i));
    }
    memset(&cmd, 0, sizeof cmd);
    cmd.color = (uint32_t)k;
    cmd.payload_len = 8;
    cmd.payload_off = w->payload_len;
    code = unscoped_writes ? ibf_draw_add_unscoped(w, &cmd, bytes, 8) : ibf_draw_add(h, hlen, &s, w, &cmd, bytes, 8);
    if (code != IBF_OK) {
        return code;
    }
    memset(&head, 0, sizeof head);
    head.seq = (uint32_t)k;
    head.for_tick = me;
    if (unscoped_writes) {
        return ibf_draw_publish_unscoped(w, d, len, &head, NULL);
    }
    return ibf_draw_publish(h, hlen, &s, w, d, len, &head, NULL);
}

int main(int argc, char **argv) {
    struct stat st;
    int fd, code;
    uint64_t before, after, k;
    const char *action;
    size_t harness;
    void *q, *d, *box;
    size_t qlen, dlen, blen;
    ibf_draw_writer w;
    ibf_client_entry values;
    if (argc != 6 || strcmp(argv[1], "churn") != 0) {
        fprintf(stderr, "usage: churn_c churn PATH ROW ACTION HARNESS\n");
        return 1;
    }
    row = (unsigned)strtoul(argv[3], NULL, 10);
    action = argv[4];
    harness = (size_t)strtoull(argv[5], NULL, 10);
    fd = open(argv[2], O_RDWR);
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "churn.c: cannot open %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    base_len = (size_t)st.st_size;
    base = (unsigned char *)mmap(NULL, base_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED || harness % 8U != 0 || harness > base_len || (base_len - harness) / 8U <= row) {
        fprintf(stderr, "churn.c: cannot map %s, or no harness word for row %u\n", argv[2], row);
        return 1;
    }
    ready_word = (uint64_t *)(void *)(base + harness + 8U * row);
    claim();
    me = (uint64_t)s.host_generation << 32 | s.generation;
    memset(&values, 0, sizeof values);
    values.pid = (uint32_t)getpid();
    values.pad = IBF_NO_PAD;
    snprintf(values.name, sizeof values.name, "churn-c-%u", row);
    if ((code = ibf_client_fill(h, hlen, &s, &values)) != IBF_OK) {
        lost(code);
    }
    before = now_ns();
    code = ibf_client_activate(h, hlen, &s);
    after = now_ns();
    if (code != IBF_OK) {
        lost(code);
    }
    printf("connected %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", me, before, after);
    fflush(stdout);
    still = after;
    q = ibf_attached_client_blocks_log_queue(&a, row);
    qlen = (size_t)ibf_attached_client_blocks_log_queue_size(&a, row);
    d = ibf_attached_bot_blocks_draw(&a, row);
    dlen = (size_t)ibf_attached_bot_blocks_draw_size(&a, row);
    box = ibf_attached_client_blocks_mailbox(&a, row);
    blen = (size_t)ibf_attached_client_blocks_mailbox_size(&a, row);
    if (q == NULL || d == NULL || box == NULL) {
        stand();
        fail("blocks", IBF_SESSION_ROW);
    }
    ibf_draw_writer_init(&w);
    if (strcmp(action, "push") == 0) {
        for (k = 0;; k++) {
            beat();
            stand();
            code = push_entry(q, qlen, k);
            refused(code);
            if (code != IBF_OK && code != IBF_DROPPED) {
                fail("log queue", code);
            }
            if (k == 0) {
                set_ready();
            }
        }
    }
    if (strcmp(action, "draw") == 0) {
        for (k = 1;; k++) {
            beat();
            stand();
            code = publish_list(&w, d, dlen, k);
            refused(code);
            if (code != IBF_OK) {
                fail("draw", code);
            }
            if (k == 1) {
                set_ready();
            }
        }
    }
    if (strcmp(action, "hold") == 0) {
        char text[64];
        uint32_t seq, pad;
        int n = snprintf(text, sizeof text, "req %" PRIu64, me);
        for (k = 1; k <= 2; k++) {
            stand();
            if ((code = publish_list(&w, d, dlen, k)) != IBF_OK) {
                fail("draw", code);
            }
        }
        stand();
        if ((code = ibf_mailbox_request(h, hlen, &s, box, blen, text, (size_t)n, &seq)) != IBF_OK) {
            fail("mailbox", code);
        }
        for (pad = 0; pad < IBF_MAX_PLAYERS; pad++) {
            uint64_t owner;
            code = ibf_client_bind_pad(h, hlen, &s, pad, &owner);
            if (code == IBF_OK) {
                break;
            }
            if (code == IBF_DISCONNECTED || code == IBF_RELOADED || code == IBF_HOST_EXITING) {
                lost(code);
            }
            if (code != IBF_NOT_FREE) {
                fail("bind", code);
            }
        }
        set_ready();
        for (;;) {
            beat();
            sleep_us(1000);
        }
    }
    if (strcmp(action, "stall") == 0) {
        int unscoped = getenv("TORTURE_CHURN_BREAK") != NULL && strcmp(getenv("TORTURE_CHURN_BREAK"), "unscoped") == 0;
        int pushed = 0, published = 0;
        uint64_t until = now_ns() + 10000000000ULL;
        set_ready();
        int host_only = getenv("TORTURE_CHURN_BREAK") != NULL && strcmp(getenv("TORTURE_CHURN_BREAK"), "standing") == 0;
        /* Hung: no heartbeat until the row is no longer this session's (10 s at most), each
         * Connected standing reported as any other. TORTURE_CHURN_BREAK=standing: the
         * standing looks at the host's generation only, not the row's. */
        for (;;) {
            uint64_t t = now_ns();
            int connected = host_only ? ibf_bridge_header_load_host_generation((const ibf_bridge_header *)(const void *)h) == s.host_generation
                                      : ibf_client_standing(h, hlen, &s) == IBF_OK;
            if (!connected) {
                break;
            }
            if (t - still >= 10000000ULL) {
                printf("still %" PRIu64 "\n", t);
                fflush(stdout);
                still = t;
            }
            if (now_ns() > until) {
                fprintf(stderr, "churn.c: stall: the row was not freed in 10 s\n");
                return 1;
            }
            sleep_us(1000);
        }
        /* The default writers check the claim themselves (issue 46 item 3). */
        unscoped_writes = unscoped;
        pushed = push_entry(q, qlen, 0) == IBF_OK;
        published = publish_list(&w, d, dlen, 1) == IBF_OK;
        printf("stall push=%s draw=%s\n", pushed ? "written" : "refused", published ? "written" : "refused");
        lost(ibf_client_standing(h, hlen, &s));
    }
    fprintf(stderr, "churn.c: no action %s: push, draw, hold, stall\n", action);
    return 1;
}

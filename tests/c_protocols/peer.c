/* The host's side of the bridge's region protocols in C, for tests/c_protocols.rs, whose Rust
 * threads play the client's side over the same file at the same time: `peer PATH ROW`. Each
 * turn it pops row ROW's log queue (checking each entry's text is a decimal greater than the
 * last, until `end`), writes one log-ring entry (its text the decimal of its seq), serves the
 * mailbox (`req k` -> `ans k` and k % 50 'x'), takes the draw list when fresh while the row is
 * active (checking every command and payload against the list's seq) and, every 5 ms while the
 * row is active with a new generation, frees the row or reloads over its attached image
 * (ibf_attached_client_free/_reload, which put the mailbox and the draw exchange back at their
 * start; a new draw reader follows). It stops when the client says goodbye (the row closing),
 * frees the row, and prints its counts. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"

static void fail(const char *what, int code) {
    fprintf(stderr, "peer.c: %s: %s\n", what, ibf_protocol_result_name(code));
    exit(1);
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static ibf_log_queue_record rec;
static char request[4096], answer[4096];

/* The regions, and what the host counted. */
static void *queue, *ring, *mailbox, *draw, *header;
static size_t queue_len, ring_len, mailbox_len, draw_len, header_len;
static ibf_draw_reader reader;
static unsigned row_index;
static int ended;
static uint64_t received, corrupt, last_k, written, served, taken, stale, last_taken;

/* The list taken: whether every command's color and payload are its seq's. */
static int list_good(const ibf_draw_list_header *head) {
    uint32_t i;
    if (head->count != 1U + head->seq % 7U || head->payload_len != 8U * head->count) {
        return 0;
    }
    for (i = 0; i < head->count; i++) {
        ibf_draw_cmd cmd;
        uint64_t bytes;
        if (ibf_draw_item(&reader, i, &cmd) != IBF_OK || cmd.color != head->seq
            || ibf_draw_payload(&reader, cmd.payload_off, 8, &bytes) != IBF_OK || bytes != head->seq) {
            return 0;
        }
    }
    return 1;
}

/* Pops every entry there is, until `end`. */
static void pop_queue(void) {
    int code = IBF_EMPTY;
    while (!ended && (code = ibf_log_queue_pop(queue, queue_len, &rec)) == IBF_OK) {
        char *stop;
        uint64_t k;
        if (strcmp(rec.text, "end") == 0) {
            ended = 1;
            return;
        }
        k = strtoull(rec.text, &stop, 10);
        if (*stop != '\0' || stop == rec.text || strcmp(rec.source, "rust") != 0 || (received > 0 && k <= last_k)) {
            corrupt++;
        } else {
            last_k = k;
            received++;
        }
    }
    if (!ended && code != IBF_EMPTY) {
        fail("pop", code);
    }
}

static void push_ring(void) {
    ibf_log_entry e;
    char text[32];
    size_t n;
    int code;
    memset(&e, 0, sizeof e);
    e.tick = written;
    n = (size_t)snprintf(text, sizeof text, "%" PRIu64, written);
    if ((code = ibf_log_ring_push(ring, ring_len, &e, "host", 4, text, n, NULL)) != IBF_OK) {
        fail("ring push", code);
    }
    written++;
}

static void serve(void) {
    size_t n;
    uint32_t seq;
    int code = ibf_mailbox_serve_begin(mailbox, mailbox_len, request, sizeof request - 1, &n, &seq);
    if (code == IBF_OK) {
        uint64_t k;
        size_t len;
        request[n] = '\0';
        k = strtoull(request + 4, NULL, 10);
        len = (size_t)snprintf(answer, sizeof answer, "ans %" PRIu64, k);
        memset(answer + len, 'x', (size_t)(k % 50U));
        if ((code = ibf_mailbox_serve_answer(mailbox, mailbox_len, seq, (uint32_t)IBF_COMMAND_STATUS_OK, answer, len + k % 50U)) != IBF_OK) {
            fail("serve_answer", code);
        }
        served++;
    } else if (code != IBF_PENDING) {
        fail("serve_begin", code);
    }
}

/* Takes the draw list if one is fresh. Returns 1 when the exchange refused the take (its state
 * names the reader's own list): a writer broke the exchange, and the host frees the row. */
static int take(void) {
    ibf_draw_list_header head;
    int code = ibf_draw_take(&reader, draw, draw_len, &head);
    if (code == IBF_OK) {
        if (list_good(&head) && head.seq > last_taken) {
            taken++;
            last_taken = head.seq;
        } else {
            stale++;
        }
    } else if (code == IBF_EXCHANGE_STATE) {
        return 1;
    } else if (code != IBF_EMPTY) {
        fprintf(stderr, "peer.c: take: state %u, the reader's list %u, row state %u generation %u\n",
                (unsigned)ibf_draw_header_load_state((const ibf_draw_header *)draw), (unsigned)reader.own,
                (unsigned)ibf_client_entry_load_state(&((ibf_bridge_header *)header)->clients[row_index]),
                (unsigned)ibf_client_entry_load_generation(&((ibf_bridge_header *)header)->clients[row_index]));
        fail("take", code);
    }
    return 0;
}

int main(int argc, char **argv) {
    struct stat st;
    unsigned char *base;
    ibf_attached a;
    ibf_attach_error err;
    unsigned row;
    int fd, next_reload = 0, acted = 0, goodbye_freed = 0;
    uint64_t frees = 0, reloads = 0, refusals = 0, last_action = 0;
    uint32_t acted_on = 0, seen_generation = 0;
    uint64_t seen_at = 0;
    if (argc != 3) {
        fprintf(stderr, "usage: peer PATH ROW\n");
        return 1;
    }
    row = (unsigned)strtoul(argv[2], NULL, 10);
    row_index = row;
    fd = open(argv[1], O_RDWR);
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "peer.c: cannot open %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    base = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED || ibf_attach_all(base, (size_t)st.st_size, &a, &err) != IBF_ATTACH_OK) {
        fprintf(stderr, "peer.c: cannot attach %s\n", argv[1]);
        return 1;
    }
    queue = ibf_attached_client_blocks_log_queue(&a, row);
    queue_len = (size_t)ibf_attached_client_blocks_log_queue_size(&a, row);
    ring = ibf_attached_log_ring(&a);
    ring_len = (size_t)ibf_attached_log_ring_size(&a);
    mailbox = ibf_attached_client_blocks_mailbox(&a, row);
    mailbox_len = (size_t)ibf_attached_client_blocks_mailbox_size(&a, row);
    draw = ibf_attached_bot_blocks_draw(&a, row);
    draw_len = (size_t)ibf_attached_bot_blocks_draw_size(&a, row);
    header = ibf_attached_header(&a);
    header_len = (size_t)ibf_attached_header_size(&a);
    ibf_draw_reader_init(&reader);
    printf("ready\n");
    fflush(stdout);
    for (;;) {
        ibf_client_entry *entry = &((ibf_bridge_header *)header)->clients[row];
        ibf_client_state state = ibf_client_entry_load_state(entry);
        uint32_t generation = ibf_client_entry_load_generation(entry);
        pop_queue();
        push_ring();
        serve();
        /* The row's draw lists are taken while it is active (or said goodbye): after a free,
         * which put the exchange back at its start, a new reader waits for the next claim,
         * and for 2 ms more. A writer of the last session preempted between a publication
         * and its check of the row (ATTACH.md's one-write window) takes the publication
         * back in that time, before this reader could take it into the new session. */
        if (state == IBF_CLIENT_STATE_ACTIVE && generation != seen_generation) {
            seen_generation = generation;
            seen_at = now_ns();
        }
        if ((state == IBF_CLIENT_STATE_ACTIVE && now_ns() - seen_at > 2000000ULL) || state == IBF_CLIENT_STATE_CLOSING) {
            if (take()) {
                /* A writer of the last session preempted for longer than those 2 ms between
                 * its check and its take-back (on a loaded machine) published into this
                 * session's exchange: the reader is refused, as for any writer that breaks the
                 * exchange, and the host frees the row, which puts the exchange back at its
                 * start. The client notices a free; the test checks each refusal has a
                 * publication a free overtook behind it. */
                uint32_t was = 0;
                ibf_attached_client_free(&a, row, &was);
                ibf_draw_reader_init(&reader);
                if (was == IBF_CLIENT_STATE_CLOSING) {
                    goodbye_freed = 1;
                    break;
                }
                refusals++;
                continue;
            }
        }
        if (state == IBF_CLIENT_STATE_CLOSING) {
            ibf_attached_client_free(&a, row, NULL);
            ibf_draw_reader_init(&reader);
            break;
        }
        if (state == IBF_CLIENT_STATE_ACTIVE && (!acted || generation != acted_on) && now_ns() - last_action > 5000000ULL) {
            uint32_t was[IBF_MAX_CLIENTS];
            if (next_reload) {
                ibf_attached_client_reload(&a, NULL, was, NULL);
            } else {
                ibf_attached_client_free(&a, row, &was[row]);
            }
            /* The free put the row's draw exchange back at its start: a new reader. */
            ibf_draw_reader_init(&reader);
            /* The client may have said goodbye since the state was loaded: then the action
             * freed a closing row, which no client notices, and the run is over. A list the
             * client published after this turn's take went with the free. */
            if (was[row] == IBF_CLIENT_STATE_CLOSING) {
                goodbye_freed = 1;
                break;
            }
            if (next_reload) {
                reloads++;
            } else {
                frees++;
            }
            next_reload = !next_reload;
            acted = 1;
            acted_on = generation;
            last_action = now_ns();
        }
    }
    /* What the client wrote before its goodbye (its last list was taken before the free). */
    pop_queue();
    printf("queue %" PRIu64 " %" PRIu64 " %d\n", received, corrupt, ended);
    printf("ring %" PRIu64 "\n", written);
    printf("mailbox %" PRIu64 "\n", served);
    printf("draw %" PRIu64 " %" PRIu64 " %" PRIu64 " %d\n", taken, stale, last_taken, goodbye_freed);
    printf("session %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", frees, reloads, refusals);
    return 0;
}

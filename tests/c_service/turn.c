/* The host's service turn (issue 48), through bridge.h: ibf_host_service_turn serves, drains and
 * takes a good client's row, frees it after its goodbye, and takes a new claim's first list at
 * once (the turn made the row's reader new at the free); it frees by the broken-client policy a
 * row whose request_seq is hostile (serve_begin gives that seq; the free answers it) and one
 * whose draw state is broken; it frees a hung row, and an active row whose pid is gone, while
 * the row of a live pid stays; a malformed request is answered by the host's callback. The
 * clock is the test's own (now_ns), so nothing sleeps. Prints one line per scenario. */
#define _POSIX_C_SOURCE 200809L
#include "bridge.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c)                                                            \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "turn.c:%d: check failed: %s\n", __LINE__, #c); \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static const ibf_geometry_value geometry[] = {
    {"mailbox.request_capacity", 256},
    {"mailbox.response_capacity", 256},
};

static ibf_attached host;
static unsigned char *header;
static size_t header_len;
static ibf_host_service service;
static char request[256], answer[256];
static uint64_t logs, lists, last_list_seq;

static uint32_t on_answer(void *ctx, uint32_t row, const char *text, size_t len, char *out, size_t cap, size_t *out_len) {
    (void)ctx;
    (void)row;
    if (text == NULL) {
        *out_len = (size_t)snprintf(out, cap, "malformed");
        return 7U;
    }
    *out_len = (size_t)snprintf(out, cap, "ans %.*s", (int)len, text);
    return 1U;
}

static void on_log(void *ctx, uint32_t row, const ibf_log_queue_record *r) {
    (void)ctx;
    (void)row;
    (void)r;
    logs++;
}

static void on_draw(void *ctx, uint32_t row, const ibf_draw_reader *r, const ibf_draw_list_header *head) {
    (void)ctx;
    (void)row;
    (void)r;
    lists++;
    last_list_seq = head->seq;
}

static ibf_host_callbacks callbacks(void) {
    ibf_host_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.answer = on_answer;
    cb.log = on_log;
    cb.draw = on_draw;
    cb.probe = ibf_process_probe;
    return cb;
}

static ibf_client_state state(uint32_t row) {
    return ibf_client_entry_load_state(&ibf_attached_header(&host)->clients[row]);
}

/* A client on `row` with process id `pid`: claimed, filled, active. */
static ibf_client_session join(uint32_t row, uint32_t pid) {
    ibf_client_session c;
    ibf_client_entry values;
    memset(&values, 0, sizeof values);
    values.pid = pid;
    CHECK(ibf_client_claim(header, header_len, (uint32_t)host.generation, row, &c) == IBF_OK);
    CHECK(ibf_client_fill(header, header_len, &c, &values) == IBF_OK);
    CHECK(ibf_client_activate(header, header_len, &c) == IBF_OK);
    return c;
}

/* One draw list numbered `seq` published by client c on its row. */
static void publish(const ibf_client_session *c, uint32_t seq) {
    void *draw = ibf_attached_bot_blocks_draw(&host, c->row);
    size_t len = (size_t)ibf_attached_bot_blocks_draw_size(&host, c->row);
    static ibf_draw_writer writers[IBF_MAX_CLIENTS];
    static uint32_t writer_generation[IBF_MAX_CLIENTS];
    ibf_draw_writer *w = &writers[c->row];
    ibf_draw_cmd cmd;
    ibf_draw_list_header head;
    bool overwrote = false;
    if (writer_generation[c->row] != c->generation) {
        ibf_draw_writer_init(w);
        writer_generation[c->row] = c->generation;
    }
    memset(&cmd, 0, sizeof cmd);
    memset(&head, 0, sizeof head);
    head.seq = seq;
    CHECK(ibf_draw_begin(w, draw, len) == IBF_OK);
    CHECK(ibf_draw_add(header, header_len, c, w, &cmd, NULL, 0) == IBF_OK);
    CHECK(ibf_draw_publish(header, header_len, c, w, draw, len, &head, &overwrote) == IBF_OK);
}

static void line(const char *what, const ibf_host_counts *c) {
    printf("%s served=%llu malformed=%llu drained=%llu taken=%llu closing=%llu hung=%llu dead=%llu policy=%llu errors=%llu\n",
           what, (unsigned long long)c->served, (unsigned long long)c->malformed, (unsigned long long)c->drained,
           (unsigned long long)c->taken, (unsigned long long)c->freed[IBF_HOST_FREED_CLOSING],
           (unsigned long long)c->freed[IBF_HOST_FREED_HUNG], (unsigned long long)c->freed[IBF_HOST_FREED_DEAD],
           (unsigned long long)c->freed[IBF_HOST_FREED_POLICY], (unsigned long long)c->errors);
}

/* A good client on row 0: served, drained, taken; its goodbye frees the row; a new claim's
 * first list, published before the host's next turn, is taken. */
static void good(const ibf_host_callbacks *cb, uint64_t now) {
    ibf_host_counts c;
    ibf_client_session a = join(0, (uint32_t)getpid()), b;
    void *box = ibf_attached_client_blocks_mailbox(&host, 0);
    size_t box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&host, 0);
    void *queue = ibf_attached_client_blocks_log_queue(&host, 0);
    size_t queue_len = (size_t)ibf_attached_client_blocks_log_queue_size(&host, 0);
    ibf_log_entry e;
    ibf_mailbox_response r;
    uint32_t seq = 0;
    int k;
    memset(&c, 0, sizeof c);
    memset(&e, 0, sizeof e);
    CHECK(ibf_mailbox_request(header, header_len, &a, box, box_len, "hi", 2, &seq) == IBF_OK);
    for (k = 0; k < 2; k++) {
        CHECK(ibf_log_queue_push(header, header_len, &a, queue, queue_len, &e, "t", 1, "line", 4) == IBF_OK);
    }
    publish(&a, 1);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(ibf_mailbox_poll_response(box, box_len, seq, &r, answer, sizeof answer) == IBF_OK);
    CHECK(r.status == 1U && r.len == 6U && memcmp(answer, "ans hi", 6) == 0);
    CHECK(logs == 2 && lists == 1 && last_list_seq == 1);
    CHECK(ibf_client_close(header, header_len, &a) == IBF_OK);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(state(0) == IBF_CLIENT_STATE_FREE);
    b = join(0, (uint32_t)getpid());
    publish(&b, 9);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(lists == 2 && last_list_seq == 9);
    line("good", &c);
    CHECK(ibf_client_close(header, header_len, &b) == IBF_OK);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
}

/* Row 1's client writes a request_seq 5 past the answered one: serve_begin gives that seq,
 * and the turn frees the row by the policy, whose free answers it. */
static void hostile_seq(const ibf_host_callbacks *cb, uint64_t now) {
    ibf_host_counts c;
    unsigned char *box = (unsigned char *)(void *)ibf_attached_client_blocks_mailbox(&host, 1);
    size_t box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&host, 1);
    uint32_t answered, seq = 0xffffffffU;
    size_t n = 0;
    CHECK(box != NULL);
    (void)join(1, (uint32_t)getpid());
    memset(&c, 0, sizeof c);
    answered = ibf_live_load_acquire_u32_(box + offsetof(ibf_mailbox_header, response_seq));
    ibf_live_store_release_u32_(box + offsetof(ibf_mailbox_header, request_seq), answered + 5U);
    CHECK(ibf_mailbox_serve_begin(box, box_len, request, sizeof request, &n, &seq) == IBF_MAILBOX_SEQUENCE);
    CHECK(seq == answered + 5U);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(state(1) == IBF_CLIENT_STATE_FREE);
    CHECK(ibf_live_load_acquire_u32_(box + offsetof(ibf_mailbox_header, response_seq)) == answered + 5U);
    line("hostile_seq", &c);
}

/* Row 2's draw state word is not a state: the turn frees the row by the policy. */
static void bad_draw(const ibf_host_callbacks *cb, uint64_t now) {
    ibf_host_counts c;
    unsigned char *draw = (unsigned char *)(void *)ibf_attached_bot_blocks_draw(&host, 2);
    CHECK(draw != NULL);
    (void)join(2, (uint32_t)getpid());
    memset(&c, 0, sizeof c);
    ibf_live_store_release_u32_(draw, 0xffU);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(state(2) == IBF_CLIENT_STATE_FREE);
    line("bad_draw", &c);
}

/* Row 3 never heartbeats (pid 0: no probe), row 4's process is gone, row 5's (this one)
 * runs and heartbeats, and sends a request whose length is past its area. */
static void hung_dead_malformed(const ibf_host_callbacks *cb, uint64_t now) {
    ibf_host_counts c;
    pid_t child = fork();
    ibf_client_session live;
    unsigned char *box = (unsigned char *)(void *)ibf_attached_client_blocks_mailbox(&host, 5);
    size_t box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&host, 5);
    ibf_mailbox_response r;
    uint32_t asked;
    CHECK(child >= 0 && box != NULL);
    if (child == 0) {
        _exit(0);
    }
    CHECK(waitpid(child, NULL, 0) == child);
    memset(&c, 0, sizeof c);
    (void)join(3, 0);
    (void)join(4, (uint32_t)child);
    live = join(5, (uint32_t)getpid());
    asked = ibf_live_load_acquire_u32_(box + offsetof(ibf_mailbox_header, request_seq)) + 1U;
    ibf_live_store_relaxed_u32_(box + offsetof(ibf_mailbox_header, request_len), 100000U);
    ibf_live_store_release_u32_(box + offsetof(ibf_mailbox_header, request_seq), asked);
    CHECK(ibf_host_service_turn(&host, &service, cb, now, &c) == IBF_OK);
    CHECK(state(4) == IBF_CLIENT_STATE_FREE && state(3) == IBF_CLIENT_STATE_ACTIVE);
    CHECK(ibf_mailbox_poll_response(box, box_len, asked, &r, answer, sizeof answer) == IBF_OK && r.status == 7U);
    CHECK(ibf_client_heartbeat(header, header_len, &live, now + 2000000000ULL) == IBF_OK);
    CHECK(ibf_host_service_turn(&host, &service, cb, now + 2000000000ULL, &c) == IBF_OK);
    CHECK(state(3) == IBF_CLIENT_STATE_FREE && state(5) == IBF_CLIENT_STATE_ACTIVE);
    line("hung_dead_malformed", &c);
}

/* Each step alone, in the turn's order, on row 6; then the reload frees rows 5 and 6 and
 * makes their readers new. */
static void alone(const ibf_host_callbacks *cb, uint64_t now) {
    ibf_host_counts c;
    ibf_client_session a = join(6, (uint32_t)getpid());
    void *box = ibf_attached_client_blocks_mailbox(&host, 6);
    size_t box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&host, 6);
    void *queue = ibf_attached_client_blocks_log_queue(&host, 6);
    size_t queue_len = (size_t)ibf_attached_client_blocks_log_queue_size(&host, 6);
    ibf_log_entry e;
    uint32_t seq = 0, generation = 0;
    memset(&c, 0, sizeof c);
    memset(&e, 0, sizeof e);
    CHECK(ibf_mailbox_request(header, header_len, &a, box, box_len, "x", 1, &seq) == IBF_OK);
    CHECK(ibf_log_queue_push(header, header_len, &a, queue, queue_len, &e, "t", 1, "line", 4) == IBF_OK);
    publish(&a, 1);
    CHECK(ibf_host_serve_row(&host, &service, cb, 6, &c) == IBF_HOST_KEEP);
    ibf_host_drain_row(&host, &service, cb, 6, &c);
    CHECK(ibf_host_take_row(&host, &service, cb, 6, &c) == IBF_HOST_KEEP);
    CHECK(ibf_host_row_done(&host, &service, cb, 6, now) == IBF_HOST_KEEP);
    CHECK(ibf_client_close(header, header_len, &a) == IBF_OK);
    CHECK(ibf_host_row_done(&host, &service, cb, 6, now) == IBF_HOST_FREED_CLOSING);
    CHECK(ibf_host_free_row(&host, &service, cb, 6, IBF_HOST_FREED_CLOSING, &c) == IBF_OK);
    (void)join(6, (uint32_t)getpid());
    CHECK(ibf_host_service_reload(&host, &service, &generation) == IBF_OK);
    CHECK(state(5) == IBF_CLIENT_STATE_FREE && state(6) == IBF_CLIENT_STATE_FREE);
    line("alone", &c);
}

int main(void) {
    static uint64_t mapping[(8U << 20) / 8U];
    unsigned char *image;
    size_t n = 0;
    ibf_host_callbacks cb = callbacks();
    CHECK(ibf_lay_out(NULL, 0, geometry, 2, 1, &n, NULL) == IBF_PRODUCE_BUFFER_TOO_SHORT);
    CHECK(n <= sizeof mapping);
    image = (unsigned char *)calloc(n, 1);
    CHECK(image != NULL && ibf_lay_out(image, n, geometry, 2, 1, &n, NULL) == IBF_PRODUCE_OK);
    CHECK(ibf_produce_attached(mapping, n, image, n, &host, NULL) == IBF_PRODUCE_OK);
    free(image);
    header = (unsigned char *)(void *)ibf_attached_header(&host);
    header_len = (size_t)ibf_attached_header_size(&host);
    ibf_host_service_init(&service, 0, request, sizeof request, answer, sizeof answer);
    good(&cb, 1000);
    hostile_seq(&cb, 2000);
    bad_draw(&cb, 3000);
    hung_dead_malformed(&cb, 4000);
    alone(&cb, 5000);
    return 0;
}

/*
 * The C driver of the bridge's conformance suite: reads the runner's input file (README.md,
 * "The driver protocol") and prints one answer line per step, running each step through the
 * public ibf_* functions of the generated bridge.h. Raw ops (poke, peek) and the host's row
 * read are plain __atomic accesses of their width at an address.
 *
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -O1 -I<dir of bridge.h> driver.c -o driver -latomic
 *   ./driver INPUT_FILE
 *
 * Each op's call into bridge.h is one small api_* function below, so a change of a function's
 * shape in the header is a change of one place. The writers are the header's default ones,
 * bound to the claim (issue 46 item 3): ibf_log_queue_push, ibf_draw_add and _publish and
 * ibf_mailbox_request check the claim's standing themselves and return it when lost. The
 * driver checks it only before a writer's region is taken, and before a poll (which stores
 * nothing), as the README asks.
 */
/* The host's contend op: a stand-in for a client that writes the other bytes of a word the
 * host compare-and-swaps, between each of the host's loads and swaps (IBF_CAS_HOOK, which the
 * header calls in every bounded compare-and-swap loop). It flips bit 63 of the word armed. */
#include <stddef.h>

static void *volatile g_contended;
/* The host's free_inside op: the host frees row g_free_row inside the next compare-and-swap of
 * the word at g_free_inside (once; the free itself runs with the hook disarmed). */
static void *volatile g_free_inside;
static unsigned g_free_row;
static void driver_free_inside(unsigned row);
static void driver_cas_hook(void *word) {
    if (word != NULL && word == g_contended) {
        __atomic_fetch_xor((unsigned long long *)word, 1ULL << 63, __ATOMIC_RELAXED);
    }
    if (word != NULL && word == g_free_inside) {
        g_free_inside = NULL;
        driver_free_inside(g_free_row);
    }
}
#define IBF_CAS_HOOK(word) driver_cas_hook((void *)(word))

#include "bridge.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAP_LEN 4194304U
#define MAX_ACTORS 8
#define NAME_MAX_ 32
#define LINE_CAP 16384
#define MAX_TOKENS 64
#define MAX_GEOMETRY 32
#define ROWS IBF_MAX_CLIENTS
#define TEXT_CAP 65536U
#define ANSWER_CAP (1U << 20)
#define PUBLISH_MAX 100000U
#define DRAIN_MAX 100000U
#define MAX_PLACES 128
#define PLACE_NAME_MAX 64

typedef uint8_t __attribute__((__may_alias__)) raw8_t;
typedef uint16_t __attribute__((__may_alias__)) raw16_t;
typedef uint32_t __attribute__((__may_alias__)) raw32_t;
typedef uint64_t __attribute__((__may_alias__)) raw64_t;

/* A region the driver located once and keeps: its start and its bytes. */
typedef struct region_t {
    bool held;
    unsigned char *at;
    size_t len;
} region_t;

/* The places an actor located, at its first raw op there, and keeps (absent ones too): a
 * vandal computes its pointers once, and its own damage does not move them. */
typedef struct located_t {
    char place[PLACE_NAME_MAX];
    unsigned char *at; /* NULL: absent */
    size_t len;
} located_t;

typedef struct places_t {
    size_t count;
    located_t entries[MAX_PLACES];
} places_t;

/* A client process: its own attached handle, claim and writers (taken at their first use
 * after the claim, and kept). */
typedef struct actor_t {
    bool present;
    char name[NAME_MAX_];
    bool attached;
    ibf_attached handle;
    bool claimed;
    ibf_client_session session;
    region_t queue;
    region_t draw;
    ibf_draw_writer draw_writer;
    region_t mailbox;
    region_t pad;
    bool requested;
    uint32_t request_seq;
    places_t places;
} actor_t;

/* The host's per-row readers and servers, made at first use. */
typedef struct host_row_t {
    region_t draw;
    bool reader_made;
    ibf_draw_reader draw_reader;
    region_t queue;
    region_t mailbox;
} host_row_t;

typedef struct host_t {
    bool produced;
    ibf_attached handle;
    host_row_t rows[ROWS];
    places_t places;
} host_t;

static _Alignas(64) unsigned char g_map[MAP_LEN];
static _Alignas(64) unsigned char g_image[MAP_LEN];
static unsigned char g_text[TEXT_CAP + 1U];
static host_t g_host;
/* The service turn (issue 48): made at its first use after a produce. */
static ibf_host_service g_service;
static bool g_service_made;
static char g_service_request[4096], g_service_answer[4096];
static actor_t g_actors[MAX_ACTORS];

/* ---- The answer line: one per step, built here, printed by the main loop. ---- */

static char g_answer[ANSWER_CAP];
static size_t g_answer_len;

static void ans_reset(void) {
    g_answer_len = 0;
    g_answer[0] = '\0';
}

static void ans_bytes(const char *s, size_t n) {
    if (n > ANSWER_CAP - 1U - g_answer_len) {
        n = ANSWER_CAP - 1U - g_answer_len;
    }
    memcpy(g_answer + g_answer_len, s, n);
    g_answer_len += n;
    g_answer[g_answer_len] = '\0';
}

static void ans_str(const char *s) {
    ans_bytes(s, strlen(s));
}

static void ans_u64(uint64_t v) {
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + (int)(v % 10U));
        v /= 10U;
    } while (v != 0);
    ans_bytes(digits + i, sizeof digits - i);
}

/* Text from memory: printable ASCII as it is, any other byte (space, control, DEL, past 0x7f)
 * as \xNN: an answer stays one line, one token, and valid UTF-8 whatever the memory holds. */
static void ans_text(const unsigned char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        if (s[i] > 0x20U && s[i] < 0x7fU) {
            ans_bytes((const char *)&s[i], 1);
        } else {
            char esc[4] = {'\\', 'x', hex[s[i] >> 4], hex[s[i] & 15U]};
            ans_bytes(esc, 4);
        }
    }
}

static void ans_error(const char *name) {
    ans_str("error:");
    ans_str(name);
}

static void ans_driver(const char *why) {
    ans_str("error:driver:");
    ans_str(why);
}

/* A standing code as its canonical answer; any other code as error:<name>. */
static void ans_standing(int rc) {
    switch (rc) {
    case IBF_OK: ans_str("connected"); break;
    case IBF_DISCONNECTED: ans_str("disconnected"); break;
    case IBF_RELOADED: ans_str("reloaded"); break;
    case IBF_HOST_EXITING: ans_str("host_exiting"); break;
    default: ans_error(ibf_result_name(rc)); break;
    }
}

static void ans_state(uint32_t state) {
    switch (state) {
    case 0: ans_str("free"); break;
    case 1: ans_str("claimed"); break;
    case 2: ans_str("active"); break;
    case 3: ans_str("closing"); break;
    default: ans_u64(state); break;
    }
}

/* ---- Arguments. ---- */

/* A decimal number of at most `max`: true with *out. */
static bool parse_u64(const char *s, uint64_t max, uint64_t *out) {
    uint64_t v = 0;
    if (s == NULL || *s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        unsigned d;
        if (*s < '0' || *s > '9') {
            return false;
        }
        d = (unsigned)(*s - '0');
        if (v > (max - d) / 10U) {
            return false;
        }
        v = v * 10U + d;
    }
    *out = v;
    return true;
}

static bool parse_u32(const char *s, uint32_t *out) {
    uint64_t v;
    if (!parse_u64(s, UINT32_MAX, &v)) {
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* ---- The calls into bridge.h, one function per op. ---- */

static int api_lay_out(const ibf_geometry_value *values, size_t n, size_t *len, ibf_attach_error *err) {
    return ibf_lay_out(g_image, sizeof g_image, values, n, 1U, len, err);
}

static int api_produce(size_t image_len, ibf_attached *out, ibf_attach_error *err) {
    return ibf_produce_attached(g_map, MAP_LEN, g_image, image_len, out, err);
}

static int api_free(const ibf_attached *host, uint32_t row, uint32_t *was) {
    return ibf_attached_client_free(host, row, was);
}

static int api_reload(const ibf_attached *host) {
    uint32_t generation = 0;
    uint32_t was[ROWS];
    return ibf_attached_client_reload(host, &generation, was, NULL);
}

static int api_exit(const ibf_attached *host) {
    return ibf_client_host_exit(ibf_attached_header(host), (size_t)ibf_attached_header_size(host));
}

static int api_attach(ibf_attached *out, ibf_attach_error *err) {
    return ibf_attach(g_map, MAP_LEN, out, err);
}

static unsigned char *client_header(const actor_t *a, size_t *len) {
    *len = (size_t)ibf_attached_header_size(&a->handle);
    return (unsigned char *)ibf_attached_header(&a->handle);
}

static int api_claim(const actor_t *a, uint32_t row, ibf_client_session *out) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_claim(h, len, (uint32_t)a->handle.generation, row, out);
}

static int api_activate(const actor_t *a) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_activate(h, len, &a->session);
}

static int api_standing(const actor_t *a) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_standing(h, len, &a->session);
}

static int api_heartbeat(const actor_t *a, uint64_t ns) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_heartbeat(h, len, &a->session, ns);
}

static int api_close(const actor_t *a) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_close(h, len, &a->session);
}

static int api_bind(const actor_t *a, uint32_t pad, uint64_t *owner) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_client_bind_pad(h, len, &a->session, pad, owner);
}

/* The C unbind gives no owner when refused: *owner is the pad's owner loaded after it. */
static int api_unbind(const actor_t *a, uint32_t pad, uint64_t *owner) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    int rc = ibf_client_unbind_pad(h, len, &a->session, pad);
    if (rc == IBF_NOT_FREE && pad < IBF_MAX_PLAYERS) {
        uint8_t owners[IBF_MAX_PLAYERS];
        ibf_bridge_header_load_pad_owner((const ibf_bridge_header *)(void *)h, owners);
        *owner = owners[pad];
    }
    return rc;
}

static int api_push(const actor_t *a, const region_t *q, const char *text, size_t text_len) {
    ibf_log_entry entry;
    size_t len;
    unsigned char *h = client_header(a, &len);
    memset(&entry, 0, sizeof entry);
    return ibf_log_queue_push(h, len, &a->session, q->at, q->len, &entry, NULL, 0, text, text_len);
}

/* The default pad input write, bound to the claim: IBF_OK or the standing. */
static int api_pad_input(const actor_t *a, const region_t *pad, uint64_t tick) {
    ibf_pad_input value;
    size_t len;
    unsigned char *h = client_header(a, &len);
    memset(&value, 0, sizeof value);
    value.for_tick = tick;
    return ibf_pad_input_write(h, len, &a->session, (ibf_pad_input *)(void *)pad->at, &value);
}

/* The host's side reads its geometry from the image it laid out (ibf_attached_laid_out), never
 * from the bytes a client can write. */
static int api_pop(const region_t *q, ibf_log_queue_record *out) {
    return ibf_log_queue_pop_laid_out(q->at, q->len, ibf_attached_laid_out(&g_host.handle, q->at), out);
}

/* Writes a list of n zeroed draw_cmds, no payload, and publishes it. */
static int api_publish(actor_t *a, ibf_draw_writer *w, const region_t *d, uint32_t n) {
    ibf_draw_cmd item;
    ibf_draw_list_header head;
    uint32_t i;
    size_t len;
    unsigned char *h = client_header(a, &len);
    int rc = ibf_draw_begin(w, d->at, d->len);
    if (rc != IBF_OK) {
        return rc;
    }
    memset(&item, 0, sizeof item);
    for (i = 0; i < n; i++) {
        rc = ibf_draw_add(h, len, &a->session, w, &item, NULL, 0);
        if (rc != IBF_OK && rc != IBF_DROPPED) { /* past max_commands: dropped, flagged */
            return rc;
        }
    }
    memset(&head, 0, sizeof head);
    return ibf_draw_publish(h, len, &a->session, w, d->at, d->len, &head, NULL);
}

static int api_take(ibf_draw_reader *r, const region_t *d, uint32_t *count) {
    ibf_draw_list_header head;
    int rc = ibf_draw_take_laid_out(r, d->at, d->len, ibf_attached_laid_out(&g_host.handle, d->at), &head);
    if (rc == IBF_OK) {
        *count = head.count;
    }
    return rc;
}

static int api_request(const actor_t *a, const region_t *m, const char *text, size_t text_len, uint32_t *seq) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    return ibf_mailbox_request(h, len, &a->session, m->at, m->len, text, text_len, seq);
}

static int api_poll(const region_t *m, uint32_t seq, ibf_mailbox_response *out) {
    return ibf_mailbox_poll_response(m->at, m->len, seq, out, g_text, TEXT_CAP);
}

/* Answers the waiting request with status ok and `answer`. */
static int api_serve(const region_t *m, const char *answer, size_t *request_len) {
    uint32_t seq = 0;
    const unsigned char *laid_out = ibf_attached_laid_out(&g_host.handle, m->at);
    int rc = ibf_mailbox_serve_begin_laid_out(m->at, m->len, laid_out, g_text, TEXT_CAP, request_len, &seq);
    if (rc != IBF_OK) {
        return rc;
    }
    return ibf_mailbox_serve_answer_laid_out(m->at, m->len, laid_out, seq, (uint32_t)IBF_COMMAND_STATUS_OK, answer, strlen(answer));
}

/* ---- Places: regions located through a handle. ---- */

enum place_kind { PLACE_LOG_QUEUE, PLACE_PAD_INPUT, PLACE_MAILBOX, PLACE_DRAW, PLACE_PARAMS, PLACE_STATS };

static const struct {
    const char *set;
    const char *region;
    enum place_kind kind;
} g_places[] = {
    {"client_blocks", "log_queue", PLACE_LOG_QUEUE},
    {"client_blocks", "pad_input", PLACE_PAD_INPUT},
    {"client_blocks", "mailbox", PLACE_MAILBOX},
    {"bot_blocks", "draw", PLACE_DRAW},
    {"bot_blocks", "params", PLACE_PARAMS},
    {"bot_blocks", "stats", PLACE_STATS},
};

/* The region `kind` of block `row` as the handle has it now (NULL when absent). */
static unsigned char *place_get(const ibf_attached *h, enum place_kind kind, unsigned row, size_t *len) {
    void *at = NULL;
    uint64_t size = 0;
    switch (kind) {
    case PLACE_LOG_QUEUE:
        at = ibf_attached_client_blocks_log_queue(h, row);
        size = ibf_attached_client_blocks_log_queue_size(h, row);
        break;
    case PLACE_PAD_INPUT:
        at = ibf_attached_client_blocks_pad_input(h, row);
        size = ibf_attached_client_blocks_pad_input_size(h, row);
        break;
    case PLACE_MAILBOX:
        at = ibf_attached_client_blocks_mailbox(h, row);
        size = ibf_attached_client_blocks_mailbox_size(h, row);
        break;
    case PLACE_DRAW:
        at = ibf_attached_bot_blocks_draw(h, row);
        size = ibf_attached_bot_blocks_draw_size(h, row);
        break;
    case PLACE_PARAMS:
        at = ibf_attached_bot_blocks_params(h, row);
        size = ibf_attached_bot_blocks_params_size(h, row);
        break;
    case PLACE_STATS:
        at = ibf_attached_bot_blocks_stats(h, row);
        size = ibf_attached_bot_blocks_stats_size(h, row);
        break;
    }
    *len = (size_t)size;
    return (unsigned char *)at;
}

/* Checks block `row` of the set holding `kind` now (its first use), as the header asks. */
static int place_check(ibf_attached *h, enum place_kind kind, unsigned row) {
    ibf_attach_error err;
    if (kind == PLACE_LOG_QUEUE || kind == PLACE_PAD_INPUT || kind == PLACE_MAILBOX) {
        return ibf_attached_client_blocks_check(h, row, &err);
    }
    return ibf_attached_bot_blocks_check(h, row, &err);
}

/* Region `kind` of block `row` through handle h, its block checked now (its first use, as the
 * header asks): IBF_ATTACH_OK with *r, -1 when absent, or the check's code. */
static int take_region(ibf_attached *h, enum place_kind kind, unsigned row, region_t *r) {
    bool client = kind == PLACE_LOG_QUEUE || kind == PLACE_PAD_INPUT || kind == PLACE_MAILBOX;
    uint64_t blocks = client ? ibf_attached_client_blocks_count(h) : ibf_attached_bot_blocks_count(h);
    int rc;
    memset(r, 0, sizeof *r);
    if ((uint64_t)row >= blocks) {
        return -1; /* no such block: the set is absent, or has fewer blocks */
    }
    rc = place_check(h, kind, row);
    if (rc != IBF_ATTACH_OK) {
        return rc;
    }
    r->at = place_get(h, kind, row, &r->len);
    if (r->at == NULL) {
        return -1;
    }
    r->held = true;
    return IBF_ATTACH_OK;
}

/* Answers a region that could not be taken: error:absent, or error:<the block's check>. */
static void ans_untaken(int rc) {
    ans_error(rc < 0 ? "absent" : ibf_attach_check_name(rc));
}

/* The host's region of row `row`, as its own handle has it (every block checked at produce:
 * the host never re-reads the tables a client could have written), taken at first use and
 * kept: true, or false with error:absent given. */
static bool host_region(enum place_kind kind, uint32_t row, region_t *r) {
    if (!r->held) {
        r->at = place_get(&g_host.handle, kind, row, &r->len);
        r->held = r->at != NULL;
    }
    if (!r->held) {
        ans_error("absent");
    }
    return r->held;
}

/* ---- Host ops. ---- */

static void host_forget(uint32_t row) {
    memset(&g_host.rows[row], 0, sizeof g_host.rows[row]);
}

/* The free a free_inside op armed, made inside a compare-and-swap loop (IBF_CAS_HOOK). */
static void driver_free_inside(unsigned row) {
    uint32_t was;
    (void)api_free(&g_host.handle, row, &was);
}

static void host_forget_all(void) {
    uint32_t row;
    for (row = 0; row < ROWS; row++) {
        host_forget(row);
    }
}

/* A layout that fails changes nothing (the mapping, the host's handle and readers stay); a
 * produce that wrote the mapping forgets the host's readers, and keeps the handle it returns. */
static void op_produce(char **args, int n) {
    static ibf_attached handle;
    ibf_geometry_value values[MAX_GEOMETRY];
    ibf_attach_error err;
    size_t len = 0;
    int i, rc;
    if (n > MAX_GEOMETRY) {
        ans_driver("too_many_geometry_values");
        return;
    }
    for (i = 0; i < n; i++) {
        char *eq = strchr(args[i], '=');
        if (eq == NULL || eq == args[i] || !parse_u64(eq + 1, UINT64_MAX, &values[i].value)) {
            ans_driver("bad_geometry_value");
            return;
        }
        *eq = '\0';
        values[i].name = args[i];
    }
    rc = api_lay_out(values, (size_t)n, &len, &err);
    if (rc != IBF_PRODUCE_OK) {
        ans_error(ibf_produce_code_name(rc));
        return;
    }
    host_forget_all();
    rc = api_produce(len, &handle, &err);
    g_host.produced = rc == IBF_PRODUCE_OK;
    if (rc != IBF_PRODUCE_OK) {
        memset(&g_host.handle, 0, sizeof g_host.handle);
        ans_error(ibf_produce_code_name(rc));
        return;
    }
    g_host.handle = handle;
    g_service_made = false;
    ans_str("ok");
}

/* ---- The service turn (issue 48): made at its first use after a produce. ---- */


/* A request T answered 1 with re:T, a malformed one 7 with malformed. */
static uint32_t service_answer(void *ctx, uint32_t row, const char *text, size_t len, char *out, size_t cap, size_t *out_len) {
    const int n = text == NULL ? snprintf(out, cap, "malformed") : snprintf(out, cap, "re:%.*s", (int)len, text);
    (void)ctx;
    (void)row;
    *out_len = n > 0 ? (size_t)n : 0U;
    return text == NULL ? 7U : 1U;
}

/* The stub: pid 4000000000 is gone, every other runs, created at time 1. */
static int service_probe(uint32_t pid, uint64_t *created, void *ctx) {
    (void)ctx;
    *created = pid == 4000000000U ? 0U : 1U;
    return pid == 4000000000U ? IBF_PROCESS_GONE : IBF_PROCESS_RUNNING;
}

static void op_service_turn(uint64_t now_ns) {
    ibf_host_callbacks cb;
    ibf_host_counts c;
    int rc;
    if (!g_service_made) {
        ibf_host_service_init(&g_service, 0, g_service_request, sizeof g_service_request, g_service_answer, sizeof g_service_answer);
        g_service_made = true;
    }
    memset(&cb, 0, sizeof cb);
    memset(&c, 0, sizeof c);
    cb.answer = service_answer;
    cb.probe = service_probe;
    rc = ibf_host_service_turn(&g_host.handle, &g_service, &cb, now_ns, &c);
    if (rc != IBF_OK) {
        ans_error(ibf_result_name(rc));
        return;
    }
    {
        char line[256];
        (void)snprintf(line, sizeof line, "served=%llu malformed=%llu drained=%llu taken=%llu closing=%llu hung=%llu dead=%llu policy=%llu errors=%llu",
                       (unsigned long long)c.served, (unsigned long long)c.malformed, (unsigned long long)c.drained,
                       (unsigned long long)c.taken, (unsigned long long)c.freed[IBF_HOST_FREED_CLOSING],
                       (unsigned long long)c.freed[IBF_HOST_FREED_HUNG], (unsigned long long)c.freed[IBF_HOST_FREED_DEAD],
                       (unsigned long long)c.freed[IBF_HOST_FREED_POLICY], (unsigned long long)c.errors);
        ans_str(line);
    }
}

static void op_free(uint32_t row) {
    uint32_t was = 0;
    int rc = api_free(&g_host.handle, row, &was);
    if (row < ROWS) {
        host_forget(row);
    }
    if (rc != IBF_OK) {
        ans_error(ibf_result_name(rc));
        return;
    }
    ans_state(was);
}

static void op_reload(void) {
    int rc = api_reload(&g_host.handle);
    host_forget_all();
    if (rc != IBF_OK) {
        ans_error(ibf_result_name(rc));
        return;
    }
    ans_str("ok");
}

/* Row `row` of the client table at the mapping's start: its state and generation in one 8-byte
 * load of their word (a raw load: no public function loads the word whole), its heartbeat. */
static void op_row(uint32_t row) {
    const ibf_bridge_header *h = (const ibf_bridge_header *)(const void *)g_map;
    const ibf_client_entry *e;
    uint64_t word;
    if (row >= ROWS) {
        ans_driver("no_such_row");
        return;
    }
    e = &h->clients[row];
    word = __atomic_load_n((const raw64_t *)(const void *)e, __ATOMIC_ACQUIRE);
    ans_str("state=");
    ans_state((uint32_t)word);
    ans_str(" gen=");
    ans_u64(word >> 32);
    ans_str(" beat=");
    ans_u64(ibf_client_entry_load_heartbeat_ns(e));
}

static void op_pad(uint32_t pad) {
    uint8_t owners[IBF_MAX_PLAYERS];
    if (pad >= IBF_MAX_PLAYERS) {
        ans_driver("no_such_pad");
        return;
    }
    ibf_bridge_header_load_pad_owner((const ibf_bridge_header *)(const void *)g_map, owners);
    if (owners[pad] == IBF_NO_PAD) {
        ans_str("none");
    } else {
        ans_u64(owners[pad]);
    }
}

/* The host's misses per row in lockstep, kept across its waits. */
static uint64_t g_misses[ROWS];

static uint64_t wall_ms(void) {
    struct timespec ts;
    (void)timespec_get(&ts, TIME_UTC);
    return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}

/* Appends the rows of `mask` ("0,2"), or "-" for none. */
static void ans_rows(uint64_t mask) {
    uint32_t row;
    bool any = false;
    for (row = 0; row < ROWS; row++) {
        if ((mask >> row & 1U) != 0U) {
            char digit[12];
            (void)snprintf(digit, sizeof digit, "%s%u", any ? "," : "", (unsigned)row);
            ans_bytes(digit, strlen(digit));
            any = true;
        }
    }
    if (!any) {
        ans_bytes("-", 1);
    }
}

/* Lockstep: the host's wait for tick's answers, at most timeout_ms, one round per
 * ibf_client_host_wait_input call. */
static void op_lockstep(uint64_t tick, uint64_t timeout_ms) {
    ibf_pad_input *pads[ROWS];
    ibf_pad_input last[ROWS];
    uint64_t before[ROWS];
    uint64_t pending, bots, missed = 0, start, now, elapsed;
    uint32_t row;
    int rc = IBF_CLIENT_INPUT_AGAIN, rounds = 0;
    for (row = 0; row < ROWS; row++) {
        size_t len = 0;
        unsigned char *at = place_get(&g_host.handle, PLACE_PAD_INPUT, row, &len);
        pads[row] = at != NULL && len >= sizeof(ibf_pad_input) ? (ibf_pad_input *)(void *)at : NULL;
        before[row] = g_misses[row];
    }
    memset(last, 0, sizeof last);
    pending = bots = ibf_client_host_lockstep_bots(g_map, (size_t)ibf_attached_header_size(&g_host.handle));
    start = wall_ms();
    while (rc == IBF_CLIENT_INPUT_AGAIN && rounds++ < 1000000) {
        now = wall_ms();
        rc = ibf_client_host_wait_input(pads, tick, now >= start + timeout_ms ? 0U : (start + timeout_ms - now) * 1000000U, &pending, last, g_misses, NULL);
    }
    elapsed = wall_ms() - start;
    for (row = 0; row < ROWS; row++) {
        if (g_misses[row] != before[row]) {
            missed |= (uint64_t)1U << row;
        }
    }
    ans_bytes("answered=", 9);
    ans_rows(bots & ~missed);
    ans_bytes(" missed=", 8);
    ans_rows(missed);
    if (elapsed > timeout_ms + 1000U) {
        ans_bytes(" waited=late", 12);
    } else if (missed != 0U && elapsed + 1U < timeout_ms) {
        ans_bytes(" waited=early", 13);
    } else {
        ans_bytes(" waited=ok", 10);
    }
}

/* The commands' event (issue 47): one round of the host's wait over its active rows' mailboxes,
 * at most timeout_ms. */
static void op_wait_commands(uint64_t timeout_ms) {
    void *regions[ROWS];
    size_t lens[ROWS];
    uint64_t rows = 0, found, start, elapsed;
    uint32_t row;
    const ibf_bridge_header *header = ibf_attached_header(&g_host.handle);
    for (row = 0; row < ROWS; row++) {
        size_t len = 0;
        unsigned char *at = place_get(&g_host.handle, PLACE_MAILBOX, row, &len);
        regions[row] = at;
        lens[row] = at != NULL ? len : 0U;
        if (ibf_client_entry_load_state(&header->clients[row]) == IBF_CLIENT_STATE_ACTIVE) {
            rows |= (uint64_t)1U << row;
        }
    }
    start = wall_ms();
    found = ibf_client_host_wait_commands(regions, lens, rows, timeout_ms * 1000000U, NULL);
    elapsed = wall_ms() - start;
    ans_bytes("rows=", 5);
    ans_rows(found);
    if (elapsed > timeout_ms + 1000U) {
        ans_bytes(" waited=late", 12);
    } else if (found == 0U && elapsed + 1U < timeout_ms) {
        ans_bytes(" waited=early", 13);
    } else {
        ans_bytes(" waited=ok", 10);
    }
}

static void op_take(uint32_t row) {
    host_row_t *r;
    uint32_t count = 0;
    int rc;
    if (row >= ROWS) {
        ans_error("absent");
        return;
    }
    if (!host_region(PLACE_DRAW, row, &g_host.rows[row].draw)) {
        return;
    }
    r = &g_host.rows[row];
    if (!r->reader_made) {
        ibf_draw_reader_init(&r->draw_reader); /* first use: it owns list 2 */
        r->reader_made = true;
    }
    rc = api_take(&r->draw_reader, &r->draw, &count);
    if (rc == IBF_EMPTY) {
        ans_str("none");
    } else if (rc == IBF_OK) {
        ans_str("list:");
        ans_u64(count);
    } else {
        ans_error(ibf_result_name(rc));
    }
}

static void op_drain(uint32_t row) {
    static ibf_log_queue_record record;
    uint32_t popped = 0;
    int rc = IBF_OK;
    if (row >= ROWS) {
        ans_error("absent");
        return;
    }
    if (!host_region(PLACE_LOG_QUEUE, row, &g_host.rows[row].queue)) {
        return;
    }
    while (popped < DRAIN_MAX) {
        rc = api_pop(&g_host.rows[row].queue, &record);
        if (rc != IBF_OK) {
            break;
        }
        ans_str(popped == 0 ? "entries:" : ",");
        ans_text((const unsigned char *)record.text, strlen(record.text));
        popped++;
    }
    if (rc == IBF_EMPTY || rc == IBF_OK) {
        if (popped == 0) {
            ans_str("empty");
        }
        return;
    }
    if (popped != 0) {
        ans_str(";");
    }
    ans_error(ibf_result_name(rc));
}

static void op_serve(uint32_t row, const char *text) {
    size_t request_len = 0;
    int rc;
    if (row >= ROWS) {
        ans_error("absent");
        return;
    }
    if (!host_region(PLACE_MAILBOX, row, &g_host.rows[row].mailbox)) {
        return;
    }
    rc = api_serve(&g_host.rows[row].mailbox, text, &request_len);
    if (rc == IBF_PENDING) {
        ans_str("none");
    } else if (rc == IBF_OK) {
        ans_str("served:");
        ans_text(g_text, request_len < TEXT_CAP ? request_len : TEXT_CAP);
    } else {
        ans_error(ibf_result_name(rc));
    }
}

/* ---- Client ops. ---- */

static void drop_writers(actor_t *a) {
    memset(&a->queue, 0, sizeof a->queue);
    memset(&a->draw, 0, sizeof a->draw);
    memset(&a->mailbox, 0, sizeof a->mailbox);
    memset(&a->pad, 0, sizeof a->pad);
    a->requested = false;
    a->request_seq = 0;
}

/* Drops the claim and the writers; a handle that attaches replaces the earlier one, a refused
 * attach leaves it (as an assignment of the attach's result does in Rust and Python). */
static void op_attach(actor_t *a) {
    static ibf_attached handle;
    ibf_attach_error err;
    int rc;
    a->claimed = false;
    drop_writers(a);
    rc = api_attach(&handle, &err);
    if (rc != IBF_ATTACH_OK) {
        ans_error(ibf_attach_check_name(rc));
        return;
    }
    a->handle = handle;
    a->attached = true;
    ans_str("ok");
}

/* Every claim drops the writers of the earlier one; a claim that is made replaces it, a refused
 * one leaves it. */
static void op_claim(actor_t *a, uint32_t row) {
    ibf_client_session session;
    int rc = api_claim(a, row, &session);
    drop_writers(a);
    switch (rc) {
    case IBF_OK:
        a->session = session;
        a->claimed = true;
        ans_str("ok");
        break;
    case IBF_NOT_FREE: ans_str("taken"); break;
    case IBF_RELOADED: ans_str("reloaded"); break;
    case IBF_HOST_EXITING: ans_str("host_exiting"); break;
    case IBF_SESSION_ROW: ans_str("no_row"); break;
    default: ans_error(ibf_result_name(rc)); break;
    }
}

/* The claim stays after a goodbye, as in every language: its standing is then disconnected. */
static void op_close(actor_t *a) {
    int rc = api_close(a);
    if (rc == IBF_OK) {
        ans_str("closed");
    } else {
        ans_standing(rc);
    }
}

static void op_pad_swap(const actor_t *a, uint32_t pad, bool bind) {
    uint64_t owner = IBF_NO_PAD;
    int rc = bind ? api_bind(a, pad, &owner) : api_unbind(a, pad, &owner);
    if (rc == IBF_OK) {
        ans_str("ok");
    } else if (rc == IBF_NOT_FREE) {
        ans_str("held:");
        if (owner == IBF_NO_PAD) {
            ans_str("none");
        } else {
            ans_u64(owner);
        }
    } else if (rc == IBF_SESSION_ROW) {
        ans_str("no_pad");
    } else if (rc == IBF_CONTENDED) {
        ans_str("contended");
    } else {
        ans_standing(rc);
    }
}

/* A writer's region, taken at its first use after the claim, the claim's standing checked
 * before (answered when lost; once taken, the bound writer checks each write itself): true,
 * or false with the answer given (and nothing kept). */
static bool writer_region(actor_t *a, enum place_kind kind, region_t *r) {
    int rc;
    if (r->held) {
        return true;
    }
    rc = api_standing(a);
    if (rc != IBF_OK) {
        ans_standing(rc);
        return false;
    }
    rc = take_region(&a->handle, kind, a->session.row, r);
    if (rc != IBF_ATTACH_OK) {
        ans_untaken(rc);
        return false;
    }
    if (kind == PLACE_DRAW) {
        ibf_draw_writer_init(&a->draw_writer); /* a new writer owns list 0 */
    }
    return true;
}

static void op_push(actor_t *a, const char *text) {
    int rc;
    if (!writer_region(a, PLACE_LOG_QUEUE, &a->queue)) {
        return;
    }
    rc = api_push(a, &a->queue, text, strlen(text));
    if (rc == IBF_OK) {
        ans_str("ok");
    } else if (rc == IBF_DROPPED) {
        ans_str("dropped");
    } else {
        ans_standing(rc);
    }
}

static void op_pad_input(actor_t *a, uint64_t tick) {
    int rc;
    if (!writer_region(a, PLACE_PAD_INPUT, &a->pad)) {
        return;
    }
    rc = api_pad_input(a, &a->pad, tick);
    if (rc == IBF_OK) {
        ans_str("ok");
    } else {
        ans_standing(rc);
    }
}

/* Lockstep's answer: the pad input with for_tick = tick, by the bound write, then the input
 * event set (ibf_client_answer_input). */
static void op_answer(actor_t *a, uint64_t tick) {
    ibf_pad_input value;
    size_t len;
    unsigned char *h;
    int rc;
    if (!writer_region(a, PLACE_PAD_INPUT, &a->pad)) {
        return;
    }
    h = client_header(a, &len);
    memset(&value, 0, sizeof value);
    value.for_tick = tick;
    rc = ibf_client_answer_input(h, len, &a->session, (ibf_pad_input *)(void *)a->pad.at, &value, NULL);
    if (rc == IBF_OK) {
        ans_str("ok");
    } else {
        ans_standing(rc);
    }
}

/* The tick event: rounds of ibf_client_tick_wait from `last` until the sequence moved or `ms`
 * passed. */
static void op_wait_tick(actor_t *a, uint64_t last, uint64_t ms) {
    size_t len;
    unsigned char *h = client_header(a, &len);
    uint64_t seq = last, start = wall_ms(), now;
    int rc = IBF_CLIENT_TICK_AGAIN, rounds = 0;
    while (rc == IBF_CLIENT_TICK_AGAIN && rounds++ < 1000000) {
        now = wall_ms();
        rc = ibf_client_tick_wait(h, len, &a->session, NULL, last, now >= start + ms ? 0U : (start + ms - now) * 1000000U, &seq);
    }
    if (rc == IBF_CLIENT_TICK_ROW) {
        /* The row past the mapping, or no longer the claim's: its standing says which. */
        rc = api_standing(a);
        if (rc == IBF_OK) {
            ans_error("row");
        } else {
            ans_standing(rc);
        }
    } else if (seq != last) {
        ans_bytes("seq=", 4);
        ans_u64(seq);
    } else {
        ans_str("timeout");
    }
}

static void op_publish(actor_t *a, uint32_t n) {
    int rc;
    if (n > PUBLISH_MAX) {
        ans_driver("list_too_long");
        return;
    }
    if (!writer_region(a, PLACE_DRAW, &a->draw)) {
        return;
    }
    rc = api_publish(a, &a->draw_writer, &a->draw, n);
    if (rc == IBF_OK) {
        ans_str("ok");
    } else {
        ans_standing(rc);
    }
}

static void op_request(actor_t *a, const char *text) {
    uint32_t seq = 0;
    int rc;
    if (!writer_region(a, PLACE_MAILBOX, &a->mailbox)) {
        return;
    }
    rc = api_request(a, &a->mailbox, text, strlen(text), &seq);
    if (rc == IBF_OK) {
        a->requested = true;
        a->request_seq = seq;
        ans_str("ok");
    } else {
        ans_standing(rc);
    }
}

/* The commands' event: the request, then the event set (ibf_client_request_commands). */
static void op_command(actor_t *a, const char *text) {
    uint32_t seq = 0;
    size_t len;
    unsigned char *h;
    int rc;
    if (!writer_region(a, PLACE_MAILBOX, &a->mailbox)) {
        return;
    }
    h = client_header(a, &len);
    rc = ibf_client_request_commands(h, len, &a->session, a->mailbox.at, a->mailbox.len, text, strlen(text), &seq, NULL);
    if (rc == IBF_OK) {
        a->requested = true;
        a->request_seq = seq;
        ans_str("ok");
    } else {
        ans_standing(rc);
    }
}

static void op_poll(actor_t *a) {
    ibf_mailbox_response response;
    int rc;
    if (!writer_region(a, PLACE_MAILBOX, &a->mailbox)) {
        return;
    }
    rc = api_standing(a); /* a poll stores nothing: the driver answers a lost claim's standing */
    if (rc != IBF_OK) {
        ans_standing(rc);
        return;
    }
    if (!a->requested) {
        ans_str("none"); /* no request waits for its answer */
        return;
    }
    rc = api_poll(&a->mailbox, a->request_seq, &response);
    if (rc == IBF_PENDING) {
        ans_str("none");
    } else if (rc == IBF_OK) {
        a->requested = false; /* an answer is taken once */
        ans_str("answer:");
        ans_u64(response.status);
        ans_str(":");
        ans_text(g_text, (size_t)response.len);
    } else {
        ans_standing(rc);
    }
}

/* ---- Raw ops. ---- */

/* A region of the root table by name (the whole area of a ring or of a set of blocks): false
 * for no such name; *at NULL when the handle has it absent. */
static bool root_region(const ibf_attached *h, const char *name, unsigned char **at, size_t *len) {
    uint64_t size;
    if (strcmp(name, "snapshot_ring") == 0) {
        *at = ibf_attached_snapshot_ring(h);
        size = ibf_attached_snapshot_ring_size(h);
    } else if (strcmp(name, "log_ring") == 0) {
        *at = (unsigned char *)ibf_attached_log_ring(h);
        size = ibf_attached_log_ring_size(h);
    } else if (strcmp(name, "client_blocks") == 0) {
        *at = ibf_attached_client_blocks(h, 0);
        size = ibf_attached_client_blocks_size(h);
    } else if (strcmp(name, "bot_blocks") == 0) {
        *at = ibf_attached_bot_blocks(h, 0);
        size = ibf_attached_bot_blocks_size(h);
    } else {
        return false;
    }
    *len = (size_t)size;
    return true;
}

/* Block `row` of set `set` (client_blocks, bot_blocks) from its start, the writer's stride
 * long, its block checked now: false for no such set; *at NULL when absent or refused. */
static bool block_start(ibf_attached *h, const char *set, unsigned row, unsigned char **at, size_t *len) {
    ibf_attach_error err;
    bool client = strcmp(set, "client_blocks") == 0;
    if (!client && strcmp(set, "bot_blocks") != 0) {
        return false;
    }
    *at = NULL;
    *len = 0;
    if ((uint64_t)row >= (client ? ibf_attached_client_blocks_count(h) : ibf_attached_bot_blocks_count(h))
        || (client ? ibf_attached_client_blocks_check(h, row, &err) : ibf_attached_bot_blocks_check(h, row, &err)) != IBF_ATTACH_OK) {
        return true;
    }
    *at = client ? ibf_attached_client_blocks(h, row) : ibf_attached_bot_blocks(h, row);
    *len = (size_t)(client ? ibf_attached_client_blocks_stride(h) : ibf_attached_bot_blocks_stride(h));
    return true;
}

/* Locates `place` through handle h now: `header` (the mapping's start, the whole mapping), a
 * root region (REGION), a block (SET/ROW: its start, its stride long) or a region of a block
 * (SET/ROW/REGION), the block checked now, as a first use does. True with *at (NULL: absent:
 * no such block or region, or its block refused); false with the answer given. */
static bool locate(ibf_attached *h, bool has_handle, const char *place, unsigned char **at, size_t *len) {
    char set[NAME_MAX_];
    char row_s[16];
    const char *slash = strchr(place, '/');
    const char *slash2 = slash != NULL ? strchr(slash + 1, '/') : NULL;
    const char *row_end = slash2 != NULL ? slash2 : place + strlen(place);
    region_t r;
    uint64_t row;
    size_t i;
    int found = -1;
    *at = NULL;
    *len = 0;
    if (strcmp(place, "header") == 0) {
        *at = g_map;
        *len = MAP_LEN;
        return true;
    }
    if (!has_handle) {
        ans_driver("not_attached");
        return false;
    }
    if (slash == NULL) {
        if (!root_region(h, place, at, len)) {
            ans_driver("bad_place");
            return false;
        }
        return true;
    }
    if ((size_t)(slash - place) >= sizeof set || (size_t)(row_end - slash - 1) >= sizeof row_s) {
        ans_driver("bad_place");
        return false;
    }
    memcpy(set, place, (size_t)(slash - place));
    set[slash - place] = '\0';
    memcpy(row_s, slash + 1, (size_t)(row_end - slash - 1));
    row_s[row_end - slash - 1] = '\0';
    if (!parse_u64(row_s, UINT32_MAX, &row)) {
        ans_driver("bad_place");
        return false;
    }
    if (slash2 == NULL) {
        if (!block_start(h, set, (unsigned)row, at, len)) {
            ans_driver("bad_place");
            return false;
        }
        return true;
    }
    for (i = 0; i < sizeof g_places / sizeof g_places[0]; i++) {
        if (strcmp(g_places[i].set, set) == 0 && strcmp(g_places[i].region, slash2 + 1) == 0) {
            found = (int)i;
        }
    }
    if (found < 0) {
        ans_driver("bad_place");
        return false;
    }
    if (take_region(h, g_places[found].kind, (unsigned)row, &r) == IBF_ATTACH_OK) {
        *at = r.at;
        *len = r.len;
    }
    return true;
}

/* The actor's place `place` if it located it already, else NULL. */
static located_t *find_place(places_t *p, const char *place) {
    size_t i;
    for (i = 0; i < p->count; i++) {
        if (strcmp(p->entries[i].place, place) == 0) {
            return &p->entries[i];
        }
    }
    return NULL;
}

/* The actor's place `place`, located at its first raw op there and kept: NULL with the
 * answer given (error:absent for an absent place). */
static const located_t *place_of(places_t *p, ibf_attached *h, bool has_handle, const char *place) {
    located_t *e = find_place(p, place);
    if (e == NULL) {
        if (strlen(place) >= PLACE_NAME_MAX || p->count == MAX_PLACES) {
            ans_driver("too_many_places_or_name_too_long");
            return NULL;
        }
        e = &p->entries[p->count];
        if (!locate(h, has_handle, place, &e->at, &e->len)) {
            return NULL;
        }
        memcpy(e->place, place, strlen(place) + 1U);
        p->count++;
    }
    if (e->at == NULL) {
        ans_error("absent");
        return NULL;
    }
    return e;
}

/* The bytes at OFFSET of PLACE for a WIDTH-byte access (a word past the place is absent; one
 * not aligned to its width a driver error): NULL with the answer given. */
static unsigned char *raw_at(places_t *p, ibf_attached *h, bool has_handle, char **args, unsigned *width) {
    const located_t *e;
    uint64_t offset, w;
    if (!parse_u64(args[1], UINT64_MAX, &offset) || !parse_u64(args[2], 8, &w) || (w != 1 && w != 2 && w != 4 && w != 8)) {
        ans_driver("bad_offset_or_width");
        return NULL;
    }
    *width = (unsigned)w;
    e = place_of(p, h, has_handle, args[0]);
    if (e == NULL) {
        return NULL;
    }
    /* The handle's regions lie in the mapping (attach checked them): so does a word in one. */
    if (offset > e->len || w > e->len - offset || w > (uint64_t)(g_map + MAP_LEN - (e->at + offset))) {
        ans_error("absent");
        return NULL;
    }
    if ((uintptr_t)(e->at + offset) % w != 0) {
        ans_driver("misaligned");
        return NULL;
    }
    return e->at + offset;
}

static void op_poke(places_t *p, ibf_attached *h, bool has_handle, char **args) {
    unsigned width = 0;
    uint64_t value;
    unsigned char *at = raw_at(p, h, has_handle, args, &width);
    if (at == NULL) {
        return;
    }
    if (!parse_u64(args[3], width == 8 ? UINT64_MAX : (UINT64_C(1) << (8U * width)) - 1U, &value)) {
        ans_driver("bad_value");
        return;
    }
    switch (width) {
    case 1: __atomic_store_n((raw8_t *)(void *)at, (uint8_t)value, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_store_n((raw16_t *)(void *)at, (uint16_t)value, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_store_n((raw32_t *)(void *)at, (uint32_t)value, __ATOMIC_SEQ_CST); break;
    default: __atomic_store_n((raw64_t *)(void *)at, value, __ATOMIC_SEQ_CST); break;
    }
    ans_str("ok");
}

static void op_peek(places_t *p, ibf_attached *h, bool has_handle, char **args) {
    unsigned width = 0;
    uint64_t value;
    unsigned char *at = raw_at(p, h, has_handle, args, &width);
    if (at == NULL) {
        return;
    }
    switch (width) {
    case 1: value = __atomic_load_n((raw8_t *)(void *)at, __ATOMIC_SEQ_CST); break;
    case 2: value = __atomic_load_n((raw16_t *)(void *)at, __ATOMIC_SEQ_CST); break;
    case 4: value = __atomic_load_n((raw32_t *)(void *)at, __ATOMIC_SEQ_CST); break;
    default: value = __atomic_load_n((raw64_t *)(void *)at, __ATOMIC_SEQ_CST); break;
    }
    ans_u64(value);
}

/* ---- Steps. ---- */

static bool op_is(const char *op, const char *name, int n, int want) {
    return strcmp(op, name) == 0 && n == want;
}

/* Raw ops, any actor, over its own located places: true when the step was one. */
static bool raw_step(places_t *p, ibf_attached *h, bool has_handle, const char *op, char **args, int n) {
    if (op_is(op, "poke", n, 4)) {
        op_poke(p, h, has_handle, args);
    } else if (op_is(op, "peek", n, 3)) {
        op_peek(p, h, has_handle, args);
    } else if (op_is(op, "locate", n, 1)) {
        if (place_of(p, h, has_handle, args[0]) != NULL) {
            ans_str("ok");
        }
    } else {
        return false;
    }
    return true;
}

static void host_step(const char *op, char **args, int n) {
    uint32_t num = 0;
    bool numbered = n >= 1 && parse_u32(args[0], &num);
    bool no_handle;
    if (raw_step(&g_host.places, &g_host.handle, g_host.produced, op, args, n)) {
        return;
    }
    if (strcmp(op, "produce") == 0) {
        op_produce(args, n);
        return;
    }
    if (op_is(op, "row", n, 1) && numbered) {
        op_row(num);
        return;
    }
    if (op_is(op, "pad", n, 1) && numbered) {
        op_pad(num);
        return;
    }
    if (op_is(op, "lockstep", n, 2)) {
        uint64_t tick, timeout_ms;
        if (parse_u64(args[0], UINT64_MAX, &tick) && parse_u64(args[1], 60000U, &timeout_ms)) {
            op_lockstep(tick, timeout_ms);
        } else {
            ans_driver("bad_lockstep_arguments");
        }
        return;
    }
    if (op_is(op, "wait_commands", n, 1)) {
        uint64_t timeout_ms;
        if (!g_host.produced) {
            ans_driver("no_host_handle");
        } else if (parse_u64(args[0], 60000U, &timeout_ms)) {
            op_wait_commands(timeout_ms);
        } else {
            ans_driver("bad_wait_commands_argument");
        }
        return;
    }
    if (op_is(op, "tick", n, 1)) {
        uint64_t tick;
        if (parse_u64(args[0], UINT64_MAX, &tick)) {
            ibf_bridge_header_store_snapshot_seq((ibf_bridge_header *)(void *)g_map, tick);
            ans_bytes("set=", 4);
            ans_u64(ibf_client_host_set_tick(g_map, (size_t)ibf_attached_header_size(&g_host.handle), 0U, NULL));
        } else {
            ans_driver("bad_tick_argument");
        }
        return;
    }
    if (op_is(op, "service_turn", n, 1)) {
        uint64_t now_ns;
        if (!g_host.produced) {
            ans_driver("no_host_handle");
        } else if (parse_u64(args[0], UINT64_MAX, &now_ns)) {
            op_service_turn(now_ns);
        } else {
            ans_driver("bad_service_turn_argument");
        }
        return;
    }
    if (op_is(op, "misses", n, 1) && numbered) {
        if (num < ROWS) {
            ans_u64(g_misses[num]);
        } else {
            ans_driver("no_such_row");
        }
        return;
    }
    if (op_is(op, "contend", n, 1) && numbered) {
        /* Row `num`'s state and generation word, contended until `uncontend`. */
        g_contended = num < ROWS ? (void *)(g_map + offsetof(ibf_bridge_header, clients) + (size_t)num * sizeof(ibf_client_entry)) : NULL;
        ans_str(g_contended != NULL ? "ok" : "no_row");
        return;
    }
    if (op_is(op, "free_inside", n, 1) && numbered && g_host.produced) {
        g_free_row = num;
        g_free_inside = (void *)(g_map + offsetof(ibf_bridge_header, pad_owner));
        host_forget(num);
        ans_str("ok");
        return;
    }
    if (op_is(op, "uncontend", n, 0)) {
        g_contended = NULL;
        ans_str("ok");
        return;
    }
    if ((op_is(op, "free", n, 1) || op_is(op, "take", n, 1) || op_is(op, "drain", n, 1) || op_is(op, "serve", n, 2)) && numbered) {
        no_handle = !g_host.produced;
    } else if (op_is(op, "reload", n, 0) || op_is(op, "exit", n, 0)) {
        no_handle = !g_host.produced;
    } else {
        ans_driver("unknown_host_op_or_arguments");
        return;
    }
    if (no_handle) {
        ans_driver("no_host_handle");
    } else if (strcmp(op, "free") == 0) {
        op_free(num);
    } else if (strcmp(op, "reload") == 0) {
        op_reload();
    } else if (strcmp(op, "exit") == 0) {
        int rc = api_exit(&g_host.handle);
        if (rc == IBF_OK) {
            ans_str("ok");
        } else {
            ans_error(ibf_result_name(rc));
        }
    } else if (strcmp(op, "take") == 0) {
        op_take(num);
    } else if (strcmp(op, "drain") == 0) {
        op_drain(num);
    } else {
        op_serve(num, args[1]);
    }
}

/* Whether client op `op` acts on the claim. */
static bool needs_claim(const char *op) {
    static const char *const ops[] = {"activate", "standing", "heartbeat", "close", "bind",
                                      "unbind", "push", "publish", "request", "command", "poll",
                                      "pad", "answer", "wait_tick", "set_waiting", "pid"};
    size_t i;
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (strcmp(op, ops[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void client_step(actor_t *a, const char *op, char **args, int n) {
    uint32_t num = 0;
    uint64_t ns = 0;
    bool numbered = n >= 1 && parse_u32(args[0], &num);
    if (raw_step(&a->places, &a->handle, a->attached, op, args, n)) {
        return;
    }
    if (op_is(op, "attach", n, 0)) {
        op_attach(a);
    } else if (!a->attached && strcmp(op, "claim") == 0) {
        ans_driver("not_attached");
    } else if (op_is(op, "claim", n, 1) && numbered) {
        op_claim(a, num);
    } else if (!a->claimed && needs_claim(op)) {
        ans_driver("no_claim");
    } else if (op_is(op, "activate", n, 0)) {
        ans_standing(api_activate(a));
    } else if (op_is(op, "pid", n, 1) && numbered) {
        /* The row's pid, as the client's fill stores it (every other field zero). */
        ibf_client_entry values;
        size_t len;
        unsigned char *h = client_header(a, &len);
        int rc;
        memset(&values, 0, sizeof values);
        values.pid = num;
        rc = ibf_client_fill(h, len, &a->session, &values);
        if (rc == IBF_OK) {
            ans_str("ok");
        } else {
            ans_standing(rc);
        }
    } else if (op_is(op, "standing", n, 0)) {
        ans_standing(api_standing(a));
    } else if (op_is(op, "heartbeat", n, 1) && parse_u64(args[0], UINT64_MAX, &ns)) {
        ans_standing(api_heartbeat(a, ns));
    } else if (op_is(op, "set_waiting", n, 1) && numbered) {
        size_t len;
        unsigned char *h = client_header(a, &len);
        ans_standing(ibf_client_set_waiting(h, len, &a->session, num));
    } else if (op_is(op, "close", n, 0)) {
        op_close(a);
    } else if (op_is(op, "bind", n, 1) && numbered) {
        op_pad_swap(a, num, true);
    } else if (op_is(op, "unbind", n, 1) && numbered) {
        op_pad_swap(a, num, false);
    } else if (op_is(op, "push", n, 1)) {
        op_push(a, args[0]);
    } else if (op_is(op, "pad", n, 1) && parse_u64(args[0], UINT64_MAX, &ns)) {
        op_pad_input(a, ns);
    } else if (op_is(op, "answer", n, 1) && parse_u64(args[0], UINT64_MAX, &ns)) {
        op_answer(a, ns);
    } else if (op_is(op, "wait_tick", n, 2) && parse_u64(args[0], UINT64_MAX, &ns)) {
        uint64_t ms;
        if (parse_u64(args[1], 60000U, &ms)) {
            op_wait_tick(a, ns, ms);
        } else {
            ans_driver("bad_wait_tick_arguments");
        }
    } else if (op_is(op, "publish", n, 1) && numbered) {
        op_publish(a, num);
    } else if (op_is(op, "request", n, 1)) {
        op_request(a, args[0]);
    } else if (op_is(op, "command", n, 1)) {
        op_command(a, args[0]);
    } else if (op_is(op, "poll", n, 0)) {
        op_poll(a);
    } else {
        ans_driver("unknown_client_op_or_arguments");
    }
}

static actor_t *find_actor(const char *name) {
    int i;
    if (strlen(name) >= NAME_MAX_) {
        return NULL;
    }
    for (i = 0; i < MAX_ACTORS; i++) {
        if (g_actors[i].present && strcmp(g_actors[i].name, name) == 0) {
            return &g_actors[i];
        }
    }
    for (i = 0; i < MAX_ACTORS; i++) {
        if (!g_actors[i].present) {
            memset(&g_actors[i], 0, sizeof g_actors[i]);
            g_actors[i].present = true;
            memcpy(g_actors[i].name, name, strlen(name) + 1U);
            return &g_actors[i];
        }
    }
    return NULL;
}

static void start_scenario(void) {
    memset(g_map, 0, sizeof g_map);
    g_contended = NULL;
    g_free_inside = NULL;
    memset(&g_host, 0, sizeof g_host);
    memset(g_actors, 0, sizeof g_actors);
    memset(g_misses, 0, sizeof g_misses);
}

static void step(char *line) {
    char *tokens[MAX_TOKENS];
    int n = 0;
    char *p = line;
    actor_t *a;
    while (*p != '\0') {
        while (*p == ' ') {
            *p++ = '\0';
        }
        if (*p == '\0') {
            break;
        }
        if (n == MAX_TOKENS) {
            ans_driver("too_many_arguments");
            return;
        }
        tokens[n++] = p;
        while (*p != '\0' && *p != ' ') {
            p++;
        }
    }
    if (n < 2) {
        ans_driver("no_op");
        return;
    }
    if (strcmp(tokens[0], "host") == 0) {
        host_step(tokens[1], tokens + 2, n - 2);
        return;
    }
    a = find_actor(tokens[0]);
    if (a == NULL) {
        ans_driver("too_many_actors_or_name_too_long");
        return;
    }
    client_step(a, tokens[1], tokens + 2, n - 2);
}

int main(int argc, char **argv) {
    static char line[LINE_CAP];
    FILE *in;
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT_FILE\n", argv[0]);
        return 2;
    }
    in = fopen(argv[1], "rb");
    if (in == NULL) {
        fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[1]);
        return 2;
    }
    start_scenario();
    while (fgets(line, sizeof line, in) != NULL) {
        size_t len = strlen(line);
        bool whole = len > 0 && line[len - 1] == '\n';
        if (!whole && !feof(in)) {
            int c;
            while ((c = fgetc(in)) != EOF && c != '\n') {
            }
            puts("error:driver:line_too_long");
            continue;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
            line[--len] = '\0';
        }
        if (len == 0) {
            continue;
        }
        if (strncmp(line, "scenario ", 9) == 0) {
            start_scenario();
            printf("%s\n", line);
        } else if (strcmp(line, "end") == 0) {
            puts("end");
        } else {
            ans_reset();
            step(line);
            if (g_answer_len == 0) {
                ans_driver("no_answer");
            }
            printf("%s\n", g_answer);
        }
        fflush(stdout);
    }
    fclose(in);
    return 0;
}

/* A Windows bot of the C++ host example (examples/host_cpp/host.cpp) under wine, by name
 * (tests/windows.rs): `win_bot NAME ROW die|stay`. It opens the section NAME
 * (OpenFileMappingA, MapViewOfFile) and uses only the generated helpers of bridge.h.
 *   die:  a malformed request (its length past the request area, as a broken client writes
 *         it), answered with status failed; `req 7`, answered `ans 7xxxxxxx`; log entries 0
 *         and `end`; one draw list (seq 1: 2 commands of colour 1, 8 payload bytes holding
 *         1); then a claim of row ROW with pad 0 bound, activated, and the process ends
 *         without goodbye: the host must find the row hung and free it and the pad.
 *   stay: a claim of row ROW, activated, heartbeating until the host reloads (6 s at most),
 *         then a new claim, heartbeating until the host re-lays out (6 s at most: a new
 *         generation too, the handle attached again by the claim), a new claim and goodbye.
 * One line per step on stdout; exit 1 with a message for anything else. Built with
 * x86_64-w64-mingw32-gcc -std=c11. */
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"

static unsigned char *base;
static size_t base_len;

static void fail(const char *what, int code) {
    printf("win_bot: %s: %s\n", what, ibf_result_name(code));
    fflush(stdout);
    exit(1);
}

static uint64_t now_ns(void) {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (uint64_t)t.QuadPart / (uint64_t)f.QuadPart * 1000000000ULL
        + (uint64_t)t.QuadPart % (uint64_t)f.QuadPart * 1000000000ULL / (uint64_t)f.QuadPart;
}

static void map_bridge(const char *name) {
    MEMORY_BASIC_INFORMATION info;
    HANDLE h = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE, FALSE, name);
    if (h == NULL) {
        printf("win_bot: no mapping named `%s` (error %lu)\n", name, (unsigned long)GetLastError());
        exit(1);
    }
    base = (unsigned char *)MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    if (base == NULL || VirtualQuery(base, &info, sizeof info) == 0) {
        printf("win_bot: cannot map `%s` (error %lu)\n", name, (unsigned long)GetLastError());
        exit(1);
    }
    CloseHandle(h);
    base_len = info.RegionSize;
}

/* Waits for the answer to request `seq` (5 s at most). */
static ibf_mailbox_response answer(void *m, size_t len, uint32_t seq, char *text, size_t cap) {
    ibf_mailbox_response resp;
    uint64_t deadline = now_ns() + 5000000000ULL;
    int code;
    while ((code = ibf_mailbox_poll_response(m, len, seq, &resp, text, cap)) == IBF_PENDING) {
        if (now_ns() > deadline) {
            fail("no answer in 5 s", code);
        }
        Sleep(1);
    }
    if (code != IBF_OK) {
        fail("poll_response", code);
    }
    return resp;
}

static void messages(const ibf_attached *a, uint32_t row) {
    ibf_mailbox_header *m = ibf_attached_client_blocks_mailbox(a, row);
    size_t len = (size_t)ibf_attached_client_blocks_mailbox_size(a, row);
    void *q = ibf_attached_client_blocks_log_queue(a, row);
    size_t qlen = (size_t)ibf_attached_client_blocks_log_queue_size(a, row);
    void *d = ibf_attached_bot_blocks_draw(a, row);
    size_t dlen = (size_t)ibf_attached_bot_blocks_draw_size(a, row);
    char text[256];
    uint32_t seq;
    ibf_mailbox_response resp;
    ibf_log_entry e;
    ibf_draw_writer w;
    ibf_draw_cmd cmd;
    ibf_draw_list_header head;
    uint64_t one = 1;
    int code, i;
    if (m == NULL || q == NULL || d == NULL) {
        fail("no client or bot block", IBF_SESSION_ROW);
    }
    /* A broken client's request: a length past the area, then the seq (release). */
    seq = ibf_mailbox_header_load_request_seq(m) + 1U;
    m->request_len = 0xFFFFFFFFU;
    ibf_mailbox_header_store_request_seq(m, seq);
    resp = answer(m, len, seq, text, sizeof text);
    printf("malformed %u\n", (unsigned)resp.status);
    if ((code = ibf_mailbox_request_unscoped(m, len, "req 7", 5, &seq)) != IBF_OK) {
        fail("request", code);
    }
    resp = answer(m, len, seq, text, sizeof text);
    printf("answer %u %.*s\n", (unsigned)resp.status, (int)resp.len, text);
    memset(&e, 0, sizeof e);
    if ((code = ibf_log_queue_push_unscoped(q, qlen, &e, "torture", 7, "0", 1)) != IBF_OK) {
        fail("log push", code);
    }
    e.tick = 1;
    if ((code = ibf_log_queue_push_unscoped(q, qlen, &e, "torture", 7, "end", 3)) != IBF_OK) {
        fail("log push end", code);
    }
    ibf_draw_writer_init(&w);
    if ((code = ibf_draw_begin(&w, d, dlen)) != IBF_OK) {
        fail("draw begin", code);
    }
    memset(&cmd, 0, sizeof cmd);
    cmd.color = 1;
    cmd.payload_len = 8;
    for (i = 0; i < 2; i++) {
        cmd.payload_off = w.payload_len;
        if ((code = ibf_draw_add_unscoped(&w, &cmd, &one, 8)) != IBF_OK) {
            fail("draw add", code);
        }
    }
    memset(&head, 0, sizeof head);
    head.seq = 1;
    if ((code = ibf_draw_publish_unscoped(&w, d, dlen, &head, NULL)) != IBF_OK) {
        fail("draw publish", code);
    }
    printf("sent\n");
}

/* Claims row `row` (attaching again after a reload or a re-layout: while the host produces
 * its new image, its state is not running and attach fails; it is tried again until the
 * deadline), fills it in and activates it. */
static void claim(ibf_attached *a, uint32_t row, ibf_client_session *s) {
    uint64_t deadline = now_ns() + 5000000000ULL;
    ibf_client_entry values;
    void *h = NULL;
    size_t len = 0;
    int code = IBF_OK, attached = 1;
    ibf_attach_error err;
    memset(&err, 0, sizeof err);
    for (;;) {
        if (!attached) {
            attached = ibf_attach_all(base, base_len, a, &err) == IBF_ATTACH_OK;
        }
        if (attached) {
            h = ibf_attached_header(a);
            len = (size_t)ibf_attached_header_size(a);
            if ((code = ibf_client_claim(h, len, (uint32_t)a->generation, row, s)) == IBF_OK) {
                break;
            }
            attached = code != IBF_RELOADED;
        }
        if (now_ns() > deadline) {
            fail(attached ? "claim" : "attach again", attached ? code : err.check);
        }
        Sleep(1);
    }
    memset(&values, 0, sizeof values);
    values.pid = (uint32_t)GetCurrentProcessId();
    values.heartbeat_ns = now_ns();
    values.pad = IBF_NO_PAD;
    if ((code = ibf_client_fill(h, len, s, &values)) != IBF_OK || (code = ibf_client_activate(h, len, s)) != IBF_OK) {
        fail("fill and activate", code);
    }
}

/* Heartbeats until the host reloads or re-lays out (6 s at most), then prints `what`. */
static void stay(ibf_attached *a, ibf_client_session *s, const char *what) {
    uint64_t deadline = now_ns() + 6000000000ULL;
    void *h = ibf_attached_header(a);
    size_t len = (size_t)ibf_attached_header_size(a);
    int code;
    while ((code = ibf_client_heartbeat(h, len, s, now_ns())) == IBF_OK) {
        if (now_ns() > deadline) {
            fail(what, IBF_PENDING);
        }
        Sleep(10);
    }
    if (code != IBF_RELOADED) {
        fail("heartbeat", code);
    }
    printf("%s\n", what);
    fflush(stdout);
}

int main(int argc, char **argv) {
    ibf_attached a;
    ibf_attach_error err;
    ibf_client_session s;
    uint32_t row;
    int code;
    if (argc != 4) {
        printf("usage: win_bot NAME ROW die|stay\n");
        return 1;
    }
    row = (uint32_t)strtoul(argv[2], NULL, 10);
    map_bridge(argv[1]);
    if ((code = ibf_attach_all(base, base_len, &a, &err)) != IBF_ATTACH_OK) {
        fail("attach", code);
    }
    if (strcmp(argv[3], "die") == 0) {
        void *h = ibf_attached_header(&a);
        size_t len = (size_t)ibf_attached_header_size(&a);
        messages(&a, row);
        claim(&a, row, &s);
        if ((code = ibf_client_bind_pad(h, len, &s, 0, NULL)) != IBF_OK) {
            fail("bind pad 0", code);
        }
        printf("active\n");
        fflush(stdout);
        ExitProcess(0); /* no goodbye: the row stays active, its heartbeat stops */
    }
    claim(&a, row, &s);
    printf("active\n");
    fflush(stdout);
    stay(&a, &s, "reloaded");
    claim(&a, row, &s);
    stay(&a, &s, "re-laid out");
    claim(&a, row, &s);
    if ((code = ibf_client_close(ibf_attached_header(&a), (size_t)ibf_attached_header_size(&a), &s)) != IBF_OK) {
        fail("close", code);
    }
    printf("goodbye\n");
    return 0;
}

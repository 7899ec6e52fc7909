/* The commands' event by name under wine (tests/windows.rs), with the header alone:
 *
 *   commands.exe host NAME EXPECTED   lays out a bridge (request and response areas of 256
 *                                     bytes), creates one named auto-reset commands' event per
 *                                     row (ibf_event_name_commands: Local\NAME-PID-1-commands-ROW)
 *                                     before it produces the bridge into the section Local\NAME,
 *                                     prints `ready`, then sleeps on every active row's event at
 *                                     once (ibf_client_host_wait_commands, 2 s a round) and answers
 *                                     each request `req K` with `ans K` until it answered EXPECTED
 *   commands.exe client NAME N        opens the section, claims a row, opens its row's event
 *                                     with EVENT_MODIFY_STATE, and sends N requests 1 to 4 ms apart
 *                                     (ibf_client_request_commands), timing each until its answer
 *
 * A lost wake-up is a round of the host whose wait ran to its deadline (2 s) and then found a
 * request: it came while the host slept and did not wake it. The host prints `host: R answered,
 * W woken from a sleep, L lost`, a client `client: N requests, worst X us` (a measurement);
 * 30 rounds in a row with no request (the clients stopped) end the host. A failure prints what
 * failed and exits 1. */
#include "bridge.h"
#include "claim_named.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
    printf("commands: %s (error %lu)\n", what, GetLastError());
    return 1;
}

static uint64_t now_us(void) {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (uint64_t)(t.QuadPart / f.QuadPart) * 1000000U + (uint64_t)(t.QuadPart % f.QuadPart) * 1000000U / (uint64_t)f.QuadPart;
}

static int host(const char *name, uint64_t expected) {
    static const ibf_geometry_value geometry[] = {{"mailbox.request_capacity", 256}, {"mailbox.response_capacity", 256}};
    static ibf_attached a;
    ibf_attach_error err;
    ibf_identity id;
    HANDLE section, events[IBF_MAX_CLIENTS];
    void *regions[IBF_MAX_CLIENTS];
    size_t lens[IBF_MAX_CLIENTS], len = 0;
    unsigned char *image, *base;
    char full[256];
    uint64_t answered = 0, woken = 0, lost = 0, rounds = 0, idle_rounds = 0;
    uint32_t row;
    (void)ibf_lay_out(NULL, 0, geometry, 2, 1, &len, &err);
    if (len == 0) {
        return fail("lay out");
    }
    image = (unsigned char *)calloc(1, len);
    if (image == NULL || ibf_lay_out(image, len, geometry, 2, 1, &len, &err) != IBF_PRODUCE_OK) {
        return fail("lay out");
    }
    memset(&id, 0, sizeof id);
    id.pid = (uint32_t)GetCurrentProcessId();
    id.version = "commands.exe";
    if (ibf_stamp_identity(image, len, &id) != IBF_PRODUCE_OK) {
        return fail("stamp");
    }
    snprintf(full, sizeof full, "Local\\%s", name);
    section = CreateFileMappingA(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, (DWORD)len, full);
    if (section == NULL || GetLastError() == ERROR_ALREADY_EXISTS) {
        return fail("a new section");
    }
    base = (unsigned char *)MapViewOfFile(section, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, len);
    if (base == NULL) {
        return fail("map the section");
    }
    /* Every event before the bridge runs: the generation a new section's produce writes is 1. */
    for (row = 0; row < IBF_MAX_CLIENTS; row++) {
        if (ibf_event_name_commands(full, sizeof full, name, id.pid, 1U, row) == 0) {
            return fail("an event's name");
        }
        events[row] = CreateEventA(NULL, FALSE, FALSE, full);
        if (events[row] == NULL) {
            return fail("CreateEventA");
        }
    }
    if (ibf_produce_attached(base, len, image, len, &a, &err) != IBF_PRODUCE_OK || a.generation != 1U) {
        return fail("produce");
    }
    for (row = 0; row < IBF_MAX_CLIENTS; row++) {
        regions[row] = ibf_attached_client_blocks_mailbox(&a, row);
        lens[row] = (size_t)ibf_attached_client_blocks_mailbox_size(&a, row);
    }
    printf("ready\n");
    fflush(stdout);
    while (answered < expected) {
        uint64_t rows = 0, pending, start, slept;
        int idle, ran_out;
        if (++rounds > 10000000U || idle_rounds >= 30U) {
            return fail("too many rounds");
        }
        for (row = 0; row < IBF_MAX_CLIENTS; row++) {
            if (ibf_client_entry_load_state(&ibf_attached_header(&a)->clients[row]) == IBF_CLIENT_STATE_ACTIVE) {
                rows |= (uint64_t)1U << row;
            }
        }
        if (rows == 0U) {
            Sleep(1);
            continue;
        }
        idle = ibf_client_host_wait_commands(regions, lens, rows, 0U, (void *const *)events) == 0U;
        start = now_us();
        pending = ibf_client_host_wait_commands(regions, lens, rows, 2000000000U, (void *const *)events);
        slept = now_us() - start;
        ran_out = slept >= 2000000U; /* the wait ran to its deadline */
        idle_rounds = ran_out && pending == 0U ? idle_rounds + 1U : 0U;
        if (pending == 0U) {
            continue;
        }
        lost += ran_out ? 1U : 0U;
        woken += idle ? 1U : 0U;
        for (row = 0; row < IBF_MAX_CLIENTS; row++) {
            char request[64], answer[80];
            size_t n = 0;
            uint32_t seq = 0;
            if ((pending >> row & 1U) == 0U) {
                continue;
            }
            if (ibf_mailbox_serve_begin(regions[row], lens[row], request, sizeof request - 1, &n, &seq) != IBF_OK) {
                return fail("serve");
            }
            request[n < sizeof request - 1 ? n : sizeof request - 1] = '\0';
            snprintf(answer, sizeof answer, "ans %s", strncmp(request, "req ", 4) == 0 ? request + 4 : "?");
            if (ibf_mailbox_serve_answer(regions[row], lens[row], seq, IBF_COMMAND_STATUS_OK, answer, strlen(answer)) != IBF_OK) {
                return fail("answer");
            }
            answered++;
        }
    }
    printf("host: %llu answered, %llu woken from a sleep, %llu lost\n", (unsigned long long)answered,
           (unsigned long long)woken, (unsigned long long)lost);
    fflush(stdout);
    /* The clients read their last answers before the section goes. */
    Sleep(500);
    return 0;
}

static int client(const char *name, uint64_t n) {
    static ibf_attached a;
    ibf_client_session me;
    HANDLE event;
    const char *failed;
    unsigned char *base;
    char full[256];
    void *box;
    size_t len, box_len;
    uint64_t k, worst = 0;
    failed = claim_named(name, &base, &len, &a, &me);
    if (failed != NULL) {
        return fail(failed);
    }
    if (ibf_event_name_commands(full, sizeof full, name, __atomic_load_n(&((ibf_bridge_header *)(void *)base)->host_pid, __ATOMIC_RELAXED),
                                (uint32_t)a.generation, me.row) == 0) {
        return fail("the event's name");
    }
    event = OpenEventA(EVENT_MODIFY_STATE, FALSE, full);
    if (event == NULL) {
        return fail("OpenEventA");
    }
    box = ibf_attached_client_blocks_mailbox(&a, me.row);
    box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&a, me.row);
    for (k = 1; k <= n; k++) {
        char text[32], want[32], answer[64];
        ibf_mailbox_response resp;
        uint32_t seq = 0;
        uint64_t sent, took;
        int r;
        Sleep((DWORD)(k % 4U + 1U));
        if (ibf_client_heartbeat(base, len, &me, now_us() * 1000U) != IBF_OK) {
            return fail("heartbeat");
        }
        snprintf(text, sizeof text, "req %llu", (unsigned long long)k);
        snprintf(want, sizeof want, "ans %llu", (unsigned long long)k);
        if (ibf_client_request_commands(base, len, &me, box, box_len, text, strlen(text), &seq, event) != IBF_OK) {
            return fail("request");
        }
        sent = now_us();
        for (;;) {
            r = ibf_mailbox_poll_response(box, box_len, seq, &resp, answer, sizeof answer - 1);
            if (r == IBF_OK) {
                break;
            }
            if (r != IBF_PENDING || now_us() - sent > 5000000U) {
                return fail("no answer in 5 s");
            }
            Sleep(0);
        }
        took = now_us() - sent;
        answer[resp.len < sizeof answer - 1 ? resp.len : sizeof answer - 1] = '\0';
        if (resp.status != IBF_COMMAND_STATUS_OK || strcmp(answer, want) != 0) {
            return fail("a wrong answer");
        }
        worst = took > worst ? took : worst;
    }
    (void)ibf_client_close(base, len, &me);
    printf("client: %llu requests, worst %llu us\n", (unsigned long long)n, (unsigned long long)worst);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "host") == 0) {
        return host(argv[2], strtoull(argv[3], NULL, 10));
    }
    if (argc == 4 && strcmp(argv[1], "client") == 0) {
        return client(argv[2], strtoull(argv[3], NULL, 10));
    }
    printf("usage: commands.exe host NAME EXPECTED | client NAME N\n");
    return 2;
}

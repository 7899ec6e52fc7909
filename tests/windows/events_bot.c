/* The C bot of examples/events_windows.rs under wine (tests/windows.rs): `events_bot NAME
 * TICKS`. It opens the section `Local\NAME` (OpenFileMappingA, MapViewOfFile), claims a row,
 * opens its row's tick event by the schema's name (ibf_event_name_tick:
 * `Local\NAME-PID-GENERATION-tick-ROW`, the host's pid and generation from the header) with SYNCHRONIZE | EVENT_MODIFY_STATE, and sleeps
 * on it through ibf_client_tick_wait until tick TICKS, storing each tick in its heartbeat.
 * Prints `bot: TICKS WOKEN LOST WAITS` (a lost wake-up: a wait that timed out although the
 * tick had moved), or a line saying what failed and exits 1. Built with x86_64-w64-mingw32-gcc
 * -std=c11; <windows.h> comes from bridge.h, no macro needed. */
#include "bridge.h"
#include "claim_named.h"

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what) {
    printf("events_bot: %s (error %lu)\n", what, (unsigned long)GetLastError());
    return 1;
}

int main(int argc, char **argv) {
    static ibf_attached a;
    char name[256];
    ibf_client_session me;
    HANDLE event;
    const char *failed;
    unsigned char *base;
    size_t len;
    uint64_t n, last = 0, seq = 0, ticks = 0, woken = 0, lost = 0, sleeps = 0;
    uint32_t idle = 0;
    if (argc != 3) {
        printf("usage: events_bot NAME TICKS\n");
        return 2;
    }
    n = strtoull(argv[2], NULL, 10);
    failed = claim_named(argv[1], &base, &len, &a, &me);
    if (failed != NULL) {
        return fail(failed);
    }
    /* The event's name as the header makes it (ibf_event_name_tick, the schema's pattern),
     * with the host's pid and generation: the Rust host names it with tick_event_name. */
    if (ibf_event_name_tick(name, sizeof name, argv[1], __atomic_load_n(&((ibf_bridge_header *)(void *)base)->host_pid, __ATOMIC_RELAXED),
                            (uint32_t)a.generation, me.row) == 0) {
        return fail("the event's name is too long");
    }
    event = OpenEventA(SYNCHRONIZE | EVENT_MODIFY_STATE, FALSE, name);
    if (event == NULL) {
        printf("events_bot: no event named `%s`\n", name);
        return fail("OpenEventA");
    }
    while (last < n) {
        int r = ibf_client_tick_wait(base, len, &me, event, last, 1000000000U, &seq);
        if (r == IBF_CLIENT_TICK_ROW) {
            return fail("the row");
        }
        if (r == IBF_CLIENT_TICK_AGAIN) {
            sleeps++;
            woken++;
            continue;
        }
        if (r == IBF_CLIENT_TICK_TIMEOUT) {
            sleeps++;
            if (seq == last) {
                if (++idle > 30) {
                    return fail("no tick in 30 s");
                }
                continue;
            }
            lost++;
        }
        ticks += seq - last;
        last = seq;
        ibf_client_entry_store_heartbeat_ns(&((ibf_bridge_header *)(void *)base)->clients[me.row], seq);
    }
    printf("bot: %llu %llu %llu %llu\n", (unsigned long long)ticks, (unsigned long long)woken,
           (unsigned long long)lost, (unsigned long long)sleeps);
    fflush(stdout);
    CloseHandle(event);
    return 0;
}

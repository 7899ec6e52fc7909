/* The C bot of tests/events.rs and bench/wake.sh (issue 47): `wake_bot BRIDGE_FILE TICKS`.
 * It claims a row and sleeps on the tick event through ibf_client_tick_wait, one round per
 * call (a wake means look again), storing each tick it gets in its heartbeat; prints
 * `bot: TICKS WOKEN LOST WAITS`, where a lost wake-up is a round that timed out though the tick
 * had moved. Built with gcc -std=c11 -Wall -Wextra -Werror -pedantic (and as C++17). */
#include "bridge.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
    struct stat st;
    static ibf_attached a;
    ibf_attach_error err;
    ibf_client_session me;
    unsigned char *base;
    size_t len;
    uint64_t n, last = 0, seq = 0, ticks = 0, woken = 0, lost = 0, sleeps = 0;
    uint32_t i, idle = 0;
    int fd, found = 0;
    if (argc != 3 || (fd = open(argv[1], O_RDWR)) < 0 || fstat(fd, &st) != 0) return 2;
    n = strtoull(argv[2], NULL, 10);
    base = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return 2;
    if (ibf_attach(base, (size_t)st.st_size, &a, &err) != IBF_ATTACH_OK) return 3;
    len = (size_t)ibf_attached_header_size(&a);
    for (i = 0; i < IBF_MAX_CLIENTS && !found; i++) {
        found = ibf_client_claim(base, len, (uint32_t)a.generation, i, &me) == IBF_OK
                && ibf_client_activate(base, len, &me) == IBF_OK;
    }
    if (!found) return 4;
    while (last < n) {
        int r = ibf_client_tick_wait(base, len, &me, NULL, last, 1000000000U, &seq);
        if (r == IBF_CLIENT_TICK_ROW) return 5;
        if (r == IBF_CLIENT_TICK_AGAIN) { sleeps++; woken++; continue; }
        if (r == IBF_CLIENT_TICK_TIMEOUT) {
            sleeps++;
            if (seq == last) { if (++idle > 30) return 6; continue; }
            lost++;
        }
        ticks += seq - last;
        last = seq;
        ibf_client_entry_store_heartbeat_ns(&((ibf_bridge_header *)(void *)base)->clients[me.row], seq);
    }
    printf("bot: %llu %llu %llu %llu\n", (unsigned long long)ticks, (unsigned long long)woken,
           (unsigned long long)lost, (unsigned long long)sleeps);
    return 0;
}

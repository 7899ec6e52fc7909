/* The C header's directory helpers (ibf_directory_*, ibf_hosts_*), driven by
 * tests/c_directory.rs:
 *   directory unit        register, list newest first, unregister, stale rows (gone, reused
 *                         pid, a dead claimant), a full directory, hostile headers and rows;
 *   directory host FILE   registers this process in the directory file FILE (created
 *                         owner-only, or opened), prints "registered ROW", then waits to be
 *                         killed;
 *   directory next FILE   opens FILE, registers (freeing stale rows), prints what it found,
 *                         and unregisters;
 *   directory race FILE GO  one of two creators racing ibf_hosts_open_or_create(FILE) once GO
 *                         exists: prints whether it created FILE, its row, and its times;
 *   directory open FILE   ibf_hosts_open_or_create(FILE) once: its result, whether it
 *                         created FILE, and whether it waited (more than 50 ms). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"

static int failures = 0;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                      \
        }                                                                    \
    } while (0)

/* A fake probe: pids and their creation times in ctx (pairs, ended by pid 0). */
static int fake_probe(uint32_t pid, uint64_t *created, void *ctx) {
    const uint64_t *known = (const uint64_t *)ctx;
    for (; known[0] != 0; known += 2) {
        if (known[0] == pid) {
            *created = known[1];
            return IBF_PROCESS_RUNNING;
        }
    }
    return IBF_PROCESS_GONE;
}

static int unknown_probe(uint32_t pid, uint64_t *created, void *ctx) {
    (void)pid;
    (void)created;
    (void)ctx;
    return IBF_PROCESS_UNKNOWN;
}

static uint64_t words[IBF_HOSTS_SIZE / 8U];

static unsigned char *fresh(ibf_directory *d) {
    memset(words, 0, sizeof words);
    CHECK(ibf_hosts_lay_out(words, sizeof words, d) == 0);
    return (unsigned char *)words;
}

static void put32(unsigned char *b, size_t at, uint32_t v) {
    memcpy(b + at, &v, 4);
}

static void unit(void) {
    ibf_directory d;
    ibf_directory_host hosts[16];
    uint32_t row = 99, freed = 99, problems = 99, state, pid, i;
    uint64_t running[] = {100, 5000, 200, 9000, 300, 7000, 0, 0};
    unsigned char *b = fresh(&d);
    size_t n;
    /* The reference's header. */
    CHECK(memcmp(b, "IBFD", 4) == 0 && b[4] == 16 && b[8] == 64);
    CHECK(ibf_directory_register(&d, 100, 5000, "host 100", fake_probe, running, &row, &freed) == 0 && row == 0 && freed == 0);
    CHECK(ibf_directory_register(&d, 200, 9000, "host 200", fake_probe, running, &row, &freed) == 0 && row == 1);
    CHECK(ibf_directory_register(&d, 300, 7000, "host 300", fake_probe, running, &row, &freed) == 0 && row == 2);
    n = ibf_directory_list(&d, hosts, 16, &problems);
    CHECK(n == 3 && problems == 0);
    CHECK(hosts[0].pid == 200 && hosts[1].pid == 300 && hosts[2].pid == 100);
    CHECK(hosts[0].row == 1 && hosts[0].process_time == 9000 && strcmp(hosts[0].host_version, "host 200") == 0);
    CHECK(hosts[0].abi_major == 0 && hosts[0].abi_minor == 9);
    /* The row as the reference lays it out. */
    CHECK(b[64 + 64] == 2 && b[64 + 64 + 4] == 200 && memcmp(b + 64 + 64 + 24, "host 200", 9) == 0);
    CHECK(ibf_directory_unregister(&d, 1, 200, 9000));
    CHECK(!ibf_directory_unregister(&d, 1, 200, 9000));
    for (i = 0; i < 64; i++) {
        CHECK(b[64 + 64 + i] == 0);
    }
    n = ibf_directory_list(&d, hosts, 16, &problems);
    CHECK(n == 2 && hosts[0].pid == 300 && hosts[1].pid == 100);

    /* 100 is gone, 300's pid now names a process created at another time: both stale. */
    {
        uint64_t now[] = {300, 7001, 400, 1, 0, 0};
        CHECK(ibf_directory_register(&d, 400, 1, "next", fake_probe, now, &row, &freed) == 0);
        CHECK(freed == 2 && row == 0);
        n = ibf_directory_list(&d, hosts, 16, &problems);
        CHECK(n == 1 && hosts[0].pid == 400);
        CHECK(ibf_directory_remove_stale(&d, 1, unknown_probe, NULL) == 0);
    }

    /* A claimed row, process_time 0: kept while its owner runs, freed once it is gone. */
    b = fresh(&d);
    put32(b, 64, 1);
    put32(b, 68, 100);
    {
        uint64_t alive[] = {100, 42, 0, 0}, none[] = {0, 0};
        CHECK(ibf_directory_remove_stale(&d, 1, fake_probe, alive) == 0);
        ibf_directory_state(&d, 0, &state, &pid);
        CHECK(state == 1 && pid == 100);
        b[72] = 41; /* filled in with another creation time: a reused pid */
        CHECK(ibf_directory_remove_stale(&d, 1, fake_probe, alive) == 1);
        put32(b, 64, 1);
        put32(b, 68, 100);
        CHECK(ibf_directory_remove_stale(&d, 1, fake_probe, none) == 1);
        ibf_directory_state(&d, 0, &state, &pid);
        CHECK(state == 0 && pid == 0);
    }

    /* Full, and a version too long. */
    b = fresh(&d);
    for (i = 1; i <= 16; i++) {
        CHECK(ibf_directory_register(&d, i, i, "h", unknown_probe, NULL, &row, NULL) == 0);
    }
    CHECK(ibf_directory_register(&d, 17, 17, "h", unknown_probe, NULL, &row, NULL) == IBF_DIRECTORY_FULL);
    CHECK(ibf_directory_register(&d, 17, 17, "0123456789abcdef0123456789abcdef", unknown_probe, NULL, &row, NULL) == IBF_DIRECTORY_VERSION_TOO_LONG);
    CHECK(strcmp(ibf_directory_error_name(IBF_DIRECTORY_FULL), "directory_full") == 0);

    /* A garbage state: reported, neither claimed nor freed. */
    b = fresh(&d);
    put32(b, 64, 7);
    put32(b, 68, 100);
    CHECK(ibf_directory_register(&d, 200, 1, "h", unknown_probe, NULL, &row, &freed) == 0 && row == 1 && freed == 0);
    n = ibf_directory_list(&d, hosts, 16, &problems);
    CHECK(n == 1 && problems == 1);
    ibf_directory_state(&d, 0, &state, &pid);
    CHECK(state == 7 && pid == 100);

    /* Hostile headers. */
    {
        struct { size_t at; uint32_t value; int want; } cases[] = {
            {0, 0x12345678U, IBF_DIRECTORY_BAD_MAGIC},
            {0, 0, IBF_DIRECTORY_NOT_READY},
            {8, 60, IBF_DIRECTORY_BAD_ENTRY_SIZE},
            {8, 68, IBF_DIRECTORY_BAD_ENTRY_SIZE},
            {8, 0xffffffffU, IBF_DIRECTORY_BAD_ENTRY_SIZE},
            {8, 128, IBF_DIRECTORY_BAD_ENTRY_COUNT},
            {4, 0, IBF_DIRECTORY_BAD_ENTRY_COUNT},
            {4, 0xffffffffU, IBF_DIRECTORY_BAD_ENTRY_COUNT},
        };
        size_t k;
        for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            ibf_directory e;
            b = fresh(&d);
            put32(b, cases[k].at, cases[k].value);
            CHECK(ibf_hosts_check(b, sizeof words, &e) == cases[k].want);
        }
        CHECK(ibf_hosts_check(words, 32, &d) == IBF_DIRECTORY_TOO_SMALL);
    }
    {
        uint64_t t = 0;
        CHECK(ibf_process_probe((uint32_t)getpid(), &t, NULL) == IBF_PROCESS_RUNNING && t > 0);
        CHECK(ibf_process_probe(0xfffffffeU, &t, NULL) == IBF_PROCESS_GONE);
    }
}

/* The directory file `path` through ibf_hosts_open_or_create: created owner-only and laid
 * out, or opened (waiting, bounded, for its creator). */
static ibf_directory_mapping map_directory(const char *path, ibf_directory *d) {
    ibf_directory_mapping map;
    int r = ibf_hosts_open_or_create(path, &map, d);
    if (r != IBF_DIRECTORY_OK) {
        printf("refused %s\n", r == IBF_DIRECTORY_OS_ERROR ? strerror(errno) : ibf_directory_error_name(r));
        exit(3);
    }
    return map;
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000U + (uint64_t)t.tv_nsec;
}

/* One of two creators racing: waits for the file `go`, then opens or creates `path`,
 * registers, lists and unregisters; prints whether it created the file, its row, and when
 * its open_or_create started and ended. */
static int race(const char *path, const char *go) {
    ibf_directory d;
    ibf_directory_mapping map;
    ibf_directory_host hosts[16];
    uint32_t row = 0, freed = 0, problems = 0, me = (uint32_t)getpid();
    uint64_t me_time = 0, start, end;
    /* A busy wait, so that both racers leave it within microseconds of the go (bounded). */
    uint64_t give_up = now_ns() + 20000000000U;
    while (access(go, F_OK) != 0) {
        if (now_ns() > give_up) {
            return 4;
        }
    }
    start = now_ns();
    map = map_directory(path, &d);
    end = now_ns();
    ibf_process_probe(me, &me_time, NULL);
    CHECK(ibf_directory_register(&d, me, me_time, "c racer", ibf_process_probe, NULL, &row, &freed) == 0);
    CHECK(ibf_directory_list(&d, hosts, 16, &problems) >= 1 && problems == 0);
    printf("created %d row %u start %llu end %llu\n", map.created, (unsigned)row, (unsigned long long)start,
           (unsigned long long)end);
    CHECK(ibf_directory_unregister(&d, row, me, me_time));
    ibf_directory_unmap(&map);
    return failures;
}

int main(int argc, char **argv) {
    ibf_directory d;
    uint64_t me_time = 0;
    uint32_t row = 0, freed = 0, problems = 0;
    uint32_t me = (uint32_t)getpid();
    if (argc == 2 && strcmp(argv[1], "unit") == 0) {
        unit();
        if (failures) {
            return 1;
        }
        printf("directory unit ok\n");
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "race") == 0) {
        return race(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(argv[1], "open") == 0) {
        ibf_directory_mapping map;
        uint64_t start = now_ns();
        int r = ibf_hosts_open_or_create(argv[2], &map, &d);
        printf("open %s created %d waited %d\n", r == 0 ? "ok" : ibf_directory_error_name(r), map.created,
               now_ns() - start > 50000000U);
        ibf_directory_unmap(&map);
        return 0;
    }
    if (argc != 3) {
        return 2;
    }
    map_directory(argv[2], &d);
    ibf_process_probe(me, &me_time, NULL);
    if (strcmp(argv[1], "host") == 0) {
        int r = ibf_directory_register(&d, me, me_time, "c host", ibf_process_probe, NULL, &row, &freed);
        printf("registered %d %u\n", r, (unsigned)row);
        fflush(stdout);
        sleep(60);
        return 0;
    }
    if (strcmp(argv[1], "next") == 0) {
        ibf_directory_host hosts[16];
        size_t n;
        int r = ibf_directory_register(&d, me, me_time, "c next", ibf_process_probe, NULL, &row, &freed);
        n = ibf_directory_list(&d, hosts, 16, &problems);
        printf("next %d stale_freed %u listed %u first_pid_is_me %d problems %u\n", r, (unsigned)freed,
               (unsigned)n, n > 0 && hosts[0].pid == me, (unsigned)problems);
        CHECK(ibf_directory_unregister(&d, row, me, me_time));
        return failures;
    }
    return 2;
}

/* A C client of the torture test (examples/torture.rs): `client MAPPING ID SECONDS ROUNDS`.
 * It maps the bridge (a file, e.g. /dev/shm/NAME; on Windows a named mapping, `Local\NAME`)
 * and uses only the generated helpers of bridge.h for the bridge's protocols: the snapshot
 * ring's newest-slot read, the client rows' and pads' claims. The round and ack words past
 * the bridge are the harness's own. Built with gcc, and with mingw-w64 for Windows
 * (tests/windows.rs runs it under wine). */
#ifdef _WIN32
#include <windows.h>
#else
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"

#define TRIES 100000U

/* The word at index k of publication n, as the host fills it (the first word is n). */
static uint64_t word_of(uint64_t n, size_t k) {
    if (k == 0) {
        return n;
    }
    return (n * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)k * 0xD6E8FEB86659FD93ULL);
}

#ifdef _WIN32
static double now_s(void) {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (double)t.QuadPart / (double)f.QuadPart;
}

static void yield_now(void) { (void)SwitchToThread(); }

/* The named mapping `name`, all of it read-write; its length from VirtualQuery (whole
 * pages). Every failure names the mapping. */
static unsigned char *map_bridge(const char *name, size_t *len) {
    HANDLE h = OpenFileMappingA(FILE_MAP_READ | FILE_MAP_WRITE, FALSE, name);
    if (h == NULL) {
        DWORD e = GetLastError();
        if (e == ERROR_FILE_NOT_FOUND) {
            fprintf(stderr, "no mapping named `%s` (error %lu): is the host running?\n", name, (unsigned long)e);
        } else if (e == ERROR_ACCESS_DENIED) {
            fprintf(stderr, "access denied to the mapping named `%s` (error %lu)\n", name, (unsigned long)e);
        } else {
            fprintf(stderr, "cannot open the mapping named `%s` (error %lu)\n", name, (unsigned long)e);
        }
        return NULL;
    }
    unsigned char *base = (unsigned char *)MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    MEMORY_BASIC_INFORMATION info;
    if (base == NULL || VirtualQuery(base, &info, sizeof info) == 0) {
        fprintf(stderr, "cannot map a view of the mapping named `%s` (error %lu)\n", name,
                (unsigned long)GetLastError());
        return NULL;
    }
    /* The view keeps the section alive; the handle is not needed any more. */
    CloseHandle(h);
    *len = info.RegionSize;
    return base;
}

static void unmap_bridge(unsigned char *base, size_t len) {
    (void)len;
    UnmapViewOfFile(base);
}
#else
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void yield_now(void) { (void)sched_yield(); }

/* The file `path`, all of it read-write and shared. Every failure names the file. */
static unsigned char *map_bridge(const char *path, size_t *len) {
    int fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(path);
        return NULL;
    }
    void *base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (base == MAP_FAILED) {
        perror(path);
        return NULL;
    }
    *len = (size_t)st.st_size;
    return (unsigned char *)base;
}

static void unmap_bridge(unsigned char *base, size_t len) { munmap(base, len); }
#endif

static ibf_ring_slot_copy slot;

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: client MAPPING ID SECONDS ROUNDS\n");
        return 2;
    }
    size_t len = 0;
    unsigned char *base = map_bridge(argv[1], &len);
    if (base == NULL) {
        return 2;
    }
    uint8_t id = (uint8_t)atoi(argv[2]);
    double seconds = atof(argv[3]);
    uint64_t rounds = (uint64_t)strtoull(argv[4], NULL, 10);
    ibf_bridge_header *header = (ibf_bridge_header *)(void *)base;
    /* The header, and the harness's round and ack words past the bridge, must be mapped. */
    if (len < sizeof *header || ibf_live_load_acquire_u32_(&header->total_size) > len - 16) {
        fprintf(stderr, "%s is %zu bytes, smaller than the bridge and the harness's words\n", argv[1], len);
        return 2;
    }
    /* The host wrote the region table and the ring's geometry before it started this
     * process (the process's start orders them before these reads). */
    ibf_region_entry ring = header->regions[IBF_BRIDGE_REGION_SNAPSHOT_RING];
    unsigned char *slots = base + ring.offset;
    uint64_t slot_count = header->ring_slots;
    uint64_t slot_size = header->ring_slot_size;
    if (ring.offset > len || slot_count == 0 || slot_size > (len - ring.offset) / slot_count) {
        fprintf(stderr, "%s: the snapshot ring (offset %lu, %llu slots of %llu bytes) is past its %zu bytes\n",
                argv[1], (unsigned long)ring.offset, (unsigned long long)slot_count, (unsigned long long)slot_size, len);
        return 2;
    }

    uint64_t reads = 0, torn = 0, retries = 0;
    unsigned char extra[64];
    double until = now_s() + seconds;
    while (now_s() < until) {
        uint32_t r = 0;
        int status = ibf_snapshot_ring_read_newest(header, slots, slot_count, slot_size, &slot, extra, sizeof extra, TRIES, &r);
        if (status == IBF_EMPTY) {
            yield_now();
            continue;
        }
        retries += r;
        if (status != IBF_OK) {
            continue;
        }
        reads++;
        uint64_t n = slot.publish_seq;
        int whole = slot.tick == n && slot.payload_extra_len == 8;
        const unsigned char *bytes = (const unsigned char *)&slot.payload;
        for (size_t k = 0; whole && k < sizeof slot.payload / 8; k++) {
            uint64_t w;
            memcpy(&w, bytes + 8 * k, 8);
            whole = w == word_of(n, k);
        }
        if (whole) {
            uint64_t e;
            memcpy(&e, extra, 8);
            whole = e == n;
        }
        if (!whole) {
            torn++;
        }
    }
    printf("reads %llu %llu %llu\n", (unsigned long long)reads, (unsigned long long)torn,
           (unsigned long long)retries);

    /* The harness's round and ack words, right after the bridge. */
    uint64_t *round = (uint64_t *)(void *)(base + ibf_live_load_acquire_u32_(&header->total_size));
    uint64_t *acks = round + 1;
    uint64_t last = 0, done = 0;
    double changed = now_s();
    while (last < rounds) {
        uint64_t r = __atomic_load_n(round, __ATOMIC_ACQUIRE);
        if (r == last) {
            /* The host says it is done, or is gone: a round unchanged for a minute. */
            if (ibf_bridge_header_load_host_state(header) == IBF_HOST_STATE_EXITING ||
                now_s() - changed > 60.0) {
                break;
            }
            yield_now();
            continue;
        }
        changed = now_s();
        for (size_t i = 0; i < IBF_MAX_CLIENTS; i++) {
            ibf_client_entry *row = &header->clients[i];
            ibf_client_session me;
            uint32_t attached = ibf_bridge_header_load_host_generation(header);
            /* The session's claim: one compare-and-swap of the row's (state, generation) word. */
            if (ibf_client_claim(header, sizeof *header, attached, (uint32_t)i, &me) == IBF_OK) {
                /* The row is ours: fill it in, then publish it with the activation (release). */
                ibf_live_store_relaxed_u32_(&row->pid, id);
                if (ibf_client_activate(header, sizeof *header, &me) == IBF_OK) {
                    printf("won %llu row %zu\n", (unsigned long long)r, i);
                }
            }
        }
        for (size_t p = 0; p < IBF_MAX_PLAYERS; p++) {
            uint8_t expected = IBF_NO_PAD;
            if (ibf_bridge_header_compare_exchange_pad_owner_at(header, p, &expected, id)) {
                printf("won %llu pad %zu\n", (unsigned long long)r, p);
            }
        }
        __atomic_fetch_add(acks, 1, __ATOMIC_ACQ_REL);
        last = r;
        done++;
    }
    printf("rounds %llu\n", (unsigned long long)done);
    unmap_bridge(base, len);
    return 0;
}

/* A C bot racing a host's start-up and reloads (tests/c_attach.rs): `race FILE`.
 * It maps the bridge file the host is writing and attaches in a loop. A refusal must be
 * retryable (host_not_running, host_reloaded) while the host starts or reloads; an attach
 * that passes must hold one generation's geometry (the test's host builds 16 ring slots
 * and a 4224-byte stats region in bot block 7 in odd generations, 8 and 4160 in even
 * ones: the first and the last thing attach reads), and the bot then waits until ibf_attached_reloaded
 * tells it to attach again. After each attach it stores the generation it saw in the last
 * 8 bytes of the file (past the image), for the host to wait on now and then. It stops
 * when the host's state is exiting, and prints
 * `refused= attaches= noticed= bad=`; any half-written table it accepted counts in bad. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bridge.h"

int main(int argc, char **argv) {
    static ibf_attached a;
    ibf_attach_error err;
    uint64_t refused = 0, attaches = 0, noticed = 0, bad = 0;
    struct stat st;
    unsigned char *base;
    int fd;
    if (argc != 2) {
        fprintf(stderr, "usage: race FILE\n");
        return 2;
    }
    fd = open(argv[1], O_RDWR);
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 2;
    }
    base = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    for (;;) {
        int rc = ibf_attach(base, (size_t)st.st_size, &a, &err);
        if (rc == IBF_ATTACH_HOST_NOT_RUNNING && err.found == IBF_HOST_STATE_EXITING) {
            break;
        }
        if (rc == IBF_ATTACH_HOST_NOT_RUNNING || rc == IBF_ATTACH_HOST_RELOADED) {
            /* Polled tightly, to catch the host's short running windows. */
            if (++refused % 64 == 0) {
                sched_yield();
            }
            continue;
        }
        if (rc != IBF_ATTACH_OK) {
            /* A check other than the host's state judged a half-written table. */
            fprintf(stderr, "judged a half-written table: %s %s expected %" PRIu64 " found %" PRIu64 "\n",
                    err.check_name, err.region, err.expected, err.found);
            bad++;
            continue;
        }
        attaches++;
        __atomic_store_n((uint64_t *)(void *)(base + st.st_size - 8), a.generation, __ATOMIC_RELEASE);
        if (ibf_attached_snapshot_ring_count(&a) != (a.generation % 2 == 1 ? 16U : 8U)
            || ibf_attached_bot_blocks_stats_size(&a, 7) != (a.generation % 2 == 1 ? 4224U : 4160U)) {
            fprintf(stderr, "generation %" PRIu64 " with %" PRIu64 " slots, bot block 7's stats %" PRIu64 "\n",
                    a.generation, ibf_attached_snapshot_ring_count(&a), ibf_attached_bot_blocks_stats_size(&a, 7));
            bad++;
        }
        while (!ibf_attached_reloaded(&a)) {
            sched_yield();
        }
        noticed++;
    }
    printf("refused=%" PRIu64 " attaches=%" PRIu64 " noticed=%" PRIu64 " bad=%" PRIu64 "\n", refused, attaches,
           noticed, bad);
    munmap(base, (size_t)st.st_size);
    close(fd);
    return bad == 0 ? 0 : 1;
}

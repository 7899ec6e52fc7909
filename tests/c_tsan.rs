//! The C header's seqlock and compare-and-swap helpers under gcc's ThreadSanitizer: a C
//! program where a writer thread publishes snapshots into the ring and rewrites a pad under
//! its seqlock while a reader thread validates every copy it accepts (every 8-byte word of a
//! snapshot derives from its publication number), then two threads race to claim client rows
//! and pad bytes by compare-and-swap, round after round, while the main thread checks that
//! each has exactly one owner. The program proves that it raced (retries, split rounds), and
//! TSan must report nothing.
//!
//! TSan does not model `atomic_thread_fence` (gcc says so with -Wtsan, silenced here): every
//! shared access of the helpers is atomic, so TSan needs no fence to find no race, and the
//! fences' effect is what the torn-copy count checks. A plain `memcpy` of the slot in place
//! of the relaxed atomic copy is a race TSan reports.
//!
//! Needs gcc and its ThreadSanitizer runtime (Debian: apt-get install libtsan2); fails,
//! never skips, without them.

use crate::common;

use abi_codegen::testing::language_backend::c::render_c_header;
use common::tools::{run_tsan, scratch};

const PROGRAM: &str = r#"#define _POSIX_C_SOURCE 200809L
#include "bridge.h"
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RING 4096U
#define PAD (RING + IBF_RING_SLOTS * IBF_RING_SLOT_SIZE)
#define BLOB_LEN (PAD + 64U)
#define WORDS (sizeof(ibf_snapshot) / 8)
#define ROUNDS 1500
#define CLIENTS ((int)IBF_MAX_CLIENTS)
#define PLAYERS ((int)IBF_MAX_PLAYERS)

static unsigned char *blob;
static int stop;
static ibf_bridge_header *bridge(void) { return (ibf_bridge_header *)(void *)blob; }
static ibf_pad_input *pad(void) { return (ibf_pad_input *)(void *)(blob + PAD); }

/* Word k of publication n: a copy made of two publications is detectable. */
static uint64_t word(uint64_t n, size_t k) {
    return k == 0 ? n : (n * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)k * 0xD6E8FEB86659FD93ULL);
}
static int publication_of(const void *bytes, uint64_t n) {
    const unsigned char *b = (const unsigned char *)bytes;
    size_t k;
    for (k = 0; k < WORDS; k++) {
        uint64_t w;
        memcpy(&w, b + 8 * k, 8);
        if (w != word(n, k)) return 0;
    }
    return 1;
}
static void pad_of(ibf_pad_input *in, uint64_t n) {
    memset(in, 0, sizeof *in);
    in->for_tick = n;
    in->flags = (ibf_pad_input_flags)(n * 3);
    in->lx = (int16_t)n;
    in->ly = (int16_t)(n >> 16);
    in->rx = (int16_t)~n;
    in->ry = (int16_t)(n * 5);
    in->buttons = (ibf_pad_buttons)(n * 7);
    in->lt = (uint8_t)n;
    in->rt = (uint8_t)(n >> 8);
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static uint64_t publications;
static void *writer(void *arg) {
    static ibf_ring_slot_copy value;
    uint64_t n = 0;
    int i;
    (void)arg;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        size_t k;
        ibf_pad_input in;
        n++;
        for (k = 0; k < WORDS; k++) {
            uint64_t w = word(n, k);
            memcpy((unsigned char *)&value.payload + 8 * k, &w, 8);
        }
        value.publish_seq = n;
        value.tick = n;
        value.payload_extra_len = 8;
        if (ibf_snapshot_ring_publish(bridge(), blob + RING, IBF_RING_SLOTS, IBF_RING_SLOT_SIZE, &value, &n) != IBF_OK) abort();
        for (i = 0; i < 8; i++) {
            pad_of(&in, n * 8 + (uint64_t)i);
            ibf_pad_input_write_unscoped(pad(), &in);
        }
    }
    publications = n;
    return NULL;
}

static uint64_t reads, torn, retries, contended, unlocked_torn, pad_reads, pad_torn, pad_retries;
static uint64_t slot_reads, slot_torn, slot_retries;
static void *reader(void *arg) {
    static ibf_ring_slot_copy copy;
    static unsigned char raw[sizeof(ibf_snapshot)];
    int i;
    (void)arg;
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
        uint64_t extra = 0, head, first;
        ibf_ring_slot_header *slot;
        uint32_t tries = 0;
        int status = ibf_snapshot_ring_read_newest(bridge(), blob + RING, IBF_RING_SLOTS, IBF_RING_SLOT_SIZE, &copy, &extra, sizeof extra,
                                                   IBF_DEFAULT_TRIES, &tries);
        __atomic_fetch_add(&retries, tries, __ATOMIC_RELAXED);
        if (status == IBF_CONTENDED) contended++;
        if (status == IBF_OK) {
            reads++;
            if (!publication_of(&copy.payload, copy.publish_seq) || copy.tick != copy.publish_seq
                || extra != copy.publish_seq || copy.size != sizeof(ibf_snapshot) + 8) {
                torn++;
            }
        }
        /* The control: the slot being written, copied without the seqlock (relaxed atomics). */
        head = ibf_bridge_header_load_snapshot_seq(bridge());
        slot = ibf_snapshot_ring_slot(blob + RING, IBF_RING_SLOTS, IBF_RING_SLOT_SIZE, head % IBF_RING_SLOTS);
        ibf_live_read_bytes_((unsigned char *)slot + 64, raw, sizeof raw);
        memcpy(&first, raw, 8);
        if (head >= IBF_RING_SLOTS && !publication_of(raw, first)) unlocked_torn++;
        /* The same slot under its seqlock: retried while the writer is in it. */
        tries = 0;
        status = ibf_ring_slot_read(slot, IBF_RING_SLOT_SIZE, &copy, &extra, sizeof extra, IBF_DEFAULT_TRIES, &tries);
        __atomic_fetch_add(&slot_retries, tries, __ATOMIC_RELAXED);
        if (status == IBF_OK && copy.publish_seq > 0) {
            slot_reads++;
            if (!publication_of(&copy.payload, copy.publish_seq) || copy.tick != copy.publish_seq
                || extra != copy.publish_seq) {
                slot_torn++;
            }
        }
        for (i = 0; i < 8; i++) {
            ibf_pad_input in, want;
            tries = 0;
            /* seq 0: the pad as calloc left it, before the writer's first write (a reader
             * scheduled first on a loaded machine reads it): no publication to check. */
            if (ibf_pad_input_read(pad(), &in, IBF_DEFAULT_TRIES, &tries) == IBF_OK && in.seq != 0) {
                pad_reads++;
                pad_of(&want, in.for_tick);
                if (memcmp((unsigned char *)&in + 4, (unsigned char *)&want + 4, sizeof in - 4) != 0) pad_torn++;
            }
            __atomic_fetch_add(&pad_retries, tries, __ATOMIC_RELAXED);
        }
    }
    return NULL;
}

static pthread_barrier_t start, end;
static int arrived;
static unsigned char won_row[2][IBF_MAX_CLIENTS], won_pad[2][IBF_MAX_PLAYERS];
static void *claimant(void *arg) {
    int t = *(const int *)arg, round;
    for (round = 0; round < ROUNDS; round++) {
        int i;
        pthread_barrier_wait(&start);
        /* Both claimants leave this spin together, so that their claims overlap. */
        __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
        while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < 2 * (round + 1)) {
        }
        for (i = 0; i < CLIENTS; i++) {
            int r = t == 0 ? i : CLIENTS - 1 - i;
            ibf_client_entry *row = &bridge()->clients[r];
            ibf_client_session me;
            /* The session's claim: one compare-and-swap of the row's (state, generation) word. */
            won_row[t][r] = ibf_client_claim(bridge(), sizeof(ibf_bridge_header), 0U, (uint32_t)r, &me) == IBF_OK;
            if (won_row[t][r]) {
                row->pid = (uint32_t)t + 1; /* plain: the claim makes the row this thread's */
                won_row[t][r] = ibf_client_activate(bridge(), sizeof(ibf_bridge_header), &me) == IBF_OK;
            }
        }
        for (i = 0; i < PLAYERS; i++) {
            size_t k = (size_t)(t == 0 ? i : PLAYERS - 1 - i);
            uint8_t seen = IBF_NO_PAD;
            won_pad[t][k] = ibf_bridge_header_compare_exchange_pad_owner_at(bridge(), k, &seen, (uint8_t)t);
        }
        pthread_barrier_wait(&end);
    }
    return NULL;
}

int main(void) {
    pthread_t w, r;
    int ids[2] = {0, 1}, round, i;
    uint64_t split = 0, doubles = 0;
    uint8_t free_pads[IBF_MAX_PLAYERS];
    double started;
    blob = (unsigned char *)calloc(1, BLOB_LEN);
    if (blob == NULL) return 2;

    started = now();
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    for (;;) {
        struct timespec nap = {0, 20000000};
        double t;
        nanosleep(&nap, NULL);
        t = now() - started;
        if (t > 6.0 || (t > 1.0 && __atomic_load_n(&slot_retries, __ATOMIC_RELAXED) > 0
                                       && __atomic_load_n(&pad_retries, __ATOMIC_RELAXED) > 0)) {
            break;
        }
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    printf("tsan ring: %" PRIu64 " publications, %" PRIu64 " reads, %" PRIu64 " torn accepted, %" PRIu64
           " retries, %" PRIu64 " contended, %" PRIu64 " torn without the seqlock\n",
           publications, reads, torn, retries, contended, unlocked_torn);
    printf("tsan slot: %" PRIu64 " reads, %" PRIu64 " torn accepted, %" PRIu64 " retries\n", slot_reads,
           slot_torn, slot_retries);
    printf("tsan pad: %" PRIu64 " reads, %" PRIu64 " torn accepted, %" PRIu64 " retries\n", pad_reads,
           pad_torn, pad_retries);

    memset(free_pads, IBF_NO_PAD, sizeof free_pads);
    memcpy(bridge()->pad_owner, free_pads, sizeof free_pads);
    pthread_barrier_init(&start, NULL, 3);
    pthread_barrier_init(&end, NULL, 3);
    pthread_create(&w, NULL, claimant, &ids[0]);
    pthread_create(&r, NULL, claimant, &ids[1]);
    for (round = 0; round < ROUNDS; round++) {
        uint8_t owners[IBF_MAX_PLAYERS], expected[IBF_MAX_PLAYERS];
        int rows[2] = {0, 0};
        pthread_barrier_wait(&start);
        pthread_barrier_wait(&end);
        ibf_bridge_header_load_pad_owner(bridge(), owners);
        for (i = 0; i < CLIENTS; i++) {
            ibf_client_entry *row = &bridge()->clients[i];
            int winner = won_row[0][i] ? 0 : 1;
            rows[0] += won_row[0][i];
            rows[1] += won_row[1][i];
            if (won_row[0][i] + won_row[1][i] != 1 || row->pid != (uint32_t)winner + 1
                || ibf_client_entry_load_state(row) != IBF_CLIENT_STATE_ACTIVE
                || ibf_client_entry_load_generation(row) != (uint32_t)round + 1) {
                doubles++;
            }
            row->pid = 0;
            row->state = IBF_CLIENT_STATE_FREE; /* plain: both claimants wait at the barrier */
        }
        for (i = 0; i < PLAYERS; i++) {
            if (won_pad[0][i] + won_pad[1][i] != 1 || owners[i] != (won_pad[0][i] ? 0 : 1)) doubles++;
        }
        split += rows[0] > 0 && rows[1] > 0;
        memcpy(expected, owners, sizeof owners);
        if (!ibf_bridge_header_compare_exchange_pad_owner(bridge(), expected, free_pads)) doubles++;
    }
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    printf("tsan claims: %d rounds, %" PRIu64 " split between the threads, %" PRIu64 " double claims\n",
           ROUNDS, split, doubles);
    free(blob);
    return torn != 0 || slot_torn != 0 || pad_torn != 0 || doubles != 0 || slot_retries == 0
           || pad_retries == 0 || reads == 0 || split == 0;
}
"#;

/// The numbers before each word of a line, in order: "3 reads, 0 torn" gives [3, 0].
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn seqlock_and_claim_helpers_race_cleanly_under_thread_sanitizer() {
    let dir = scratch("c_tsan");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("render bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::write(dir.join("stress.c"), PROGRAM).unwrap();
    let stdout = run_tsan(&dir, "stress.c");
    let line = |prefix: &str| {
        let l = stdout.lines().find(|l| l.starts_with(prefix));
        numbers(l.unwrap_or_else(|| panic!("no `{prefix}` line in\n{stdout}")))
    };
    let ring = line("tsan ring:");
    let slot = line("tsan slot:");
    let pad = line("tsan pad:");
    let claims = line("tsan claims:");
    assert!(
        ring[1] > 0 && slot[0] > 0 && pad[0] > 0,
        "it read: {ring:?} {slot:?} {pad:?}"
    );
    assert_eq!(
        (ring[2], slot[1], pad[1]),
        (0, 0, 0),
        "no torn copy accepted"
    );
    assert!(slot[2] > 0 && pad[2] > 0, "it raced: copies were retried");
    assert_eq!(claims[2], 0, "every row and pad had one owner each round");
    assert!(claims[1] > 0, "the claimants ran at the same time");
}

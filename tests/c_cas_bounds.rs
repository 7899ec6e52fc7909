//! The C header's compare-and-swap loops that keep the other bytes of their word (the element
//! compare-and-swap of `pad_owner`, the host's retire of a row beside its client's generation,
//! a free letting go of the row's pads) against a peer that changes the word between each load
//! and exchange (the header's `IBF_CAS_HOOK`, defined by the program before it includes the
//! header): each gives up after `IBF_CAS_TRIES` tries, with `IBF_CONTENDED` (or false with the
//! element left as expected), and stores nothing; with the peer quiet each goes through. Built
//! with gcc, every warning an error; fails, never skips, without gcc.

use crate::common;

use common::c_live_program::STRICT;
use common::tools::{run_ok, scratch};

const PROGRAM: &str = r#"#include <stdint.h>
#include <stddef.h>
static void *peer_target;
static int peer_width;
static unsigned peer_calls;
/* The peer: flips the top bit of the word it watches, whenever a loop is about to exchange it. */
static void peer(void *word) {
    if (word != peer_target) {
        return;
    }
    peer_calls++;
    if (peer_width == 4) {
        (void)__atomic_fetch_xor((uint32_t *)word, 0x80000000u, __ATOMIC_RELAXED);
    } else {
        (void)__atomic_fetch_xor((uint64_t *)word, 0x8000000000000000ull, __ATOMIC_RELAXED);
    }
}
#define IBF_CAS_HOOK(word) peer((void *)(word))
#include "bridge.h"
#include <stdio.h>

static uint64_t mem[(sizeof(ibf_bridge_header) + 7) / 8];

static void watch(void *word, int width) {
    peer_target = word;
    peer_width = width;
    peer_calls = 0;
}

int main(void) {
    ibf_bridge_header *h = (ibf_bridge_header *)(void *)mem;
    size_t len = sizeof(ibf_bridge_header);
    unsigned char *row = ibf_client_row_(mem, len, 0U);
    uint8_t expected = 255U;
    uint32_t old = 99U;
    int rc;
    bool ok;
    h->pad_owner[0] = 0U;
    h->pad_owner[1] = 255U;
    h->pad_owner[2] = 255U;
    h->pad_owner[3] = 255U;
    ibf_live_store_release_u32_(row, 2U); /* row 0 active: it owns pad 0 */

    watch(h->pad_owner, 4);
    ok = ibf_bridge_header_compare_exchange_pad_owner_at(h, 1U, &expected, 7U);
    printf("pad_owner_at %d %u %u %u\n", ok, (unsigned)expected, peer_calls, (unsigned)h->pad_owner[1]);

    watch(row, 8);
    rc = ibf_client_free_begin_(mem, len, 0U, &old);
    printf("retire %d %u %u\n", rc, peer_calls, ibf_live_load_acquire_u32_(row));

    watch(h->pad_owner, 4);
    rc = ibf_client_free_begin_(mem, len, 0U, &old);
    printf("free_pads %d %u %u %u\n", rc, peer_calls, old, (unsigned)h->pad_owner[0]);

    watch(NULL, 0);
    ok = ibf_bridge_header_compare_exchange_pad_owner_at(h, 1U, &expected, 7U);
    rc = ibf_client_free_begin_(mem, len, 0U, &old);
    printf("quiet %d %d %u %u\n", ok, rc, (unsigned)h->pad_owner[1], (unsigned)h->pad_owner[0]);
    return 0;
}
"#;

#[test]
fn a_peer_that_writes_a_word_nonstop_makes_each_cas_loop_give_up_by_name() {
    let dir = scratch("c_cas_bounds");
    let header = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/bridge.h");
    std::fs::copy(header, dir.join("bridge.h")).expect("copy the header");
    std::fs::write(dir.join("cas.c"), PROGRAM).expect("write the program");
    let mut args = vec!["-std=c11"];
    args.extend(STRICT.split(' '));
    args.extend(["cas.c", "-o", "cas"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("cas").to_str().unwrap(), &[], &dir);
    let lines: Vec<&str> = out.lines().collect();
    // IBF_CONTENDED is 1, IBF_OK 0; 1024 is IBF_CAS_TRIES.
    assert_eq!(
        lines,
        [
            "pad_owner_at 0 255 1024 255",
            "retire 1 1024 2",
            "free_pads 1 1024 2 0",
            "quiet 1 0 7 255",
        ],
        "each loop gives up after 1024 tries and stores nothing; a quiet peer lets each through"
    );
}

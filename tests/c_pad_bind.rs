//! The C header's pad bind against the host's free in its window (issue 46, item 2): the
//! header's `IBF_CAS_HOOK` runs the host's whole free of the row between the bind's load of
//! the `pad_owner` word and its compare-and-swap, so the swap lands after the free's sweep.
//! The bind's re-check (after its seq_cst fence) must see the row gone and undo the bind:
//! the row's next client does not inherit the pad. Then a stale client's unbind must not
//! take the next client's pad. Built with gcc, every warning an error; fails, never skips,
//! without gcc.

use crate::common;

use common::c_live_program::STRICT;
use common::tools::{run_ok, scratch};

const PROGRAM: &str = r#"#include <stdint.h>
#include <stddef.h>
static void *pad_word;
static void *host_region;
static size_t host_len;
static int fire;
static unsigned frees;
static void host_free_now(void);
/* The host: frees row 0 the first time a loop is about to exchange the pad word. */
static void peer(void *word) {
    if (fire && word == pad_word) {
        fire = 0;
        host_free_now();
    }
}
#define IBF_CAS_HOOK(word) peer((void *)(word))
#include "bridge.h"
#include <stdio.h>

static uint64_t mem[(sizeof(ibf_bridge_header) + 7) / 8];

static void host_free_now(void) {
    uint32_t old = 0;
    if (ibf_client_free_begin_(host_region, host_len, 0U, &old) == IBF_OK) {
        ibf_client_free_end_(host_region, host_len, 0U);
        frees++;
    }
}

int main(void) {
    ibf_bridge_header *h = (ibf_bridge_header *)(void *)mem;
    ibf_client_session stale, next;
    uint64_t owner = 99U;
    uint8_t owners[IBF_MAX_PLAYERS];
    int rc;
    host_region = mem;
    host_len = sizeof(ibf_bridge_header);
    pad_word = h->pad_owner;
    h->pad_owner[0] = h->pad_owner[1] = h->pad_owner[2] = h->pad_owner[3] = IBF_NO_PAD;
    if (ibf_client_claim(mem, host_len, 0U, 0U, &stale) != IBF_OK || ibf_client_activate(mem, host_len, &stale) != IBF_OK) {
        return 2;
    }
    /* The bind checks its standing (connected), loads the word; the host frees the row; the
     * swap still finds the pad unbound and binds it: the re-check undoes it. */
    fire = 1;
    rc = ibf_client_bind_pad(mem, host_len, &stale, 1U, &owner);
    ibf_bridge_header_load_pad_owner(h, owners);
    printf("raced bind %d frees %u pad %u\n", rc == IBF_DISCONNECTED, frees, (unsigned)owners[1]);
    /* The row's next client binds the pad; the stale client's unbind leaves it alone. */
    if (ibf_client_claim(mem, host_len, 0U, 0U, &next) != IBF_OK) {
        return 3;
    }
    rc = ibf_client_bind_pad(mem, host_len, &next, 1U, &owner);
    printf("next bind %d\n", rc == IBF_OK);
    rc = ibf_client_unbind_pad(mem, host_len, &stale, 1U);
    ibf_bridge_header_load_pad_owner(h, owners);
    printf("stale unbind %d pad %u\n", rc == IBF_DISCONNECTED, (unsigned)owners[1]);
    return 0;
}
"#;

#[test]
fn a_bind_the_hosts_free_overtook_is_undone_in_c() {
    let dir = scratch("c_pad_bind");
    let header = concat!(env!("CARGO_MANIFEST_DIR"), "/generated/bridge.h");
    std::fs::copy(header, dir.join("bridge.h")).expect("copy the header");
    std::fs::write(dir.join("bind.c"), PROGRAM).expect("write the program");
    let mut args = vec!["-std=c11"];
    args.extend(STRICT.split(' '));
    args.extend(["bind.c", "-o", "bind"]);
    run_ok("gcc", &args, &dir);
    let out = run_ok(dir.join("bind").to_str().unwrap(), &[], &dir);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "raced bind 1 frees 1 pad 255",
            "next bind 1",
            "stale unbind 1 pad 0",
        ],
        "the bind the free overtook is undone (disconnected, pad 1 unbound); the next \
         client's pad survives the stale client's unbind"
    );
}

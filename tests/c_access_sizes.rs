//! One access size per byte within C (issue 46 item 7): a program built with gcc records every
//! atomic access the header makes (its `__atomic_*` builtins wrapped by macros that log the
//! address and size first), while it calls every exported accessor of the session's and the
//! directory's structs (the bridge header, its client rows, the directory's header and rows)
//! and runs the helpers over the same bytes: a session's claim, activate, heartbeat, waiting,
//! pad bind and unbind, standing, close, hung watch and the host's free and exit, and the
//! directory's register, list, state, remove_stale and unregister. No byte may be accessed
//! with two sizes: a 32-bit accessor of the row state that the claim swaps as one 64-bit word
//! fails it, naming both calls. The accessor calls are generated from the header's own
//! signatures, so a new accessor is called too. Needs gcc; fails, never skips, without it.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::c_live_program::bridge_header;
use common::tools::{run_ok, scratch};

/// The structs whose accessors the program calls, and where each one's instance is.
const VIEWS: [(&str, &str); 4] = [
    ("ibf_bridge_header", "h"),
    ("ibf_client_entry", "&h->clients[1]"),
    ("ibf_directory_header", "dh"),
    ("ibf_directory_entry", "&dh->entries[0]"),
];

/// The accessor operations a struct's atomic fields get.
const OPS: [&str; 5] = ["load", "store", "fetch_add", "compare_exchange", "exchange"];

const PROGRAM: &str = r#"#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Every atomic access the header makes: its address, its size, and the call it was in. */
static struct { const volatile void *at; size_t size; const char *call; } seen_[1 << 16];
static size_t count_;
static const char *call_ = "setup";
static int recording_;
static void record_(const volatile void *at, size_t size) {
    if (recording_ && count_ < sizeof seen_ / sizeof seen_[0]) {
        seen_[count_].at = at;
        seen_[count_].size = size;
        seen_[count_].call = call_;
        count_++;
    }
}
#define __atomic_load_n(p, o) (record_((p), sizeof *(p)), __atomic_load_n((p), (o)))
#define __atomic_store_n(p, v, o) (record_((p), sizeof *(p)), __atomic_store_n((p), (v), (o)))
#define __atomic_compare_exchange_n(p, e, d, w, s, f) \
    (record_((p), sizeof *(p)), __atomic_compare_exchange_n((p), (e), (d), (w), (s), (f)))
#define __atomic_fetch_add(p, v, o) (record_((p), sizeof *(p)), __atomic_fetch_add((p), (v), (o)))
#define __atomic_exchange_n(p, v, o) (record_((p), sizeof *(p)), __atomic_exchange_n((p), (v), (o)))

#include "bridge.h"

#define CALL(name, ...) (call_ = #name, name(__VA_ARGS__))

static ibf_bridge_header bridge_;
static uint64_t hosts_[IBF_HOSTS_SIZE / 8U];

static int probe_(uint32_t pid, uint64_t *created, void *ctx) {
    (void)ctx;
    *created = pid == 100U ? 5000U : 1U;
    return IBF_PROCESS_RUNNING;
}

static void accessors(ibf_bridge_header *h, ibf_directory_header *dh) {
ACCESSORS
}

static void print_(const char *region, const void *base, size_t len) {
    size_t i;
    for (i = 0; i < count_; i++) {
        const unsigned char *at = (const unsigned char *)(const void *)seen_[i].at;
        const unsigned char *b = (const unsigned char *)base;
        if (at >= b && at < b + len) {
            printf("%s %zu %zu %s\n", region, (size_t)(at - b), seen_[i].size, seen_[i].call);
        }
    }
}

int main(void) {
    ibf_bridge_header *h = &bridge_;
    ibf_directory d;
    ibf_directory_header *dh = (ibf_directory_header *)(void *)hosts_;
    ibf_directory_host listed[4];
    ibf_client_session me;
    ibf_client_watch watch;
    uint64_t owner = 0;
    uint32_t old = 0, row = 0, freed = 0, problems = 0, state = 0, pid = 0;
    memset(h->pad_owner, IBF_NO_PAD, sizeof h->pad_owner);
    h->host_generation = 1;
    if (ibf_hosts_lay_out(hosts_, sizeof hosts_, &d) != 0) {
        return 2;
    }
    recording_ = 1;
    /* The session's helpers over row 1, in a session's order. */
    CALL(ibf_client_claim, h, sizeof *h, 1U, 1U, &me);
    {
        /* The client's fill, whose store sizes the row's plain-field loaders must take. */
        ibf_client_entry values;
        memset(&values, 0, sizeof values);
        CALL(ibf_client_fill, h, sizeof *h, &me, &values);
    }
    CALL(ibf_client_activate, h, sizeof *h, &me);
    CALL(ibf_client_heartbeat, h, sizeof *h, &me, 5U);
    CALL(ibf_client_set_waiting, h, sizeof *h, &me, 1U);
    (void)CALL(ibf_client_host_waiting, h, sizeof *h, 1U);
    CALL(ibf_client_bind_pad, h, sizeof *h, &me, 0U, &owner);
    CALL(ibf_client_unbind_pad, h, sizeof *h, &me, 0U);
    CALL(ibf_client_standing, h, sizeof *h, &me);
    CALL(ibf_client_watch_init, &watch, 0U);
    (void)CALL(ibf_client_hung, h, sizeof *h, &watch, 1U, 10U);
    CALL(ibf_client_close, h, sizeof *h, &me);
    if (CALL(ibf_client_free_begin_, h, sizeof *h, 1U, &old) == IBF_OK) {
        CALL(ibf_client_free_end_, h, sizeof *h, 1U);
    }
    /* The directory's helpers over row 0. */
    CALL(ibf_directory_register, &d, 100U, 5000U, "h", probe_, NULL, &row, &freed);
    CALL(ibf_directory_list, &d, listed, 4, &problems);
    CALL(ibf_directory_state, &d, 0U, &state, &pid);
    CALL(ibf_directory_remove_stale, &d, 1U, probe_, NULL);
    CALL(ibf_directory_unregister, &d, row, 100U, 5000U);
    /* Every exported accessor of the same structs, over the same bytes. */
    accessors(h, dh);
    CALL(ibf_client_host_exit, h, sizeof *h);
    recording_ = 0;
    print_("bridge", h, sizeof *h);
    print_("hosts", hosts_, sizeof hosts_);
    return 0;
}
"#;

/// The header's exported accessors of the structs in [`VIEWS`]: (name, struct, parameters
/// after the first), from their `static inline` signatures.
fn accessors(header: &str) -> Vec<(String, &'static str, Vec<String>)> {
    let mut out = Vec::new();
    for line in header.lines() {
        let Some(rest) = line.strip_prefix("static inline ") else {
            continue;
        };
        let Some((head, params)) = rest.split_once('(') else {
            continue;
        };
        let name = head.rsplit([' ', '*']).next().unwrap_or("");
        let Some((ty, view)) = VIEWS.iter().find(|(ty, _)| {
            (name.strip_prefix(&format!("{ty}_")))
                .is_some_and(|op| OPS.iter().any(|o| op.starts_with(&format!("{o}_"))))
        }) else {
            continue;
        };
        let params = params.split_once(')').map_or(params, |(p, _)| p);
        let first = params.split(',').next().unwrap_or("").trim();
        if !first.ends_with(&format!("{ty} *shared")) {
            continue;
        }
        let rest = params.split(',').skip(1).map(|p| p.trim().to_string());
        out.push((name.to_string(), *view, rest.collect()));
        let _ = ty;
    }
    out
}

/// A call of accessor `name` on `view`, with a zeroed argument of each parameter's type.
fn accessor_call(name: &str, view: &str, params: &[String]) -> String {
    let (mut decls, mut args) = (String::new(), vec![view.to_string()]);
    for (i, p) in params.iter().enumerate() {
        let p = p.strip_prefix("const ").unwrap_or(p);
        let var = format!("a{i}");
        if let Some((ty_name, len)) = p.split_once('[') {
            let ty = ty_name.rsplit_once(' ').map_or(ty_name, |(t, _)| t);
            decls.push_str(&format!(
                "        {ty} {var}[{len}; memset({var}, 0, sizeof {var});\n"
            ));
            args.push(var);
        } else if let Some((ty, _)) = p.rsplit_once(" *") {
            decls.push_str(&format!(
                "        {ty} {var}; memset(&{var}, 0, sizeof {var});\n"
            ));
            args.push(format!("&{var}"));
        } else {
            let ty = p.rsplit_once(' ').map_or(p, |(t, _)| t);
            args.push(format!("({ty})0"));
        }
    }
    format!(
        "    {{\n{decls}        (void)CALL({name}, {});\n    }}\n",
        args.join(", ")
    )
}

/// The byte ranges of `region` that two sizes access: (first byte, past the last, each
/// size with the calls that used it).
type Clash = (usize, usize, BTreeMap<usize, BTreeSet<String>>);

/// One recorded access: (region, offset, size, call).
type Access = (String, usize, usize, String);

/// Runs the program over `header`; returns what it recorded and every clash.
fn record(header: &str, name: &str) -> (Vec<Access>, Vec<Clash>) {
    let calls: String = accessors(header)
        .iter()
        .map(|(name, view, params)| accessor_call(name, view, params))
        .collect();
    let dir = scratch(name);
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::write(dir.join("sizes.c"), PROGRAM.replace("ACCESSORS", &calls)).unwrap();
    run_ok(
        "gcc",
        &[
            "-std=c11", "-O1", "-Wall", "-Werror", "sizes.c", "-o", "sizes",
        ],
        &dir,
    );
    let out = run_ok(dir.join("sizes").to_str().unwrap(), &[], &dir);
    let seen: Vec<Access> = out
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let n = |s: &str| s.parse::<usize>().expect("a number");
            (f[0].to_string(), n(f[1]), n(f[2]), f[3].to_string())
        })
        .collect();
    // Each byte's sizes, with the calls behind each.
    let mut bytes: BTreeMap<(String, usize), BTreeMap<usize, BTreeSet<String>>> = BTreeMap::new();
    for (region, at, size, call) in &seen {
        for b in *at..at + size {
            (bytes.entry((region.clone(), b)).or_default())
                .entry(*size)
                .or_default()
                .insert(call.clone());
        }
    }
    let mut clashes: Vec<Clash> = Vec::new();
    for ((_, b), sizes) in bytes.into_iter().filter(|(_, s)| s.len() > 1) {
        match clashes.last_mut() {
            Some((_, end, last)) if *end == b && *last == sizes => *end += 1,
            _ => clashes.push((b, b + 1, sizes)),
        }
    }
    (seen, clashes)
}

#[test]
fn no_byte_is_accessed_with_two_sizes_by_the_accessors_and_helpers() {
    let (header, _) = bridge_header();
    let accessors = accessors(&header);
    for name in [
        "ibf_client_entry_load_state",
        "ibf_client_entry_load_generation",
        "ibf_client_entry_store_heartbeat_ns",
        "ibf_bridge_header_compare_exchange_pad_owner_at",
        "ibf_directory_entry_load_state",
        "ibf_client_entry_load_pid",
        "ibf_client_entry_load_caps",
        "ibf_client_entry_load_name",
    ] {
        assert!(
            accessors.iter().any(|(n, _, _)| n == name),
            "the program calls {name}"
        );
    }
    let (seen, clashes) = record(&header, "c_access_sizes");
    // Not vacuous: the helpers and the accessors each made their accesses.
    let calls: BTreeSet<&str> = seen.iter().map(|(_, _, _, c)| c.as_str()).collect();
    for call in [
        "ibf_client_claim",
        "ibf_client_fill",
        "ibf_client_close",
        "ibf_directory_register",
    ]
    .into_iter()
    .chain(accessors.iter().map(|(n, _, _)| n.as_str()))
    {
        assert!(calls.contains(call), "{call} made no atomic access");
    }
    assert!(
        seen.iter().any(|(r, at, size, c)| r == "bridge"
            && *at == 384
            && *size == 8
            && c == "ibf_client_claim"),
        "the claim swaps row 1's 8-byte word (clients at 0x100, 128 bytes a row): {seen:?}"
    );
    // The name's loader reads row 1's name (at 0x100 + 128 + 40, 32 bytes) and nothing else.
    let name: Vec<(usize, usize)> = (seen.iter())
        .filter(|(r, _, _, c)| r == "bridge" && c == "ibf_client_entry_load_name")
        .map(|(_, at, size, _)| (*at, *size))
        .collect();
    assert_eq!(name, [(424, 8), (432, 8), (440, 8), (448, 8)]);
    assert!(
        clashes.is_empty(),
        "bytes accessed with two sizes (first byte, past the last, size: calls): {clashes:#?}"
    );
}

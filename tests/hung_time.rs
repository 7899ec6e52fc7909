//! The hung time is the host's to set (issue 48): a watch made with `hung_ms` calls a row in
//! use hung once it stays unchanged for more than that, in every language (Rust
//! `host.watch_hung_ms(ms)`, C `ibf_client_watch_init(&watch, ms)`, Python
//! `Client.watch(hung_ms=ms)`); 0 (C: a zeroed watch too) or none is the session's 1000 ms.
//! Each language runs the same steps over a row claimed by its own client helper, at the
//! host's clock given as numbers, and prints the same line.

use crate::common;

use std::time::Duration;

use bridge_abi::live::{Bridge, Client};
use bridge_abi::runtime::SharedBuf;
use common::host_kit::c_output;
use common::python_recording::{module_dir, python};

/// What every language prints: for a 50 ms watch, hung at 50 ms after the first sighting, and
/// at 50 ms + 1 ns; then the same for a default watch at 1000 ms; then for a watch whose
/// hung time overflows ns, at the clock's end.
const EXPECTED: &str = "50ms 0 1 default 0 1 huge 0\n";

fn rust_line() -> String {
    let image = Bridge::lay_out(
        &[
            ("mailbox.request_capacity", 256),
            ("mailbox.response_capacity", 256),
        ],
        1,
    )
    .expect("lays out");
    let buf = SharedBuf::new(image.bytes.len());
    Bridge::produce(buf.region(), &image).expect("produced");
    let bridge = Bridge::attach(buf.region()).expect("attaches");
    let host = bridge.client_host();
    let _client = bridge.claim_client(1).expect("row 1 is free");
    let ms = 1_000_000u64;
    let t0 = 7 * ms;
    let mut line = String::new();
    for (what, mut watch, hung) in [
        ("50ms", host.watch_hung_ms(50), 50 * ms),
        ("default", host.watch(), Client::HUNG_MS * ms),
    ] {
        assert!(!host.is_hung(&mut watch, 1, t0), "a first sighting");
        let at = u8::from(host.is_hung(&mut watch, 1, t0 + hung));
        let past = u8::from(host.is_hung(&mut watch, 1, t0 + hung + 1));
        line.push_str(&format!("{what} {at} {past} "));
    }
    let mut watch = host.watch_hung_ms(u64::MAX);
    assert!(!host.is_hung(&mut watch, 1, 1));
    let end = u8::from(host.is_hung(&mut watch, 1, u64::MAX));
    line.push_str(&format!("huge {end}\n"));
    line
}

const C_PROGRAM: &str = r#"#include <stdio.h>
#include <string.h>
#include "bridge.h"

static ibf_bridge_header h;

int main(void) {
    ibf_client_session me;
    ibf_client_watch watch;
    const uint64_t ms = 1000000U, t0 = 7U * 1000000U;
    uint64_t hung;
    int round;
    h.host_generation = 1U;
    if (ibf_client_claim(&h, sizeof h, 1U, 1U, &me) != IBF_OK) {
        return 2;
    }
    for (round = 0; round < 2; round++) {
        if (round == 0) {
            ibf_client_watch_init(&watch, 50U);
            hung = 50U * ms;
        } else {
            memset(&watch, 0, sizeof watch); /* zeroed: the session's hung time */
            hung = (uint64_t)IBF_CLIENT_HUNG_MS * ms;
        }
        if (ibf_client_hung(&h, sizeof h, &watch, 1U, t0)) {
            return 3;
        }
        printf("%s %d ", round == 0 ? "50ms" : "default", ibf_client_hung(&h, sizeof h, &watch, 1U, t0 + hung));
        printf("%d ", ibf_client_hung(&h, sizeof h, &watch, 1U, t0 + hung + 1U));
    }
    ibf_client_watch_init(&watch, UINT64_MAX);
    if (ibf_client_hung(&h, sizeof h, &watch, 1U, 1U)) {
        return 4;
    }
    printf("huge %d\n", ibf_client_hung(&h, sizeof h, &watch, 1U, UINT64_MAX));
    return 0;
}
"#;

const PYTHON: &str = r#"
import mmap
import bridge

buf = mmap.mmap(-1, bridge.LiveBridgeHeader.SIZE)
h = bridge.LiveBridgeHeader(buf)
h.set_host_generation(1)
assert bridge.Client.claim(h, 1, 1) is not None
ms, t0 = 1000000, 7 * 1000000
line = []
for what, watch, hung in (("50ms", bridge.Client.watch(hung_ms=50), 50 * ms),
                          ("default", bridge.Client.watch(), bridge.Client.HUNG_MS * ms)):
    assert not bridge.Client.hung(h, 1, watch, t0)
    at = int(bridge.Client.hung(h, 1, watch, t0 + hung))
    past = int(bridge.Client.hung(h, 1, watch, t0 + hung + 1))
    line.append("%s %d %d" % (what, at, past))
watch = bridge.Client.watch(hung_ms=2 ** 64 - 1)
assert not bridge.Client.hung(h, 1, watch, 1)
line.append("huge %d" % bridge.Client.hung(h, 1, watch, 2 ** 64 - 1))
for bad in (-1, 1.5, "50"):
    try:
        bridge.Client.watch(hung_ms=bad)
        raise AssertionError("took %r" % (bad,))
    except ValueError:
        pass
print(" ".join(line))
h.release()
buf.close()
"#;

#[test]
fn every_language_takes_the_hosts_hung_time_and_defaults_to_the_sessions() {
    assert_eq!(Client::HUNG_MS, 1000, "the documented default");
    assert_eq!(rust_line(), EXPECTED, "Rust");

    assert_eq!(c_output("hung_time_c", C_PROGRAM, &[]), EXPECTED, "C");

    let dir = module_dir("hung_time");
    let out = python(&dir, "hung.py", PYTHON, &[], Duration::from_secs(60));
    assert_eq!(out, EXPECTED, "Python");
}

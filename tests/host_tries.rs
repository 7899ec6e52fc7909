//! A host's read of a record its client writes gives up after HOST_TRIES tries when it names
//! none (issue 48: a dead bot's odd pad counter cost a 60 Hz host 9.7 ms a tick at the
//! default 10000), in every language, and a client's read of what its host writes keeps the
//! default. The constant is the plan's (`codegen/src/plan/tries.rs`), printed in all three
//! languages: C `IBF_HOST_TRIES`, Python `HOST_TRIES`, Rust `live::HOST_TRIES`. The cost is
//! measured by `bench/host_tries.sh`, never timed here.

use crate::common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use bridge_abi::live::{HOST_TRIES, PadInput, ParamsHeader, StatsHeader};
use bridge_abi::runtime::{DEFAULT_TRIES, SeqLockError, SharedBuf};
use common::host_kit::c_output;
use common::python_recording::{module_dir, python};

/// Room for any of the records with their trailers.
const ROOM: usize = 65536;

#[test]
fn rust_host_reads_of_client_records_give_up_after_host_tries() {
    assert_eq!(HOST_TRIES, abi_codegen::testing::plan::tries::HOST_TRIES);
    assert_eq!(
        DEFAULT_TRIES,
        abi_codegen::testing::plan::tries::DEFAULT_TRIES
    );
    let contended = |tries| Err(SeqLockError::Contended { tries });
    let buf = SharedBuf::new(ROOM);
    let odd = |at: usize| {
        buf.region()
            .try_store::<u32>(at, 3, Ordering::Release)
            .unwrap()
    };
    // The client writes these: odd counters (a client dead mid-write) at offset 0.
    odd(0);
    let pad = PadInput::at(buf.region(), 0).unwrap();
    assert_eq!(pad.read_pad_input().map(|_| ()), contended(HOST_TRIES));
    let params = ParamsHeader::at(buf.region(), 0).unwrap();
    assert_eq!(params.read_param_defs().map(|_| ()), contended(HOST_TRIES));
    let stats = StatsHeader::at(buf.region(), 0).unwrap();
    assert_eq!(stats.read_stats().map(|_| ()), contended(HOST_TRIES));
    // The host writes the parameters' values (its counter at 8): a client waits longer.
    odd(8);
    assert_eq!(
        params.read_param_values().map(|_| ()),
        contended(DEFAULT_TRIES)
    );
}

#[test]
fn c_and_python_print_the_same_host_tries() {
    let out = c_output(
        "host_tries_c",
        r#"#include <stdio.h>
#include "bridge.h"
static _Alignas(8) ibf_pad_input pad;
int main(void) {
    ibf_pad_input out;
    uint32_t retries = 0;
    int rc;
    __atomic_store_n(&pad.seq, 3U, __ATOMIC_RELEASE);
    rc = ibf_pad_input_read(&pad, &out, IBF_HOST_TRIES, &retries);
    printf("%u %d %u\n", (unsigned)IBF_HOST_TRIES, rc == IBF_CONTENDED, (unsigned)retries);
    return 0;
}
"#,
        &[],
    );
    assert_eq!(out, format!("{HOST_TRIES} 1 {HOST_TRIES}\n"));

    let dir = module_dir("host_tries");
    let out = python(
        &dir,
        "tries.py",
        r#"
import mmap
import struct
import bridge

buf = mmap.mmap(-1, 65536)
struct.pack_into("<I", buf, 0, 3)  # odd: the client died mid-write
views = [bridge.LivePadInput(buf), bridge.LiveParamsHeader(buf), bridge.LiveStatsHeader(buf)]
for view, read in zip(views, ["read_pad_input", "read_param_defs", "read_stats"]):
    try:
        getattr(view, read)()
        raise AssertionError(read + " read an odd record")
    except bridge.SeqlockContendedError as e:
        print(read, str(e).split(" tries")[0].rsplit(" ", 1)[1])
print(bridge.HOST_TRIES)
for view in views:
    view.release()
buf.close()
"#,
        &[],
        Duration::from_secs(60),
    );
    let n = HOST_TRIES;
    assert_eq!(
        out,
        format!("read_pad_input {n}\nread_param_defs {n}\nread_stats {n}\n{n}\n")
    );
}

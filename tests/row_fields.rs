//! A host reads a client row's plain fields through generated loaders in every language
//! (issue 48): C `ibf_client_entry_load_pid`, `_caps` and `_name` (a bounded, NUL-terminated
//! copy into the caller's buffer), Python `row.name()` as a `str`, Rust `name_text()`. The
//! client writes the row with its own fill or setter; the host's loaders read it back. That
//! each loader takes the access size of the fill is tests/c_access_sizes.rs's.

use crate::common;

use bridge_abi::live::BridgeHeader;
use bridge_abi::runtime::SharedBuf;
use common::host_kit::c_output;
use common::python_recording::{module_dir, python};
use std::time::Duration;

const C_PROGRAM: &str = r#"#include <stdio.h>
#include <string.h>
#include "bridge.h"

static ibf_bridge_header h;

static int fill(ibf_client_session *me, const char *name, size_t len) {
    ibf_client_entry v;
    memset(&v, 0, sizeof v);
    v.pid = 4242U;
    v.caps = (ibf_client_caps)5U;
    memcpy(v.name, name, len);
    return ibf_client_fill(&h, sizeof h, me, &v);
}

int main(void) {
    ibf_client_session me;
    const ibf_client_entry *row = &h.clients[2];
    char out[64];
    size_t n;
    h.host_generation = 1U;
    if (ibf_client_claim(&h, sizeof h, 1U, 2U, &me) != IBF_OK) {
        return 2;
    }
    if (fill(&me, "bot-one", 7) != IBF_OK) {
        return 3;
    }
    printf("pid %u caps %u\n", (unsigned)ibf_client_entry_load_pid(row), (unsigned)ibf_client_entry_load_caps(row));
    n = ibf_client_entry_load_name(row, out, sizeof out);
    printf("whole %zu [%s]\n", n, out);
    n = ibf_client_entry_load_name(row, out, 4);
    printf("cut %zu [%s]\n", n, out);
    n = ibf_client_entry_load_name(row, out, 1);
    printf("one %zu [%s]\n", n, out);
    out[0] = 'Q';
    n = ibf_client_entry_load_name(row, out, 0);
    printf("none %zu %c\n", n, out[0]);
    /* All 32 bytes text, no NUL: the copy stops at the field's end. */
    memset(out, 'Z', sizeof out);
    if (fill(&me, "0123456789abcdef0123456789ABCDEF", 32) != IBF_OK) {
        return 4;
    }
    n = ibf_client_entry_load_name(row, out, sizeof out);
    printf("full %zu [%s] %c\n", n, out, out[33]);
    return 0;
}
"#;

#[test]
fn c_loads_a_rows_pid_caps_and_name_bounded_and_nul_terminated() {
    let out = c_output(
        "row_fields_c",
        C_PROGRAM,
        &["-O1", "-fsanitize=address,undefined"],
    );
    assert_eq!(
        out,
        "pid 4242 caps 5\n\
         whole 7 [bot-one]\n\
         cut 3 [bot]\n\
         one 0 []\n\
         none 0 Q\n\
         full 32 [0123456789abcdef0123456789ABCDEF] Z\n"
    );
}

#[test]
fn python_and_rust_read_a_rows_name_as_text() {
    // Python: the client's setter writes the bytes, the view's name() decodes them.
    let dir = module_dir("row_fields");
    let out = python(
        &dir,
        "row.py",
        r#"
import mmap
import bridge

buf = mmap.mmap(-1, bridge.LiveBridgeHeader.SIZE)
h = bridge.LiveBridgeHeader(buf)
row = h.clients(2)
for raw in (b"bot-one", b"bot\xff\xfe-1\0junk", b"0123456789abcdef0123456789ABCDEF", b""):
    row.set_name(raw)
    name = row.name()
    assert isinstance(name, str), type(name)
    print(ascii(name))
h.release()
buf.close()
"#,
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(
        out,
        "'bot-one'\n'bot\\ufffd\\ufffd-1'\n'0123456789abcdef0123456789ABCDEF'\n''\n"
    );
    // Rust: the same bytes, the same text.
    let buf = SharedBuf::new(BridgeHeader::SIZE);
    let header = BridgeHeader::at(buf.region(), 0).expect("a header");
    let row = header.clients(2).expect("row 2");
    let mut texts = Vec::new();
    for raw in [
        &b"bot-one"[..],
        b"bot\xff\xfe-1\0junk",
        b"0123456789abcdef0123456789ABCDEF",
        b"",
    ] {
        let mut name = [0u8; 32];
        name[..raw.len()].copy_from_slice(raw);
        row.set_name(name).expect("no contention");
        texts.push(row.name_text());
    }
    assert_eq!(
        texts,
        [
            "bot-one",
            "bot\u{fffd}\u{fffd}-1",
            "0123456789abcdef0123456789ABCDEF",
            ""
        ]
    );
}

//! A block checked on first use is checked again after its tables were read (issue 46 item 6):
//! the writer still runs the generation the handle attached at, after an acquire fence, as
//! the root attach re-checks. A re-layout that wrote new tables while a client read a block's
//! is refused (`host_reloaded`, retryable), never handed out torn. Python is shown
//! deterministically (the block's table check is wrapped to reload in the middle); the C
//! header and the Rust module are held to the same order in every block accessor.
#![cfg(not(miri))]

use std::path::Path;
use std::process::Command;

use crate::common;

/// A reload between the block's table reads and the hand-out: refused in Python.
#[test]
fn python_refuses_a_block_whose_tables_were_read_across_a_reload() {
    let script = r#"
import mmap
import bridge

image = bridge.lay_out({"mailbox.request_capacity": 256, "mailbox.response_capacity": 256}, generation=1)
mapping = mmap.mmap(-1, 4 << 20)
host = bridge.produce(mapping, image)
client = bridge.attach(mapping)
assert client.client_blocks(0) is not None

read_tables = bridge._attach_check_table
reloads = []

def reload_while_reading(*args, **kwargs):
    tables = read_tables(*args, **kwargs)
    if not reloads:
        # The host reloads (its generation moves on) after the block's tables were read.
        at = bridge.BridgeHeader.host_generation.offset
        bridge.atomic_store(mapping, at, 4, bridge.atomic_load(mapping, at, 4) + 1)
        reloads.append(at)
    return tables

bridge._attach_check_table = reload_while_reading
try:
    client.client_blocks(0)
    print("handed out")
except bridge.AttachError as e:
    print(e.check, e.retryable)
"#;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args(["-B", "-W", "error", "-c", script])
        .env("PYTHONPATH", root.join("generated"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.trim(), "host_reloaded True");
}

/// In the C header, every block check of a handle with a liveness handshake loads the
/// writer's state and generation again after the block's tables, behind an acquire fence.
#[test]
fn c_block_checks_recheck_the_writer_after_the_tables() {
    let header = abi_codegen::testing::language_backend::c::render_c_header(
        &common::bridge_schema(),
        "schema.toml",
    )
    .unwrap();
    let checks: Vec<&str> = header
        .split("\nstatic inline int ibf_attached_")
        .skip(1)
        .filter(|f| f.split('(').next().is_some_and(|n| n.ends_with("_check")))
        .collect();
    assert_eq!(checks.len(), 2, "client_blocks and bot_blocks");
    for f in checks {
        let body = &f[..f.find("\n}\n").expect("a body")];
        let read = body.find("ibf_attach_block_(").expect("reads the block");
        let tail = &body[read..];
        let fence = tail
            .find("ibf_live_fence_acquire_()")
            .expect("a fence after the read");
        let recheck = tail
            .find("ibf_attach_still_running_(")
            .expect("a re-check after the read");
        assert!(fence < recheck, "the fence comes first:\n{body}");
    }
}

/// In the Rust module, every root block accessor re-checks after `attach::block`: each is a
/// `blocks` line of `abi_runtime::handle_accessors!` with the root's handshake (`live`), and
/// that line's expansion checks that the writer still runs, reads the block, then checks again.
#[test]
fn rust_block_accessors_recheck_the_writer_after_the_tables() {
    let rust = abi_codegen::testing::language_backend::rust::expand_rust(
        &common::bridge_schema(),
        "schema.toml",
    );
    let blocks: Vec<&str> = rust.lines().filter(|l| l.contains("] blocks ")).collect();
    assert_eq!(blocks.len(), 2, "client_blocks and bot_blocks: {blocks:#?}");
    for line in blocks {
        assert!(
            line.ends_with(", BRIDGE_TABLE, live BRIDGE_HEADER_HANDSHAKE;"),
            "a root block accessor without the liveness checks: {line}"
        );
    }
    // The expansion of a `blocks` line with `live` (the host's own handle, which reads its
    // laid-out tables with no liveness check at all, returns before the checks).
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let macros = std::fs::read_to_string(root.join("runtime/src/handles.rs")).unwrap();
    let arm = &macros[macros.find("blocks $name:ident").expect("the blocks arm")..];
    let arm = &arm[..arm.find("\n    };\n").expect("the arm's end")];
    let own = arm
        .find("if self.laid_out.is_some()")
        .expect("the host's own first");
    let before = arm
        .find("$crate::attach::still_running(")
        .expect("a check before the read");
    let read = arm.find("$crate::attach::block(").expect("reads the block");
    let after = arm
        .find("$crate::attach::still_running_after_read(")
        .expect("a re-check after the read");
    assert!(own < before && before < read && read < after, "{arm}");
}

//! The Rust live layer of `tests/fixtures/protocols/demo.toml` (every protocol kind once,
//! nothing of the bridge): compiled as its own crate with every warning denied and clippy's
//! pedantic lints as errors, and run: a queue, a ring, a mailbox, an exchange and a session
//! through the demo's generated types. The same crate holds the Rust of the attach demo, with
//! and without a field added by a later minor version (issue 28: a handshake without one
//! must not leave an unused method behind under `deny(warnings)`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn expand() -> String {
    let path = root().join("tests/fixtures/protocols/demo.toml");
    expand_text(&std::fs::read_to_string(path).expect("fixture"))
}

fn expand_text(src: &str) -> String {
    let schema =
        abi_codegen::load_schema(src).unwrap_or_else(|e| panic!("{}", e.render("demo.toml", src)));
    abi_codegen::testing::language_backend::rust::expand_rust(&schema, "schema.toml")
}

/// `tests/fixtures/attach/demo.toml` as it is (a handshake whose header gained a field in
/// 0.2), and with that field's `since` taken away: a handshake with no later-version field,
/// whose generated Rust once warned that a method was never used.
fn attach_demos() -> [String; 2] {
    let src =
        std::fs::read_to_string(root().join("tests/fixtures/attach/demo.toml")).expect("fixture");
    let since = r#"{ name = "clock", type = "u64", since = "0.2" }"#;
    assert!(src.contains(since), "the fixture's added field");
    let plain = src.replace(since, r#"{ name = "clock", type = "u64" }"#);
    let plain = expand_text(&plain);
    assert!(!plain.contains("since_minor: 2"), "no added field left");
    [expand_text(&src), plain]
}

/// Uses every generated side on heap memory laid out by hand (the demo has no layout
/// table): the offsets are the demo's structs'.
const USES: &str = r#"
#[cfg(test)]
mod tests {
    use super::demo::{self, live};
    use abi_runtime::SharedBuf;
    use core::sync::atomic::Ordering::Relaxed;
    use zerocopy::FromZeros;

    #[test]
    fn every_side_of_every_protocol() {
        // queue_header: capacity (u32) at 24, the area from 32.
        let buf = SharedBuf::new(32 + 64);
        buf.region().try_store::<u32>(24, 64, Relaxed).unwrap();
        let writer = live::LogWriter::new(buf.region()).unwrap();
        let mut reader = live::LogReader::new(buf.region()).unwrap();
        let head: demo::Entry = FromZeros::new_zeroed();
        assert!(!writer.push(&head, b"src", b"some text").unwrap());
        assert!(writer.push(&head, b"src", &[b'x'; 40]).unwrap(), "full: dropped");
        let popped = reader.pop().unwrap().unwrap();
        assert_eq!((popped.source.as_slice(), popped.text.as_slice()), (&b"src"[..], &b"some text"[..]));
        assert!(reader.pop().unwrap().is_none());

        // ring_header: capacity at 24, the area from 32.
        let buf = SharedBuf::new(32 + 128);
        buf.region().try_store::<u32>(24, 128, Relaxed).unwrap();
        let ring = live::NewsWriter::new(buf.region()).unwrap();
        let mut news = live::NewsReader::join_oldest(buf.region()).unwrap();
        for k in 0..20u64 {
            assert_eq!(ring.push(&head, k.to_string().as_bytes()).unwrap(), k);
        }
        assert!(matches!(news.read_next().unwrap(), live::NewsRead::Lapped { missed } if missed > 0));
        let live::NewsRead::Entry(entry) = news.read_next().unwrap() else { panic!("an entry") };
        assert_eq!(entry.text, entry.head.seq.to_string().as_bytes());

        // mailbox_header: capacities at 24 and 28, the areas from 32.
        let buf = SharedBuf::new(32 + 16 + 8);
        buf.region().try_store::<u32>(24, 16, Relaxed).unwrap();
        buf.region().try_store::<u32>(28, 8, Relaxed).unwrap();
        let mut client = live::CommandsClient::new(buf.region()).unwrap();
        let server = live::CommandsServer::new(buf.region()).unwrap();
        client.request(b"hello").unwrap();
        server.serve(|t| (demo::Status::OK, [t, b" world"].concat())).unwrap();
        let answer = client.poll_response().unwrap().unwrap();
        assert_eq!((answer.text.as_slice(), answer.cut, answer.total), (&b"hello wo"[..], true, 11));

        // draw_header: state 0, buffers 4, buffer_size 8, max_items 12, max_payload 16,
        // published 20; lists of a 16-byte header, 2 items of 8 bytes, 8 payload bytes.
        let buf = SharedBuf::new(24 + 3 * 40);
        let region = buf.region();
        for (at, value) in [(0, 1u32), (4, 3), (8, 40), (12, 2), (16, 8)] {
            region.try_store::<u32>(at, value, Relaxed).unwrap();
        }
        let mut draw = live::DrawWriter::new(region).unwrap();
        let mut taker = live::DrawReader::new(region).unwrap();
        let item = demo::Item { x: 1.0, y: 2.0 };
        assert!(draw.push(&item, b"abcd") && draw.push(&item, b"efgh"));
        assert!(!draw.push(&item, b""), "full");
        draw.publish(&FromZeros::new_zeroed()).unwrap();
        let list = taker.take().unwrap().unwrap();
        assert_eq!((list.items.len(), list.payload.as_slice()), (2, &b"abcdefgh"[..]));
        assert_eq!((list.head.dropped, list.head.flags), (1, demo::ListFlags::OVERFLOW));

        // header: rows of the session from 16, owners at 8 (unbound 255).
        let buf = SharedBuf::new(live::Header::SIZE);
        let header = live::Header::at(buf.region(), 0).unwrap();
        buf.region().write_bytes(8, &[255; 4]).unwrap();
        let session = live::Client::claim(header, header.host_generation(), 3).unwrap();
        assert_eq!(session.activate(), live::ClientStanding::Connected);
        assert_eq!(session.bind(0), Ok(()));
        let host = live::ClientHost::new(header);
        assert_eq!(host.reload().unwrap(), vec![3]);
        assert_eq!(session.standing(), live::ClientStanding::Reloaded);
    }
}
"#;

#[test]
fn the_demo_protocols_compile_clippy_clean_and_run() {
    let dir = std::env::temp_dir().join(format!("rust-protocols-demo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"protocols-demo-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nzerocopy = {{ version = \"0.8\", features = [\"derive\", \"alloc\"] }}\n\
             abi-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            root().join("runtime")
        ),
    )
    .unwrap();
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let text = expand();
    // The queue's sides are a line of `abi_runtime::entry_sides!`.
    assert!(text.contains("] writer LogWriter;"), "the queue's writer");
    assert!(
        !text.to_lowercase().contains("bridge"),
        "nothing of the bridge"
    );
    std::fs::write(dir.join("src/demo.rs"), text).unwrap();
    let [attach, attach_plain] = attach_demos();
    std::fs::write(dir.join("src/attach.rs"), attach).unwrap();
    std::fs::write(dir.join("src/attach_plain.rs"), attach_plain).unwrap();
    let lib = format!(
        "#![forbid(unsafe_code)]\n#![deny(warnings)]\n#![warn(clippy::pedantic)]\n\
         #![allow(clippy::doc_markdown)]\npub mod demo {{\n    include!(\"demo.rs\");\n}}\n\
         pub mod attach {{\n    include!(\"attach.rs\");\n}}\n\
         pub mod attach_plain {{\n    include!(\"attach_plain.rs\");\n}}\n{USES}"
    );
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    for args in [
        &[
            "clippy",
            "--offline",
            "--quiet",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ][..],
        &["test", "--offline", "--quiet"][..],
    ] {
        let out = cargo(&dir, args);
        assert!(
            out.status.success(),
            "cargo {args:?} of the demo's protocols:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn cargo(dir: &PathBuf, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", root().join("target/fixture-check"))
        .output()
        .expect("cargo runs")
}

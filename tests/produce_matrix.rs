//! The producer side in every language, each image attached by every language (3 x 3): the Rust
//! bindings' `Bridge::lay_out`/`produce`, the C header's `ibf_lay_out`/`ibf_produce`
//! (`tests/c_attach/attach.c`, built with gcc) and the Python module's `lay_out`/`produce`
//! (`tests/python_attach/attach.py`). For the schema's geometry and a host's own, every
//! producer's image is byte for byte the same, and every reader attaches it with every block
//! and finds the host's geometry. Needs gcc and python3; fails, never skips, without them.
#![cfg(not(miri))]

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use abi_codegen::testing::language_backend::c::render_c_header;
use bridge_abi::live::Bridge;
use bridge_abi::runtime::SharedBuf;
use common::tools::{run_ok, scratch};
use common::verdict::rust_verdict;

/// The geometries: the schema's (with the mailbox's areas, which no constant sizes), and a
/// host's own.
fn geometries() -> Vec<(&'static str, Vec<(&'static str, u64)>)> {
    let mailbox = [
        ("mailbox.request_capacity", 2048),
        ("mailbox.response_capacity", 1984),
    ];
    let mut own = vec![
        ("bridge_header.ring_slots", 16),
        ("bridge_header.ring_slot_size", 65536),
        ("bridge_header.client_block_size", 0x20000),
        ("log_ring.capacity", 1 << 20),
        ("log_queue.capacity", 1 << 15),
        ("mailbox.request_capacity", 4096),
        ("mailbox.response_capacity", 12288),
    ];
    own.sort();
    vec![("schema", mailbox.to_vec()), ("own", own)]
}

static C: OnceLock<PathBuf> = OnceLock::new();

/// The C program, built once with the header rendered from schema.toml.
fn c_program() -> &'static Path {
    C.get_or_init(|| {
        let dir = scratch("produce_matrix_c");
        let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
        std::fs::write(dir.join("bridge.h"), header).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c_attach/attach.c");
        std::fs::copy(src, dir.join("attach.c")).unwrap();
        run_ok(
            "gcc",
            &[
                "-std=c11",
                "-O2",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-pedantic",
                "attach.c",
                "-o",
                "attach",
            ],
            &dir,
        );
        dir.join("attach")
    })
}

/// `key=value` words of each line, by the line's first word.
fn fields(out: &str) -> HashMap<String, HashMap<String, String>> {
    out.lines()
        .map(|line| {
            let mut words = line.split(' ');
            let file = words.next().unwrap_or("").to_string();
            let kv = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (file, kv)
        })
        .collect()
}

fn rust_produce(geometry: &[(&str, u64)]) -> Vec<u8> {
    let image = Bridge::lay_out(geometry, 3).expect("Rust lays the image out");
    let buf = SharedBuf::new(image.bytes.len());
    Bridge::produce(buf.region(), &image).expect("Rust writes it");
    buf.to_vec()
}

fn c_produce(dir: &Path, geometry: &[(&str, u64)]) -> Vec<u8> {
    let mut args = vec!["produce".to_string(), "c.bin".to_string(), "3".to_string()];
    args.extend(geometry.iter().map(|(k, v)| format!("{k}={v}")));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_ok(c_program().to_str().unwrap(), &args, dir);
    let line = &fields(&out)["c.bin"];
    assert_eq!(line["check"], "ok", "C's ibf_lay_out: {out}");
    assert_eq!(
        line["short"], "buffer_too_short",
        "a mapping one byte short is refused"
    );
    std::fs::read(dir.join("c.bin")).unwrap()
}

/// Runs `tests/python_attach/attach.py MODE DIR ARGS...`; its JSON.
fn python(mode: &str, dir: &Path, args: &[&str]) -> serde_json::Value {
    let stdout = common::tools::attach_py(mode, dir, args);
    serde_json::from_str(&stdout).expect("attach.py prints JSON")
}

fn python_produce(dir: &Path, geometry: &[(&str, u64)]) -> Vec<u8> {
    let given = serde_json::to_string(geometry).unwrap();
    let facts = python("produce", dir, &[&given]);
    let slots = geometry
        .iter()
        .find(|(k, _)| *k == "bridge_header.ring_slots")
        .map_or(8, |(_, v)| *v);
    assert_eq!(facts["generation"], 3, "{facts}");
    assert_eq!(facts["slots"], slots, "{facts}");
    assert_eq!(facts["short"], "buffer_too_short", "{facts}");
    let errors = &facts["errors"];
    assert_eq!(
        errors["bridge_header.ring_slot_size"],
        "geometry_misaligned bridge_header.ring_slot_size"
    );
    assert_eq!(
        errors["bridge_header.client_block_size"],
        "block_too_small client_blocks[0]"
    );
    assert_eq!(errors["log_ring.capacity"], "too_large log_ring");
    assert_eq!(errors["nope.field"], "unknown_geometry nope.field");
    assert_eq!(
        errors["none given"],
        "geometry_needed mailbox.request_capacity"
    );
    std::fs::read(dir.join("python.bin")).unwrap()
}

/// The C reader's verdict and the ring geometry it found.
fn c_read(dir: &Path, file: &str) -> (String, String, String) {
    let out = run_ok(c_program().to_str().unwrap(), &["attach", file], dir);
    let line = &fields(&out)[file];
    (
        line["check"].clone(),
        line.get("ring_slots").cloned().unwrap_or_default(),
        line.get("ring_slot_size").cloned().unwrap_or_default(),
    )
}

#[test]
fn every_language_attaches_every_languages_image() {
    for (name, geometry) in geometries() {
        let dir = scratch(&format!("produce_matrix_{name}"));
        let slots = geometry
            .iter()
            .find(|(k, _)| *k == "bridge_header.ring_slots")
            .map_or(8, |(_, v)| *v);
        let slot_size = geometry
            .iter()
            .find(|(k, _)| *k == "bridge_header.ring_slot_size")
            .map_or(32768, |(_, v)| *v);
        let images = [
            ("rust", rust_produce(&geometry)),
            ("c", c_produce(&dir, &geometry)),
            ("python", python_produce(&dir, &geometry)),
        ];
        for (by, bytes) in &images {
            assert_eq!(
                bytes, &images[0].1,
                "{name}: {by}'s image differs from Rust's"
            );
            let file = format!("{by}.bin");
            std::fs::write(dir.join(&file), bytes).unwrap();
            // Rust reads it.
            let buf = SharedBuf::from_bytes(bytes);
            rust_verdict(buf.region())
                .unwrap_or_else(|e| panic!("{name}: Rust refuses {by}'s image: {e}"));
            let bridge = Bridge::attach(buf.region()).unwrap();
            let ring = bridge.snapshot_ring().unwrap();
            assert_eq!(
                (ring.slot_count() as u64, ring.slot_size() as u64),
                (slots, slot_size)
            );
            assert_eq!(bridge.generation(), Some(3));
            // C reads it.
            let (check, c_slots, c_size) = c_read(&dir, &file);
            assert_eq!(check, "ok", "{name}: C refuses {by}'s image");
            assert_eq!(
                (c_slots, c_size),
                (slots.to_string(), slot_size.to_string())
            );
        }
        // Python reads each.
        let files: Vec<String> = images.iter().map(|(by, _)| format!("{by}.bin")).collect();
        let args: Vec<&str> = files.iter().map(String::as_str).collect();
        let read = python("read", &dir, &args);
        for file in &files {
            let facts = &read[file.as_str()];
            assert_eq!(
                facts["check"], "ok",
                "{name}: Python refuses {file}: {facts}"
            );
            assert_eq!(
                (facts["slots"].as_u64(), facts["slot_size"].as_u64()),
                (Some(slots), Some(slot_size))
            );
            assert_eq!(facts["generation"], 3);
        }
        eprintln!(
            "{name}: {} bytes, the same from every producer",
            images[0].1.len()
        );
    }
}

#[test]
fn the_readmes_c_producer_runs_and_its_image_attaches() {
    let snippet = common::readme::block_after(
        "docs/hosts.md",
        "## The producer's side: laying out a bridge",
        "c",
    );
    let body: String = snippet
        .lines()
        .filter(|l| !l.starts_with("#include"))
        .map(|l| format!("    {l}\n"))
        .collect();
    let program = format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include \"bridge.h\"\n\n\
         static unsigned char mapping[16u << 20];\n\n\
         int main(void) {{\n{body}    {{\n        FILE *f = fopen(\"readme.bin\", \"wb\");\n        \
         if (f == NULL || fwrite(mapping, 1, len, f) != len || fclose(f) != 0) return 2;\n    }}\n    \
         return rc;\n}}\n"
    );
    let dir = scratch("produce_matrix_readme");
    let header = render_c_header(&common::bridge_schema(), "schema.toml").expect("bridge.h");
    std::fs::write(dir.join("bridge.h"), header).unwrap();
    std::fs::write(dir.join("producer.c"), program).unwrap();
    for (compiler, std) in [("gcc", "-std=c11"), ("g++", "-std=c++17")] {
        let mut args = vec![std, "-Wall", "-Wextra", "-Werror", "-pedantic"];
        if compiler == "g++" {
            args.extend(["-x", "c++"]);
        }
        args.extend(["producer.c", "-o", "producer"]);
        run_ok(compiler, &args, &dir);
        run_ok(dir.join("producer").to_str().unwrap(), &[], &dir);
        let bytes = std::fs::read(dir.join("readme.bin")).unwrap();
        let buf = SharedBuf::from_bytes(&bytes);
        rust_verdict(buf.region()).expect("the README's image attaches with every block");
        let bridge = Bridge::attach(buf.region()).unwrap();
        assert_eq!(bridge.snapshot_ring().unwrap().slot_count(), 16);
        let mailbox = bridge.client_blocks(0).unwrap().unwrap().mailbox().unwrap();
        assert_eq!(mailbox.response_capacity(), 8192);
    }
}

#[test]
fn the_readmes_python_producer_runs_and_its_image_attaches() {
    let snippet = common::readme::block_after(
        "docs/hosts.md",
        "## The producer's side: laying out a bridge",
        "python",
    );
    let dir = scratch("produce_matrix_readme_python");
    let path = dir.join("ibf.bridge");
    let _ = std::fs::remove_file(&path);
    let program = snippet.replace("/dev/shm/ibf.bridge", path.to_str().unwrap());
    std::fs::write(dir.join("producer.py"), program).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Under an open umask: the bridge is owner-only all the same ("Who may attach").
    let out = std::process::Command::new("sh")
        .args(["-c", "umask 000 && exec python3 -B -W error producer.py"])
        .current_dir(&dir)
        .env("PYTHONPATH", root.join("generated"))
        .output()
        .unwrap_or_else(|e| panic!("python3 is required for this test but could not be run: {e}"));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&path).unwrap().permissions());
    assert_eq!(format!("{:04o}", mode & 0o7777), "0600", "under umask 000");
    let bytes = std::fs::read(&path).unwrap();
    let buf = SharedBuf::from_bytes(&bytes);
    rust_verdict(buf.region()).expect("the README's image attaches with every block");
    let bridge = Bridge::attach(buf.region()).unwrap();
    assert_eq!(bridge.snapshot_ring().unwrap().slot_count(), 16);
}

#[test]
fn c_names_each_bad_value_as_rust_and_python_do() {
    let dir = scratch("produce_matrix_c_errors");
    let mailbox = "mailbox.request_capacity=2048 mailbox.response_capacity=1984";
    for (extra, check, region) in [
        (
            "bridge_header.ring_slot_size=4100",
            "geometry_misaligned",
            "bridge_header.ring_slot_size",
        ),
        (
            "bridge_header.client_block_size=4096",
            "block_too_small",
            "client_blocks[0]",
        ),
        ("log_ring.capacity=1099511627776", "too_large", "log_ring"),
        ("nope.field=1", "unknown_geometry", "nope.field"),
        (
            "mailbox.request_capacit=1",
            "unknown_geometry",
            "mailbox.request_capacit",
        ),
    ] {
        let mut args = vec!["produce", "bad.bin", "3"];
        args.extend(mailbox.split(' '));
        args.push(extra);
        let out = run_ok(c_program().to_str().unwrap(), &args, &dir);
        let line = &fields(&out)["bad.bin"];
        assert_eq!(
            (line["check"].as_str(), line["region"].as_str()),
            (check, region),
            "{extra}: {out}"
        );
    }
    let out = run_ok(
        c_program().to_str().unwrap(),
        &["produce", "bad.bin", "3"],
        &dir,
    );
    assert_eq!(fields(&out)["bad.bin"]["check"], "geometry_needed");
    assert_eq!(
        fields(&out)["bad.bin"]["region"],
        "mailbox.request_capacity"
    );
}

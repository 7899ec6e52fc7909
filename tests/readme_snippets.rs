//! The bot snippets of docs/bots.md's "Live shared memory in C and Python" are real code: the
//! C one compiles against the generated header with warnings as errors, and the Python one
//! passes `mypy --strict` with the stub and runs against a bridge file a host (the Rust live
//! layer) laid out and published into. codegen/README.md's minimal whole schemas, one per
//! protocol kind, each load and declare their kind.

use crate::common;

use std::fs;
use std::path::Path;

use bridge_abi::live;
use bridge_abi::runtime::SharedBuf;
use bridge_abi::*;
use common::readme::block_after;

const RING_AT: usize = 4096;

#[test]
fn the_c_bot_snippet_compiles() {
    let snippet = block_after("docs/bots.md", "## Live shared memory in C and Python", "c");
    // Its includes go first, the rest is the body of a function of the mapping.
    let (includes, body): (Vec<&str>, Vec<&str>) =
        snippet.lines().partition(|l| l.starts_with("#include"));
    let (includes, body) = (includes.join("\n"), body.join("\n"));
    let program = format!(
        "#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n{includes}\n\nvoid bot(unsigned char *base, size_t len);\nvoid bot(unsigned char *base, size_t len) {{\n{body}\n}}\n"
    );
    let dir = common::tools::scratch("readme_c_snippet");
    fs::write(dir.join("bot.c"), program).unwrap();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let include = include.to_str().unwrap();
    for (compiler, std) in [("gcc", "-std=c11"), ("g++", "-std=c++17")] {
        let mut args = vec![
            std,
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-c",
            "-I",
            include,
        ];
        if compiler == "g++" {
            args.extend(["-x", "c++"]);
        }
        args.extend(["bot.c", "-o", "bot.o"]);
        common::tools::run_ok(compiler, &args, &dir);
    }
}

#[test]
fn the_python_bot_snippet_runs_against_a_published_bridge() {
    // A host's bridge: the header, the ring where the region table says, one publication.
    let shared = SharedBuf::new(RING_AT + RING_SLOTS as usize * RING_SLOT_SIZE as usize);
    let header = live::BridgeHeader::at(shared.region(), 0).unwrap();
    let mut regions = header.regions();
    regions[BridgeRegion::SNAPSHOT_RING.0 as usize] = RegionEntry {
        offset: RING_AT as u32,
        size: RING_SLOTS * RING_SLOT_SIZE,
    };
    header.set_regions(regions).unwrap();
    let ring = live::SnapshotRing::new(header, shared.region().tail(RING_AT, 8).unwrap()).unwrap();
    let mut slot = live::RingSlot::zeroed();
    slot.publish_seq = 1;
    slot.payload.header.tick = 4321;
    ring.publish(&mut slot).expect("a slot holds the value");

    let dir = common::tools::scratch("readme_python_snippet");
    let image = dir.join("bridge.shm");
    fs::write(&image, shared.to_vec()).unwrap();
    let snippet = block_after(
        "docs/bots.md",
        "## Live shared memory in C and Python",
        "python",
    )
    .replace("/dev/shm/ibf.bridge", image.to_str().unwrap());
    fs::write(dir.join("bot.py"), snippet).unwrap();
    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    // The stub types it: mypy --strict accepts it as it stands.
    common::tools::mypy_strict_ok(&dir, "bot.py", &generated);
    let out = std::process::Command::new("python3")
        .args(["-W", "error", "bot.py"])
        .env("PYTHONPATH", &generated)
        .current_dir(&dir)
        .output()
        .expect("python3 is needed for this test");
    assert!(
        out.status.success(),
        "the README's Python snippet failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "tick 4321\n");
    // It claimed row 0, as the host sees in the file.
    let bytes = fs::read(&image).unwrap();
    assert_eq!(&bytes[0x100..0x104], &2u32.to_le_bytes(), "row 0 is active");
    assert_eq!(
        &bytes[0x104..0x108],
        &1u32.to_le_bytes(),
        "the claim bumped its generation"
    );
    let pid = u32::from_le_bytes(bytes[0x108..0x10c].try_into().unwrap());
    assert!(
        pid != 0 && pid != std::process::id(),
        "it set its pid: {pid}"
    );
}

/// codegen/README.md's "Minimal whole schemas, one per kind": every toml block of the section
/// is a whole schema that loads, and declares exactly one of the kinds, each kind once.
#[test]
fn the_minimal_schema_of_each_kind_loads() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("codegen/README.md"))
            .expect("codegen/README.md");
    let heading = "### Minimal whole schemas, one per kind\n";
    let start = readme.find(heading).expect("the section") + heading.len();
    let section = &readme[start..];
    let section = &section[..section.find("\n### ").expect("the next section")];
    let mut kinds = Vec::new();
    for (i, block) in section.split("```toml\n").skip(1).enumerate() {
        let src = &block[..block.find("```").expect("a closed block")];
        let schema = abi_codegen::load_schema(src)
            .unwrap_or_else(|e| panic!("{}", e.render(&format!("block {i}"), src)));
        let mut declared: Vec<String> = schema
            .protocols()
            .iter()
            .map(|p| p.kind.table().to_string())
            .collect();
        declared.extend(schema.access().rings.iter().map(|_| "ring".to_string()));
        declared.extend(schema.directories().iter().map(|_| "directory".to_string()));
        assert_eq!(declared.len(), 1, "block {i} declares {declared:?}");
        kinds.push(declared.remove(0));
    }
    assert_eq!(
        kinds,
        [
            "ring",
            "queue",
            "broadcast",
            "mailbox",
            "exchange",
            "session",
            "directory"
        ]
    );
}

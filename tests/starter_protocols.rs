//! The starter `abi-codegen init` writes works at run time with lay_out's defaults: for
//! every `--kinds` it generates warning-free, and the starter with every kind runs a C host
//! (tests/starter/host.c: lays out the image with lay_out's defaults, publishes the state
//! and an event, serves the mailbox, drains the log queue, frees closed session rows), a
//! Python client (client.py) and a Rust client (client.rs) through every protocol in it: the
//! seqlock, the events ring, the queue, the mailbox and the session. The Rust client builds
//! in the five-minute test's target folder, so the two share one build of the runtime.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use abi_codegen::testing::init::{Kind, starter_schema};
use common::tools::{STRICT_WARNINGS, output_text, run_ok, scratch};

#[test]
fn every_protocol_of_the_starter_runs_in_c_python_and_rust() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = root.join("tests/starter");
    let dir = scratch("starter_protocols");
    // Every --kinds generates, warning-free, in every language (the schema's own checks).
    for k in Kind::ALL {
        for kinds in [vec![k], vec![k, Kind::Layout]] {
            let src = starter_schema(&kinds);
            let schema = abi_codegen::load_schema(&src)
                .unwrap_or_else(|e| panic!("{kinds:?}: {}", e.render("schema.toml", &src)));
            assert!(
                schema.warnings().is_empty(),
                "{kinds:?}: {:?}",
                schema.warnings()
            );
        }
    }
    let src = starter_schema(&[]);
    std::fs::write(dir.join("schema.toml"), &src).unwrap();
    let schema = abi_codegen::load_schema(&src).expect("the starter loads");
    let generated = dir.join("generated");
    let outputs = abi_codegen::generated_outputs(&schema, "schema.toml", &src, "schema.toml", &dir)
        .expect("the starter generates");
    abi_codegen::testing::write::write_outputs(&generated, &outputs).expect("write the outputs");
    // The C host, built as the README builds the producer.
    std::fs::copy(here.join("host.c"), dir.join("host.c")).unwrap();
    let mut gcc = vec!["-std=c11"];
    gcc.extend(STRICT_WARNINGS);
    gcc.extend(["-I", "generated", "host.c", "-o", "host"]);
    run_ok("gcc", &gcc, &dir);
    // The Rust client, built before the host starts.
    std::fs::create_dir_all(dir.join("client/src")).unwrap();
    std::fs::copy(here.join("client.rs"), dir.join("client/src/main.rs")).unwrap();
    std::fs::write(
        dir.join("client/Cargo.toml"),
        format!(
            "[package]\nname = \"starter-client\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n\n[dependencies]\nzerocopy = {{ version = \"0.8\", features = [\"derive\", \"alloc\"] }}\nabi-runtime = {{ path = \"{}\", features = [\"mmap\"] }}\n",
            root.join("runtime").display()
        ),
    )
    .unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("client/Cargo.lock")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("five-minutes-client");
    let build = Command::new(&cargo)
        .args([
            "build",
            "-q",
            "--offline",
            "--manifest-path",
            "client/Cargo.toml",
        ])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo");
    assert!(build.status.success(), "{}", output_text(&build));
    let rust_client = target.join("debug/starter-client");

    let image = dir.join("starter.shm");
    let _ = std::fs::remove_file(&image);
    let mut host = Command::new(dir.join("host"))
        .arg(&image)
        .arg("2")
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the host");
    let mut lines = BufReader::new(host.stdout.take().unwrap()).lines();
    let first = lines.next().expect("the host's first line").unwrap();
    assert_eq!(first, "ready");
    // Each client: its output, the run checked.
    let client = |cmd: &mut Command| {
        let out = cmd.output().expect("the client runs");
        assert!(out.status.success(), "{}", output_text(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let python = client(
        Command::new("python3")
            .args(["-W", "error", here.join("client.py").to_str().unwrap()])
            .arg(&image)
            .env("PYTHONPATH", &generated),
    );
    assert_eq!(
        python,
        "state 2 7\nevents 1 [42]\nanswer OK pong py\nclaimed True True\n"
    );
    let rust = client(Command::new(&rust_client).arg(&image));
    assert_eq!(
        rust,
        "state 2 7\nevents 1 [42]\nanswer Status::OK pong rs\nclaimed Connected Connected\n"
    );
    // One line per thing the host did; a client's log entry and request arrive in the same
    // poll, so the order between them is the host's.
    let mut rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = host.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut host.stderr.take().unwrap(), &mut err).unwrap();
    assert!(
        status.success(),
        "the host: {status}\n{}\n{err}",
        rest.join("\n")
    );
    rest.sort();
    assert_eq!(
        rest,
        [
            "answered py",
            "answered rs",
            "freed row 0",
            "freed row 1",
            "logged python: hello",
            "logged rust: hello",
        ]
    );
    std::fs::remove_file(&image).unwrap();
}

/// `inspect` of a layout image decodes a queue's entries, not only its header: an image the
/// generated Python producer laid out and wrote two log entries into (tests/starter/dump.py)
/// shows each entry's struct at its place in the area, in the order written, its parts'
/// bytes as data after it.
#[test]
fn inspect_decodes_the_entries_of_a_live_queue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = scratch("starter_inspect");
    let src = starter_schema(&[]);
    let schema = abi_codegen::load_schema(&src).expect("the starter loads");
    let outputs = abi_codegen::generated_outputs(&schema, "schema.toml", &src, "schema.toml", &dir)
        .expect("the starter generates");
    abi_codegen::testing::write::write_outputs(&dir, &outputs).expect("write the outputs");
    let image = dir.join("image.bin");
    let out = Command::new("python3")
        .args([
            "-W",
            "error",
            root.join("tests/starter/dump.py").to_str().unwrap(),
        ])
        .arg(&image)
        .env("PYTHONPATH", &dir)
        .output()
        .expect("python3");
    assert!(out.status.success(), "{}", output_text(&out));
    let bytes = std::fs::read(&image).unwrap();
    let layout = abi_codegen::testing::inspect::find_layout(&schema, "image").expect("the layout");
    let inspection =
        abi_codegen::testing::inspect::inspect_image(&schema, layout, &bytes.as_slice());
    let dump = abi_codegen::testing::inspect::render_file_dump(&schema, &inspection);
    let queue: Vec<&str> = dump.lines().filter(|l| l.contains("log_queue")).collect();
    assert_eq!(
        queue,
        [
            "## log_queue log_queue_header (32 bytes + 4096 bytes) at 0x00b0",
            "@0x00b0 log_queue.write_pos u64 48",
            "@0x00b8 log_queue.dropped u64 0",
            "@0x00c0 log_queue.read_pos u64 0",
            "@0x00c8 log_queue.capacity u32 4096",
            "## log_queue.entries[0] log_entry (8 bytes + 16 bytes) at 0x00d0",
            "@0x00d0 log_queue.entries[0].size u16 24",
            "@0x00d2 log_queue.entries[0].kind entry_kind record (0)",
            "@0x00d3 log_queue.entries[0].source_len u8 6",
            "@0x00d4 log_queue.entries[0].text_len u16 5",
            "## log_queue.entries[1] log_entry (8 bytes + 16 bytes) at 0x00e8",
            "@0x00e8 log_queue.entries[1].size u16 24",
            "@0x00ea log_queue.entries[1].kind entry_kind record (0)",
            "@0x00eb log_queue.entries[1].source_len u8 3",
            "@0x00ec log_queue.entries[1].text_len u16 12",
        ],
        "{dump}"
    );
    assert!(inspection.issues.is_empty(), "{dump}");
}

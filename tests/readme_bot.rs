//! docs/bots.md's "A bot that logs, asks and draws" is real code: its C bot (gcc and g++, strict
//! warnings) and its Python bot (`mypy --strict` with the stub, then run) each run as a
//! process against a bridge file that `Bridge::produce` laid out, while a host played by this
//! test with the abi-runtime primitives pops the log queue, answers the mailbox, takes the
//! draw list and sees the row closed.

use crate::common;

use std::mem::offset_of;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bridge_abi::live::Bridge;
use bridge_abi::runtime::Mapping;
use bridge_abi::runtime::byte_queue::{ByteQueue, Popped};
use bridge_abi::runtime::mailbox::Mailbox;
use bridge_abi::runtime::triple_buffer::TripleReader;
use common::protocol_peer::{
    CLIENTS, DRAW_LISTS, DRAW_STATE, MAILBOX, QUEUE, ROW, log_parts, produce_file, regions,
};
use common::readme::block_after;
use common::tools::{mypy_strict_ok, run_ok, scratch};

const SECTION: &str = "## A bot that logs, asks and draws";
const DOC: &str = "docs/bots.md";

/// What the host saw of the bot in row 0.
#[derive(Debug, Default)]
struct Seen {
    logs: Vec<(Vec<u8>, Vec<u8>)>,
    requests: Vec<Vec<u8>>,
    /// Each list taken: its seq and its command count.
    lists: Vec<(u32, u32)>,
    closed: bool,
    /// The row's `pid`, as the bot filled it in.
    pid: u32,
}

/// How the host treats the bot's request.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Answers it with `ok` and `pong`.
    Answer,
    /// Never answers it: reloads once the request waits (the host's generation bumped, as a
    /// reload or a re-layout does, the mailbox left unanswered), so a bot that polls without
    /// checking its row, or without a deadline, waits forever.
    Reload,
}

/// Plays the host on `map` until the bot process ends (and a last round after), answering
/// every request with `ok` and `pong`.
fn host(map: &Mapping, done: &AtomicBool, mode: Mode) -> Seen {
    let region = map.region().unwrap();
    let bridge = Bridge::attach(region).expect("attach");
    let at = regions(&bridge, 0);
    let queue = ByteQueue::new(at.queue, QUEUE).unwrap();
    let mailbox = Mailbox::new(at.mailbox, MAILBOX).unwrap();
    let mut reader = TripleReader::new(at.draw, DRAW_STATE);
    let buffer_size = at.draw.load::<u32>(8, Relaxed) as usize;
    let mut seen = Seen::default();
    let mut entry = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let last_round = done.load(Ordering::Acquire);
        while let Popped::Entry(_) = queue.pop(&mut entry).expect("an honest queue") {
            let (source, text) = log_parts(&entry).expect("a whole entry");
            seen.logs.push((source.to_vec(), text.to_vec()));
        }
        if mode == Mode::Answer {
            mailbox
                .serve(|request| {
                    seen.requests.push(request.to_vec());
                    (bridge_abi::CommandStatus::OK.0, b"pong".to_vec())
                })
                .expect("an honest mailbox");
        } else if at.mailbox.load::<u32>(0, Acquire) != 0 && !seen.closed {
            // The request waits (request_seq moved): reload instead of answering.
            bridge
                .header()
                .fetch_add_host_generation(1)
                .expect("reload");
            seen.closed = true;
        }
        if let Some(i) = reader.take().expect("an honest state") {
            let list = DRAW_LISTS + i * buffer_size;
            seen.lists.push((
                at.draw.load::<u32>(list, Acquire),
                at.draw.load::<u32>(list + 4, Acquire),
            ));
        }
        let state = at.header.load::<u32>(CLIENTS + ROW.state, Acquire);
        if mode == Mode::Answer {
            seen.closed = state == ROW.closing;
        }
        let pid = at
            .header
            .load::<u32>(CLIENTS + offset_of!(bridge_abi::ClientEntry, pid), Acquire);
        seen.pid = if pid != 0 { pid } else { seen.pid };
        if last_round || Instant::now() > deadline {
            return seen;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Runs `bot` against a new bridge file while the host serves it; its output and what the
/// host saw.
fn run_bot(dir: &Path, bot: impl FnOnce(&Path) -> Output) -> (Output, Seen) {
    run_bot_with(dir, Mode::Answer, bot)
}

/// [`run_bot`] with the host's `mode`.
fn run_bot_with(dir: &Path, mode: Mode, bot: impl FnOnce(&Path) -> Output) -> (Output, Seen) {
    let path = dir.join("bridge.shm");
    let map = produce_file(&path);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let host = s.spawn(|| host(&map, &done, mode));
        let out = bot(&path);
        done.store(true, Ordering::Release);
        (out, host.join().expect("the host"))
    })
}

/// The bot's row 0 as the host left it, and what it saw: a whole life of one bot.
fn assert_one_life(seen: &Seen, source: &[u8]) {
    assert_eq!(seen.logs, vec![(source.to_vec(), b"hello".to_vec())]);
    assert_eq!(seen.requests, vec![b"sim.pause".to_vec()]);
    assert_eq!(seen.lists, vec![(1, 1)], "one list of one line, seq 1");
    assert!(seen.closed, "the bot said goodbye");
    // It filled in its pid, so that a host notices it gone without waiting the hung time.
    assert!(
        seen.pid != 0 && seen.pid != std::process::id(),
        "the bot's pid: {}",
        seen.pid
    );
}

#[test]
fn the_c_bot_runs_against_a_host() {
    let dir = scratch("readme_bot_c");
    let snippet = block_after(DOC, SECTION, "c");
    let program = format!(
        "{snippet}\n#include <fcntl.h>\n#include <stdio.h>\n#include <sys/mman.h>\n#include <sys/stat.h>\n\nint main(int argc, char **argv) {{\n    struct stat st;\n    ibf_attached a;\n    ibf_attach_error err;\n    char answer[256] = \"\";\n    int fd, code;\n    unsigned char *base;\n    if (argc != 2 || (fd = open(argv[1], O_RDWR)) < 0 || fstat(fd, &st) != 0) return 2;\n    base = (unsigned char *)mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);\n    if (base == MAP_FAILED) return 2;\n    if (ibf_attach_all(base, (size_t)st.st_size, &a, &err) != IBF_ATTACH_OK) {{\n        fprintf(stderr, \"attach: %s\\n\", err.check_name);\n        return 2;\n    }}\n    code = bot(&a, 0, answer, sizeof answer);\n    printf(\"%s %s\\n\", ibf_protocol_result_name(code), answer);\n    return code == IBF_OK ? 0 : 1;\n}}\n"
    );
    std::fs::write(dir.join("bot.c"), program).unwrap();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let include = include.to_str().unwrap();
    let strict = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-I", include];
    let mut cxx = vec!["-std=c++17", "-x", "c++", "-c", "bot.c", "-o", "bot_cxx.o"];
    cxx.extend(strict);
    run_ok("g++", &cxx, &dir);
    let mut c = vec!["-std=c11", "-O1", "bot.c", "-o", "bot"];
    c.extend(strict);
    run_ok("gcc", &c, &dir);
    let exe = dir.join("bot");
    // A host that reloads while the request waits: the bot's wait checks its row between
    // polls and ends with the standing, instead of polling forever.
    let (out, seen) = run_bot_with(&dir, Mode::Reload, |path| {
        let mut bot = Command::new(&exe)
            .arg(path)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run the C bot");
        let deadline = Instant::now() + Duration::from_secs(30);
        while bot.try_wait().expect("wait for the bot").is_none() {
            if Instant::now() > deadline {
                let _ = bot.kill();
                let _ = bot.wait();
                panic!("the C bot still waits for its answer 30 s after the host reloaded");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        bot.wait_with_output().expect("the C bot's output")
    });
    assert_eq!(String::from_utf8_lossy(&out.stdout), "session_reloaded \n");
    assert!(
        seen.closed && seen.pid != 0,
        "the host reloaded under the bot"
    );
    let (out, seen) = run_bot(&dir, |path| {
        Command::new(&exe)
            .arg(path)
            .output()
            .expect("run the C bot")
    });
    assert!(
        out.status.success(),
        "the C bot failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok pong\n");
    assert_one_life(&seen, b"c-bot");
}

#[test]
fn the_python_bot_runs_against_a_host() {
    let dir = scratch("readme_bot_python");
    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let (out, seen) = run_bot(&dir, |path| {
        let snippet = block_after(DOC, SECTION, "python")
            .replace("/dev/shm/ibf.bridge", path.to_str().unwrap());
        std::fs::write(dir.join("bot.py"), snippet).unwrap();
        mypy_strict_ok(&dir, "bot.py", &generated);
        Command::new("python3")
            .args(["-W", "error", "bot.py"])
            .env("PYTHONPATH", &generated)
            .current_dir(&dir)
            .output()
            .expect("python3 is needed for this test")
    });
    assert!(
        out.status.success(),
        "the Python bot failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "OK pong\n");
    assert_one_life(&seen, b"py-bot");
}

/// docs/bots.md's Rust bot: the function body between the markers is its `rust` block of
/// [`SECTION`], as [`the_rust_block_is_the_one_tested`] checks, with the bridge's path
/// swapped for the test's.
fn rust_bot(bridge_path: &str) -> Result<(), Box<dyn std::error::Error>> {
    // README begin
    use std::time::Duration;

    use bridge_abi::live::{self, ClientStanding};
    use bridge_abi::runtime::Mapping; // features = ["mmap"]
    use bridge_abi::zerocopy::FromZeros;
    use bridge_abi::{
        CLIENT_NAME_LEN, DrawCmd, DrawListHeader, DrawOp, LogEntry, LogLevel, PadInput,
    };

    let map = Mapping::open(bridge_path)?; // "/dev/shm/ibf.bridge"
    let bridge = live::Bridge::attach(map.region()?)?;

    // A free row claimed by compare-and-swap (its generation bumped), named, then active.
    // Refused (ClientRefused) when every row is taken, or the host reloaded since attach.
    let client = bridge.claim_first_client()?;
    let mut name = [0u8; CLIENT_NAME_LEN];
    name[..6].copy_from_slice(b"rs-bot");
    client.row().set_name(name)?;
    client.row().set_pid(std::process::id())?; // how the host tells a dead bot at once
    if client.activate() != ClientStanding::Connected {
        return Err("the host freed the row meanwhile".into()); // or reloaded, or exits
    }
    let block = bridge
        .client_blocks(client.index())?
        .ok_or("no client block")?;
    let bots = bridge.bot_blocks(client.index())?.ok_or("no bot block")?;

    // Writers bound to the claim: each write first checks that the row is still ours,
    // and refuses with the standing (an error) once it is not: freed, reloaded, exiting.
    let mut queue = block.log_queue_writer(&client)?.ok_or("no log queue")?;
    let mut line = LogEntry::new_zeroed();
    line.level = LogLevel::INFO;
    let _dropped = queue.write(|q| q.push(&line, b"rs-bot", b"hello"))??; // true when full
    // Its virtual pad, under its seqlock, bound the same way: Err(standing) once it is not.
    let pad = block.pad_input().ok_or("no pad")?;
    let mut input = PadInput::new_zeroed();
    input.for_tick = 1; // the tick it answers
    pad.write_pad_input(&client, &input)??;

    let mut mailbox = block.mailbox_client(&client)?.ok_or("no mailbox")?;
    mailbox.write(|m| m.request(b"sim.pause"))??; // an error (busy) while one has no answer
    let answer = mailbox
        .write(|m| m.wait_response(Duration::from_secs(5)))??
        .ok_or("no answer in 5 s")?;
    let status = answer.status.name().unwrap_or("undeclared"); // answer.cut: it was cut
    println!("{status} {}", String::from_utf8_lossy(&answer.text));

    let mut draw = bots.draw_writer(&client)?.ok_or("no draw lists")?;
    let cmd = DrawCmd {
        op: DrawOp::LINE,
        color: 0xff00_00ff,
        c: 100.0,
        d: 100.0,
        ..DrawCmd::new_zeroed()
    };
    draw.write(|d| d.push(&cmd, &[]))?; // false past the list's capacity: flagged, counted
    let mut head = DrawListHeader::new_zeroed();
    head.seq = 1; // the list's number
    draw.write(|d| d.publish(&head))??; // says whether it overwrote a list never taken

    if let Some(mut ring) = bridge.log_ring_join_latest()? {
        let _entry = ring.read_next()?; // Entry, Empty or Lapped { missed }
    }
    client.close(); // goodbye: closing
    // README end
    Ok(())
}

/// docs/bots.md's block is the body of [`rust_bot`], line for line (less its indent).
#[test]
fn the_rust_block_is_the_one_tested() {
    let source = include_str!("readme_bot.rs");
    let begin = source.find("    // README begin\n").unwrap() + "    // README begin\n".len();
    let end = source.find("    // README end\n").unwrap();
    let body: String = source[begin..end]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
        .collect();
    let body = body.replace(
        "Mapping::open(bridge_path)?; // \"/dev/shm/ibf.bridge\"",
        "Mapping::open(\"/dev/shm/ibf.bridge\")?;",
    );
    assert_eq!(block_after(DOC, SECTION, "rust"), body);
}

/// The Rust bot's process: the test binary itself, run by [`the_rust_bot_runs_against_a_host`]
/// with `README_BOT_BRIDGE` set (it fails without it, never passes empty).
#[test]
#[ignore = "the Rust bot's own process, run by the_rust_bot_runs_against_a_host"]
fn rust_bot_process() {
    let path = std::env::var("README_BOT_BRIDGE").expect("README_BOT_BRIDGE: the bridge file");
    rust_bot(&path).expect("the Rust bot");
}

#[test]
fn the_rust_bot_runs_against_a_host() {
    let dir = scratch("readme_bot_rust");
    let (out, seen) = run_bot(&dir, |path| {
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "readme_bot::rust_bot_process",
                "--ignored",
                "--nocapture",
            ])
            .args(["--test-threads", "1", "-q"])
            .env("README_BOT_BRIDGE", path)
            .output()
            .expect("run the test binary as the Rust bot")
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the Rust bot failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.lines().any(|l| l == "ok pong"),
        "the bot printed the answer: {stdout}"
    );
    assert_one_life(&seen, b"rs-bot");
}

//! The commands' event between processes (issue 47): this test process is a Rust host that
//! sleeps until a client's request comes (`ClientHost::wait_commands`, one `futex_waitv` on
//! every active row's `request_seq`, at most 2 s a round) and answers each at once; its
//! clients, each in its own process, are in Rust (`request_commands`), C
//! (`ibf_client_request_commands`) and Python (`Client.request_commands`). Each sends
//! `REQUESTS` requests with gaps of 1 to 4 ms, timing each until its answer; a fourth client
//! (C) is killed with SIGKILL while it sends, and its row stays active, its word in every
//! later wait.
//!
//! A lost wake-up is a round whose wait ran to its deadline (2 s) and then found a request
//! pending: the request came while the host slept and did not wake it. The host proves it
//! slept: rounds that found nothing pending, slept, and were woken by a request. The clients
//! print their slowest answer, a measurement only. Prints `commands: R requests answered, W woken from a sleep,
//! 0 lost, worst wake X us` and a line per client.
#![cfg(target_os = "linux")]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bridge_abi::live::{Bridge, Client, ClientStanding};
use bridge_abi::runtime::Mapping;
use bridge_abi::{ClientState, CommandStatus, HostState};

use crate::common::protocol_peer::produce_file;
use crate::common::tools::scratch;

/// Requests each surviving client sends.
const REQUESTS: u64 = 200;
/// The host's longest sleep: a lost wake-up shows as an answer this late.
const HOST_SLEEP: Duration = Duration::from_secs(2);
/// Rounds in a row whose wait ran to its deadline with no request: the clients stopped
/// sending (a hang guard, not a measure).
const IDLE_ROUNDS: u32 = 30;
/// The clients: their languages. The last one is killed.
const CLIENTS: [&str; 4] = ["rust", "c", "python", "c"];

/// The gap before request `k`, ms.
fn gap_ms(k: u64) -> u64 {
    k % 4 + 1
}

/// The Rust client: claims a row, sends `requests` requests through `request_commands`,
/// each after its gap, and times each until its answer.
fn rust_client(path: &str, requests: u64) -> Result<String, Box<dyn std::error::Error>> {
    let map = Mapping::open(path)?;
    let bridge = Bridge::attach(map.region()?)?;
    let client = bridge.claim_first_client()?;
    client.row().set_pid(std::process::id())?;
    if client.activate() != ClientStanding::Connected {
        return Err("not connected".into());
    }
    let blocks = bridge
        .client_blocks(client.index())?
        .ok_or("no client block")?;
    let setter = blocks.mailbox().ok_or("no mailbox")?.commands_setter()?;
    let mut mailbox = blocks.mailbox_client(&client)?.ok_or("no mailbox")?;
    let (mut worst, started) = (Duration::ZERO, Instant::now());
    for k in 1..=requests {
        std::thread::sleep(Duration::from_millis(gap_ms(k)));
        client.heartbeat(started.elapsed().as_nanos() as u64)?;
        let text = format!("req {k}");
        mailbox.write(|m| m.request_commands(&setter, text.as_bytes()))??;
        let sent = Instant::now();
        let answer = mailbox
            .write(|m| m.wait_response(Duration::from_secs(5)))??
            .ok_or("no answer in 5 s")?;
        let took = sent.elapsed();
        if answer.text != format!("ans {k}").as_bytes() || answer.status != CommandStatus::OK {
            return Err(format!("request {k}: a wrong answer {:?}", answer.text).into());
        }
        worst = worst.max(took);
    }
    client.close();
    Ok(format!(
        "client rust: {requests} requests, worst {} us",
        worst.as_micros()
    ))
}

#[test]
#[ignore = "a Rust client's own process, run by commands_wake_the_host_for_every_request"]
fn commands_rust_client_process() {
    let path = std::env::var("COMMANDS_BRIDGE").expect("COMMANDS_BRIDGE: the bridge file");
    let requests = std::env::var("COMMANDS_REQUESTS").unwrap().parse().unwrap();
    println!("{}", rust_client(&path, requests).expect("the Rust client"));
}

/// The C client: the same loop over ibf_client_request_commands.
const C_CLIENT: &str = r#"
#include "bridge.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000U + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv) {
    static ibf_attached a;
    ibf_attach_error err;
    ibf_client_session me;
    ibf_client_entry values;
    struct stat st;
    size_t size, len;
    uint64_t requests, k, worst = 0;
    uint32_t i;
    int fd, found = 0;
    void *box;
    unsigned char *base;
    if (argc != 3 || (fd = open(argv[1], O_RDWR)) < 0 || fstat(fd, &st) != 0) return 2;
    size = (size_t)st.st_size;
    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return 2;
    requests = strtoull(argv[2], NULL, 10);
    if (ibf_attach(base, size, &a, &err) != IBF_ATTACH_OK) return 3;
    len = (size_t)ibf_attached_header_size(&a);
    for (i = 0; i < IBF_MAX_CLIENTS && !found; i++) {
        found = ibf_client_claim(base, len, (uint32_t)a.generation, i, &me) == IBF_OK;
    }
    if (!found) return 4;
    memset(&values, 0, sizeof values);
    values.pid = (uint32_t)getpid();
    values.connected_ns = now_ns();
    values.heartbeat_ns = values.connected_ns;
    values.pad = IBF_NO_PAD;
    if (ibf_client_fill(base, len, &me, &values) != IBF_OK || ibf_client_activate(base, len, &me) != IBF_OK) return 4;
    box = ibf_attached_client_blocks_mailbox(&a, me.row);
    if (box == NULL) return 5;
    for (k = 1; k <= requests; k++) {
        char text[32], want[32], answer[64];
        uint32_t seq = 0;
        ibf_mailbox_response resp;
        uint64_t sent, took;
        size_t box_len = (size_t)ibf_attached_client_blocks_mailbox_size(&a, me.row);
        int r;
        sleep_ms((long)(k % 4U + 1U));
        if (ibf_client_heartbeat(base, len, &me, now_ns()) != IBF_OK) return 6;
        snprintf(text, sizeof text, "req %llu", (unsigned long long)k);
        snprintf(want, sizeof want, "ans %llu", (unsigned long long)k);
        r = ibf_client_request_commands(base, size, &me, box, box_len, text, strlen(text), &seq, NULL);
        if (r != IBF_OK) { fprintf(stderr, "request %llu: %s\n", (unsigned long long)k, ibf_result_name(r)); return 7; }
        sent = now_ns();
        for (;;) {
            r = ibf_mailbox_poll_response(box, box_len, seq, &resp, answer, sizeof answer - 1);
            if (r == IBF_OK) break;
            if (r != IBF_PENDING || now_ns() - sent > 5000000000ULL) { fprintf(stderr, "request %llu: no answer (%s)\n", (unsigned long long)k, ibf_result_name(r)); return 8; }
            sleep_ms(0);
        }
        took = now_ns() - sent;
        answer[resp.len < sizeof answer - 1 ? resp.len : sizeof answer - 1] = '\0';
        if (resp.status != IBF_COMMAND_STATUS_OK || strcmp(answer, want) != 0) { fprintf(stderr, "request %llu: answer %s\n", (unsigned long long)k, answer); return 9; }
        worst = took > worst ? took : worst;
    }
    (void)ibf_client_close(base, len, &me);
    printf("client c: %llu requests, worst %llu us\n", (unsigned long long)requests,
           (unsigned long long)(worst / 1000U));
    return 0;
}
"#;

/// The Python client: `Client.request_commands`.
const PY_CLIENT: &str = r#"
import mmap, os, sys, time
import bridge

path, requests = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
handle = bridge.attach(buf)
me = None
for i in range(bridge.MAX_CLIENTS):
    me = bridge.Client.claim(handle.header(), i, handle.generation)
    if me is not None:
        break
assert me is not None, "no free row"
me.row.set_pid(os.getpid())
assert me.activate()
box = bridge.Mailbox(handle.client_blocks(me.index).mailbox(), me)
worst = 0
for k in range(1, requests + 1):
    time.sleep((k % 4 + 1) / 1000)
    me.heartbeat()
    seq = me.request_commands(box, "req %d" % k)
    sent = time.monotonic_ns()
    while True:
        r = box.poll_response(seq)
        if r is not None:
            break
        assert time.monotonic_ns() - sent < 5_000_000_000, "request %d: no answer in 5 s" % k
        time.sleep(0)
    took = time.monotonic_ns() - sent
    assert r.text == b"ans %d" % k and r.status == bridge.CommandStatus.OK, (k, r.text, r.status)
    worst = max(worst, took)
me.close()
print("client python: %d requests, worst %d us" % (requests, worst // 1000), flush=True)
"#;

/// The Python host: `Client.host_wait_commands` (100 ms a round, its longest sleep) and
/// `Mailbox.serve`, until it answered `expected` requests. A round whose wait ran to its
/// deadline and then found a request lost a wake-up; 600 rounds in a row with no request
/// (the clients stopped) end it.
const PY_HOST: &str = r#"
import mmap, sys, time
import bridge

path, expected = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    buf = mmap.mmap(f.fileno(), 0)
handle = bridge.attach(buf)
header = handle.header()
views = [b.mailbox() if b is not None else None for b in (handle.client_blocks(r) for r in range(bridge.Client.ROWS))]
servers = [bridge.Mailbox.unscoped(v) if v is not None else None for v in views]
print("ready", flush=True)
answered = woken = lost = idle_rounds = 0
worst = 0
while answered < expected:
    assert idle_rounds < 600, "no request in 600 rounds"
    rows = sum(1 << r for r in range(bridge.Client.ROWS) if bridge.Client.row_state(header, r)[0] == bridge.ClientState.ACTIVE)
    if not rows:
        time.sleep(0.001)  # no client active yet: a wait with no row asked sleeps its timeout
        continue
    idle = bridge.Client.host_wait_commands(views, rows, 0) == 0
    start = time.monotonic_ns()
    pending = bridge.Client.host_wait_commands(views, rows, 0.1)
    slept = time.monotonic_ns() - start
    ran_out = slept >= 100_000_000
    idle_rounds = idle_rounds + 1 if ran_out and not pending else 0
    if not pending:
        continue
    lost += ran_out
    if idle:
        woken += 1
        worst = max(worst, slept)
    for row in range(bridge.Client.ROWS):
        if pending >> row & 1:
            servers[row].serve(lambda text: (bridge.CommandStatus.OK, b"ans " + text.split(b" ")[1]))
            answered += 1
print("host python: %d requests answered, %d woken from a sleep, %d lost, worst wake %d us" % (answered, woken, lost, worst // 1000), flush=True)
"#;

fn spawn(lang: &str, requests: u64, path: &std::path::Path, dir: &std::path::Path) -> Child {
    let mut c = match lang {
        "rust" => {
            let mut c = Command::new(std::env::current_exe().unwrap());
            c.args([
                "--exact",
                "commands::commands_rust_client_process",
                "--ignored",
            ])
            .args(["--nocapture", "--test-threads", "1", "-q"])
            .env("COMMANDS_BRIDGE", path)
            .env("COMMANDS_REQUESTS", requests.to_string());
            c
        }
        "c" => {
            let mut c = Command::new(dir.join("client"));
            c.arg(path).arg(requests.to_string());
            c
        }
        _ => {
            let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
            let mut c = Command::new("python3");
            c.args(["-B", "-W", "error"])
                .arg(dir.join("client.py"))
                .arg(path)
                .arg(requests.to_string())
                .env("PYTHONPATH", &generated);
            c
        }
    };
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c.spawn()
        .unwrap_or_else(|e| panic!("start the {lang} client: {e}"))
}

fn build(dir: &std::path::Path) {
    std::fs::write(dir.join("client.c"), C_CLIENT).unwrap();
    std::fs::write(dir.join("client.py"), PY_CLIENT).unwrap();
    std::fs::write(dir.join("host.py"), PY_HOST).unwrap();
    let include = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let include = include.to_str().unwrap();
    let mut c = vec![
        "-std=c11",
        "-D_POSIX_C_SOURCE=200809L",
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-I",
        include,
    ];
    c.extend(["client.c", "-o", "client"]);
    crate::common::tools::run_ok("gcc", &c, dir);
}

#[test]
fn commands_wake_the_host_for_every_request() {
    let dir = scratch("commands");
    build(&dir);
    let path = dir.join("bridge.shm");
    let map = produce_file(&path);
    let bridge = Bridge::attach(map.region().unwrap()).expect("attach");
    let header = bridge.header();
    let host = bridge.client_host();
    let mailboxes: Vec<_> = (0..Client::ROWS)
        .map(|i| bridge.client_blocks(i).ok().flatten())
        .collect();
    let servers: Vec<_> = mailboxes
        .iter()
        .map(|b| b.as_ref().and_then(|b| b.mailbox_server().ok().flatten()))
        .collect();
    let mut children: Vec<Option<Child>> = CLIENTS
        .iter()
        .enumerate()
        .map(|(i, lang)| {
            let requests = if i == CLIENTS.len() - 1 {
                1_000_000
            } else {
                REQUESTS
            };
            Some(spawn(lang, requests, &path, &dir))
        })
        .collect();
    let (mut answered, mut woken, mut lost, mut worst_wake) = (0u64, 0u64, 0u64, Duration::ZERO);
    let mut idle_rounds = 0u32;
    let mut outputs = Vec::new();
    let mut killed = false;
    while children.iter().take(CLIENTS.len() - 1).any(Option::is_some) {
        assert!(
            idle_rounds < IDLE_ROUNDS,
            "no request in {idle_rounds} rounds of {HOST_SLEEP:?}"
        );
        if !killed && answered >= 100 {
            let mut victim = children[CLIENTS.len() - 1].take().unwrap();
            victim.kill().expect("SIGKILL the last client");
            victim.wait().unwrap();
            killed = true;
        }
        for (c, lang) in children.iter_mut().zip(CLIENTS).take(CLIENTS.len() - 1) {
            if c.as_mut().is_some_and(|c| c.try_wait().unwrap().is_some()) {
                let out = c.take().unwrap().wait_with_output().unwrap();
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                assert!(
                    out.status.success(),
                    "the {lang} client failed: {text}{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let line = text
                    .lines()
                    .find(|l| l.starts_with("client "))
                    .unwrap_or_else(|| panic!("no line from the {lang} client: {text}"));
                outputs.push(format!("{line}\n"));
            }
        }
        let rows = (0..Client::ROWS)
            .filter(|&i| {
                header
                    .clients(i)
                    .is_some_and(|r| r.state() == ClientState::ACTIVE)
            })
            .fold(0u64, |m, i| m | 1 << i);
        if rows == 0 {
            // No client active yet (a wait with no row asked sleeps its whole timeout).
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        // Nothing pending at the start: a round that then finds a request was woken.
        let idle = host.wait_commands(rows, Instant::now(), |row| {
            mailboxes[row].as_ref().and_then(|b| b.mailbox())
        }) == 0;
        let start = Instant::now();
        let deadline = start + HOST_SLEEP;
        let pending = host.wait_commands(rows, deadline, |row| {
            mailboxes[row].as_ref().and_then(|b| b.mailbox())
        });
        let slept = start.elapsed();
        // The wait ran to its deadline: no request woke it.
        let ran_out = Instant::now() >= deadline;
        idle_rounds = if ran_out && pending == 0 {
            idle_rounds + 1
        } else {
            0
        };
        if pending == 0 {
            continue;
        }
        lost += u64::from(ran_out);
        if idle {
            woken += 1;
            worst_wake = worst_wake.max(slept);
        }
        for (row, server) in servers.iter().enumerate() {
            if pending & (1 << row) == 0 {
                continue;
            }
            let server = server.as_ref().expect("an active row's mailbox");
            let served = server
                .serve(|text| {
                    let k = std::str::from_utf8(text)
                        .ok()
                        .and_then(|t| t.strip_prefix("req "))
                        .unwrap_or("?");
                    (CommandStatus::OK, format!("ans {k}").into_bytes())
                })
                .expect("serve");
            answered += u64::from(served.is_some());
        }
    }
    assert!(killed, "the last client was killed while it sent");
    assert_eq!(header.host_state(), HostState::RUNNING);
    host.exit().unwrap();
    println!(
        "commands: {answered} requests answered, {woken} woken from a sleep, {lost} lost, worst wake {} us",
        worst_wake.as_micros()
    );
    outputs.sort();
    for text in &outputs {
        print!("{text}");
    }
    assert_eq!(outputs.len(), 3, "{outputs:?}");
    for lang in ["c", "python", "rust"] {
        let line = outputs
            .iter()
            .find(|l| l.starts_with(&format!("client {lang}: ")))
            .unwrap_or_else(|| panic!("no {lang} line: {outputs:?}"));
        assert!(
            line.starts_with(&format!("client {lang}: {REQUESTS} requests, worst ")),
            "{line}"
        );
    }
    // The killed client's requests too, before its kill.
    assert!(answered > 3 * REQUESTS, "{answered} answered");
    assert_eq!(
        lost, 0,
        "rounds whose wait ran to its deadline and then found a request"
    );
    // The host slept: most rounds found nothing pending, slept and were woken by a request.
    assert!(woken >= REQUESTS, "{woken} rounds woken from a sleep");
}

/// The Python host's side: `Client.host_wait_commands` in a Python host process wakes for
/// every request of a C client and a Python client in their own processes; none of its
/// rounds that slept found a request late (a lost wake-up), and it slept.
#[test]
fn a_python_host_wakes_for_every_request() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("commands_python_host");
    build(&dir);
    let path = dir.join("bridge.shm");
    let map = produce_file(&path);
    let bridge = Bridge::attach(map.region().unwrap()).expect("attach");
    let generated = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let mut host = Command::new("python3")
        .args(["-B", "-W", "error"])
        .arg(dir.join("host.py"))
        .arg(&path)
        .arg((2 * REQUESTS).to_string())
        .env("PYTHONPATH", &generated)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut ready = String::new();
    out.read_line(&mut ready).unwrap();
    assert_eq!(ready, "ready\n", "the Python host did not start");
    let clients: Vec<_> = ["c", "python"]
        .iter()
        .map(|lang| (*lang, spawn(lang, REQUESTS, &path, &dir)))
        .collect();
    for (lang, c) in clients {
        let done = c.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&done.stdout);
        assert!(
            done.status.success()
                && text.starts_with(&format!("client {lang}: {REQUESTS} requests, ")),
            "the {lang} client: {text}{}",
            String::from_utf8_lossy(&done.stderr)
        );
        print!("{text}");
    }
    let mut line = String::new();
    std::io::Read::read_to_string(&mut out, &mut line).unwrap();
    assert!(
        host.wait().unwrap().success(),
        "the Python host failed: {line}"
    );
    print!("{line}");
    let counts: Vec<u64> = line
        .trim_start_matches("host python: ")
        .split(", ")
        .filter_map(|part| part.split(' ').next()?.parse().ok())
        .collect();
    // Answered, woken, lost (the worst wake's part starts with a word).
    assert_eq!(counts.len(), 3, "{line}");
    assert_eq!(counts[0], 2 * REQUESTS, "{line}");
    assert!(counts[1] >= REQUESTS, "it slept and was woken: {line}");
    assert_eq!(counts[2], 0, "lost wake-ups: {line}");
    drop(bridge);
}

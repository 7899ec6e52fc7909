//! Fuzzing the front end: mutated schemas (byte flips, insertions and deletions, lines
//! spliced between the bridge schema and the fixtures, numbers, names, types and brackets
//! swapped for others) and raw bytes go through parse → lower → layout, and every schema
//! that loads through every backend (`common::every_backend`: the built-in targets, the
//! JavaScript template and the schema's own templates). Nothing may panic, hang or write a
//! file, and every rejection must say `schema.toml:LINE:COL:` with LINE and COL inside the
//! input. The Rust of the first accepted mutants is linted with `-D warnings -D
//! clippy::pedantic`.
//!
//! `cargo test` runs a bounded, seeded pass. A long run, with a summary line:
//!
//! ```sh
//! FUZZ_INPUTS=1000000 cargo test --release --test suite fuzz_front_end:: -- --ignored --nocapture
//! ```
//!
//! `FUZZ_SEED` picks another sequence, `FUZZ_MAX_SECS` stops the run after that time (CI's
//! capped run; the summary says how many inputs ran); `FUZZ_TRACE=1` writes each input to
//! `target/tmp/fuzz-current.toml` before it runs (to find the input of a crash that aborts,
//! such as a stack overflow). Panicking inputs are saved as `target/tmp/fuzz-crash-N.toml`;
//! each one found so far is a regression fixture in `tests/fixtures/fuzz/`.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use abi_codegen::SchemaErrors;
use common::bindings_crate::{
    ZEROCOPY, assert_pedantic_clean, runtime_dependency, write_bindings_crate,
};
use common::every_backend::{check_errors, panic_text, render_every_backend};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------------------
// The checks every input gets.

/// What one input did.
enum Outcome {
    Accepted { rendered: bool },
    Rejected(SchemaErrors),
}

/// Runs the pipeline on `src` and checks the result; `Err` describes a failure (a panic, an
/// error without a proper position, a backend that failed). A schema that loads is rendered
/// with every backend (`common::every_backend`), its `[[template]]`s read from the package's
/// root, where schema.toml's are.
fn run_one(src: &str, render_backends: bool) -> Result<Outcome, String> {
    let loaded = caught(|| abi_codegen::load_schema(src))
        .map_err(|p| format!("load_schema panicked: {}", panic_text(&p)))?;
    let run = |f: &mut dyn FnMut()| caught(f);
    match loaded {
        Ok(schema) => {
            if render_backends {
                render_every_backend(&schema, src, root(), &run, &|src, errors| {
                    check_errors(src, errors, &run)
                })?;
            }
            Ok(Outcome::Accepted {
                rendered: render_backends,
            })
        }
        Err(errors) => {
            check_errors(src, &errors, &run)?;
            Ok(Outcome::Rejected(errors))
        }
    }
}

thread_local! {
    /// Set while a stage runs under `catch_unwind`: its panic is a finding, reported with
    /// the input, not printed as it happens.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs, once, a panic hook that stays silent while [`QUIET`] is set on the panicking
/// thread and prints as usual otherwise (a bug in this harness, another test's failure).
fn quiet_panics_on_fuzz_threads() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
}

/// `f` under `catch_unwind`, its panic silent.
fn caught<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    QUIET.with(|q| q.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(false));
    result
}

/// A message with its names and numbers blanked, to count distinct kinds of error.
fn message_kind(message: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in message.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                if in_code {
                    out.push_str("`_`");
                }
            }
            _ if in_code => {}
            c if c.is_ascii_digit() => {
                if !out.ends_with('N') {
                    out.push('N');
                }
            }
            c => out.push(c),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// The mutator.

/// SplitMix64: small, fast and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Tokens that stress the parser, the lowering and the layout.
const INTERESTING: &[&str] = &[
    // Numbers at the edges of every width.
    "0",
    "-1",
    "1",
    "3",
    "127",
    "128",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "0x",
    "0x8000_0000",
    "0xFFFF_FFFF",
    "0xFFFF_FFFF_FFFF_FFFF",
    "0b",
    "0o9",
    "1_",
    "_1",
    "1e3",
    "1.5",
    "inf",
    "nan",
    "+5",
    "007",
    // Expressions.
    "\"1 << 63\"",
    "\"1 << 64\"",
    "\"-0x10\"",
    "\"(((((1)))))\"",
    "\"1 / 0\"",
    "\"2 * max_clients\"",
    "\"0xFFFF_FFFF_FFFF_FFFF * 2\"",
    "\"\"",
    "\"((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1\"",
    // Types.
    "\"u8\"",
    "\"u64\"",
    "\"f32\"",
    "\"char\"",
    "\"char[]\"",
    "\"u8[0]\"",
    "\"u8[2147483648]\"",
    "\"u64[2147483648]\"",
    "\"u8[4294967295]\"",
    "\"u8[4294967296]\"",
    "\"u8[1][2]\"",
    "\"u8[\"",
    "\"u8]\"",
    "\"[]\"",
    "\"u8[-1]\"",
    "\"u8[ 4 ]\"",
    "\"u8[a + b]\"",
    "\"self\"",
    "\"client_entry\"",
    "\"snapshot\"",
    "\"bridge_header[2]\"",
    // Names.
    "\"_\"",
    "\"_pad\"",
    "\"a__b\"",
    "\"Abc\"",
    "\"abi_version\"",
    "\"type\"",
    "\"self\"",
    "\"none\"",
    "\"a\\nb\"",
    "\"a\\u0000b\"",
    "\"\\u202e\"",
    "\"é\"",
    // Keys and structure.
    "[abi]",
    "[[struct]]",
    "[[enum]]",
    "[[flags]]",
    "[[const]]",
    "[struct]",
    "[[abi]]",
    "fields = []",
    "values = []",
    "fields = [{ name = \"x\", type = \"u8\" }]",
    "values = [{ name = \"x\", value = 1 }]",
    "extensible = true",
    "extensible = 1",
    "size = 0",
    "size = -8",
    "align = 3",
    "align = 0",
    "count = \"x\"",
    "count = \"a.b.c\"",
    "expect = \"y\"",
    "since = \"0.1\"",
    "since = \"99.0\"",
    "since = \"01.0\"",
    "doc = \"\"",
    "repr = \"i8\"",
    "repr = \"f32\"",
    "byte_order = \"big\"",
    "version = \"0.99999999999\"",
    "c_prefix = \"\"",
    "name = \"\"",
    "type = \"u32\"",
    "sise = 8",
    "{",
    "}",
    "[",
    "]",
    "[[",
    "]]",
    "\"",
    "'",
    "'''",
    "\"\"\"",
    "=",
    ",",
    ".",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "#",
    "\\",
    "\\u",
    "\\U0010FFFF",
    "\u{0}",
    "\u{FEFF}",
    "\u{202E}",
    "é",
    "𝄞",
    "1979-05-27T07:32:00Z",
    "true",
    "false",
];

/// Pieces of doc text, escaped for a TOML basic string, that each target must escape.
const HOSTILE_DOC: &[&str] = &[
    "*/",
    "/*",
    "\\\"\\\"\\\"",
    "'''",
    "\\\\",
    "|",
    "`",
    "``",
    "{{ x }}",
    "{% if %}",
    "{#",
    "\\n#\\n",
    "\\n",
    "\\r",
    "\\r\\n",
    "\\t",
    "\\u0000",
    "\\u001b[2J",
    "\\u007f",
    "\\u0085",
    "\\u202e",
    "\\u2066",
    "\\u2028",
    "\\ufeff",
    "é",
    "漢字",
    "𝄞",
    "#",
    "??/",
    "??=",
    "<b>",
    "</script>",
    "&amp;",
    "&#1;",
    "_x_",
    "*y*",
    "[a](b)",
    "[c]",
    "\\n- ",
    "\\n1. ",
    "\\n> ",
    "\\n===",
    "    ",
    " ",
    "x",
    "\\\\\\n",
    "%s",
    "${x}",
    "$",
    "~~",
    "<!--",
    "-->",
    "'",
    "\\\"",
];

/// The seeds: the bridge schema and every fixture schema.
fn corpus() -> Vec<(String, String)> {
    let mut out = vec![(
        "schema.toml".to_string(),
        fs::read_to_string(root().join("schema.toml")).expect("schema.toml"),
    )];
    let mut dirs = vec![root().join("tests/fixtures")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
            .expect("fixture dir")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                let name = path
                    .strip_prefix(root())
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                out.push((name, fs::read_to_string(&path).expect("fixture")));
            }
        }
    }
    out.sort();
    out
}

/// The tokens of the seeds: words, numbers and quoted strings, for token swaps.
fn dictionary(seeds: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut set: HashSet<Vec<u8>> = INTERESTING.iter().map(|t| t.as_bytes().to_vec()).collect();
    for seed in seeds {
        let mut i = 0;
        while i < seed.len() {
            let end = token_end(seed, i);
            if end > i + 1 || seed[i].is_ascii_alphanumeric() {
                set.insert(seed[i..end].to_vec());
            }
            i = end.max(i + 1);
        }
    }
    let mut words: Vec<Vec<u8>> = set.into_iter().collect();
    words.sort();
    words
}

/// The end of the token that starts at `i`: a word, a number or a quoted string.
fn token_end(s: &[u8], i: usize) -> usize {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-';
    match s[i] {
        b'"' => s[i + 1..]
            .iter()
            .position(|&b| b == b'"' || b == b'\n')
            .map_or(s.len(), |p| i + 2 + p)
            .min(s.len()),
        b if word(b) => s[i..]
            .iter()
            .position(|&b| !word(b))
            .map_or(s.len(), |p| i + p),
        _ => i + 1,
    }
}

/// The start of a random token of `s`, if it has any.
fn random_token(rng: &mut Rng, s: &[u8]) -> Option<(usize, usize)> {
    if s.is_empty() {
        return None;
    }
    for _ in 0..8 {
        let mut i = rng.below(s.len());
        while i > 0 && token_end(s, i) == i + 1 && !s[i].is_ascii_alphanumeric() && s[i] != b'"' {
            i -= 1;
        }
        // Walk back to the start of the word.
        while i > 0 && (s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_') {
            i -= 1;
        }
        let end = token_end(s, i);
        if end > i && (s[i].is_ascii_alphanumeric() || s[i] == b'"') {
            return Some((i, end));
        }
    }
    None
}

fn line_ranges(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < s.len() {
        out.push((start, s.len()));
    }
    out
}

/// One input: a seed under a few stacked mutations, or now and then raw bytes.
fn mutate(rng: &mut Rng, pool: &[Vec<u8>], dict: &[Vec<u8>]) -> Vec<u8> {
    if rng.chance(2) {
        let len = rng.below(200);
        return (0..len).map(|_| rng.next() as u8).collect();
    }
    let mut s = rng.pick(pool).clone();
    let rounds = 1 + (rng.next().trailing_zeros() as usize).min(7);
    for _ in 0..rounds {
        mutate_once(rng, &mut s, pool, dict);
    }
    s
}

fn mutate_once(rng: &mut Rng, s: &mut Vec<u8>, pool: &[Vec<u8>], dict: &[Vec<u8>]) {
    let at = |rng: &mut Rng, s: &Vec<u8>| rng.below(s.len() + 1);
    match rng.below(15) {
        // Flip a bit.
        0 if !s.is_empty() => {
            let i = rng.below(s.len());
            s[i] ^= 1 << rng.below(8);
        }
        // Set a byte to something else.
        1 if !s.is_empty() => {
            let i = rng.below(s.len());
            s[i] = *rng.pick(b"[]{}\"'=,.#\\\n\r\t 0189azAZ_-+\x00\x7f\xc3\xff");
        }
        // Insert an interesting token or a dictionary word.
        2 | 3 => {
            let i = at(rng, s);
            let t = rng.pick(dict).clone();
            s.splice(i..i, t);
        }
        // Delete a short range.
        4 if !s.is_empty() => {
            let i = rng.below(s.len());
            let n = 1 + rng.below(16.min(s.len() - i));
            s.drain(i..i + n);
        }
        // Duplicate a range.
        5 if !s.is_empty() => {
            let i = rng.below(s.len());
            let n = 1 + rng.below(64.min(s.len() - i));
            let copy = s[i..i + n].to_vec();
            let j = at(rng, s);
            s.splice(j..j, copy);
        }
        // Replace a line with a line of another seed.
        6 | 7 => {
            let other = rng.pick(pool);
            let theirs = line_ranges(other);
            let mine = line_ranges(s);
            if let (false, false) = (theirs.is_empty(), mine.is_empty()) {
                let (a, b) = *rng.pick(&theirs);
                let (c, d) = *rng.pick(&mine);
                let line = other[a..b].to_vec();
                if rng.chance(50) {
                    s.splice(c..d, line);
                } else {
                    s.splice(c..c, line);
                }
            }
        }
        // Delete or swap lines.
        8 => {
            let mine = line_ranges(s);
            if mine.len() >= 2 {
                let (a, b) = *rng.pick(&mine);
                if rng.chance(50) {
                    s.drain(a..b);
                } else {
                    let (c, d) = *rng.pick(&mine);
                    let (first, second) = if a < c {
                        ((a, b), (c, d))
                    } else {
                        ((c, d), (a, b))
                    };
                    if first.1 <= second.0 {
                        let x = s[first.0..first.1].to_vec();
                        let y = s[second.0..second.1].to_vec();
                        s.splice(second.0..second.1, x);
                        s.splice(first.0..first.1, y);
                    }
                }
            }
        }
        // Swap a token for another.
        9..=11 => {
            if let Some((i, end)) = random_token(rng, s) {
                let t = rng.pick(dict).clone();
                s.splice(i..end, t);
            }
        }
        // Fill a doc string with hostile text, which keeps the schema valid and goes to
        // every backend.
        12 | 13 => {
            let docs: Vec<usize> = s
                .windows(7)
                .enumerate()
                .filter(|(_, w)| *w == b"doc = \"")
                .map(|(i, _)| i + 7)
                .collect();
            if !docs.is_empty() {
                let start = *rng.pick(&docs);
                let end = s[start..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\n')
                    .map_or(s.len(), |p| start + p);
                let mut text = Vec::new();
                for _ in 0..1 + rng.below(12) {
                    text.extend_from_slice(rng.pick(HOSTILE_DOC).as_bytes());
                }
                s.splice(start..end, text);
            }
        }
        // Cross over: the start of this input and the end of another.
        _ => {
            let other = rng.pick(pool);
            let i = at(rng, s);
            let j = rng.below(other.len() + 1);
            s.truncate(i);
            s.extend_from_slice(&other[j..]);
        }
    }
    // Keep inputs from growing without bound through stacked duplications.
    s.truncate(256 * 1024);
}

// ---------------------------------------------------------------------------------------
// The run.

#[derive(Default)]
struct Summary {
    inputs: u64,
    accepted: u64,
    rendered: u64,
    rejected: u64,
    kinds: HashSet<String>,
    messages: HashSet<String>,
    failures: Vec<(String, String)>,
    /// The first accepted inputs that differ from every seed: 12 small ones, up to 2 large.
    samples: Vec<String>,
    elapsed: Duration,
    slowest: Duration,
}

impl Summary {
    fn line(&self, seed: u64) -> String {
        format!(
            "fuzz_front_end: {} inputs (seed {seed}): {} accepted ({} rendered by every backend), \
             {} rejected; {} distinct error messages ({} kinds with names and numbers blanked); \
             {} failures; {:.1?} ({:.0} inputs/s, slowest input {:.1?})",
            self.inputs,
            self.accepted,
            self.rendered,
            self.rejected,
            self.messages.len(),
            self.kinds.len(),
            self.failures.len(),
            self.elapsed,
            self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.slowest,
        )
    }
}

/// The files of `generated/` (the default output folder), with their modification times.
fn generated_state() -> BTreeMap<PathBuf, SystemTime> {
    fs::read_dir(root().join("generated"))
        .expect("generated/")
        .flatten()
        .map(|e| {
            (
                e.path(),
                e.metadata().and_then(|m| m.modified()).expect("mtime"),
            )
        })
        .collect()
}

/// The names in the process's current folder (the package's root, where a relative path
/// written by mistake would land).
fn current_folder_names() -> BTreeSet<std::ffi::OsString> {
    fs::read_dir(".")
        .expect("the current folder")
        .flatten()
        .map(|e| e.file_name())
        .collect()
}

/// One fuzz run at a time (their checks of the folders would see each other's files).
static ONE_RUN: Mutex<()> = Mutex::new(());

/// Mutates and runs `inputs` inputs from `seed`, or fewer when `max` (a time) runs out first.
fn run_fuzz(inputs: u64, seed: u64, max: Option<Duration>) -> Summary {
    let seeds: Vec<Vec<u8>> = corpus().into_iter().map(|(_, s)| s.into_bytes()).collect();
    let dict = dictionary(&seeds);
    let mut pool = seeds.clone();
    let trace = std::env::var_os("FUZZ_TRACE").is_some();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let _one = ONE_RUN.lock().unwrap_or_else(|e| e.into_inner());
    // The stages are pure and take no path, so a file written by mistake would land in the
    // current folder (a relative path) or in `generated/`: both are compared before and after.
    // The process's current folder is never changed (tests run in parallel threads).
    let (names_before, before) = (current_folder_names(), generated_state());

    // A watchdog: an input that takes too long is saved, and the run ends loudly.
    let progress = Arc::new(AtomicU64::new(0));
    let current = Arc::new(Mutex::new(Vec::<u8>::new()));
    let done = Arc::new(AtomicU64::new(0));
    let watchdog = {
        let (progress, current, done) = (progress.clone(), current.clone(), done.clone());
        let hang_file = tmp.join("fuzz-hang.toml");
        std::thread::spawn(move || {
            let limit = Duration::from_secs(60);
            let mut last = (u64::MAX, Instant::now());
            while done.load(Ordering::Relaxed) == 0 {
                std::thread::sleep(Duration::from_millis(200));
                let now = progress.load(Ordering::Relaxed);
                if now != last.0 {
                    last = (now, Instant::now());
                } else if last.1.elapsed() > limit {
                    let input = current.lock().map(|c| c.clone()).unwrap_or_default();
                    let _ = fs::write(&hang_file, &input);
                    eprintln!(
                        "fuzz_front_end: input {now} ran for over {limit:?}; saved as {}",
                        hang_file.display()
                    );
                    std::process::abort();
                }
            }
        })
    };

    quiet_panics_on_fuzz_threads();
    let mut rng = Rng(seed);
    let mut summary = Summary::default();
    let start = Instant::now();
    for n in 0..inputs {
        if max.is_some_and(|m| start.elapsed() >= m) {
            break;
        }
        let bytes = mutate(&mut rng, &pool, &dict);
        let src = String::from_utf8_lossy(&bytes).into_owned();
        if trace {
            let _ = fs::write(tmp.join("fuzz-current.toml"), &src);
        }
        if let Ok(mut c) = current.lock() {
            c.clear();
            c.extend_from_slice(src.as_bytes());
        }
        // Every small schema that loads goes through the backends; of the large ones
        // (mutations of the bridge schema, whose backends take milliseconds), one in 16.
        let render = src.len() < 16 * 1024 || rng.chance(6);
        let t = Instant::now();
        let outcome = run_one(&src, render);
        summary.slowest = summary.slowest.max(t.elapsed());
        summary.inputs += 1;
        progress.store(n + 1, Ordering::Relaxed);
        match outcome {
            Ok(Outcome::Accepted { rendered }) => {
                summary.accepted += 1;
                summary.rendered += u64::from(rendered);
                let small = src.len() < 16 * 1024;
                let taken = summary
                    .samples
                    .iter()
                    .filter(|s| (s.len() < 16 * 1024) == small);
                if rendered
                    && taken.count() < if small { 12 } else { 2 }
                    && !seeds.iter().any(|s| s == &bytes)
                    && !summary.samples.contains(&src)
                {
                    summary.samples.push(src.clone());
                }
                if summary.accepted % 64 == 1 && pool.len() < 4096 {
                    pool.push(bytes);
                }
            }
            Ok(Outcome::Rejected(errors)) => {
                summary.rejected += 1;
                let mut new_kind = false;
                for d in &errors.list {
                    new_kind |= summary.kinds.insert(message_kind(&d.message));
                    if summary.messages.len() < 1_000_000 {
                        summary.messages.insert(d.message.clone());
                    }
                }
                // An input that reached a new kind of error is worth mutating further.
                if new_kind && pool.len() < 4096 {
                    pool.push(bytes);
                }
            }
            Err(failure) => {
                let file = tmp.join(format!("fuzz-crash-{}.toml", summary.failures.len()));
                let _ = fs::write(&file, &src);
                summary.failures.push((file.display().to_string(), failure));
            }
        }
    }
    summary.elapsed = start.elapsed();
    done.store(1, Ordering::Relaxed);
    watchdog.join().expect("the watchdog ends");
    let written: Vec<_> = current_folder_names()
        .difference(&names_before)
        .cloned()
        .collect();
    assert!(
        written.is_empty(),
        "the front end or a backend wrote {written:?} into the current folder"
    );
    assert_eq!(
        before,
        generated_state(),
        "the front end or a backend wrote to generated/"
    );
    summary
}

fn assert_clean(summary: &Summary, seed: u64) {
    let mut report = String::new();
    for (file, failure) in summary.failures.iter().take(20) {
        let short: String = failure
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(300)
            .collect();
        report.push_str(&format!("{file}: {short}\n"));
    }
    assert!(
        summary.failures.is_empty(),
        "{}\n{report}",
        summary.line(seed)
    );
    assert!(
        summary.accepted > 0,
        "no input loaded: the mutator is broken"
    );
    assert!(
        summary.rejected > 0,
        "no input was rejected: the mutator is broken"
    );
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
    )
}

/// The bounded run of `cargo test`: the same seed every time, a few seconds. An
/// unoptimised build runs about 600 inputs a second, an optimised one 10,000: 4,000 inputs
/// in a debug build, 50,000 with `--release`.
#[test]
fn fuzz_bounded() {
    let seed = env_u64("FUZZ_SEED").unwrap_or(0x5EED_0001);
    let inputs = if cfg!(debug_assertions) {
        4_000
    } else {
        50_000
    };
    let summary = run_fuzz(inputs, seed, None);
    println!("{}", summary.line(seed));
    assert_clean(&summary, seed);
    lint_samples(&summary.samples);
}

/// The Rust of a sample of accepted inputs, as a crate that uses it would lint it: every
/// warning denied, clippy's pedantic lints errors too (doc_markdown aside, as in this
/// workspace's src/lib.rs: the docs quote the schema's prose).
fn lint_samples(samples: &[String]) {
    assert!(
        samples.len() >= 8,
        "only {} accepted inputs to lint",
        samples.len()
    );
    let modules: Vec<(String, String)> = samples
        .iter()
        .enumerate()
        .map(|(i, src)| {
            let schema = abi_codegen::load_schema(src).expect("a sample loaded before");
            let rust =
                abi_codegen::testing::language_backend::rust::expand_rust(&schema, "schema.toml");
            (format!("s{i}"), rust)
        })
        .collect();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-pedantic");
    let dependencies = format!("{}{ZEROCOPY}", runtime_dependency(&["recording"]));
    write_bindings_crate(&dir, "fuzz-pedantic", &dependencies, &modules);
    assert_pedantic_clean(&dir, &dir.join("target"), "fuzzed schemas' Rust");
}

/// The long run: `FUZZ_INPUTS=1000000 cargo test --release --test suite fuzz_front_end:: --
/// --ignored --nocapture`.
#[test]
#[ignore = "long; run with FUZZ_INPUTS=N and --ignored"]
fn fuzz_long() {
    let seed = env_u64("FUZZ_SEED").unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let inputs = env_u64("FUZZ_INPUTS").unwrap_or(1_000_000);
    // FUZZ_MAX_SECS: stop after this time (CI's time-capped run); the line says how many ran.
    let max = env_u64("FUZZ_MAX_SECS").map(Duration::from_secs);
    let summary = run_fuzz(inputs, seed, max);
    println!("{}", summary.line(seed));
    assert_clean(&summary, seed);
}

// ---------------------------------------------------------------------------------------
// Regression fixtures: every input the fuzzer found to crash, and what it gives now.

#[test]
fn regression_fixtures() {
    let dir = root().join("tests/fixtures/fuzz");
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/fixtures/fuzz")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no fixture in {}", dir.display());
    for path in names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(&path).expect("fixture");
        let src = String::from_utf8_lossy(&bytes).into_owned();
        let outcome = run_one(&src, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        let shown = match outcome {
            // The doc comments of the Rust bindings, where the first crashes were.
            Outcome::Accepted { .. } => {
                let schema = abi_codegen::load_schema(&src).expect("it loaded");
                let rust = abi_codegen::testing::language_backend::rust::expand_rust(
                    &schema,
                    "schema.toml",
                );
                let items = &rust[rust.find("pub const ABI_VERSION:").expect("the version")..];
                let docs: Vec<&str> = items
                    .lines()
                    .map(str::trim)
                    .filter(|l| l.starts_with("///"))
                    .collect();
                format!(
                    "loads without errors; its Rust doc lines:\n{}\n",
                    docs.join("\n")
                )
            }
            Outcome::Rejected(errors) => errors.render("schema.toml", &src),
        };
        insta::assert_snapshot!(format!("fuzz_{name}"), shown);
    }
}

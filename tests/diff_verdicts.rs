//! `diff`'s verdicts proved, not just pinned: random changes to a small attachable image
//! (tests/common/schema_changes.rs) are classified by `compute_diff`; then, for every change
//! it calls compatible, the old (1.0) and the new (1.1) Rust bindings are built into one
//! program, which lays out an image with one version (`Image::lay_out` + `produce`), writes
//! every common field through it (a handshake field, the seqlock, an atomic counter, an
//! array, each block's row) and attaches with the other version, reading every value back
//! through attach, the block checks and the seqlock read; in both directions. The breaking
//! controls must be called breaking by `diff` and must fail in at least one direction, so
//! the program can tell. The same program is linted with clippy, `-D warnings` and
//! `clippy::pedantic` over every generated module: the bindings of schemas with handshakes,
//! layouts, blocks and seqlocks are warning-free under both.
//!
//! DIFFVERDICT_PAIRS (default 32, at least 15) sets how many random changes, DIFFVERDICT_SEED (default 1)
//! the first seed.

use crate::common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

use abi_codegen::diff::{Severity, compute_diff};
use abi_codegen::{Schema, load_schema};
use common::bindings_crate::{
    ZEROCOPY, assert_pedantic_clean, runtime_dependency, write_bindings_crate,
};
use common::schema_changes::{Changed, changed_schema};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str, src: &str) -> Schema {
    load_schema(src).unwrap_or_else(|e| panic!("{}", e.render(name, src)))
}

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// What `diff` says of one change, checked against what the change is: a compatible one
/// has no breaking or source-breaking change and obeys the policy at 1.1; a control is
/// breaking and does not.
fn check_diff(old: &Schema, changed: &Changed, new: &Schema) {
    let diff = compute_diff(old, new);
    let breaking = diff.count(Severity::Breaking);
    let source = diff.count(Severity::SourceBreaking);
    let rules: Vec<&str> = diff.changes.iter().map(|c| c.rule().id).collect();
    if changed.breaking {
        assert!(
            breaking > 0 && !diff.verdict.ok(),
            "seed {}: {:?} is breaking, but diff says {} ({rules:?})\n{}",
            changed.seed,
            changed.changes,
            diff.counts_line(),
            changed.toml
        );
    } else {
        assert!(
            breaking == 0 && source == 0 && diff.verdict.ok(),
            "seed {}: {:?} is compatible, but diff says {}: {} ({rules:?})\n{}",
            changed.seed,
            changed.changes,
            diff.counts_line(),
            diff.verdict.problems.join("; "),
            changed.toml
        );
    }
    assert!(
        !diff.changes.is_empty(),
        "seed {}: diff saw no change",
        changed.seed
    );
}

/// The program's proof, one macro for any pair of binding modules: lays out and produces an
/// image with `$w`, writes every field the base declares through it, attaches with `$r`
/// and reads each back. `Err` names the first step that failed.
const PROOF_MACRO: &str = r#"
macro_rules! proof {
    ($w:ident, $r:ident, $seed:expr) => {{
        let s: u64 = $seed;
        let image = $w::live::Image::lay_out(&[], 1).map_err(|e| format!("lay_out: {e}"))?;
        let buf = abi_runtime::SharedBuf::new(image.bytes.len());
        let w = $w::live::Image::produce(buf.region(), &image)
            .map_err(|e| format!("produce: {e}"))?;
        w.header().set_clock(s).map_err(|e| e.to_string())?;
        let stats = w.stats().ok_or("the writer has no stats")?;
        stats.set_frames(low(s ^ 0x55)).map_err(|e| e.to_string())?;
        let mut locked = $w::live::StatsLock::zeroed();
        locked.tick = s.wrapping_mul(3);
        locked.load = low(s.wrapping_mul(7));
        stats.write_stats_lock(&locked).map_err(|e| e.to_string())?;
        let journal = w.journal().ok_or("the writer has no journal")?;
        journal.set_status($w::Status::FAILED).map_err(|e| e.to_string())?;
        journal.set_entries(std::array::from_fn(|i| s + i as u64)).map_err(|e| e.to_string())?;
        for i in 0..$w::live::Image::BLOCKS_COUNT {
            let block = w.blocks(i).map_err(|e| format!("writer block {i}: {e}"))?;
            let input = block.and_then(|b| b.input()).ok_or("a writer block has no input")?;
            input.set_buttons(low(s) + low(i as u64)).map_err(|e| e.to_string())?;
        }

        let r = $r::live::Image::attach(buf.region()).map_err(|e| format!("attach: {e}"))?;
        same("header.clock", r.header().clock(), s)?;
        let stats = r.stats().ok_or("the reader has no stats")?;
        same("stats.frames", stats.frames(), low(s ^ 0x55))?;
        let locked = stats.read_stats_lock().map_err(|e| format!("read_stats_lock: {e}"))?;
        same("stats.tick", locked.tick, s.wrapping_mul(3))?;
        same("stats.load", locked.load, low(s.wrapping_mul(7)))?;
        let journal = r.journal().ok_or("the reader has no journal")?;
        same("journal.status", journal.status(), $r::Status::FAILED)?;
        same("journal.entries", journal.entries(), std::array::from_fn(|i| s + i as u64))?;
        for i in 0..$r::live::Image::BLOCKS_COUNT {
            let block = r.blocks(i).map_err(|e| format!("reader block {i}: {e}"))?;
            let input = block.and_then(|b| b.input()).ok_or("a reader block has no input")?;
            same("input.buttons", input.buttons(), low(s) + low(i as u64))?;
        }
        Ok(())
    }};
}

/// The low 32 bits.
fn low(v: u64) -> u32 {
    u32::try_from(v & 0xFFFF_FFFF).expect("32 bits")
}

/// `Err` naming `what` when `found` is not `expected`.
#[allow(clippy::needless_pass_by_value, reason = "values just loaded, compared once")]
fn same<T: PartialEq + std::fmt::Debug>(what: &str, found: T, expected: T) -> Result<(), String> {
    if found.eq(&expected) {
        Ok(())
    } else {
        Err(format!("{what} is {found:?}, expected {expected:?}"))
    }
}
"#;

/// A cargo package in `dir`: a library of the generated modules (`old`, the base's, once,
/// and `v{seed}`, each change's) with every warning denied, and a main that runs the proof
/// both ways for each change and prints `seed new->old old->new` lines (`ok` or the error).
fn write_program(dir: &Path, old_rust: &str, pairs: &[(Changed, String)]) {
    let mut modules = vec![("old".to_string(), old_rust.to_string())];
    for (changed, new) in pairs {
        modules.push((format!("v{}", changed.seed), new.clone()));
    }
    let dependencies = format!("{}{ZEROCOPY}", runtime_dependency(&[]));
    write_bindings_crate(dir, "diff-verdicts", &dependencies, &modules);
    let mut main = String::from(
        "//! The proof program of `tests/diff_verdicts.rs`.\n#![forbid(unsafe_code)]\n\
         #![deny(warnings)]\nuse diff_verdicts::old;\n",
    );
    main.push_str(PROOF_MACRO);
    let mut calls = String::new();
    for (changed, _) in pairs {
        let seed = changed.seed;
        let _ = writeln!(main, "use diff_verdicts::v{seed};");
        let other = seed ^ 0xABCD;
        let _ = writeln!(
            main,
            "fn pair_{seed}() -> (Result<(), String>, Result<(), String>) {{\n\
             \x20   let new_to_old = (|| proof!(v{seed}, old, {seed}))();\n\
             \x20   let old_to_new = (|| proof!(old, v{seed}, {other}))();\n\
             \x20   (new_to_old, old_to_new)\n}}"
        );
        let _ = writeln!(calls, "    report({seed}, pair_{seed}());");
    }
    let _ = write!(
        main,
        "\n#[allow(clippy::needless_pass_by_value, reason = \"a pair's results, printed\")]\n\
         fn report(seed: u64, (a, b): (Result<(), String>, Result<(), String>)) {{\n\
         \x20   let show = |r: &Result<(), String>| r.clone().err().unwrap_or_else(|| \"ok\".to_string());\n\
         \x20   println!(\"{{seed}}\\t{{}}\\t{{}}\", show(&a), show(&b));\n}}\n\n\
         fn main() {{\n{calls}}}\n"
    );
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
}

/// The proof program's target folder.
fn target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-verdicts-target")
}

/// `cargo ARGS` in `dir`, with the program's target folder.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    common::tools::cargo_outside(dir, &target(), args)
}

fn text(output: &Output) -> String {
    common::tools::output_text(output)
}

#[test]
fn compatible_changes_read_both_ways_and_breaking_ones_do_not() {
    let base_path = root().join("tests/fixtures/diff_verdicts/base.toml");
    let base = std::fs::read_to_string(&base_path).expect("the base schema");
    let old = load("base.toml", &base);
    let old_rust = abi_codegen::testing::language_backend::rust::expand_rust(&old, "schema.toml");
    let count = env_u64("DIFFVERDICT_PAIRS", 32);
    let first = env_u64("DIFFVERDICT_SEED", 1);
    let mut pairs = Vec::new();
    for seed in first..first + count {
        let changed = changed_schema(&base, seed);
        let new = load(&format!("seed {seed}"), &changed.toml);
        check_diff(&old, &changed, &new);
        let new_rust =
            abi_codegen::testing::language_backend::rust::expand_rust(&new, "schema.toml");
        pairs.push((changed, new_rust));
    }
    // Every fifth seed is a control, the three kinds in turn: 15 seeds hold each kind.
    let controls = pairs.iter().filter(|(c, _)| c.breaking).count();
    assert!(
        count >= 15 && controls >= 3 && controls < pairs.len(),
        "{controls} breaking controls in {} pairs: DIFFVERDICT_PAIRS must be 15 or more",
        pairs.len()
    );

    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-verdicts");
    std::fs::create_dir_all(&dir).unwrap();
    write_program(&dir, &old_rust, &pairs);
    assert_pedantic_clean(&dir, &target(), "the generated bindings");
    let run = cargo(&dir, &["run", "--quiet"]);
    let out = text(&run);
    assert!(run.status.success(), "the proof program failed:\n{out}");

    let mut proved = 0;
    let mut caught = 0;
    let mut failures = Vec::new();
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "a line of the program: {line:?}");
        let seed: u64 = cols[0].parse().expect("a seed");
        let (changed, _) = pairs.iter().find(|(c, _)| c.seed == seed).unwrap();
        let both_ok = cols[1] == "ok" && cols[2] == "ok";
        println!(
            "seed {seed} {:?}: new→old {}, old→new {}",
            changed.changes, cols[1], cols[2]
        );
        match (changed.breaking, both_ok) {
            (false, true) => proved += 1,
            (true, false) => caught += 1,
            (false, false) => failures.push(format!(
                "seed {seed} {:?}, which diff calls compatible: new→old {}, old→new {}",
                changed.changes, cols[1], cols[2]
            )),
            (true, true) => failures.push(format!(
                "seed {seed} {:?} (breaking) read correctly both ways: the proof cannot tell",
                changed.changes
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        proved + caught,
        pairs.len(),
        "a pair printed no line:\n{out}"
    );
    println!(
        "{proved} compatible changes read correctly both ways, {caught} breaking controls caught"
    );
}

/// The robot cases' verdicts proved (tests/common/robot_cases.rs): for every case `diff`
/// calls source-breaking or compatible (renames through a seqlock's guards and a queue's
/// fields, a struct renamed, followed geometry grown, a field appended with `since`), the
/// old and the new Python bindings each lay out an image with their own constants, write the
/// seqlocked record, publish one pose more than the ring has slots (so that the newest is in
/// the slot the writer's count puts it) and push an entry into every client block's log
/// queue (and set its dropped count), and the other version attaches and reads it all back
/// through its own names: the queue's capacity and the ring's slot count and size are the
/// writer's. Breaking controls (two swapped fields and a
/// number readers must find equal, at a minor version so that the handshake lets them in)
/// must fail at least one direction.
#[test]
fn robot_cases_read_each_others_bytes() {
    use common::robot_cases::{CASES, case_src, robot_base, robot_src};
    let dir = common::tools::scratch("diff_verdicts_robot");
    let module = |name: &str, src: &str| {
        let schema = load(name, src);
        let text =
            abi_codegen::testing::language_backend::python::render_python(&schema, "schema.toml")
                .expect("the module renders");
        std::fs::write(dir.join(format!("{name}.py")), text).expect("write the module");
        schema
    };
    let old = module("old", &robot_base());
    // (module, its name of the record's twist field, of the queue's dropped field, whether
    // it must read both ways)
    let mut pairs: Vec<(String, &str, &str, bool)> = Vec::new();
    for case in CASES {
        let new = module(case.name, &case_src(case));
        let diff = compute_diff(&old, &new);
        if diff.count(Severity::Breaking) > 0 {
            continue;
        }
        let twist = if case.name == "guarded_field_renamed" {
            "vel"
        } else {
            "twist"
        };
        let dropped = if case.name == "protocol_field_renamed" {
            "dropped_entries"
        } else {
            "dropped"
        };
        pairs.push((case.name.to_string(), twist, dropped, true));
    }
    assert_eq!(pairs.len(), 8, "{pairs:?}");
    for control in ["guarded_fields_swapped", "equal_geometry_changed"] {
        let case = CASES.iter().find(|c| c.name == control).unwrap();
        let src = robot_src(&robot_base(), case.row.edits, "1.1");
        let new = module(control, &src);
        let diff = compute_diff(&old, &new);
        assert!(diff.count(Severity::Breaking) > 0, "{control}");
        pairs.push((control.to_string(), "twist", "dropped", false));
    }
    let list: Vec<String> = pairs
        .iter()
        .map(|(m, t, d, _)| format!("({m:?}, {t:?}, {d:?})"))
        .collect();
    let script = format!(
        r#"
import importlib, old

def proof(w, r, wn, rn, seed):
    buf = w.lay_out()
    h = w.produce(buf, bytes(buf))
    st = w.StateRecord()
    st.mode, st.tick, st.battery, st.temperature = seed, seed * 3, 0.25, 40.0
    tw = getattr(st, wn[0])
    tw.linear, tw.angular = 1.5, -2.0
    h.state().write_state_lock(st)
    ring = h.poses()
    for k in range(w.POSE_SLOTS + 1):
        v = w.PoseSlot()
        v.size = 8
        v.payload.x, v.payload.y = float(seed + k), -float(k)
        ring.publish(v)
    for i in range(2):
        view = h.clients(i).log_queue()
        if w.LogQueue.unscoped(view).push(w.LogEntry(), b"src%d" % i, b"text %d %d" % (i, seed)):
            return "dropped"
        getattr(view, "set_" + wn[1])(seed + i)
    try:
        a = r.attach(buf)
    except r.AttachError as e:
        return "attach: " + e.check
    got = a.state().read_state_lock()
    tw = getattr(got, rn[0])
    seen = (got.mode, got.tick, tw.linear, tw.angular, got.battery, got.temperature)
    if seen != (seed, seed * 3, 1.5, -2.0, 0.25, 40.0):
        return "state_record %r" % (seen,)
    ring = a.poses()
    if (ring.slot_count, ring.slot_size) != (w.POSE_SLOTS, w.POSE_SLOT_SIZE):
        return "ring %d x %d, the writer's %d x %d" % (ring.slot_count, ring.slot_size, w.POSE_SLOTS, w.POSE_SLOT_SIZE)
    got = ring.read_newest()
    k = w.POSE_SLOTS
    if got is None or (got.size, got.payload.x, got.payload.y) != (8, float(seed + k), -float(k)):
        return "newest pose %r" % (got,)
    for i in range(2):
        view = a.clients(i).log_queue()
        q = r.LogQueue(view)
        if q.capacity != w.LOG_QUEUE_CAPACITY:
            return "capacity %d, the writer's %d" % (q.capacity, w.LOG_QUEUE_CAPACITY)
        e = q.pop()
        if e is None or (e.source, e.text) != (b"src%d" % i, b"text %d %d" % (i, seed)):
            return "block %d entry %r" % (i, e)
        if getattr(view, rn[1])() != seed + i:
            return "block %d dropped" % i
    return "ok"

for name, twist, dropped in [{list}]:
    new = importlib.import_module(name)
    print(name, proof(old, new, ("twist", "dropped"), (twist, dropped), 5), proof(new, old, (twist, dropped), ("twist", "dropped"), 9), sep="\t")
"#,
        list = list.join(", ")
    );
    let out = common::tools::run_ok("python3", &["-B", "-W", "error", "-c", &script], &dir);
    let mut failures = Vec::new();
    for ((name, _, _, compatible), line) in pairs.iter().zip(out.lines()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "{line:?}");
        assert_eq!(cols[0], name);
        let both = cols[1] == "ok" && cols[2] == "ok";
        println!("{name}: old→new {}, new→old {}", cols[1], cols[2]);
        if both != *compatible {
            failures.push(format!(
                "{name} ({}): old→new {}, new→old {}",
                if *compatible {
                    "compatible"
                } else {
                    "breaking"
                },
                cols[1],
                cols[2]
            ));
        }
    }
    assert_eq!(out.lines().count(), pairs.len(), "{out}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

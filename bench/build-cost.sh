#!/usr/bin/env bash
# Build cost of the build script, whole-process, medians of several runs (bench/README.md).
#
#  1. Clean `cargo build -p bridge-abi` (the build script generates bridge.rs from
#     schema.toml) against the same crate compiled from the checked-in generated/bridge.rs
#     with no build script and no build-dependencies. Goal: at most 1.3x.
#  2. A no-op rebuild: checks from `cargo build -v` that the build script did not rerun.
#  3. A rebuild after a doc in schema.toml changed (in a copy; the real schema is never
#     touched): the script reruns, writes the same bridge.rs apart from the doc, and the
#     library recompiles.
#
# Fairness: both crates are copies of this repository's files in a temporary folder, with
# the same Cargo.lock (same zerocopy, same versions), the same dev profile (including
# [profile.dev.build-override]), the same rustc and the same number of jobs; each run starts
# from an empty target folder; the two are run alternately so that load on the machine hits
# both alike. Both compile their dependencies from scratch (a user's first build does too),
# so the baseline includes zerocopy-derive and its syn; the ratio is what the build script
# adds to a clean build. Builds are --offline: crates must be in cargo's cache (run any
# `cargo build` of the workspace once first).
#
# Usage: bench/build-cost.sh [RUNS]   (default 5; RUNS=3 is quicker and noisier)
set -euo pipefail
RUNS="${1:-5}"
REPO="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d -t bridge-build-cost.XXXXXX)"
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$WORK"' EXIT

copy_repo() {
  mkdir -p "$1"
  (cd "$REPO" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$1")
}

# The crate with its build script: the repository as it is.
GEN="$WORK/with-build-script"
copy_repo "$GEN"

# The baseline: the same crate, lib.rs including the checked-in generated/bridge.rs, no
# build.rs, no build-dependencies, no workspace (so no codegen member to resolve).
BASE="$WORK/pregenerated"
# The live layer of the bindings needs abi-runtime: the baseline gets the same path copy.
mkdir -p "$BASE/src" "$BASE/generated"
cp -r "$GEN/runtime" "$BASE/runtime"
cp "$REPO/src/lib.rs" "$BASE/src/lib.rs"
cp "$REPO/generated/bridge.rs" "$BASE/generated/bridge.rs"
cp "$REPO/Cargo.lock" "$BASE/Cargo.lock"
sed -i 's|include!(concat!(env!("OUT_DIR"), "/bridge.rs"));|include!("../generated/bridge.rs");|' "$BASE/src/lib.rs"
grep -q 'include!("../generated/bridge.rs")' "$BASE/src/lib.rs" || { echo "lib.rs: include! line not found" >&2; exit 1; }
zerocopy_req="$(sed -n 's/^zerocopy = \(.*\)$/\1/p' "$REPO/Cargo.toml" | head -1)"
# abi-runtime as bridge-abi's [dependencies] take it (with the features the bindings use).
runtime_req="$(sed -n '/^\[dependencies\]/,/^\[/s/^abi-runtime = \(.*\)$/\1/p' "$REPO/Cargo.toml" | head -1)"
[ -n "$runtime_req" ] || { echo "Cargo.toml: abi-runtime dependency not found" >&2; exit 1; }
# abi-runtime inherits from the workspace: the baseline is a workspace of it too, with the
# repository's [workspace.package] and [workspace.dependencies] (less the generator).
workspace_package="$(sed -n '/^\[workspace.package\]/,/^\[/p' "$REPO/Cargo.toml" | grep -v '^\[' || true)"
workspace_deps="$(sed -n '/^\[workspace.dependencies\]/,/^\[/p' "$REPO/Cargo.toml" | grep -v '^\[' | grep -v '^abi-codegen' || true)"
build_override="$(sed -n '/^\[profile.dev.build-override\]/,/^\[/p' "$REPO/Cargo.toml" | grep -v '^\[' || true)"
dev_profile="$(sed -n '/^\[profile.dev\]/,/^\[/p' "$REPO/Cargo.toml" | grep -v '^\[' || true)"
# The members' `[lints] workspace = true` (abi-runtime's too): the workspace's lint tables,
# headers included, up to its dependencies.
workspace_lints="$(sed -n '/^\[workspace.lints/,/^\[workspace.dependencies\]/p' "$REPO/Cargo.toml" \
  | grep -v '^\[workspace.dependencies\]' || true)"
cat > "$BASE/Cargo.toml" <<TOML
[package]
name = "bridge-abi"
version = "0.9.0"
edition = "2024"
build = false

[lib]
name = "bridge_abi"
path = "src/lib.rs"

[dependencies]
zerocopy = $zerocopy_req
abi-runtime = $runtime_req

[profile.dev]
$dev_profile

[profile.dev.build-override]
$build_override

[workspace]
members = ["runtime"]

[workspace.package]
$workspace_package

[workspace.dependencies]
$workspace_deps

$workspace_lints
TOML

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN{print b-a}'; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

clean_build() { # DIR -> "wall cpu" seconds; cpu is user + system time of cargo and every
  # rustc it ran, which load from other processes does not inflate the way it does wall time.
  rm -rf "$1/target"
  local TIMEFORMAT='%R %U %S' t
  t=$( { time (cd "$1" && cargo build --offline -q -p bridge-abi >"$1.log" 2>&1); } 2>&1 ) || true
  awk '{printf "%s %.2f\n", $1, $2 + $3}' <<< "$t"
}
# A build that fails is the script's failure, with cargo's words (clean_build runs in a
# process substitution, whose exit status set -e does not see).
check_built() { # DIR
  [ -f "$1"/target/debug/libbridge_abi.rlib ] || { echo "FAIL: cargo build in $1:" >&2; cat "$1.log" >&2; exit 1; }
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(rustc --version)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$WORK/gen.txt"; : > "$WORK/base.txt"
for i in $(seq 1 "$RUNS"); do
  read -r g gc < <(clean_build "$GEN"); check_built "$GEN"
  read -r b bc < <(clean_build "$BASE"); check_built "$BASE"
  echo "$g $gc" >> "$WORK/gen.txt"; echo "$b $bc" >> "$WORK/base.txt"
  printf 'run %d: with build script %.2f s (CPU %.1f s), pre-generated %.2f s (CPU %.1f s)\n' "$i" "$g" "$gc" "$b" "$bc"
done
mg=$(cut -d' ' -f1 "$WORK/gen.txt" | median); mb=$(cut -d' ' -f1 "$WORK/base.txt" | median)
cg=$(cut -d' ' -f2 "$WORK/gen.txt" | median); cb=$(cut -d' ' -f2 "$WORK/base.txt" | median)
printf 'clean build, median of %d: with build script %.2f s, pre-generated %.2f s, ratio %.2fx (goal <= 1.3x)\n' \
  "$RUNS" "$mg" "$mb" "$(awk -v a="$mg" -v b="$mb" 'BEGIN{print a/b}')"
printf 'clean build CPU time, median of %d: with build script %.1f s, pre-generated %.1f s, ratio %.2fx\n' \
  "$RUNS" "$cg" "$cb" "$(awk -v a="$cg" -v b="$cb" 'BEGIN{print a/b}')"

# 2. No-op rebuild of the crate with the build script (its target is warm from the last run).
: > "$WORK/noop.txt"
for i in $(seq 1 "$RUNS"); do
  t0=$(now)
  (cd "$GEN" && cargo build --offline -v -p bridge-abi) > "$WORK/noop.log" 2>&1
  t1=$(now)
  elapsed "$t0" "$t1" >> "$WORK/noop.txt"
  if grep -q 'build-script-build`' "$WORK/noop.log"; then
    echo "FAIL: the no-op rebuild ran the build script:" >&2
    grep 'build-script-build' "$WORK/noop.log" >&2
    exit 1
  fi
  grep -q 'Fresh bridge-abi' "$WORK/noop.log" || { echo "FAIL: bridge-abi was not fresh" >&2; cat "$WORK/noop.log" >&2; exit 1; }
done
printf 'no-op rebuild, median of %d: %.3f s; build script not rerun (cargo -v: "Fresh bridge-abi", no build-script-build)\n' \
  "$RUNS" "$(median < "$WORK/noop.txt")"

# 3. Rebuild after a doc change in the copy's schema.toml, alternating two texts.
: > "$WORK/doc.txt"
line="$(grep -n "^doc = \"'IBFB' read as a little-endian u32\"" "$GEN/schema.toml" | cut -d: -f1)"
[ -n "$line" ] || { echo "the doc of bridge_magic was not found in schema.toml" >&2; exit 1; }
for i in $(seq 1 "$RUNS"); do
  sed -i "${line}s/^doc = \".*\"\$/doc = \"'IBFB' read as a little-endian u32 (doc edit $i)\"/" "$GEN/schema.toml"
  t0=$(now)
  (cd "$GEN" && cargo build --offline -v -p bridge-abi) > "$WORK/doc.log" 2>&1
  t1=$(now)
  elapsed "$t0" "$t1" >> "$WORK/doc.txt"
  grep -q 'build-script-build`' "$WORK/doc.log" || { echo "FAIL: the doc edit did not rerun the build script" >&2; exit 1; }
  grep -q "doc edit $i" "$GEN"/target/debug/build/bridge-abi-*/out/bridge.rs || { echo "FAIL: bridge.rs lacks the new doc" >&2; exit 1; }
done
printf 'rebuild after a doc edit in schema.toml, median of %d: %.2f s (build script reran, bridge.rs has the new doc)\n' \
  "$RUNS" "$(median < "$WORK/doc.txt")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

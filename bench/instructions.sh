#!/usr/bin/env bash
# The regression guard of generation speed: the instructions one run of
# `examples/profile whole` executes (load the bridge schema, render every built-in target),
# counted by valgrind's cachegrind, printed beside the figure recorded in bench/README.md
# (its line "recorded instructions, profile whole: N"). Instruction counts do not move with
# the machine's load, so a 2x jump shows in CI's log as it happens. This prints; it never
# fails on the figure (it fails only when it cannot measure).
#
# Usage: bench/instructions.sh [STAGE]   (default whole; any stage of examples/profile.rs)
set -euo pipefail
cd "$(dirname "$0")/.."
STAGE="${1:-whole}"
command -v valgrind >/dev/null 2>&1 || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cargo build -q --release -p abi-codegen --example profile
OUT="$(mktemp -t cachegrind.XXXXXX)"
trap 'rm -f "$OUT"' EXIT
# valgrind runs the threads one at a time; the count depends on the number of cores only
# through the number of parts the Rust target is cut into (one per core, at least), so
# compare counts taken on machines with as many cores (CI's and bench/README.md's: 2).
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$OUT" \
  target/release/examples/profile "$STAGE" 1 2>"$OUT.log" >/dev/null
count=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$OUT.log" | tr -d ,)
rm -f "$OUT.log"
[ -n "$count" ] || { echo "cachegrind printed no instruction count" >&2; exit 1; }
recorded=$(sed -n "s/^recorded instructions, profile $STAGE: \([0-9,]*\).*/\1/p" bench/README.md | tr -d , | head -1)
if [ -n "$recorded" ]; then
  ratio=$(awk -v a="$count" -v b="$recorded" 'BEGIN { printf "%.2f", a / b }')
  printf 'instructions, profile %s: %d (recorded in bench/README.md: %d; %sx of it)\n' \
    "$STAGE" "$count" "$recorded" "$ratio"
else
  printf 'instructions, profile %s: %d (nothing recorded in bench/README.md for this stage)\n' \
    "$STAGE" "$count"
fi

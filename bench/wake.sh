#!/usr/bin/env bash
# The tick event's benchmarks (issue 47), one run, Linux: publish-to-wake p50 and p99 across
# processes for a Rust, a C and a Python bot against a raw C futex ping-pong (bench/
# wake_floor.c, the floor) in the same run, as ratios; and the CPU time of a bot sleeping on
# the tick event through SECONDS of a 60 Hz host against a spinning bot's. Everything is
# built here: the floor and the C bot (bench/wake_bot.c) with gcc -O2, examples/wake_bench.rs
# in release. bench/README.md ("Issue 47") records one run. No test asserts a time.
#
# Usage: bench/wake.sh [TICKS] [SECONDS]   (default 20000 ticks, Python a fifth, and 10 s)
#        bench/wake.sh quick              (CI: 2000 ticks and 1 s, checks that it all runs)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = quick ]; then TICKS=2000; SECONDS_AT_60=1; else TICKS="${1:-20000}"; SECONDS_AT_60="${2:-10}"; fi
WORK="$(mktemp -d -t bridge-wake.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
STRICT=(-O2 -Wall -Wextra -Werror -pedantic)
gcc -std=c11 "${STRICT[@]}" bench/wake_floor.c -o "$WORK/wake_floor"
gcc -std=c11 "${STRICT[@]}" -I generated bench/wake_bot.c -o "$WORK/wake_bot"
cargo build -q --release --example wake_bench
target="${CARGO_TARGET_DIR:-target}"
PYTHONPATH="$PWD/generated" "$target/release/examples/wake_bench" latency "$TICKS" $((TICKS / 5)) \
  "$WORK/wake_floor" "$WORK/wake_bot" bench/wake_bot.py
"$target/release/examples/wake_bench" cpu "$SECONDS_AT_60"

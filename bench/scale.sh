#!/usr/bin/env bash
# Scale: synthetic schemas (codegen/benches/synth) of N structs, text to every target, one
# process per N (codegen/examples/scale.rs). Prints, per N, the whole pipeline's shortest
# wall and CPU time of RUNS runs, each stage's CPU time, the output size, the peak memory
# (VmHWM read by the example, and "Maximum resident set size" from /usr/bin/time -v), and
# the ratio to the previous N: doubling N must cost at most 2.2x. Goal: 10,000 structs,
# every target, under 1 s.
#
# Then the command a user runs, whole process: `abi-codegen generate` on the schema of
# CLI_N structs (default 10000) written to a file, into an empty folder, RUNS times: the
# shortest and median wall time, CPU time (user + sys) and max RSS, from /usr/bin/time.
#
# Usage: bench/scale.sh [RUNS] [N...]   (default 5 runs; N = 100 1000 1250 2500 5000 10000 20000)
#        CLI_N=20000 bench/scale.sh 5 100   (only N=100 in-process, then the command at 20,000)
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_PROFILE=dev builds and runs the debug binaries instead (the quick mode of .ci/run:
# it checks that the script works, never a time); the default is release.
case "${BENCH_PROFILE:-release}" in
  release) PROFILE_FLAG=--release; PROFILE_DIR=release ;;
  dev) PROFILE_FLAG=; PROFILE_DIR=debug ;;
  *) echo "BENCH_PROFILE must be release or dev" >&2; exit 2 ;;
esac
RUNS="${1:-5}"; shift || true
SIZES=("$@"); [ ${#SIZES[@]} -gt 0 ] || SIZES=(100 1000 1250 2500 5000 10000 20000)

if [ ! -x /usr/bin/time ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq time >/dev/null
fi
# Built once with cargo's own diagnostics on stderr (the JSON call below only reads the
# path; a compile error there would be swallowed by the filter).
cargo build -q $PROFILE_FLAG -p abi-codegen --example scale
# The example's path as cargo reports it (not the uplifted target/<dir>/examples/scale,
# which a debug build did not always leave there).
BIN=$(cargo build -q $PROFILE_FLAG -p abi-codegen --example scale --message-format=json \
  | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "scale" and "example" in m["target"]["kind"]:
        print(m["executable"])')
[ -x "$BIN" ] || { echo "scale.sh: cargo built no scale example" >&2; exit 1; }
cargo build -q $PROFILE_FLAG -p abi-codegen

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(rustc --version); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%7s %12s %12s %9s %8s %8s %8s %8s %8s %8s %10s %10s\n' \
  N whole_wall whole_cpu x_prev parse lower rust c python md out_MB peak_MiB
prev_n=""; prev_cpu=""
for n in "${SIZES[@]}"; do
  line=$(/usr/bin/time -v -o /tmp/scale-time.$$ "$BIN" "$n" "$RUNS")
  rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' /tmp/scale-time.$$)
  get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
  wall() { get "$1" | cut -d/ -f1; }
  cpu() { get "$1" | cut -d/ -f2; }
  whole_cpu=$(cpu whole_ms)
  ratio="-"
  if [ -n "$prev_n" ] && [ "$n" -eq $((prev_n * 2)) ]; then
    ratio=$(awk -v a="$whole_cpu" -v b="$prev_cpu" 'BEGIN{printf "%.2fx", a/b}')
  fi
  printf '%7s %10.1fms %10.1fms %9s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %10.1f %10.1f\n' \
    "$n" "$(wall whole_ms)" "$whole_cpu" "$ratio" "$(cpu parse_ms)" "$(cpu lower_ms)" \
    "$(cpu rust_ms)" "$(cpu c_ms)" "$(cpu python_ms)" "$(cpu markdown_ms)" \
    "$(awk -v b="$(get output_bytes)" 'BEGIN{print b/1e6}')" "$(awk -v k="$rss_kib" 'BEGIN{print k/1024}')"
  prev_n="$n"; prev_cpu="$whole_cpu"
done
rm -f /tmp/scale-time.$$
echo "(stage columns: CPU ms, shortest of $RUNS; x_prev: whole CPU time over the previous N's when N doubled; peak: max RSS of the process)"

CLI_N="${CLI_N:-10000}"
WORK="$(mktemp -d -t bridge-scale.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
"$BIN" "$CLI_N" --write-schema "$WORK/synth.toml"
for i in $(seq "$RUNS"); do
  rm -rf "$WORK/out" && mkdir "$WORK/out"
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/time.$i" \
    target/$PROFILE_DIR/abi-codegen generate --schema "$WORK/synth.toml" --out "$WORK/out" >/dev/null
done
col() { cat "$WORK"/time.* | awk "{print $1}" | sort -g; }
pick() { sed -n "$1p"; }
mid=$(( (RUNS + 1) / 2 ))
printf 'abi-codegen generate, %d structs, whole process (%d runs): wall shortest %.2f s, median %.2f s; CPU (user+sys) shortest %.2f s; max RSS median %.0f MiB\n' \
  "$CLI_N" "$RUNS" "$(col '$1' | pick 1)" "$(col '$1' | pick "$mid")" "$(col '$2+$3' | pick 1)" \
  "$(col '$4/1024' | pick "$mid")"

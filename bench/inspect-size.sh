#!/usr/bin/env bash
# `abi-codegen inspect` on inputs of any size (issue 16): whole-process peak RSS and wall time,
# measured by `/usr/bin/time -v` (GNU time: "Maximum resident set size", "Elapsed"), for
#   1. one ring_slot_header (64 bytes) at the end of a 1 GiB sparse file (`truncate -s 1G`,
#      so the file costs no disk and reading it costs only the page cache of zero pages);
#   2. the same record at --offset 0x1000 of that file (the issue's example);
#   3. /dev/zero with --count 1, under `timeout 3` (a hang shows as exit 124) and a 6 GiB
#      address-space cap (`ulimit -v`: a binary that reads to EOF aborts there, exit 134,
#      instead of eating the machine's memory).
# Each binary given is run RUNS times alternately with the others; the table shows the
# median time and the largest RSS. Goal: cases 1 and 2 at most 50 MB RSS and 0.1 s, case 3
# at once.
#
# Usage: bench/inspect-size.sh [RUNS] [CODEGEN...]
#   default: 5 runs of target/release/abi-codegen (built here). Give an older build (copied out
#   of target/ first) as well to compare, e.g. bench/inspect-size.sh 5 /tmp/codegen-before
#   target/release/abi-codegen.
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_PROFILE=dev builds and runs the debug binaries instead (the quick mode of .ci/run:
# it checks that the script works, never a time); the default is release.
case "${BENCH_PROFILE:-release}" in
  release) PROFILE_FLAG=--release; PROFILE_DIR=release ;;
  dev) PROFILE_FLAG=; PROFILE_DIR=debug ;;
  *) echo "BENCH_PROFILE must be release or dev" >&2; exit 2 ;;
esac
RUNS="${1:-5}"
shift || true
if [ $# -eq 0 ]; then
  cargo build -q $PROFILE_FLAG -p abi-codegen
  set -- target/$PROFILE_DIR/abi-codegen
fi
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 1; }
WORK="$(mktemp -d -t inspect-size.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
BIG="$WORK/1g.bin"
truncate -s 1G "$BIG"
END=$(( (1 << 30) - 64 ))

# One run, under a time limit: prints "seconds kilobytes exit-code".
measure() {
  local limit=$1 log="$WORK/time.log" code=0
  shift
  (ulimit -v $((6 << 20)); /usr/bin/time -v -o "$log" timeout "$limit" "$@" > /dev/null 2> "$WORK/stderr") || code=$?
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
  # Elapsed is [h:]m:ss.ss
  wall=$(echo "$wall" | awk -F: '{s=0; for (i=1;i<=NF;i++) s=s*60+$i; print s}')
  echo "$wall $rss $code"
}

printf '| case | binary | median s | max RSS MB | exit |\n| --- | --- | --- | --- | --- |\n'
for case in end offset devzero; do
  declare -A times=() rsss=() codes=()
  for ((r = 0; r < RUNS; r++)); do
    for bin in "$@"; do
      case $case in
        end) set_args=(20 "$bin" inspect ring_slot_header "$BIG" --offset "$END") ;;
        offset) set_args=(20 "$bin" inspect ring_slot_header "$BIG" --offset 0x1000) ;;
        devzero) set_args=(3 "$bin" inspect ring_slot_header /dev/zero --count 1) ;;
      esac
      read -r t k c < <(measure "${set_args[@]}")
      times[$bin]+="$t "
      rsss[$bin]+="$k "
      codes[$bin]=$c
    done
  done
  for bin in "$@"; do
    med=$(echo "${times[$bin]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    maxk=$(echo "${rsss[$bin]}" | tr ' ' '\n' | grep . | sort -n | tail -1)
    [ "$med" = 0 ] && med="< 0.01"  # GNU time's resolution
    printf '| %s | %s | %s | %.1f | %s |\n' "$case" "$bin" "$med" "$(awk -v k="$maxk" 'BEGIN {print k / 1024}')" "${codes[$bin]}"
  done
  unset times rsss codes
done

#!/usr/bin/env bash
# Peer: whole-process time of `abi-codegen generate` on the bridge schema (all four targets:
# Rust, C, Python, markdown) against cbindgen making one C header from generated/bridge.rs,
# which is what a user would otherwise pick for the C side. cbindgen is not a dependency of
# the project: this script takes the one on PATH (Debian's package), or installs it with
# `cargo install` into target/bench-tools (kept between runs). cbindgen gets a config that
# exports every struct of the bindings (by default it emits only the constants, as nothing
# `extern "C"` uses the types), so both
# write the whole ABI. Each run writes into an empty folder. Medians of RUNS runs, wall
# clock, measured around the process by Python's perf_counter. Goal: codegen at least 10x
# faster for all four targets than cbindgen for one.
#
# Usage: bench/peer.sh [RUNS]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
# BENCH_PROFILE=dev builds and runs the debug binaries instead (the quick mode of .ci/run:
# it checks that the script works, never a time); the default is release.
case "${BENCH_PROFILE:-release}" in
  release) PROFILE_FLAG=--release; PROFILE_DIR=release ;;
  dev) PROFILE_FLAG=; PROFILE_DIR=debug ;;
  *) echo "BENCH_PROFILE must be release or dev" >&2; exit 2 ;;
esac
RUNS="${1:-30}"
TOOLS="$PWD/target/bench-tools"
if command -v cbindgen >/dev/null 2>&1; then
  CBINDGEN="$(command -v cbindgen)"   # Debian's package (.ci/run installs it)
else
  [ -x "$TOOLS/bin/cbindgen" ] || cargo install --locked --root "$TOOLS" cbindgen
  CBINDGEN="$TOOLS/bin/cbindgen"
fi
cargo build -q $PROFILE_FLAG -p abi-codegen
WORK="$(mktemp -d -t bridge-peer.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
{
  echo 'language = "C"'
  echo '[export]'
  printf 'include = ['
  grep -o '^pub struct [A-Za-z0-9_]*' generated/bridge.rs | awk '{printf "\"%s\", ", $3}'
  echo ']'
} > "$WORK/cbindgen.toml"

PROFILE_DIR=$PROFILE_DIR python3 - "$RUNS" "$PWD" "$WORK" "$CBINDGEN" <<'PY'
import os, platform, shutil, statistics, subprocess, sys, time
runs, repo, work, cbindgen = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
codegen = os.path.join(repo, "target", os.environ["PROFILE_DIR"], "abi-codegen")

def run(make_cmd):
    times = []
    for i in range(runs + 2):  # two warm-up runs
        out = os.path.join(work, f"out{i}")
        os.mkdir(out)
        cmd = make_cmd(out)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=repo)
        t1 = time.perf_counter()
        if i >= 2:
            times.append(t1 - t0)
        shutil.rmtree(out)
    return statistics.median(times), min(times)

gen = run(lambda out: [codegen, "generate", "--schema", "schema.toml", "--out", out])
cb = run(lambda out: [cbindgen, "--config", os.path.join(work, "cbindgen.toml"),
                      "generated/bridge.rs", "-o", os.path.join(out, "bridge.h")])
version = subprocess.run([cbindgen, "--version"], capture_output=True, text=True).stdout.strip()
print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}; "
      f"load {os.getloadavg()[0]:.2f}; {version}; median (min) of {runs} runs")
print(f"abi-codegen generate, 4 targets: {gen[0]*1e3:7.2f} ms ({gen[1]*1e3:.2f})")
print(f"cbindgen, 1 C header:        {cb[0]*1e3:7.2f} ms ({cb[1]*1e3:.2f})")
print(f"cbindgen / codegen: {cb[0]/gen[0]:.1f}x median, {cb[1]/gen[1]:.1f}x min (goal >= 10x)")
PY

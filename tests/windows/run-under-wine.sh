#!/usr/bin/env bash
# Runs a Windows program under wine: `run-under-wine.sh PROGRAM.exe ARGS...`. Cargo's runner
# for x86_64-pc-windows-gnu in the Windows tests (CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER),
# and what tests/windows.rs starts every .exe with.
#
# Test-only help for wine 8, never shipped: it builds processprng.c (a ProcessPrng export,
# which Rust's std imports from bcryptprimitives.dll and wine 8 lacks) with mingw-w64 and puts
# it next to the program as bcryptprimitives.dll. Wine runs headless and quiet, in its own
# prefix (WINEPREFIX, default: a directory under the temp dir, made on first use, ~10 s).
# A missing wine or mingw-w64 is an error naming the package, never a skip.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: run-under-wine.sh PROGRAM.exe ARGS..." >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
exe="$1"
shift
wine=""
for candidate in wine64 wine /usr/lib/wine/wine64; do
  if command -v "$candidate" >/dev/null 2>&1; then wine="$(command -v "$candidate")"; break; fi
done
[ -n "$wine" ] || { echo "run-under-wine.sh: no wine64 (apt-get install wine64; .ci/setup does)" >&2; exit 127; }
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 \
  || { echo "run-under-wine.sh: no x86_64-w64-mingw32-gcc (apt-get install gcc-mingw-w64-x86-64; .ci/setup does)" >&2; exit 127; }
shim="$(dirname "$exe")/bcryptprimitives.dll"
if [ ! -f "$shim" ] || [ "$here/processprng.c" -nt "$shim" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -Wall -Wextra -Werror -o "$shim.$$" "$here/processprng.c" -ladvapi32
  mv -f "$shim.$$" "$shim"
fi
export WINEDEBUG="${WINEDEBUG:--all}"
# No Mono or Gecko install prompts on the prefix's first start; no display needed.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
export WINEPREFIX="${WINEPREFIX:-${TMPDIR:-/tmp}/abi-codegen-wine-$(id -u)}"
# A new prefix is made once, before any program runs, and waited for: made on a program's
# first start instead, its update restarts the wine server under that program ("wine client
# error: recvmsg: Connection reset by peer"), which failed a CI run's first Windows test.
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  wineserver=""
  for candidate in wineserver64 wineserver /usr/lib/wine/wineserver64 /usr/lib/wine/wineserver; do
    if command -v "$candidate" >/dev/null 2>&1; then wineserver="$(command -v "$candidate")"; break; fi
  done
  mkdir -p "$(dirname "$WINEPREFIX")"
  (
    flock 9
    if [ ! -f "$WINEPREFIX/system.reg" ]; then
      "$wine" wineboot --init >/dev/null 2>&1 || true
      [ -z "$wineserver" ] || "$wineserver" -w
    fi
  ) 9>"$WINEPREFIX.lock"
fi
exec "$wine" "$exe" "$@"

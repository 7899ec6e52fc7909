#!/usr/bin/env bash
# Runs a program as one of the test users of README "Who may attach", for the tests that
# need a second user (runtime/tests/who_may_attach.rs, codegen/tests/inspect_live.rs):
#
#   run-as.sh WHO [VAR=VALUE...] PROGRAM ARGS...
#
#   host       the user abi-host, with its groups (abi-host, abi-bridge): a bridge's creator
#   peer       the user abi-peer, with its groups (abi-peer, abi-bridge): a client
#   stranger   abi-peer without its supplementary groups: a client outside abi-bridge
#
# The group and the users are made on first use (groupadd, useradd, usermod; idempotent, under
# a lock, so parallel tests and a machine where they exist are fine). Root is needed for that
# and for setpriv: as another user this re-runs itself through `sudo -n`. PROGRAM, when it is
# a path, is copied into a fresh folder the user can read (a checkout under /root is not
# readable by others) and run from there; it gets only PATH, HOME and the VAR=VALUE pairs as
# its environment. Exits with PROGRAM's status. No root, no sudo or a missing tool (useradd
# and usermod from `passwd`, setpriv from `util-linux`; .ci/setup checks them) is an error
# naming it (exit 126 or 127), never a skip.
set -euo pipefail
usage() { echo "usage: run-as.sh host|peer|stranger [VAR=VALUE...] PROGRAM ARGS..." >&2; exit 2; }
[ $# -ge 2 ] || usage

if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
    echo "run-as.sh: making and becoming the test users needs root or passwordless sudo (CI runs as root)" >&2
    exit 126
  fi
  exec sudo -n -- "$0" "$@"
fi
for tool in getent groupadd useradd usermod setpriv flock; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "run-as.sh: no $tool (apt-get install passwd util-linux; .ci/setup does)" >&2
    exit 127
  }
done

case "$1" in
  host) user=abi-host; groups=--init-groups ;;
  peer) user=abi-peer; groups=--init-groups ;;
  stranger) user=abi-peer; groups=--clear-groups ;;
  *) usage ;;
esac
shift

(
  flock 9
  getent group abi-bridge >/dev/null || groupadd abi-bridge
  for name in abi-host abi-peer; do
    id -u "$name" >/dev/null 2>&1 \
      || useradd --user-group --groups abi-bridge --no-create-home --home-dir /nonexistent \
           --shell /usr/sbin/nologin "$name"
    id -nG "$name" | tr ' ' '\n' | grep -qx abi-bridge || usermod --append --groups abi-bridge "$name"
  done
) 9>"${TMPDIR:-/tmp}/abi-codegen-run-as.lock"

vars=()
while [ $# -gt 0 ] && [[ "$1" == *=* ]]; do
  vars+=("$1")
  shift
done
[ $# -ge 1 ] || usage
program="$1"
shift

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
if [[ "$program" == */* ]]; then
  cp "$program" "$dir/"
  program="$dir/$(basename "$program")"
  chmod 755 "$program"
fi
cd "$dir"
status=0
setpriv --reuid="$user" --regid="$user" "$groups" -- \
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$dir" "${vars[@]}" "$program" "$@" || status=$?
exit "$status"

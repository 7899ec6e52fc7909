#!/usr/bin/env bash
# Prints the `run: |` block of the step named STEP in a workflow or action file, dedented:
# the commands GitHub runs for that step, so that the tests run exactly what the file says.
#
# usage: step-commands.sh FILE STEP
# Exits 4 when the file has no such step or the step has no `run: |` block.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 FILE STEP" >&2
  exit 4
fi
commands=$(awk -v name="$2" '
  function indent(s) { match(s, /^ */); return RLENGTH }
  $0 ~ "- name: " name "$" { in_step = 1; step_indent = indent($0); next }
  in_step && /^ *- / && indent($0) <= step_indent { in_step = 0 }
  in_step && /^ *run: \|/ { in_run = 1; run_indent = indent($0); next }
  in_run {
    if ($0 ~ /^ *$/) { print ""; next }
    if (indent($0) <= run_indent) { exit }
    print substr($0, run_indent + 3)
  }
' "$1")
if [ -z "$commands" ]; then
  echo "no \`run: |\` block in the step \"$2\" of $1" >&2
  exit 4
fi
printf '%s\n' "$commands"

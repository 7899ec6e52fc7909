#!/usr/bin/env bash
# Runs the "ABI diff against the base" step of .github/workflows/abi.yml locally, as GitHub
# would on a pull request: a scratch git repository with a base commit (BASE_SCHEMA as
# schema.toml) and a head commit (HEAD_SCHEMA), the generator at target/debug/abi-codegen,
# BASE_SHA and GITHUB_STEP_SUMMARY set, and the step's `run:` block taken from the workflow
# file itself (so the two cannot drift) and run with GitHub's shell, bash -eo pipefail.
# Then it checks what a reviewer sees: the job summary holds the markdown report, stdout
# holds at most 10 annotations, the first being the verdict on schema.toml's version line.
#
# usage: abi-diff-step.sh ABI_CODEGEN BASE_SCHEMA HEAD_SCHEMA WORKDIR
# Writes WORKDIR/annotations.txt, WORKDIR/summary.md and WORKDIR/step-exit (the step's exit
# code: 0 when the policy holds, 1 when not). Exits 0 when every check passes, 3 when one
# fails, 4 on a setup problem (a missing tool fails loudly, never skips).
set -euo pipefail

if [ $# -ne 4 ]; then
  echo "usage: $0 ABI_CODEGEN BASE_SCHEMA HEAD_SCHEMA WORKDIR" >&2
  exit 4
fi
bin=$(realpath "$1"); base_schema=$(realpath "$2"); head_schema=$(realpath "$3"); work=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
workflow=$root/.github/workflows/abi.yml
step_name="ABI diff against the base"

command -v git >/dev/null || { echo "this test needs git on PATH (Debian: apt-get install git)" >&2; exit 4; }
[ -x "$bin" ] || { echo "no generator at $bin" >&2; exit 4; }

# The step's run block, as the workflow file writes it.
commands=$(bash "$root/tests/workflow/step-commands.sh" "$workflow" "$step_name") || exit 4

rm -rf "$work"
mkdir -p "$work/repo/target/debug"
repo=$work/repo
git_() {
  GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid \
  GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid \
  GIT_CONFIG_NOSYSTEM=1 HOME=$work git -C "$repo" "$@"
}
git_ init --quiet
echo "target/" > "$repo/.gitignore"
cp "$base_schema" "$repo/schema.toml"
git_ add .gitignore schema.toml
git_ commit --quiet -m base
base_sha=$(git_ rev-parse HEAD)
cp "$head_schema" "$repo/schema.toml"
git_ commit --quiet -am head
ln -s "$bin" "$repo/target/debug/abi-codegen"

summary=$work/summary.md
: > "$summary"
set +e
(
  cd "$repo"
  BASE_SHA=$base_sha GITHUB_STEP_SUMMARY=$summary HOME=$work \
    bash --noprofile --norc -eo pipefail -c "$commands"
) > "$work/annotations.txt" 2> "$work/stderr.txt"
step_exit=$?
set -e
echo "$step_exit" > "$work/step-exit"
echo "step: $commands"
echo "step exit: $step_exit"

fail() { echo "FAILED: $*" >&2; cat "$work/stderr.txt" >&2; exit 3; }
[ "$step_exit" -le 1 ] || fail "the step exited $step_exit (2: unreadable input)"
count=$(grep -c '' "$work/annotations.txt" || true)
[ "$count" -ge 1 ] || fail "no annotations"
[ "$count" -le 10 ] || fail "$count annotations; GitHub shows about 10"
if grep -v '^::\(error\|warning\|notice\) file=' "$work/annotations.txt" >/dev/null; then
  fail "stdout has lines that are not annotations"
fi
version_line=$(grep -n '^version = ' "$repo/schema.toml" | head -1 | cut -d: -f1)
first=$(head -1 "$work/annotations.txt")
case "$first" in
  "::error file=schema.toml,line=$version_line,"*"title=ABI version policy violated::"*) verdict=violated ;;
  "::notice file=schema.toml,line=$version_line,"*"title=ABI version policy holds::"*) verdict=holds ;;
  *) fail "the first annotation is not the verdict on line $version_line: $first" ;;
esac
if [ "$verdict" = holds ] && [ "$step_exit" -ne 0 ]; then fail "the policy holds but the step failed"; fi
if [ "$verdict" = violated ] && [ "$step_exit" -ne 1 ]; then fail "the policy is violated but the step passed"; fi
head -1 "$summary" | grep -qx '<!-- abi-codegen diff -->' || fail "the job summary has no markdown report"
echo "annotations: $count, verdict: $verdict"

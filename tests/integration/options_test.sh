#!/usr/bin/env bash
# The one option table from the outside: `iomark run` and `iomark-agent run-local` refuse the
# same bad values with the same message before anything starts (no result file appears),
# `iomark-agent engines` reports every engine, `--json -` puts the JSON alone on standard
# output, and `iomark-gui --help`/`--version` work with no display at all.
# usage: options_test.sh IOMARK IOMARK_AGENT [IOMARK_GUI]
set -uo pipefail
iomark=$1 agent=$2 gui=${3:-}
source "$(dirname "$0")/harness.sh"
cd "$work" || exit 1  # harness.sh made $work/data

# refused ARGS...: runs both front ends with ARGS; both must exit 2 with one message.
refused() {
  "$iomark" run --target "$work/data" "$@" >run.out 2>run.err
  local run_status=$?
  "$agent" run-local --target "$work/data" "$@" >local.out 2>local.err
  local local_status=$?
  check "iomark run $*: exit 2 (got $run_status)" test "$run_status" -eq 2
  check "run-local $*: exit 2 (got $local_status)" test "$local_status" -eq 2
  check "$*: the same message from both ($(head -1 run.err))" cmp -s run.err local.err
}
refused --engine bogus
check "... naming the engine" grep -q "unknown engine 'bogus'" run.err
refused --qd 32769
check "... naming the limit of the field descriptor" grep -q '1\.\.32768' run.err
refused --time 0
refused --workers 1025
refused --size x
check "... naming --size" grep -q -- "--size" run.err
refused --spec "No Such Spec"
# Checked across flags once parsed: both programs say it, each under its own name.
"$iomark" run --target "$work/data" --verify-journal "$work/journal" >run.out 2>run.err
status=$?
check "iomark run --verify-journal without --verify: exit 2 (got $status)" test "$status" -eq 2
check "... naming the flag" grep -q "^iomark: --verify-journal: names the journal of one target verified" run.err
"$agent" run-local --target "$work/data" --verify-journal "$work/journal" >local.out 2>local.err
status=$?
check "run-local --verify-journal without --verify: exit 2 (got $status)" test "$status" -eq 2
check "... naming the flag" grep -q "^iomark-agent: --verify-journal: names the journal of one target verified" local.err
"$agent" run-local --target "$work/data" --cpus 3abc >local.out 2>local.err
status=$?
check "run-local --cpus 3abc: exit 2 (got $status)" test "$status" -eq 2
"$agent" run-local --target "$work/data" --cpus -1 >local.out 2>local.err
status=$?
check "run-local --cpus -1: exit 2, not a wrapped CPU number (got $status)" test "$status" -eq 2
check "nothing started: no results.csv, no iobw.tst" test ! -e results.csv -a ! -e data/iobw.tst

"$agent" engines >engines.out 2>engines.err
status=$?
check "engines: exit 0 (got $status)" test "$status" -eq 0
for engine in io_uring linux-aio threadpool sync null; do
  check "engines lists $engine as working or says why not" \
    grep -Eq "^$engine +(works|unavailable +[^ ].*)( +no I/O.*)?$" engines.out
done

# is_json_alone FILE: the whole file is one JSON results document, nothing before or after.
is_json_alone() {
  [[ $(head -c 1 "$1") == "{" && $(tail -c 2 "$1" | head -c 1) == "}" ]] &&
    grep -q '"format": "iomark-results"' "$1" && grep -q '"outcome"' "$1"
}
"$agent" run-local --target "$work/data" --size 4M --time 1 --engine null --json - >local.json 2>local.log
status=$?
check "run-local --json -: exit 0 (got $status)" test "$status" -eq 0
check "run-local --json -: standard output is the JSON alone" is_json_alone local.json
check "... the summary went to standard error" grep -q '^ALL ' local.log
"$iomark" run --target "$work/data" --size 4M --time 1 --engine null --results "" --json - >run.json 2>run.log
status=$?
check "iomark run --json -: exit 0 (got $status)" test "$status" -eq 0
check "iomark run --json -: standard output is the JSON alone" is_json_alone run.json
check "... the summary went to standard error" grep -q 'samples:' run.log
check "... no temporary file left behind" test -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'iomark-json-*' -newer local.json 2>/dev/null)"

# The bash completion each program prints offers its flags (bash-completion supplies the
# helpers it calls; without it only the script's syntax is checked).
"$iomark" completion >iomark.bash && "$agent" completion >agent.bash
check "iomark's completion script is valid bash" bash -n iomark.bash
check "iomark-agent's completion script is valid bash" bash -n agent.bash
# complete SCRIPT FUNCTION WORDS...: what the completion offers for the last word.
complete_words() {
  local script=$1 function=$2
  shift 2
  bash -c 'source /usr/share/bash-completion/bash_completion; source "$1"; shift; function=$1; shift
           COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
           "$function"; printf "%s\n" "${COMPREPLY[@]}"' completion "$script" "$function" "$@"
}
if [[ -r /usr/share/bash-completion/bash_completion ]]; then
  check "iomark run --eng completes to --engine" grep -qx -- --engine <(complete_words iomark.bash _iomark iomark run --eng)
  check "iomark run --engine i completes to io_uring" \
    grep -qx io_uring <(complete_words iomark.bash _iomark iomark run --engine i)
  check "iomark-agent run-local --q completes to --qd" \
    grep -qx -- --qd <(complete_words agent.bash _iomark_agent iomark-agent run-local --q)
  check "iomark-agent e completes to engines" grep -qx engines <(complete_words agent.bash _iomark_agent iomark-agent e)
else
  echo "skipped: completing words needs /usr/share/bash-completion/bash_completion (bash-completion)"
fi

if [[ -n $gui ]]; then
  for flag in --help --version; do
    env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$gui" "$flag" >"gui$flag.out" 2>"gui$flag.err"
    status=$?
    check "iomark-gui $flag without a display: exit 0 (got $status)" test "$status" -eq 0
    check "... and says nothing about a display" test ! -s "gui$flag.err"
  done
  for flag in --tls-cert --tls-key --tls-ca --key-file --insecure; do
    check "iomark-gui --help lists $flag" grep -q -- "$flag" gui--help.out
  done
  check "iomark-gui --version names it" grep -q '^iomark-gui ' gui--version.out
  # Qt's own options stay Qt's; an unknown flag of ours is a usage error, before any window.
  env -u DISPLAY -u WAYLAND_DISPLAY "$gui" -platform offscreen -style Fusion --version >/dev/null 2>&1
  status=$?
  check "iomark-gui -platform offscreen -style Fusion --version: exit 0 (got $status)" test "$status" -eq 0
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$gui" --tls-kee x >/dev/null 2>&1
  status=$?
  check "iomark-gui --tls-kee (misspelt): exit 2 (got $status)" test "$status" -eq 2
  env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$gui" --tls-cert "$work/none.crt" >/dev/null 2>gui-tls.err
  status=$?
  check "iomark-gui with half the TLS flags: exit 3, no plain-TCP fallback (got $status)" test "$status" -eq 3
  check "... naming the missing flags" grep -q -- '--tls-key' gui-tls.err
fi

finish "option table"

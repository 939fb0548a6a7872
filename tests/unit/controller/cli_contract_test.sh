#!/usr/bin/env bash
# Pins what scripts rely on: exit codes (0 ok, 2 usage, 3 bad input), "FILE:LINE: message"
# on stderr, and that every file of tests/data (and of the corpus, where it exists) can be
# shown and converted.
# usage: cli_contract_test.sh IOMARK DATA_DIR CORPUS_DIR SAMPLES_DIR
set -uo pipefail
iomark=$1 data=$2 corpus=$3 samples=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

expect() {  # expect NAME WANTED_EXIT [STDERR_PATTERN] -- COMMAND...
  local name=$1 wanted=$2 pattern=""
  shift 2
  if [[ $1 != -- ]]; then pattern=$1; shift; fi
  shift
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  if [[ $got != "$wanted" ]]; then
    echo "FAIL $name: exit $got, wanted $wanted"; sed 's/^/  stderr: /' "$work/err" | head -5
    failed=$((failed + 1)); return
  fi
  if [[ -n $pattern ]] && ! grep -Eq -- "$pattern" "$work/err" "$work/out"; then
    echo "FAIL $name: output does not match /$pattern/"; sed 's/^/  /' "$work/err" | head -5
    failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

expect version 0 "iomark [0-9]" -- "$iomark" --version
expect no-verb 2 -- "$iomark"
expect unknown-verb 2 -- "$iomark" frobnicate
expect missing-file-argument 2 -- "$iomark" icf show
expect unreadable-file 3 "^iomark: $work/missing.icf: cannot open" -- "$iomark" icf show "$work/missing.icf"

printf 'Version 1.1.0 \n'"'"'TEST SETUP ====\n'"'"'Run Time\n'"'"'\thours\n\tzero one two\n' >"$work/bad.icf"
expect malformed-icf 3 "^iomark: $work/bad.icf:[0-9]+: " -- "$iomark" icf show "$work/bad.icf"
head -c 4096 /dev/urandom >"$work/garbage.icf"
expect garbage-icf 3 "^iomark: $work/garbage.icf:[0-9]+: " -- "$iomark" icf show "$work/garbage.icf"

expect specs-list 0 "Database" -- "$iomark" specs list
expect specs-show 0 "8 KiB" -- "$iomark" specs show database
expect specs-show-unknown 3 "no built-in access specification" -- "$iomark" specs show "No Such Spec"

expect sample-show 0 "CYCLE_OUTSTANDING_IOS" -- "$iomark" icf show "$samples/database-qd-cycle.icf"

shopt -s nullglob
show_and_convert() {  # show_and_convert FILE.icf
  local file=$1 name
  name=$(basename "$file")
  expect "show $name" 0 -- "$iomark" icf show "$file"
  expect "convert $name" 0 -- "$iomark" icf convert "$file" -o "$work/$name.icf"
  if [[ "$(head -n1 "$work/$name.icf")" != "Version 1.1.0 " ]]; then
    echo "FAIL convert $name: first line is not 'Version 1.1.0 '"; failed=$((failed + 1))
  fi
  expect "show converted $name" 0 -- "$iomark" icf show "$work/$name.icf"
}

# The project's own fixtures: always there.
own_plans=("$data"/icf/ok_*.icf)
own_results=("$data"/results/*.csv)
if ((${#own_plans[@]} == 0 || ${#own_results[@]} == 0)); then
  echo "FAIL data: no ok_*.icf in $data/icf or no .csv in $data/results"; failed=$((failed + 1))
fi
for file in "${own_plans[@]}"; do show_and_convert "$file"; done
for file in "${own_results[@]}"; do
  expect "results show $(basename "$file")" 0 -- "$iomark" results show "$file"
done

# A plan written on a Windows host runs unedited once --map-target renames its drive; an OLD
# that matches no target is bad input naming the plan's targets; without a mapping the
# unresolvable target is named with the hint.
windows_plan=$data/icf/ok_110_windows_plan.icf
drive='2: "( SmartModular SYNTHETIC 0001"'
mkdir "$work/mapped"
expect map-target-runs 0 "runs as '$work/mapped' \(--map-target, 1 worker\)" -- \
  "$iomark" run "$windows_plan" --map-target "$drive=$work/mapped" --time 1 --ramp 0 --size 4M --engine null \
  --results "$work/mapped.csv"
expect map-target-unknown 3 "no target 'D: NTFS' \(its targets: '2: \"\( SmartModular" -- \
  "$iomark" run "$windows_plan" --map-target "D: NTFS=$work/mapped"
expect map-target-malformed 3 "is not \[MANAGER:\]OLD=NEW" -- "$iomark" run "$windows_plan" --map-target "$drive"
expect map-target-needs-plan 3 "name a PLAN.icf" -- "$iomark" run --target "$work/mapped" --map-target "a=b"
expect unmapped-windows-target 3 "--map-target 'OLD=NEW'" -- "$iomark" run "$windows_plan" --time 1

# Alike import warnings collapse into one line with their count and first line.
{
  printf "Version 1.1.0 \n'ACCESS SPECIFICATIONS ===\n"
  for i in 1 2 3; do
    printf "'Access specification name,default assignment\n\tspec %d,NONE\n" "$i"
    printf "'size,%% of size,%% reads,%% random,delay,burst,align,reply\n\t4096,100,0,0,0,1,0,0\n\t0,0,0,0,0,0,0,0\n"
  done
  printf "'END access specifications\nVersion 1.1.0 \n"
} >"$work/placeholders.icf"
expect warnings-collapse 0 "^$work/placeholders.icf:7: warning: placeholder line .* in 'spec 1' dropped \(3 alike, lines 7 to 17\)$" -- \
  "$iomark" icf show "$work/placeholders.icf"
if [[ $(grep -c "warning:" "$work/err") != 1 ]]; then
  echo "FAIL warnings-collapse: $(grep -c "warning:" "$work/err") warning lines, wanted 1"; failed=$((failed + 1))
fi

# The real-world corpus beside the checkout, where there is one.
if [[ -d $corpus ]]; then
  corpus_files=("$corpus"/*.icf "$corpus"/*.conf)
  if ((${#corpus_files[@]} == 0)); then echo "FAIL corpus: no .icf/.conf files in $corpus"; failed=$((failed + 1)); fi
  for file in "${corpus_files[@]}"; do show_and_convert "$file"; done
  for file in "$corpus"/*.csv; do
    expect "results show $(basename "$file")" 0 -- "$iomark" results show "$file"
  done
else
  echo "cli_contract: skipping the corpus files: $corpus does not exist (no ../shared/icf-corpus beside the checkout)"
fi

echo "cli_contract: $passed passed, $failed failed"
((failed == 0))

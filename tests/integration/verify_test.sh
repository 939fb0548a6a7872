#!/usr/bin/env bash
# --verify end to end with iomark-agent run-local and iomark run:
# - a lying device: the fault engines fault-flip, fault-shift and fault-drop acknowledge chosen
#   writes and persist them wrong; a later --verify read run (a new process, so through the
#   journal) finds each, names its kind and byte offset in the console and the JSON, counts it
#   in results.csv's error columns and exits 1; the named block is checked on the file itself;
# - an agent killed with writes in flight: the next --verify run finds nothing wrong (the
#   journal loses at most the writes in flight) and says how many blocks it stopped judging;
# - a clean run finds nothing over >= 10^6 verified block reads across the engines sync,
#   linux-aio, io_uring and threadpool, QD 1..64 and 1..4 workers sharing the target: on a
#   zram device this test makes (root), else on a temporary file through the page cache.
# usage: verify_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

block=4096
# header_field FILE OFFSET FIELD_OFFSET BYTES: an unsigned little-endian field of a block's header.
header_field() { od -An -tu"$4" -j $(($2 + $3)) -N "$4" "$1" | tr -d ' '; }
magic_of() { od -An -c -j "$2" -N 4 "$1" | tr -d ' '; }

# ---- a lying device ---------------------------------------------------------------------
for lie in flip shift drop; do
  target=$work/$lie.bin
  truncate -s 16M "$target"
  # Writes only, random: every 50th write after the first 20 is a lie.
  "$agent" run-local -q --target "$target" --spec-line 4096,100,0,100,0,1,4096,0 --qd 4 --time 1 --verify \
    --engine "fault-$lie-after-20-every-50" --buffered-io >"$work/$lie-write.out" 2>&1
  status=$?
  check "$lie: the writing run read nothing back, so it finds nothing (status $status)" test "$status" -eq 0
  check "$lie: the journal sits next to the target" test -s "$target.iomark-journal"
  # Reads only, sequential over the whole target: every written block is judged.
  "$agent" run-local --target "$target" --spec-line 4096,100,100,0,0,1,4096,0 --qd 2 --time 2 --verify \
    --engine sync --buffered-io --json "$work/$lie.json" --results "$work/$lie.csv" >"$work/$lie-read.out" 2>&1
  status=$?
  check "$lie: the checking run fails (status $status)" test "$status" -eq 1
  # A shifted write leaves two bad blocks: the one it landed on (misdirected) and the one it
  # was meant for (stale, the lost write).
  case $lie in flip) kind=corrupted also= ;; shift) kind=misdirected also=stale ;; drop) kind=stale also= ;; esac
  line=$(grep -m1 -E "^  $kind at byte [0-9]+" "$work/$lie-read.out")
  offset=$(sed -E 's/.* at byte ([0-9]+).*/\1/' <<<"$line")
  measured "$lie: $line"
  check "$lie: the console names a $kind block with its offset" test -n "$offset"
  check "$lie: only $kind${also:+ and $also} blocks are reported" \
    test "$(grep -cE '^  (corrupted|misdirected|stale) at byte' "$work/$lie-read.out")" = \
    "$(grep -cE "^  ($kind${also:+|$also}) at byte" "$work/$lie-read.out")"
  check "$lie: the count line says it" grep -Eq "[1-9][0-9]* bad: .*[1-9][0-9]* $kind" "$work/$lie-read.out"
  check "$lie: JSON lists the finding with its offset" grep -q "\"offset_bytes\": $offset" "$work/$lie.json"
  check "$lie: results.csv counts read errors (ALL row, column 29)" \
    test "$(awk -F, '$1 == "ALL" {print ($29 > 0)}' "$work/$lie.csv")" = 1
  [[ -n $offset ]] || continue
  check "$lie: the offset is a block boundary" test $((offset % block)) -eq 0
  case $lie in
    flip) check "flip: the named block carries its own header (only its payload is damaged)" \
      test "$(header_field "$target" "$offset" 16 8)" = "$offset" ;;
    shift) check "shift: the named block carries the header of the block above it" \
      test "$(header_field "$target" "$offset" 16 8)" = $((offset + block)) ;;
    drop)
      # Never written before the lost write (no header), or carrying an older generation.
      expected=$(sed -E 's/.*expected generation ([0-9]+).*/\1/' <<<"$line")
      on_file=0
      [[ $(magic_of "$target" "$offset") == IOMV ]] && on_file=$(header_field "$target" "$offset" 12 4)
      check "drop: the named block holds generation $on_file on the file, older than $expected" \
        test "$on_file" -lt "$expected" ;;
  esac
done

# ---- iomark run: --verify goes to the (embedded) agent and the findings come back ---------
# The embedded agent speaks the same frames as a remote one.
target=$work/series.bin
truncate -s 16M "$target"
"$iomark" run --target "$target" --spec-line 4096,100,0,100,0,1,4096,0 --qd 4 --time 1 --verify \
  --engine fault-drop-after-20-every-50 --buffered-io --results "" >"$work/series-write.out" 2>&1
status=$?
check "iomark run: the writing series finds nothing (status $status)" test "$status" -eq 0
"$iomark" run --target "$target" --spec-line 4096,100,100,0,0,1,4096,0 --qd 2 --time 2 --verify --engine sync \
  --buffered-io --results "$work/series.csv" --json "$work/series.json" >"$work/series-read.out" 2>&1
status=$?
measured "iomark run: $(grep -m1 -E 'stale at byte' "$work/series-read.out")"
check "iomark run: the checking series fails (status $status)" test "$status" -eq 1
check "iomark run: the console names stale blocks with their offsets" grep -Eq "stale at byte [0-9]+" "$work/series-read.out"
check "iomark run: JSON carries the report" grep -Eq '"stale": [1-9]' "$work/series.json"
check "iomark run: results.csv counts read errors (ALL row, column 29)" \
  test "$(awk -F, '$1 == "ALL" {print ($29 > 0)}' "$work/series.csv")" = 1

# ---- a run without --verify that writes makes the journal beside its target wrong ----------
target=$work/drop.bin
"$agent" run-local --target "$target" --spec-line 4096,100,0,100,0,1,4096,0 --qd 1 --time 1 --buffered-io \
  >"$work/plain.out" 2>&1
status=$?
check "plain run: exit 0 (status $status)" test "$status" -eq 0
check "plain run: it removed the journal beside the target" test ! -e "$target.iomark-journal"
check "plain run: and said so" grep -q "removed $target.iomark-journal" "$work/plain.out"

# ---- an agent killed with writes in flight ----------------------------------------------
target=$work/killed.bin
truncate -s 16M "$target"
"$agent" run-local -q --target "$target" --spec-line 4096,100,0,100,0,1,4096,0 --qd 32 --time 30 --verify \
  --engine linux-aio --buffered-io >"$work/killed-write.out" 2>&1 &
writer=$!
pids+=("$writer")
sleep 1.5
kill -KILL "$writer"
wait "$writer" 2>/dev/null
"$agent" run-local --target "$target" --spec-line 4096,100,100,0,0,1,4096,0 --qd 4 --time 2 --verify \
  --engine sync --buffered-io >"$work/killed-read.out" 2>&1
status=$?
measured "killed: $(grep -m1 'journal' "$work/killed-read.out")"
check "killed: the next run finds no bad block (status $status)" test "$status" -eq 0
check "killed: it says the journal was not closed cleanly" grep -q "not closed cleanly" "$work/killed-read.out"
check "killed: it judged blocks the killed run wrote" grep -Eq ": [1-9][0-9]* blocks checked" "$work/killed-read.out"

# ---- no false reports over 10^6 verified reads ------------------------------------------
zram=
cleanup_zram() {
  [[ -n $zram ]] || return 0
  echo 1 >"/sys/block/zram$zram/reset" 2>/dev/null
  echo "$zram" >/sys/class/zram-control/hot_remove 2>/dev/null
}
trap 'cleanup_zram; harness_cleanup' EXIT
caching=()
if ((EUID == 0)) && [[ -w /sys/class/zram-control/hot_add ]] && zram=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
  echo 64M >"/sys/block/zram$zram/disksize"
  target=/dev/zram$zram
  destructive=(--allow-destructive --verify-journal "$work/zram.journal")
  echo "clean matrix on $target (made by this test)"
else
  zram=
  echo "clean matrix on a temporary file through the page cache (no zram: needs root and /sys/class/zram-control)"
  target=$work/clean.bin
  truncate -s 64M "$target"
  destructive=(--buffered-io)
fi
# Every block written once, so that every later read is judged.
"$agent" run-local -q --target "$target" --spec-line 65536,100,0,0,0,1,65536,0 --qd 8 --time 1 --verify \
  --engine linux-aio "${destructive[@]}" >"$work/fill.out" 2>&1
check "clean: the fill run succeeds" test $? -eq 0
total=0
# engine:qd:workers — every engine, depths 1..64, 1..4 workers sharing the target; 2 s each,
# the whole list again while fewer than 10^6 reads were verified (a sanitizer build is slower),
# at most 4 times.
combos=(sync:1:1 sync:8:4 linux-aio:64:1 linux-aio:16:4 io_uring:32:2 io_uring:64:4 threadpool:4:3 threadpool:64:2)
for ((i = 0; i < 4 * ${#combos[@]}; i++)); do
  ((i % ${#combos[@]} == 0 && total >= 1000000)) && break
  IFS=: read -r engine qd workers <<<"${combos[i % ${#combos[@]}]}"
  "$agent" run-local -q --target "$target" --spec-line 4096,100,70,100,0,1,4096,0 --engine "$engine" --qd "$qd" \
    --workers "$workers" --time 2 --verify "${destructive[@]}" --json "$work/clean-$engine-$qd.json" \
    >"$work/clean-$engine-$qd.out" 2>&1
  status=$?
  checked=$(grep -Eo '"blocks_checked": [0-9]+' "$work/clean-$engine-$qd.json" | awk '{s += $2} END {print s + 0}')
  bad=$(grep -Eo '"(corrupted|misdirected|stale)": [0-9]+' "$work/clean-$engine-$qd.json" | awk '{s += $2} END {print s + 0}')
  redrawn=$(grep -Eo '"busy_redraws": [0-9]+' "$work/clean-$engine-$qd.json" | awk '{s += $2} END {print s + 0}')
  measured "clean $engine QD $qd x $workers workers: $checked blocks verified, $bad bad, $redrawn offsets redrawn"
  check "clean $engine QD $qd x $workers: exit 0 (status $status)" test "$status" -eq 0
  check "clean $engine QD $qd x $workers: no bad block" test "$bad" -eq 0
  check "clean $engine QD $qd x $workers: reads were verified" test "$checked" -gt 0
  total=$((total + checked))
done
measured "clean matrix: $total verified block reads, none bad"
check "clean: at least 10^6 verified reads over the matrix ($total)" test "$total" -ge 1000000

finish verify_test

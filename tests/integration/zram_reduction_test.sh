#!/usr/bin/env bash
# The data-reduction patterns measured against a device that reduces: each case
# hot-adds its own zram device (64 MiB), writes all of it with `iomark-agent run-local`
# (128 KiB sequential writes, so every page is written at least once in the run), reads
# /sys/block/zramN/mm_stat and removes the device again, even on failure.
#   MODE lz4 | lzo-rle: compress:1, 2 and 4 reach orig_data_size / compr_data_size within
#     +-10 %; repeating fills same_pages; compress:2 and 4 written to a file also come out
#     within +-10 % of the ratio from zstd and gzip at their default levels.
#   MODE dedupe: dedupe:2, dedupe:4/8k and compress:2,dedupe:3: dedupe_count hashes every
#     unit of the device after the full write; unique / total is within +-2 % of 1/D.
#   With lz4, compress:2 also goes through `iomark run` and an agent over TCP (the protocol
#   carries the pattern; results.csv names it in its iomark column).
# Root and /sys/class/zram-control needed; skipped with the reason otherwise.
# usage: zram_reduction_test.sh IOMARK IOMARK_AGENT DEDUPE_COUNT MODE
iomark=$1 agent=$2 dedupe_count=$3 mode=$4
if ((EUID != 0)) || [[ ! -w /sys/class/zram-control/hot_add ]]; then
  echo "zram_reduction: skipped: needs root and /sys/class/zram-control (modprobe zram) to make zram devices"
  exit 77
fi
source "$(dirname "$0")/harness.sh"

zram_size=$((64 << 20))
zram_index=
trap 'remove_zram; harness_cleanup' EXIT
remove_zram() {
  [[ -n $zram_index ]] || return 0
  echo "$zram_index" >/sys/class/zram-control/hot_remove 2>/dev/null ||
    { echo 1 >"/sys/block/zram$zram_index/reset" && echo "$zram_index" >/sys/class/zram-control/hot_remove; }
  zram_index=
}
# new_zram ALGORITHM: a fresh 64 MiB zram device; sets zram_index and device.
new_zram() {
  zram_index=$(cat /sys/class/zram-control/hot_add) || return 1
  device=/dev/zram$zram_index
  if ! echo "$1" >"/sys/block/zram$zram_index/comp_algorithm" 2>/dev/null; then
    echo "zram_reduction: skipped: this kernel's zram has no $1 ($(cat "/sys/block/zram$zram_index/comp_algorithm"))"
    remove_zram
    exit 77
  fi
  echo "$zram_size" >"/sys/block/zram$zram_index/disksize" || return 1
  for _ in $(seq 1 50); do [[ -b $device ]] && return 0; sleep 0.1; done
  return 1
}
# write_all TARGET PATTERN: 128 KiB sequential writes over all of TARGET for a second.
write_all() {
  "$agent" run-local --target "$1" --spec-line "131072,100,0,0,0,1,0,0" --qd 4 --time 1 \
    --data-pattern "$2" --engine sync --results "" >"$work/run.out" 2>"$work/run.err"
}
mm_stat() { cat "/sys/block/zram$zram_index/mm_stat"; }
# within VALUE WANTED FRACTION: |VALUE - WANTED| <= WANTED * FRACTION
within() { awk -v v="$1" -v w="$2" -v f="$3" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(d <= w * f) }'; }

compression_case() {  # compression_case ALGORITHM RATIO
  new_zram "$1" || { check "$1: zram device made" false; return; }
  write_all "$device" "compress:$2"
  check "$1 compress:$2: the run completes" test $? -eq 0
  read -r orig compr _ _ _ same _ <<<"$(mm_stat)"
  local ratio
  ratio=$(awk -v o="$orig" -v c="$compr" 'BEGIN { printf "%.3f", c ? o / c : 0 }')
  measured "zram $1 compress:$2: orig_data_size $orig compr_data_size $compr same_pages $same ratio $ratio:1"
  check "$1 compress:$2: every page written ($orig of $zram_size bytes)" test "$orig" -eq "$zram_size"
  check "$1 compress:$2: no same-filled page ($same)" test "$same" -eq 0
  check "$1 compress:$2: zram's ratio $ratio within 10 % of $2" within "$ratio" "$2" 0.10
  remove_zram
}

repeating_case() {  # repeating_case ALGORITHM
  new_zram "$1" || { check "$1: zram device made" false; return; }
  write_all "$device" repeating
  check "$1 repeating: the run completes" test $? -eq 0
  read -r orig compr _ _ _ same _ <<<"$(mm_stat)"
  measured "zram $1 repeating: orig_data_size $orig compr_data_size $compr same_pages $same"
  check "$1 repeating: every page is same-filled ($same pages)" test "$same" -eq $((zram_size / 4096))
  check "$1 repeating: nothing stored compressed ($compr bytes)" test "$compr" -eq 0
  remove_zram
}

file_case() {  # file_case RATIO: the same writes to a file, compressed by zstd and gzip
  local file=$work/sample.bin
  rm -f "$file" && truncate -s "$zram_size" "$file"
  write_all "$file" "compress:$1"
  check "file compress:$1: the run completes" test $? -eq 0
  check "file compress:$1: fully written" test "$(du -B1 "$file" | cut -f1)" -ge "$zram_size"
  local tool size ratio
  for tool in zstd gzip; do
    command -v "$tool" >/dev/null || { echo "zram_reduction: $tool not installed, its comparison skipped"; continue; }
    size=$("$tool" -c <"$file" | wc -c)
    ratio=$(awk -v o="$zram_size" -v c="$size" 'BEGIN { printf "%.3f", o / c }')
    measured "file compress:$1: $tool (default level) $size bytes, ratio $ratio:1"
    check "file compress:$1: $tool's ratio $ratio within 10 % of $1" within "$ratio" "$1" 0.10
  done
}

agent_case() {  # agent_case RATIO: the controller and an agent over TCP
  new_zram lz4 || { check "lz4: zram device made" false; return; }
  start_agent zram --allow "$device" || { check "agent started" false; return; }
  "$iomark" run --manager "127.0.0.1:$port_zram" --key-file "$work/key" --target "$device" \
    --spec-line "131072,100,0,0,0,1,0,0" --qd 4 --time 1 --data-pattern "compress:$1" --engine sync \
    --results "$work/agent.csv" >"$work/agent.out" 2>"$work/agent.err"
  check "agent compress:$1: the series completes" test $? -eq 0
  check "the agent ends on SIGTERM within 5 s" stop_cleanly "$pid_zram"
  read -r orig compr _ _ _ same _ <<<"$(mm_stat)"
  local ratio
  ratio=$(awk -v o="$orig" -v c="$compr" 'BEGIN { printf "%.3f", c ? o / c : 0 }')
  measured "zram lz4 compress:$1 through iomark run and an agent: orig_data_size $orig compr_data_size $compr ratio $ratio:1"
  check "agent compress:$1: every page written" test "$orig" -eq "$zram_size"
  check "agent compress:$1: zram's ratio $ratio within 10 % of $1" within "$ratio" "$1" 0.10
  check "agent compress:$1: results.csv's iomark column names it" \
    test "$(awk -F, '$1 == "ALL" {print $81}' "$work/agent.csv")" = "compress:$1"
  remove_zram
}

dedupe_case() {  # dedupe_case PATTERN D UNIT_BYTES
  new_zram lzo-rle || { check "zram device made" false; return; }
  write_all "$device" "$1"
  check "$1: the run completes" test $? -eq 0
  local counted
  counted=$("$dedupe_count" "$device" "$3")
  read -r _ units _ unique _ ratio <<<"$counted"
  measured "zram $1: $counted (1/D = $(awk -v d="$2" 'BEGIN { printf "%f", 1 / d }'))"
  check "$1: $units units of $3 bytes" test "$units" -eq $((zram_size / $3))
  check "$1: unique/total $ratio within 2 % of 1/$2" within "$ratio" "$(awk -v d="$2" 'BEGIN { print 1 / d }')" 0.02
  remove_zram
}

case $mode in
  dedupe)
    dedupe_case dedupe:2 2 4096
    dedupe_case dedupe:4/8k 4 8192
    dedupe_case compress:2,dedupe:3 3 4096
    ;;
  *)
    for ratio in 1 2 4; do compression_case "$mode" "$ratio"; done
    repeating_case "$mode"
    if [[ $mode == lz4 ]]; then file_case 2; file_case 4; agent_case 2; fi
    ;;
esac
finish "zram_reduction $mode"

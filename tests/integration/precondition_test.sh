#!/usr/bin/env bash
# --precondition on a zram device the test makes (64 MiB, never mounted), with `iomark run`'s
# embedded agent; the device's own counters (/sys/block/zramN/stat: sectors written) say what
# reached it.
# - a write series with --precondition-passes 2: the device gets twice its size before the
#   run's own writes, which are few (1 s of 4 KiB random I/O at QD 1, 1 % of it writes: some
#   10 MiB on zram), so between two and three times its size in all;
# - one pass in the writes of --precondition-spec "4K random write": the device's count of
#   write requests shows 4 KiB writes (at least its size / 4 KiB of them, where 128 KiB
#   sequential ones take 32 times fewer), the JSON names the spec; an unknown spec is refused,
#   naming it, and nothing written;
# - a read-only series with --precondition: a notice says it is skipped and nothing is written;
# - the device carrying a file system: refused by the write-scope rules, naming the device, and
#   nothing written.
# Root and /sys/class/zram-control needed; skipped with the reason otherwise.
# usage: precondition_test.sh IOMARK
iomark=$1
if ((EUID != 0)) || [[ ! -w /sys/class/zram-control/hot_add ]]; then
  echo "precondition: skipped: needs root and /sys/class/zram-control (modprobe zram) to make a zram device"
  exit 77
fi
source "$(dirname "$0")/harness.sh"

size=$((64 << 20))
zram_index=
remove_zram() {
  [[ -n $zram_index ]] || return 0
  echo "$zram_index" >/sys/class/zram-control/hot_remove 2>/dev/null ||
    { echo 1 >"/sys/block/zram$zram_index/reset" && echo "$zram_index" >/sys/class/zram-control/hot_remove; }
  zram_index=
}
trap 'remove_zram; harness_cleanup' EXIT
zram_index=$(cat /sys/class/zram-control/hot_add) || { echo "FAIL zram hot_add"; exit 1; }
device=/dev/zram$zram_index
echo "$size" >"/sys/block/zram$zram_index/disksize" || { echo "FAIL sizing $device"; exit 1; }
for _ in $(seq 1 50); do [[ -b $device ]] && break; sleep 0.1; done

written_bytes() { awk '{ print $7 * 512 }' "/sys/block/zram$zram_index/stat"; }
write_requests() { awk '{ print $5 }' "/sys/block/zram$zram_index/stat"; }
run() {  # run NAME ARGS...: `iomark run` on the device, 60 s at most; sets status
  local name=$1
  shift
  timeout 60 "$iomark" run --target "$device" --time 1 --engine libaio --results "" "$@" \
    >"$work/$name.out" 2>"$work/$name.err"
  status=$?
}

# ---- two passes before a write series ---------------------------------------------------
before=$(written_bytes)
requests_before=$(write_requests)
run writes --spec-line "4096,100,99,100,0,1,4096,0" --qd 1 --precondition --precondition-passes 2
after=$(written_bytes)
requests=$(($(write_requests) - requests_before))
check "writes: exits 0 (status $status: $(tail -1 "$work/writes.err"))" test "$status" -eq 0
measured "writes: $((after - before)) bytes in $requests write requests reached the $size-byte device"
check "writes: at least 2 x $size bytes written" test $((after - before)) -ge $((2 * size))
check "writes: less than 3 x $size bytes written (not a third pass)" test $((after - before)) -lt $((3 * size))

# ---- one pass in a spec's writes --------------------------------------------------------
before=$(written_bytes)
requests_before=$(write_requests)
run spec --spec-line "4096,100,99,100,0,1,4096,0" --qd 1 --precondition --precondition-passes 1 \
  --precondition-spec "4K random write" --json "$work/spec.json"
after=$(written_bytes)
requests=$(($(write_requests) - requests_before))
check "spec: exits 0 (status $status: $(tail -1 "$work/spec.err"))" test "$status" -eq 0
measured "spec: $((after - before)) bytes in $requests write requests reached the $size-byte device"
check "spec: at least 1 x $size bytes written" test $((after - before)) -ge "$size"
check "spec: less than 2 x $size bytes written (not a second pass)" test $((after - before)) -lt $((2 * size))
check "spec: in 4 KiB writes (at least $((size / 4096)) requests)" test "$requests" -ge $((size / 4096))
check "spec: the JSON names the spec" python3 -c '
import json, sys
record = json.load(open(sys.argv[1]))["precondition"]
sys.exit(0 if record["spec"]["name"] == "4K random write" and record["block_bytes"] == 0 and record["passes"] == 1 else 1)
' "$work/spec.json"

before=$(written_bytes)
run unknown --spec-line "4096,100,99,100,0,1,4096,0" --qd 1 --precondition --precondition-spec "no such spec"
after=$(written_bytes)
check "unknown spec: refused (status $status)" test "$status" -ne 0
check "unknown spec: the refusal names it" grep -q "no access spec named 'no such spec'" "$work/unknown.err"
check "unknown spec: nothing written ($((after - before)) bytes)" test "$after" -eq "$before"

# ---- a read-only series -----------------------------------------------------------------
before=$(written_bytes)
run reads --spec "4K random read" --qd 1 --precondition
after=$(written_bytes)
check "reads: exits 0 (status $status: $(tail -1 "$work/reads.err"))" test "$status" -eq 0
check "reads: the skip is said" grep -q -- "--precondition skipped: every access spec of the series only reads" \
  "$work/reads.out" "$work/reads.err"
check "reads: nothing written ($((after - before)) bytes)" test "$after" -eq "$before"

# ---- a device carrying a file system ----------------------------------------------------
if command -v mkfs.ext4 >/dev/null; then
  mkfs.ext4 -q -F "$device" >/dev/null 2>&1
  before=$(written_bytes)
  run fs --spec-line "4096,100,0,100,0,1,4096,0" --qd 1 --precondition
  after=$(written_bytes)
  check "fs: refused (status $status)" test "$status" -ne 0
  check "fs: the refusal names the device" grep -q "$device" "$work/fs.err"
  check "fs: nothing written ($((after - before)) bytes)" test "$after" -eq "$before"
else
  echo "fs: not checked: no mkfs.ext4"
fi
finish precondition

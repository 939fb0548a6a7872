# Shared by the throttled-device tests (sourced): a device whose speed the test sets, i.e. a
# zram device the test makes, its reads throttled to a number of IOPS by the block I/O
# controller of a cgroup the test makes (cgroup v1 blkio.throttle.read_iops_device, or cgroup
# v2 io.max riops=), and commands started inside that cgroup. The device and the cgroup are
# removed at exit, even on failure (after the processes the test started are stopped by PID).
#
# Use, in this order:
#   source throttled_device.sh
#   throttled_require NAME       skipped (exit 77) unless root, zram and an I/O controller
#   source harness.sh
#   throttled_setup PREFIX       the EXIT trap, the device and the cgroup
#   throttle IOPS [WRITE_IOPS]   the device's read (and write) limit for the cgroup's processes
#   start_in_cgroup OUT ERR COMMAND...
#                                COMMAND in the background inside the cgroup
#   agent_in_cgroup AGENT NAME   an iomark agent listening inside the cgroup (port_NAME)

# throttled_require NAME: exits 77 (skipped), saying why as "NAME: skipped: ...", unless root
# with /sys/class/zram-control and a cgroup I/O controller; sets cgroup_version and
# cgroup_parent.
throttled_require() {
  throttled_name=$1
  if ((EUID != 0)) || [[ ! -w /sys/class/zram-control/hot_add ]]; then
    throttled_skip "needs root and /sys/class/zram-control (modprobe zram) to make a zram device"
  fi
  # The I/O controller: cgroup v1's blkio (its throttle files), else cgroup v2's io at the root
  # of a unified hierarchy mounted on /sys/fs/cgroup.
  if [[ -w /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]]; then
    cgroup_version=1 cgroup_parent=/sys/fs/cgroup/blkio
  elif [[ -r /sys/fs/cgroup/cgroup.controllers ]] && grep -qw io /sys/fs/cgroup/cgroup.controllers; then
    cgroup_version=2 cgroup_parent=/sys/fs/cgroup
  else
    throttled_skip "needs a cgroup I/O controller: cgroup v1 /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device or" \
      "cgroup v2 with io in /sys/fs/cgroup/cgroup.controllers"
  fi
}
throttled_skip() { echo "$throttled_name: skipped: $*"; exit 77; }

zram_index= cgroup= enabled_io=
remove_zram() {
  [[ -n $zram_index ]] || return 0
  echo "$zram_index" >/sys/class/zram-control/hot_remove 2>/dev/null ||
    { echo 1 >"/sys/block/zram$zram_index/reset" && echo "$zram_index" >/sys/class/zram-control/hot_remove; }
  zram_index=
}
remove_cgroup() {
  [[ -n $cgroup ]] || return 0
  # Empty once its processes are reaped (stop_started ran before); a moment for the kernel.
  for _ in $(seq 1 50); do rmdir "$cgroup" 2>/dev/null && break; sleep 0.1; done
  [[ -d $cgroup ]] && echo "$throttled_name: could not remove $cgroup" >&2
  [[ -n $enabled_io ]] && echo "-io" >"$cgroup_parent/cgroup.subtree_control" 2>/dev/null
  cgroup=
}

# throttled_setup PREFIX (after throttled_require and harness.sh): the EXIT trap that stops
# the started processes and removes the device and the cgroup; a 256 MiB zram device, never
# written (its reads cost no more than a page of zeroes), and the cgroup
# $cgroup_parent/PREFIX-PID. Sets device, majmin and cgroup; exits 1 (FAIL) or 77 (skipped)
# when it cannot make them.
throttled_setup() {
  trap 'stop_started; remove_cgroup; remove_zram; harness_cleanup' EXIT
  # Stopped by SIGTERM or SIGINT (ctest, ^C), the EXIT trap still removes the device and cgroup.
  trap 'exit 143' TERM
  trap 'exit 130' INT

  zram_index=$(cat /sys/class/zram-control/hot_add) || { echo "FAIL zram hot_add"; exit 1; }
  device=/dev/zram$zram_index
  echo 256M >"/sys/block/zram$zram_index/disksize" || { echo "FAIL sizing $device"; exit 1; }
  for _ in $(seq 1 50); do [[ -b $device ]] && break; sleep 0.1; done
  majmin=$(cat "/sys/block/zram$zram_index/dev")

  cgroup=$cgroup_parent/$1-$$
  if ((cgroup_version == 2)) && ! grep -qw io "$cgroup_parent/cgroup.subtree_control"; then
    echo "+io" >"$cgroup_parent/cgroup.subtree_control" 2>/dev/null ||
      { cgroup=; throttled_skip "cannot enable the io controller for children of $cgroup_parent (cgroup.subtree_control)"; }
    enabled_io=1
  fi
  mkdir "$cgroup" || { cgroup=; echo "FAIL mkdir $cgroup"; exit 1; }
  echo "cgroup v$cgroup_version $cgroup, $device ($majmin)"
}

# throttle IOPS [WRITE_IOPS]: reads of the device limited to IOPS for the processes of the
# cgroup, and writes to WRITE_IOPS when given.
throttle() {
  if ((cgroup_version == 1)); then
    echo "$majmin $1" >"$cgroup/blkio.throttle.read_iops_device"
    [[ -z ${2:-} ]] || echo "$majmin $2" >"$cgroup/blkio.throttle.write_iops_device"
  else
    echo "$majmin riops=$1${2:+ wiops=$2}" >"$cgroup/io.max"
  fi
}

# start_in_cgroup OUT ERR COMMAND...: COMMAND in the background, inside the cgroup (a shell
# joins it, then becomes COMMAND, so its PID is COMMAND's), standard output to OUT and error
# to ERR; sets started_pid and adds it to pids (stopped at exit).
start_in_cgroup() {
  local out=$1 err=$2
  shift 2
  sh -c 'echo $$ >"$1" || exit 125; shift; exec "$@"' sh "$cgroup/cgroup.procs" "$@" >"$out" 2>"$err" &
  started_pid=$!
  pids+=("$started_pid")
}

# agent_in_cgroup AGENT NAME: the agent program AGENT inside the cgroup, listening on
# 127.0.0.1:0 with the key $work/key and allowed the device; sets port_NAME. Exits 1 (FAIL)
# when it does not start listening.
agent_in_cgroup() {
  local agent=$1 name=$2
  start_in_cgroup "$work/$name.out" "$work/$name.log" \
    "$agent" --listen 127.0.0.1:0 -n "$name" --key-file "$work/key" --allow "$device"
  if ! wait_for "$work/$name.log" "listening on 127.0.0.1:[0-9]+" 10; then
    echo "FAIL the agent $name did not start: $(cat "$work/$name.out" "$work/$name.log")"
    exit 1
  fi
  printf -v "port_$name" '%s' "$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.log")"
}

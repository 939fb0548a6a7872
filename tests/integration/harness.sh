# Shared by the integration tests (sourced after setting $agent): a scratch directory with a
# key and a data directory, checks that count, agents started in the calling shell (so their
# PIDs are known and stopped at exit), bounded waits and millisecond clocks. Every process a
# test starts is stopped by its PID; nothing here looks processes up by name.
set -uo pipefail
work=$(mktemp -d)
pids=()
passed=0 failed=0

# stop_started: every process this test started, killed and reaped.
stop_started() {
  # A background shell loop (a hostile client) takes its own children (sleep) with it.
  for pid in "${pids[@]}"; do pkill -KILL -P "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
}
harness_cleanup() {
  stop_started
  rm -rf "$work"
}
trap harness_cleanup EXIT

check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi
}

# What a reader of the test log wants to know: how long detection took.
measured() { echo "measured: $*"; }

now_ms() { date +%s%3N; }

# wait_for FILE PATTERN SECONDS: true once an extended regular expression matches a line of
# FILE, false after SECONDS.
wait_for() {
  local file=$1 pattern=$2 end=$(($(now_ms) + $3 * 1000))
  while (($(now_ms) < end)); do
    grep -Eq -- "$pattern" "$file" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}

# wait_exit PID SECONDS: waits for a child of this shell to end and sets exit_status (124
# when it did not end in time; it is then killed).
wait_exit() {
  local pid=$1 end=$(($(now_ms) + $2 * 1000))
  while kill -0 "$pid" 2>/dev/null && (($(now_ms) < end)); do sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    exit_status=124
    return 1
  fi
  wait "$pid"
  exit_status=$?
  return 0
}

# stop_cleanly PID: SIGTERM, then true if the process ended within 5 s (a stuck process
# is killed and the check fails).
stop_cleanly() {
  kill -TERM "$1" 2>/dev/null
  wait_exit "$1" 5
}

head -c 48 /dev/urandom | base64 >"$work/key" && chmod 600 "$work/key"
mkdir "$work/data"

# launch_agent LOG ARGS...: iomark-agent ARGS in this shell, output to LOG; once it says it
# listens on 127.0.0.1, sets `port` and `launched_pid`. False (with its log) if it does not
# within 10 s.
launch_agent() {
  local log=$1
  shift
  # Emptied here, not only by the child's redirection: a restarted agent's old "listening on"
  # line must not be read before the child gets to truncate the log.
  : >"$log"
  "$agent" "$@" >"$log" 2>&1 &
  launched_pid=$!
  pids+=("$launched_pid")
  if ! wait_for "$log" "listening on 127.0.0.1:[0-9]+" 10; then
    echo "the agent did not start: $(cat "$log")" >&2
    return 1
  fi
  port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$log")
}

# start_agent NAME [ARGS...]: an agent listening on 127.0.0.1:0 with the test key, allowed
# $work/data plus ARGS; sets port_NAME and pid_NAME. Its log is $work/NAME.log.
start_agent() {
  local name=$1
  shift
  launch_agent "$work/$name.log" --listen 127.0.0.1:0 -n "$name" --key-file "$work/key" --allow "$work/data" "$@" ||
    return 1
  printf -v "pid_$name" '%s' "$launched_pid"
  printf -v "port_$name" '%s' "$port"
}

# Bytes a process has read through read/pread so far (/proc/PID/io rchar).
read_bytes() { awk '$1 == "rchar:" {print $2}' "/proc/$1/io" 2>/dev/null; }
thread_count() { ls "/proc/$1/task" 2>/dev/null | wc -l; }

# io_stopped_after PID T0_MS LIMIT_S: sets io_stop_ms to how long after T0 the process's
# reads stopped, once they have stayed still for a whole second; false if they still flow
# after LIMIT_S.
io_stopped_after() {
  local pid=$1 t0=$2 end=$(($(now_ms) + $3 * 1000)) before after still since
  while (($(now_ms) < end)); do
    before=$(read_bytes "$pid")
    since=$(now_ms)
    sleep 0.1
    after=$(read_bytes "$pid")
    if [[ $before == "$after" ]]; then
      sleep 1
      still=$(read_bytes "$pid")
      if [[ $still == "$after" ]]; then
        io_stop_ms=$((since - t0))
        return 0
      fi
    fi
  done
  return 1
}

# io_flowing PID: the process is reading now.
io_flowing() {
  local before
  before=$(read_bytes "$1")
  sleep 0.2
  [[ $(read_bytes "$1") != "$before" ]]
}

# csv_count FILE PATTERN: lines of FILE matching the extended regular expression.
csv_count() { grep -Ec -- "$2" "$1" 2>/dev/null; }

# Network namespaces standing in for hosts (root only). netns_require NAME: exits 77
# (skipped), saying why, unless root with iproute2. add_namespace NS HERE THERE HERE_CIDR
# THERE_CIDR: the namespace NS joined to this one by the veth pair HERE (here) and THERE
# (inside), addresses on both, lo up inside. From then on the EXIT trap (netns_cleanup) also
# removes every namespace and link made here, by name.
namespaces=() host_links=()
netns_require() {
  if ((EUID != 0)) || ! command -v ip >/dev/null; then
    echo "$1: skipped: needs root and iproute2 to create network namespaces"
    exit 77
  fi
}
netns_cleanup() {
  stop_started
  for ns in "${namespaces[@]}"; do ip netns delete "$ns" 2>/dev/null; done
  for link in "${host_links[@]}"; do ip link delete "$link" 2>/dev/null; done
  harness_cleanup
}
add_namespace() {
  local ns=$1 here=$2 there=$3
  trap netns_cleanup EXIT
  ip netns add "$ns" || return 1
  namespaces+=("$ns")
  ip link add "$here" type veth peer name "$there" && ip link set "$there" netns "$ns" || return 1
  host_links+=("$here")
  ip addr add "$4" dev "$here" && ip link set "$here" up && ip netns exec "$ns" ip addr add "$5" dev "$there" &&
    ip netns exec "$ns" ip link set "$there" up && ip netns exec "$ns" ip link set lo up
}

finish() {  # finish TEST_NAME
  echo "$1: $passed passed, $failed failed"
  ((failed == 0))
}

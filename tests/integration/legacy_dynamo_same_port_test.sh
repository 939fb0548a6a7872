#!/usr/bin/env bash
# One port for both protocols: `iomark run --listen ... --legacy-dynamo` with no
# port of its own takes the real Dynamo 1.1.0 (built from ../shared) and iomark agents on the
# same port, telling them apart by their first bytes: with the pre-shared key, then with TLS
# on top. Without --legacy-dynamo the same Dynamo is refused with a log line naming why, and
# --legacy-dynamo without a port needs --listen.
# usage: legacy_dynamo_same_port_test.sh IOMARK IOMARK_AGENT DYNAMO   (exit 77: Dynamo is missing)
set -uo pipefail
iomark=$1 agent=$2 dynamo=$3
if [[ ! -x $dynamo ]]; then
  echo "skipped: no Dynamo binary at $dynamo (needs ../shared/tools/build-dynamo and ../shared/third-party/iometer-1.1.0-dynamo)"
  exit 77
fi
command -v openssl >/dev/null || { echo "legacy_dynamo_same_port: the openssl command is missing (./dev installs it)"; exit 1; }
source "$(dirname "$0")/harness.sh"
source "$(dirname "$0")/dynamo_plan.sh"
source "$(dirname "$0")/tls_pki.sh"
make_lab_pki || exit 1
dyn_dir=$work/dynamo-target
prepare_dynamo_target "$dyn_dir" "$work/mtab" || exit 1
write_dynamo_plan "$work/plan.icf" 1 "$dyn_dir [$fstype]" "$work/data" 4096

# start_controller NAME ARGS...: iomark run listening on 127.0.0.1:0 with ARGS; sets ctl_pid
# and ctl_port once it listens.
start_controller() {
  local name=$1
  shift
  : >"$work/$name.err"
  timeout 120 "$iomark" run --listen 127.0.0.1:0 --key-file "$work/key" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  ctl_pid=$!
  pids+=("$ctl_pid")
  wait_for "$work/$name.err" "agent\(s\) on 127.0.0.1:[0-9]+" 10 || { echo "controller: $(cat "$work/$name.err")"; return 1; }
  ctl_port=$(sed -n 's/.*agent(s) on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.err" | head -1)
}
# start_dynamo NAME: the real Dynamo logging in on the controller's port; sets dyn_pid.
start_dynamo() {
  MNTTAB=$work/mtab "$dynamo" -i 127.0.0.1 -p "$ctl_port" -m 127.0.0.1 -n "$1" >"$work/$1.log" 2>&1 &
  dyn_pid=$!
  pids+=("$dyn_pid")
}
# start_login_agent NAME ARGS...: iomark-agent -i logging in on the controller's port.
start_login_agent() {
  local name=$1
  shift
  "$agent" -i "127.0.0.1:$ctl_port" -n "$name" --key-file "$work/key" --allow "$work/data" "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
}
field() { awk -F, -v row="$1" -v col="$2" '$1 == row {print $col}' "$3"; }
# both_managers_ran NAME: the series exited 0 and every run has rows for dyn1 and agentA.
both_managers_ran() {
  local csv=$work/$1.csv
  check "$1: series exits 0 (got $exit_status: $(tail -3 "$work/$1.err"))" test "$exit_status" -eq 0
  check "$1: three ALL rows, each of 2 managers" test "$(field ALL 4 "$csv" | tr '\n' ,)" = "2,2,2,"
  check "$1: MANAGER rows for dyn1 and agentA in every run" \
    test "$(field MANAGER 2 "$csv" | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ,)" = "3agentA,3dyn1,"
  check "$1: every MANAGER row did I/O" test "$(field MANAGER 7 "$csv" | awk '$1 <= 0' | wc -l)" = 0
  check "$1: the no-authentication warning names the agents' port" grep -q "no authentication: anyone who reaches the agents' port" "$work/$1.err"
  check "$1: nothing was refused" test "$(grep -c 'refused' "$work/$1.err")" = 0
}

# ---- 1. The pre-shared key: a Dynamo and an iomark agent on one port, at the same time ----
start_controller psk --legacy-dynamo --wait-managers 2 --wait-timeout 30 "$work/plan.icf" --results "$work/psk.csv" || exit 1
start_dynamo dyn1
start_login_agent agentA
wait_exit "$ctl_pid" 90
both_managers_ran psk
check "psk: the Dynamo exits after the series (EXIT MANAGER)" wait_exit "$dyn_pid" 10

# ---- 2. TLS: a Dynamo and an iomark agent over TLS on one port ---------------------------
start_controller tls --legacy-dynamo $(tls_of controller) --wait-managers 2 --wait-timeout 30 "$work/plan.icf" \
  --results "$work/tls.csv" || exit 1
start_login_agent agentA $(tls_of agentA)
start_dynamo dyn1
wait_exit "$ctl_pid" 90
both_managers_ran tls
check "tls: the agent logged in over TLS" grep -q "over TLS as 'CN=agentA'" "$work/agentA.log"
kill -KILL "$dyn_pid" 2>/dev/null

# ---- 3. Not allowed: the Dynamo is refused, naming why; the series waits on -------------------
start_controller refuse --wait-managers 1 --wait-timeout 4 "$work/plan.icf" --results "$work/refuse.csv" || exit 1
start_dynamo dyn1
wait_exit "$ctl_pid" 30
check "refuse: the login is refused naming why" \
  grep -q "refused a Dynamo 1.1.0 login: this port does not accept legacy logins" "$work/refuse.err"
check "refuse: the controller gives up waiting (exit $exit_status)" test "$exit_status" -ne 0
check "refuse: nothing recorded" test ! -e "$work/refuse.csv"
kill -KILL "$dyn_pid" 2>/dev/null

# ---- 4. --legacy-dynamo without a port needs --listen -------------------------------------
"$iomark" run --legacy-dynamo --key-file "$work/key" "$work/plan.icf" >"$work/alone.out" 2>"$work/alone.err"
status=$?
check "no --listen: refused (exit $status)" test "$status" -ne 0
check "no --listen: says Dynamo logins share the agents' port" grep -q "share the agents' port" "$work/alone.err"

finish legacy_dynamo_same_port

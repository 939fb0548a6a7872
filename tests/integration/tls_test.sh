#!/usr/bin/env bash
# The real agent and controller over mutual TLS on 127.0.0.1 (port 0), with certificates made
# by the openssl commands of docs/tls.md and the pre-shared key on top: the controller dials a
# listening agent, then an agent logs in to a listening controller. TLS on one side only is
# refused on both sides, naming TLS; a certificate from another CA is refused naming it.
# usage: tls_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
command -v openssl >/dev/null || { echo "tls: the openssl command is missing (./dev installs it)"; exit 1; }
source "$(dirname "$0")/harness.sh"
source "$(dirname "$0")/tls_pki.sh"
make_lab_pki || exit 1

start_listening_agent() {  # start_listening_agent LOG ARGS...: sets `port`
  local log=$1
  shift
  launch_agent "$log" --listen 127.0.0.1:0 --key-file "$work/key" --allow "$work/data" "$@"
}
quick_run() {  # quick_run NAME ARGS...: a one-run series, output in $work/NAME.{csv,err}
  local name=$1
  shift
  timeout 120 "$iomark" run --key-file "$work/key" --target "$work/data" --spec "4K random read" --qd 2 --time 1 \
    --size 16M --results "$work/$name.csv" "$@" >"$work/$name.out" 2>"$work/$name.err"
}

# 1. The controller dials a listening agent over TLS.
start_listening_agent "$work/agentA.log" -n agentA $(tls_of agentA) || exit 1
check "the agent says it listens over TLS" grep -q "over TLS as 'CN=agentA'" "$work/agentA.log"
quick_run dial --manager "127.0.0.1:$port" $(tls_of controller)
status=$?
check "dial over TLS: controller exits 0 (got $status: $(tail -2 "$work/dial.err"))" test "$status" -eq 0
check "dial over TLS: one run recorded with I/O" \
  test "$(awk -F, '$1 == "ALL" && $7 > 0' "$work/dial.csv" | wc -l)" = 1
check "dial over TLS: the agent served the controller" grep -q "session with controller .*: authenticated" "$work/agentA.log"

# 2. A plain controller and a TLS agent refuse each other, both naming TLS.
quick_run plain --manager "127.0.0.1:$port"
status=$?
check "plain controller to TLS agent: exit 5, refused (got $status)" test "$status" -eq 5
check "plain controller: told the agent speaks TLS" grep -q "speaks TLS only and you do not speak TLS" "$work/plain.err"
check "TLS agent: says the controller does not speak TLS" grep -q "the peer does not speak TLS" "$work/agentA.log"
check "plain controller: nothing recorded" test ! -e "$work/plain.csv"

# 3. A controller whose certificate another CA signed is refused; both sides say why.
quick_run rogue --manager "127.0.0.1:$port" \
  --tls-cert "$rogue/intruder.crt" --tls-key "$rogue/intruder.key" --tls-ca "$pki/ca.crt"
status=$?
check "untrusted controller certificate: exit 5, refused (got $status)" test "$status" -eq 5
check "untrusted controller: told its certificate was refused" grep -q "the peer refused our certificate" "$work/rogue.err"
check "TLS agent: names the refused certificate" grep -q "refused the peer's certificate 'CN=intruder'" "$work/agentA.log"
check "the agent still serves after the refusals" kill -0 "${pids[0]}"

# 4. A TLS controller and a plain agent refuse each other.
start_listening_agent "$work/plain-agent.log" -n plainAgent || exit 1
quick_run tls_to_plain --manager "127.0.0.1:$port" $(tls_of controller)
status=$?
check "TLS controller to plain agent: exit 5, refused (got $status)" test "$status" -eq 5
check "TLS controller: says the agent does not speak TLS" grep -q "the peer does not speak TLS" "$work/tls_to_plain.err"
check "plain agent: says the controller speaks TLS" grep -q "the peer speaks TLS and this agent does not" \
  "$work/plain-agent.log"

# 5. An agent logs in to a listening controller over TLS (dynamo's direction).
timeout 120 "$iomark" run --listen 127.0.0.1:0 --wait-managers 1 --wait-timeout 60 --key-file "$work/key" \
  $(tls_of controller) --target "$work/data" --spec "4K random read" --qd 1 --time 1 --size 16M \
  --results "$work/login.csv" >"$work/login.out" 2>"$work/login.err" &
controller_pid=$!
pids+=("$controller_pid")
controller_port=
for _ in $(seq 1 100); do
  controller_port=$(sed -n 's/.*agent(s) on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/login.err")
  [[ -n $controller_port ]] && break
  sleep 0.1
done
check "the controller listens" test -n "$controller_port"
"$agent" -i "127.0.0.1:$controller_port" -n agentB --key-file "$work/key" --allow "$work/data" $(tls_of agentB) \
  >"$work/agentB.log" 2>&1 &
pids+=($!)
wait "$controller_pid"
status=$?
check "login over TLS: controller exits 0 (got $status: $(tail -2 "$work/login.err"))" test "$status" -eq 0
check "login over TLS: one run recorded with I/O" \
  test "$(awk -F, '$1 == "ALL" && $7 > 0' "$work/login.csv" | wc -l)" = 1
check "login over TLS: the agent logged in over TLS" grep -q "over TLS as 'CN=agentB'" "$work/agentB.log"

finish tls

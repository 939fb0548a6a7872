#!/usr/bin/env bash
# Exit codes that mean one thing in iomark and iomark-agent: 2 usage, 3 bad input,
# 4 cannot connect (port in use, nobody listening), 5 refused (wrong key); and the agent's
# journal: with JOURNAL_STREAM naming its stderr, a whole series logs levelled lines with
# journald priorities and no timestamps, while --log-file keeps timestamped ones.
# usage: exit_codes_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"
head -c 48 /dev/urandom | base64 >"$work/other-key" && chmod 600 "$work/other-key"

expect_exit() {  # expect_exit NAME CODE COMMAND...: COMMAND (at most 60 s) exits CODE
  local name=$1 code=$2
  shift 2
  timeout 60 "$@" >"$work/last.out" 2>&1 </dev/null
  local status=$?
  check "$name: exit $code (got $status: $(tail -1 "$work/last.out"))" test "$status" -eq "$code"
}

expect_exit "iomark, an unknown flag" 2 "$iomark" run --no-such-flag
expect_exit "iomark-agent, an unknown flag" 2 "$agent" --no-such-flag
expect_exit "iomark, a plan file that does not exist" 3 "$iomark" run "$work/absent.icf"
expect_exit "iomark-agent, a key file that does not exist" 3 "$agent" --listen 127.0.0.1:0 --key-file "$work/absent"
expect_exit "iomark-agent, a log file that cannot be opened" 3 \
  "$agent" --listen 127.0.0.1:0 --insecure --log-file "$work/key/agent.log"

# The journal: a whole series (and a refused target) on an agent whose stderr is "the journal".
touch "$work/journal.log"
JOURNAL_STREAM=$(stat -c '%d:%i' "$work/journal.log")
export JOURNAL_STREAM
start_agent journal --log-file "$work/agent-file.log"
unset JOURNAL_STREAM
truncate -s 16M "$work/not-allowed"
timeout 60 "$iomark" run --manager "127.0.0.1:$port_journal" --key-file "$work/key" --target "$work/data" \
  --size 16M --engine null --time 1 --results "" >/dev/null 2>"$work/series.err"
check "a series on the journal agent (got: $(tail -1 "$work/series.err"))" test $? -eq 0
timeout 60 "$iomark" run --manager "127.0.0.1:$port_journal" --key-file "$work/key" --target "$work/data/../not-allowed" \
  --size 16M --engine null --time 1 --results "" >/dev/null 2>&1
for line in '<6>agent .journal.: listening on' '<6>session with controller .*: authenticated' \
  '<6>preparing .*data \(16 MiB\)' '<6>run 1: assigned 1 worker\(s\), 1 target\(s\), engine null' \
  '<6>run 1: I/O started' '<6>run 1: stopped \(completed\)' '<6>session with .* ended' \
  '<4>refused .*not-allowed'; do
  check "journal line /$line/" grep -Eq "^$line" "$work/journal.log"
done
check "no journal line carries a timestamp" test "$(grep -vEc '^<[0-7]>' "$work/journal.log")" -eq 0
check "the log file has timestamped, levelled lines" \
  grep -Eq '^20[0-9-]+ [0-9:.]+ \[info\] run 1: I/O started' "$work/agent-file.log"
sed -n '1,12p' "$work/journal.log" | sed 's/^/journal: /'

# 4: the port is in use; nobody listens.
expect_exit "iomark-agent, a port in use" 4 "$agent" --listen "127.0.0.1:$port_journal" --insecure
stop_cleanly "$pid_journal"
check "the agent stops with exit 0 on SIGTERM (got $exit_status)" test "$exit_status" -eq 0
expect_exit "iomark run, nobody listening" 4 \
  "$iomark" run --manager "127.0.0.1:$port_journal" --key-file "$work/key" --target "$work/data" --results ""

# 5: the peer refuses the key, both ways round.
if start_agent keyed; then
  expect_exit "iomark run, an agent with another key" 5 \
    "$iomark" run --manager "127.0.0.1:$port_keyed" --key-file "$work/other-key" --target "$work/data" --results ""
fi
"$iomark" run --listen 127.0.0.1:0 --wait-timeout 30 --key-file "$work/key" --target "$work/data" --time 1 \
  --results "" >/dev/null 2>"$work/controller.err" &
controller=$!
pids+=("$controller")
if wait_for "$work/controller.err" "waiting for 1 agent\(s\) on 127.0.0.1:[0-9]+" 10; then
  cport=$(sed -n 's/.*on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/controller.err")
  expect_exit "iomark-agent -i, a controller with another key" 5 \
    "$agent" -i "127.0.0.1:$cport" --key-file "$work/other-key" --allow "$work/data"
else
  check "the controller listens (got: $(cat "$work/controller.err"))" false
fi

# The service unit acts on the same table, whichever --protocol the configuration names: 0
# is a clean end (not restarted: Restart=on-failure), 1 and 4 may fix themselves (restarted),
# 2, 3 and 5 never do (RestartPreventExitStatus), as common/exit_code.hpp numbers them.
unit=$(dirname "$0")/../../packaging/agent/iomark-agent.service
codes=$(dirname "$0")/../../common/include/iomark/common/exit_code.hpp
code_of() { sed -n "s/^ *$1 = \([0-9]*\),.*/\1/p" "$codes"; }
check "the unit restarts on failure only ($(grep '^Restart=' "$unit"))" grep -qx 'Restart=on-failure' "$unit"
never="$(code_of usage) $(code_of bad_input) $(code_of refused)"
check "the unit never restarts usage, bad input or refused ($never; $(grep '^RestartPreventExitStatus=' "$unit"))" \
  grep -qx "RestartPreventExitStatus=$never" "$unit"
check "run_failed and cannot_connect are 1 and 4, restarted ($(code_of run_failed) $(code_of cannot_connect))" \
  test "$(code_of run_failed) $(code_of cannot_connect)" = "1 4"

finish "exit codes"

#!/usr/bin/env bash
# iomark-agent --config FILE: options from a file as the packaged service reads them. An agent
# configured only by a file (name, key, a list and a repeated allow line) serves a series on
# what the file allows and refuses what it does not; the shipped packaging/agent/agent.conf
# parses, with command-line options winning over it; a misspelt name is a usage error.
# usage: agent_config_test.sh IOMARK IOMARK_AGENT SHIPPED_AGENT_CONF
set -uo pipefail
iomark=$1 agent=$2 shipped=$3
source "$(dirname "$0")/harness.sh"
mkdir "$work/listed" "$work/unlisted"
truncate -s 16M "$work/listed-file" "$work/unlisted-file"

run_on() {  # run_on PORT TARGET ERR: a one-second series on TARGET, stderr to ERR
  timeout 60 "$iomark" run --manager "127.0.0.1:$1" --key-file "$work/key" --target "$2" --size 16M --time 1 \
    --results "" >/dev/null 2>"$3"
}

cat >"$work/agent.conf" <<EOF
# comments and blank lines are fine

listen = "127.0.0.1:0"
name = "from-config"
key-file = "$work/key"
allow = ["$work/listed", "$work/no-such-path-is-needed-here"]
allow = "$work/listed-file"
EOF
# A listed path that does not exist is refused when the agent starts, as with --allow.
"$agent" --config "$work/agent.conf" >"$work/missing.log" 2>&1
status=$?
check "a listed path that does not exist: exit 3 (got $status)" test "$status" -eq 3
check "... naming the path" grep -q 'no-such-path-is-needed-here' "$work/missing.log"
sed -i 's|, "[^"]*no-such-path-is-needed-here"||' "$work/agent.conf"

if launch_agent "$work/config.log" --config "$work/agent.conf"; then
  run_on "$port" "$work/listed" "$work/dir.err"
  check "a series on the listed directory (got: $(tail -1 "$work/dir.err"))" test $? -eq 0
  check "the manager name comes from the file" grep -q "manager 'from-config'" "$work/dir.err"
  run_on "$port" "$work/listed-file" "$work/file.err"
  check "a series on the file of the repeated allow line (got: $(tail -1 "$work/file.err"))" test $? -eq 0
  run_on "$port" "$work/unlisted-file" "$work/unlisted.err"
  check "a file not listed is refused: exit 3 (got $?)" test $? -eq 3
  check "... as outside the agent's --allow paths" grep -q 'refuses .*unlisted-file.*--allow paths' "$work/unlisted.err"
else
  check "the agent starts from its configuration file" false
fi

if launch_agent "$work/shipped.log" --config "$shipped" --listen 127.0.0.1:0 --key-file "$work/key"; then
  check "the shipped agent.conf parses; --listen on the command line wins over its listen" true
else
  check "the agent starts from the shipped agent.conf" false
fi

printf 'listen = "127.0.0.1:0"\ninsecure = true\nalow = ["/tmp"]\n' >"$work/typo.conf"
"$agent" --config "$work/typo.conf" >"$work/typo.log" 2>&1
status=$?
check "a misspelt name: exit 2 (got $status)" test "$status" -eq 2
check "... naming it" grep -q 'alow' "$work/typo.log"
"$agent" --config "$work/absent.conf" >"$work/absent.log" 2>&1
status=$?
check "a missing configuration file: exit 2 (got $status)" test "$status" -eq 2

finish "agent --config"

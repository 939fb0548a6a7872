#!/usr/bin/env bash
# A listening agent's port under hostile clients: random garbage,
# frame headers announcing oversized lengths, a header whose frame never comes, slowloris
# clients (one byte per second, never finishing their Hello) and a burst of connections held
# open at once. The agent must refuse each with a named error, stay up with bounded memory,
# and serve a good controller while the slowloris and the burst are still connected.
# Every wait is bounded; every process started is stopped by its PID.
# usage: hostile_port_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"
launch_agent "$work/agent.log" --listen 127.0.0.1:0 -n hostile-target --key-file "$work/key" \
  --allow "$work/data" || exit 1
agent_pid=$launched_pid

# Sends the bytes of FILE as one client and reads until the agent closes, at most SECONDS.
# Succeeds when the agent closed the connection in time.
client() {  # client FILE SECONDS
  timeout "$2" bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1; cat "$2" >&3 2>/dev/null; cat <&3 >/dev/null 2>&1; exit 0' \
    _ "$port" "$1"
}
# Waits (at most 10 s) until the agent's log has LINES lines matching PATTERN.
logged() {  # logged PATTERN LINES
  for _ in $(seq 1 100); do
    (($(grep -c -- "$1" "$work/agent.log") >= $2)) && return 0
    sleep 0.1
  done
  return 1
}

# Garbage: refused at its first bytes, not after reading all of it.
{ printf 'GET / HTTP/1.1\r\n'; head -c 65536 /dev/urandom; } >"$work/garbage"
check "garbage: the agent closes" client "$work/garbage" 10
check "garbage: refused as bad magic" logged "bad magic" 1

# Lengths above any frame, and above what a stranger may send before authenticating.
printf 'IOMK\xff\xff\xff\xff' >"$work/huge"
check "4 GiB frame header: the agent closes" client "$work/huge" 10
printf 'IOMK\x00\x00\x10\x00' >"$work/large"
check "1 MiB frame header before authentication: the agent closes" client "$work/large" 10
check "oversized headers: refused as too large" logged "frame too large" 2

# A header whose payload never comes: dropped at the handshake deadline (5 s).
printf 'IOMK\x40\x00\x00\x00' >"$work/stalled"
check "stalled frame: the agent closes at its handshake deadline" client "$work/stalled" 20
check "stalled frame: refused for its slowness" logged "no session within" 1

# Slowloris: one byte per second of a frame that would hold a Hello, reconnecting whenever
# dropped, so one is pending for the rest of the test.
(
  trap '' PIPE  # a dropped connection fails the write, not the loop
  while :; do
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    for byte in I O M K '\x40' '\x00' '\x00' '\x00' x x x x x x x x x x; do
      printf "$byte" >&3 2>/dev/null || break
      sleep 1
    done
    exec 3>&-
  done
) &
pids+=($!)
slowloris_pid=$!

# A burst: 300 connections opened at once (more than the 256 sessions the agent establishes
# at a time), each sending half a header and holding on.
(
  for _ in $(seq 1 300); do
    exec {fd}<>"/dev/tcp/127.0.0.1/$port" && printf 'IOM' >&"$fd" 2>/dev/null
  done
  sleep 120
) &
pids+=($!)
burst_pid=$!
sleep 2

timeout 120 "$iomark" run --manager "127.0.0.1:$port" --key-file "$work/key" --target "$work/data" \
  --spec "4K random read" --qd 1,4 --time 1 --ramp 0 --size 4M --engine null \
  --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err"
status=$?
check "good controller under attack exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
check "slowloris still connected during the run" kill -0 "$slowloris_pid"
check "burst still connected during the run" kill -0 "$burst_pid"
check "two runs recorded" test "$(awk -F, '$1 == "ALL"' "$work/results.csv" 2>/dev/null | wc -l)" = 2
check "every run did I/O" test "$(awk -F, '$1 == "ALL" && $7 <= 0' "$work/results.csv" 2>/dev/null | wc -l)" = 0
check "the series ends with 'End Test" test "$(tail -n1 "$work/results.csv" 2>/dev/null)" = "'End Test"
check "slowloris clients are dropped at the handshake deadline" logged "no session within" 3

rss_kib=$(awk '/^VmRSS/ {print $2}' "/proc/$agent_pid/status" 2>/dev/null)
check "the agent is still running" kill -0 "$agent_pid"
check "the agent's memory stays bounded (RSS ${rss_kib:-?} KiB)" test "${rss_kib:-999999}" -lt 262144
for pid in "$slowloris_pid" "$burst_pid"; do pkill -P "$pid" 2>/dev/null; kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
pids=("$agent_pid")

# And once they are gone, the agent still serves.
timeout 120 "$iomark" run --manager "127.0.0.1:$port" --key-file "$work/key" --target "$work/data" \
  --spec "4K random read" --qd 2 --time 1 --ramp 0 --size 4M --engine null --results "" >/dev/null 2>"$work/again.err"
status=$?
check "good controller afterwards exits 0 (got $status: $(tail -2 "$work/again.err"))" test "$status" -eq 0
check "the agent is still running at the end" kill -0 "$agent_pid"
finish hostile_port

#!/usr/bin/env bash
# One way to stop: SIGINT and SIGTERM end `iomark run` (embedded agent and a
# remote one), `iomark-agent run-local` and a serving agent mid-run. A stopped run still
# writes `Aborted test` in results.csv and outcome "aborted" in JSON, prints its summary and
# exits 128+signal; the agents are told to stop; an agent stopped mid-run exits 0 and the
# controller records the series as aborted. As IOmeter's "Stop All", the run a signal cuts
# short is itself recorded: its results block (ALL row with the I/Os done so far) right
# before `Aborted test`, and in JSON as a run with outcome "interrupted".
# usage: stop_signals_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

declare -A number=([INT]=2 [TERM]=15)

io_started_twice() { (($(grep -c 'I/O started' "$1") >= 2)); }

wait_until() {  # wait_until SECONDS COMMAND...: true once COMMAND succeeds, false after SECONDS
  local end=$(($(now_ms) + $1 * 1000))
  shift
  until "$@"; do
    (($(now_ms) < end)) || return 1
    sleep 0.1
  done
}

# results_aborted NAME: $work/NAME.csv ends the series with `Aborted test`, $work/NAME.json
# says outcome aborted.
results_aborted() {
  check "$1: results.csv ends with Aborted test" test "$(tail -1 "$work/$1.csv" 2>/dev/null)" = "Aborted test"
  check "$1: JSON outcome aborted" grep -Eq '"outcome": *"aborted"' "$work/$1.json"
}

# cut_run_recorded NAME: the run the signal cut is the last results block of $work/NAME.csv
# (an ALL row with I/Os, then `Aborted test`) and the last run of $work/NAME.json, with
# outcome "interrupted", its I/Os and a recording window shorter than the 60 s asked for.
jq_ok() { jq -e "$1" "$2" >/dev/null; }

cut_run_recorded() {
  local csv=$work/$1.csv json=$work/$1.json
  check "$1: results.csv has the cut run's ALL row with its I/Os" \
    awk -F, '$1 == "ALL" { iops = $7 } END { exit !(iops > 0) }' "$csv"
  check "$1: its results block comes right before Aborted test" \
    test "$(grep -E "^('Results|Aborted test)" "$csv" | tail -2 | tr '\n' '|')" = "'Results|Aborted test|"
  check "$1: JSON: the last run is interrupted, with I/Os" \
    jq_ok '(.runs | length) >= 1 and .runs[-1].outcome == "interrupted" and .runs[-1].summary.iops > 0' "$json"
  check "$1: JSON: its recording window is what ran, not the 60 s asked for" \
    jq_ok '[.runs[-1].managers[].workers[].recording_window_ns] | all(. > 0 and . < 30e9)' "$json"
}

# signal_mid_run NAME SIGNAL PID LOG PATTERN: waits for PATTERN in LOG (the run is doing
# I/O), lets it run 2 s more, sends SIGNAL and checks the exit code (128+signal, within 10 s).
signal_mid_run() {
  local name=$1 signal=$2 pid=$3 log=$4 pattern=$5
  if ! wait_for "$log" "$pattern" 30; then
    check "$name: reached the run (log: $(tail -2 "$log"))" false
    return 1
  fi
  sleep 2
  local t0
  t0=$(now_ms)
  kill -"$signal" "$pid"
  wait_exit "$pid" 10
  measured "$name: exited $exit_status $(($(now_ms) - t0)) ms after SIG$signal"
  check "$name: exit $((128 + number[$signal])) after SIG$signal (got $exit_status)" \
    test "$exit_status" -eq $((128 + number[$signal]))
}

for signal in INT TERM; do
  # iomark run on its embedded agent: the run would take 60 s.
  name=embedded_$signal
  "$iomark" run --target "$work/data" --size 16M --engine null --time 60 \
    --results "$work/$name.csv" --json "$work/$name.json" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  if signal_mid_run "$name" "$signal" "$pid" "$work/$name.err" "^run 1/1"; then
    results_aborted "$name"
    cut_run_recorded "$name"
    check "$name: the summary is printed, the cut run marked" grep -Eq '^ *1\* ' "$work/$name.out"
    check "$name: says which signal stopped it" grep -q "stopped by SIG$signal" "$work/$name.err"
  fi

  # iomark run on a remote agent, which is told to stop and stays up for the next series.
  name=remote_$signal
  if start_agent "agent_$signal"; then
    apid=pid_agent_$signal aport=port_agent_$signal
    "$iomark" run --manager "127.0.0.1:${!aport}" --key-file "$work/key" --target "$work/data" \
      --size 16M --engine null --time 60 --results "$work/$name.csv" --json "$work/$name.json" \
      >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    pids+=("$pid")
    if signal_mid_run "$name" "$signal" "$pid" "$work/$name.err" "^run 1/1"; then
      results_aborted "$name"
      cut_run_recorded "$name"
      check "$name: the summary is printed" grep -q '^samples: ' "$work/$name.out"
      # The cut run is stopped as at its end, its final results collected: the agent says so.
      check "$name: the agent stopped the run" wait_for "$work/agent_$signal.log" "run 1: stopped \\(completed" 5
      check "$name: the agent is still up" kill -0 "${!apid}"
    fi
    # The agent serving a series, stopped mid-run: it ends (exit 0) and the controller,
    # losing its only manager, records the series as aborted and exits 1.
    name=agent_stopped_$signal
    "$iomark" run --manager "127.0.0.1:${!aport}" --key-file "$work/key" --target "$work/data" \
      --size 16M --engine null --time 60 --results "$work/$name.csv" --json "$work/$name.json" \
      >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    pids+=("$pid")
    # Run ids count from 1 in each series: the second "I/O started" is this series'.
    if wait_until 30 io_started_twice "$work/agent_$signal.log"; then
      sleep 2
      kill -"$signal" "${!apid}"
      wait_exit "${!apid}" 10
      check "$name: the agent exits 0 on SIG$signal (got $exit_status)" test "$exit_status" -eq 0
      check "$name: the agent logs why it stopped" grep -q "stopping on SIG$signal" "$work/agent_$signal.log"
      wait_exit "$pid" 30
      check "$name: the controller exits 1, a run failed (got $exit_status)" test "$exit_status" -eq 1
      results_aborted "$name"
    else
      check "$name: the agent started the second series (log: $(tail -2 "$work/agent_$signal.log"))" false
    fi
  fi

  # run-local: the summary and both results files, though the run would take 60 s.
  name=run_local_$signal
  "$agent" run-local --target "$work/data" --size 16M --engine null --spec-line 4096,100,100,100,0,1,0,0 \
    --time 60 --results "$work/$name.csv" --json "$work/$name.json" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  if signal_mid_run "$name" "$signal" "$pid" "$work/$name.err" "^running"; then
    results_aborted "$name"
    cut_run_recorded "$name"
    check "$name: the summary is printed" grep -q '^ALL ' "$work/$name.out"
  fi
done

# `timeout` signals the program and then its process group: one stop, delivered twice, must
# still end with the results written (timeout itself then exits 124).
name=timeout_TERM
timeout -s TERM 4 "$iomark" run --target "$work/data" --size 16M --engine null --time 60 \
  --results "$work/$name.csv" --json "$work/$name.json" >"$work/$name.out" 2>"$work/$name.err"
status=$?
check "$name: timeout ends the series (got $status)" test "$status" -eq 124
results_aborted "$name"
check "$name: the summary is printed" grep -q '^samples: ' "$work/$name.out"

finish "stop signals"

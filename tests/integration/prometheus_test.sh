#!/usr/bin/env bash
# Live metrics scraped by a real Prometheus: two real agents on 127.0.0.1, `iomark run
# --metrics-listen 127.0.0.1:0` over three runs, and Debian's prometheus started here on
# 127.0.0.1:0 with a 1 s scrape interval and its own storage in the scratch directory. The
# test asks Prometheus' HTTP API for the series while the runs record, and every query of the
# shipped Grafana dashboard. Every process is stopped by its PID.
# usage: prometheus_test.sh IOMARK IOMARK_AGENT GRAFANA_DASHBOARD.json
set -uo pipefail
iomark=$1 agent=$2 dashboard=$3
source "$(dirname "$0")/harness.sh"
for tool in prometheus promtool curl jq; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (./dev installs it)"; exit 77; }
done

start_agent agentA || exit 1
start_agent agentB || exit 1

"$iomark" run --manager "127.0.0.1:$port_agentA" --manager "127.0.0.1:$port_agentB" --key-file "$work/key" \
  --target "$work/data" --spec "4K random read" --qd 1,2,4 --ramp 1 --time 6 --size 16M --results "" \
  --metrics-listen 127.0.0.1:0 >"$work/run.out" 2>"$work/run.err" &
controller=$!
pids+=("$controller")
wait_for "$work/run.err" "metrics at http://127.0.0.1:[0-9]+/metrics" 10 || { cat "$work/run.err"; exit 1; }
metrics_port=$(sed -n 's|.*metrics at http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$work/run.err")

curl -sf "http://127.0.0.1:$metrics_port/metrics" >"$work/first.txt"
check "GET /metrics answers before Prometheus starts" grep -q '^iomark_series_runs_planned 3$' "$work/first.txt"
check "promtool finds the exposition format clean" promtool check metrics <"$work/first.txt"
check "other paths are 404" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$metrics_port/")" = 404

cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: iomark
    static_configs:
      - targets: ["127.0.0.1:$metrics_port"]
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prometheus-data" \
  --web.listen-address=127.0.0.1:0 >"$work/prometheus.log" 2>&1 &
prometheus_pid=$!
pids+=("$prometheus_pid")
wait_for "$work/prometheus.log" 'msg="Listening on" address=127.0.0.1:[1-9]' 20 || { cat "$work/prometheus.log"; exit 1; }
prometheus_port=$(sed -n 's/.*msg="Listening on" address=127.0.0.1:\([0-9]*\).*/\1/p' "$work/prometheus.log")
wait_for "$work/prometheus.log" "Server is ready to receive web requests" 20 || { cat "$work/prometheus.log"; exit 1; }

# query PROMQL: the API's JSON answer (the data.result array).
query() { curl -sf --get "http://127.0.0.1:$prometheus_port/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'; }
# wait_query PROMQL JQ_TEST SECONDS: true once the result passes the jq test.
wait_query() {
  local end=$(($(now_ms) + $3 * 1000))
  while (($(now_ms) < end)); do
    [[ $(query "$1" | jq "$2" 2>/dev/null) == true ]] && return 0
    sleep 0.5
  done
  return 1
}

check "Prometheus scrapes iomark (up == 1)" wait_query 'up{job="iomark"}' 'length == 1 and .[0].value[1] == "1"' 20
check "the series is seen recording" wait_query 'iomark_series_phase{phase="recording"}' \
  'length == 1 and .[0].value[1] == "1"' 30
check "IOPS of both managers while recording" wait_query \
  'iomark_iops{scope="manager"} > 0 and on() iomark_series_phase{phase="recording"} == 1' \
  '[.[].metric.manager] | sort == ["agentA", "agentB"]' 30
# Every panel of the dashboard shows something: its queries use the names served here.
while IFS= read -r expr; do
  promql=${expr//\$job/iomark}
  promql=${promql//\$manager/.*}
  check "dashboard query has data: $promql" wait_query "$promql" 'length > 0' 10
done < <(jq -r '.panels[].targets[].expr' "$dashboard")
query 'iomark_iops' >"$work/iops.json"
check "IOPS at every level: 1 all + 2 managers + 2 workers + 2 targets" \
  test "$(jq '[.[].metric.scope] | group_by(.) | map({(.[0]): length}) | add | tojson' "$work/iops.json")" = \
  '"{\"all\":1,\"manager\":2,\"target\":2,\"worker\":2}"'
check "the target label names the target" \
  test "$(jq -r '[.[] | select(.metric.scope == "target") | .metric.target] | unique | .[]' "$work/iops.json")" = \
  "$work/data"
check "the spec label is the run's spec" \
  test "$(jq -r '[.[].metric.spec] | unique | .[]' "$work/iops.json")" = "4K random read"
for family in iomark_bytes_per_second iomark_average_latency_seconds iomark_p99_latency_seconds; do
  check "$family of the ALL row is positive" wait_query "${family}{scope=\"all\"}" \
    'length == 1 and (.[0].value[1] | tonumber) > 0' 10
done
check "errors per second are scraped and zero" wait_query 'iomark_errors_per_second{scope="all"}' \
  'length == 1 and .[0].value[1] == "0"' 10
check "the run index reaches 2 while the series runs" wait_query 'max_over_time(iomark_series_run_index[5m])' \
  'length == 1 and (.[0].value[1] | tonumber) >= 2' 30
check "runs planned: 3" wait_query 'iomark_series_runs_planned' 'length == 1 and .[0].value[1] == "3"' 5
check "completed runs counted" wait_query 'max_over_time(iomark_series_runs_completed_total[5m])' \
  'length == 1 and (.[0].value[1] | tonumber) >= 1' 30

wait_exit "$controller" 120
check "the series completes (exit $exit_status)" test "$exit_status" -eq 0
check "prometheus still running before it is stopped" kill -0 "$prometheus_pid"
check "prometheus stops on SIGTERM" stop_cleanly "$prometheus_pid"
finish prometheus

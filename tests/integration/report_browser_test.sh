#!/usr/bin/env bash
# iomark reports loaded by a real browser: Debian's chromium, headless, renders the reports of
# the IOmeter corpus CSVs, of the project's own fixtures, of a fresh embedded-agent run (QD
# 1,2,4, written by `iomark run --report`) and of a JSON-vs-CSV comparison. For each, the
# rendered DOM must hold every chart with its axis labels, curves whose point counts equal the
# runs, and the page must have made no network request: chromium's net log lists every URL
# request with its initiator; the browser's own background requests have no origin ("not an
# origin"), a page's have one. A control page with one external <img> proves the net log sees
# a page's request.
# usage: report_browser_test.sh IOMARK CORPUS_DIR FIXTURE_DIR
set -uo pipefail
iomark=$1 corpus=$2 fixtures=$3
browser=$(command -v chromium || command -v chromium-browser) || {
  echo "SKIP: chromium is not installed (./dev installs Debian's chromium package)"
  exit 77
}
agent=/bin/false  # harness.sh wants one; this test starts no agent process
source "$(dirname "$0")/harness.sh"

# load NAME FILE [extra chromium flags]: the rendered DOM in $work/NAME.dom, the net log in
# $work/NAME.netlog.
load() {
  local name=$1 file=$2
  shift 2
  local profile
  profile=$(mktemp -d -p "$work")
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --log-net-log="$work/$name.netlog" "$@" --dump-dom "file://$file" >"$work/$name.dom" 2>"$work/$name.browser.log"
}

# URL requests a page made (those with an origin as initiator), one per line.
page_requests() { grep '"initiator":' "$1" | grep -v '"initiator":"not an origin"'; }

# Every <polyline> whose data-points differs from the number of x,y pairs in its points list.
miscounted_curves() {
  grep -o '<polyline[^>]*>' "$1" | while read -r line; do
    local declared pairs
    declared=$(sed -E 's/.*data-points="([0-9]+)".*/\1/' <<<"$line")
    pairs=$(sed -E 's/.* points="([^"]*)".*/\1/' <<<"$line" | tr ' ' '\n' | grep -c ,)
    [[ $declared == "$pairs" ]] || echo "$line"
  done
}

# Points of the ALL curves of the IOPS charts, summed.
all_iops_points() {
  awk '/<svg / {match($0, /data-chart="[^"]*"/); chart = substr($0, RSTART + 12, RLENGTH - 13)}
       /<polyline/ && chart ~ /-iops$/ && /data-label="[^"]*ALL"/ {
         match($0, /data-points="[0-9]+"/); sum += substr($0, RSTART + 13, RLENGTH - 14)}
       END {print sum + 0}' "$1"
}

# Rows of the runs table whose outstanding I/Os are known (the 6th cell is not "-").
runs_with_queue_depth() {
  grep '<tr class="run">' "$1" | awk -F'</td>' '{cell = $6; sub(/.*>/, "", cell); if (cell != "-") n++} END {print n + 0}'
}

# check_report NAME HTML IOMARK_OUTPUT: the report as chromium rendered it.
check_report() {
  local name=$1 html=$2 output=$3 charts
  charts=$(sed -nE 's/^report: ([0-9]+) charts.*/\1/p' "$output")
  check "$name: iomark names its chart count ($(cat "$output"))" test -n "$charts"
  check "$name: at least one chart" test "${charts:-0}" -gt 0
  load "$name" "$html"
  check "$name: chromium rendered the page" grep -q '</html>' "$work/$name.dom"
  check "$name: $charts charts in the DOM" test "$(grep -c '<svg ' "$work/$name.dom")" = "$charts"
  check "$name: an x axis label per chart" test "$(grep -c 'class="axis-label x-label"' "$work/$name.dom")" = "$charts"
  check "$name: a y axis label per chart" test "$(grep -c 'class="axis-label y-label"' "$work/$name.dom")" = "$charts"
  check "$name: every curve has the points it declares: $(miscounted_curves "$work/$name.dom" | head -2)" \
    test -z "$(miscounted_curves "$work/$name.dom")"
  local plotted runs
  plotted=$(all_iops_points "$work/$name.dom")
  runs=$(runs_with_queue_depth "$work/$name.dom")
  check "$name: the ALL IOPS curves have one point per run ($plotted plotted, $runs runs)" test "$plotted" = "$runs"
  check "$name: no request made by the page: $(page_requests "$work/$name.netlog" | head -c 300)" \
    test -z "$(page_requests "$work/$name.netlog")"
  check "$name: the net log was written" grep -q '"events"' "$work/$name.netlog"
  check "$name: no src, href or url() in the HTML" test "$(grep -cE 'src=|href=|url\(' "$html")" = 0
  check "$name: no URL but the SVG namespace" \
    test -z "$(grep -oE 'https?://[^" ]*' "$html" | grep -v '^http://www.w3.org/2000/svg$')"
  measured "$name: $charts charts, $runs runs, $(wc -c <"$html") bytes"
}

# The control: a page fetching one image from 127.0.0.1 is seen in the net log.
printf '<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/probe.png"></body></html>\n' >"$work/control.html"
load control "$work/control.html"
check "control: the net log shows a page's own request" grep -q '127.0.0.1:9/probe.png' <(page_requests "$work/control.netlog")

# The IOmeter corpus (1.1.0, the instantaneous side file and 2008.06.18).
shopt -s nullglob
corpus_csvs=("$corpus"/*.csv)
if ((${#corpus_csvs[@]} == 0)); then
  echo "note: no corpus CSVs in $corpus (../shared/icf-corpus is missing); the corpus reports are not checked"
fi
for csv in "${corpus_csvs[@]}"; do
  name=corpus-$(basename "$csv" .csv)
  "$iomark" report "$csv" -o "$work/$name.html" --svg "$work/$name-svg" >"$work/$name.out" 2>&1
  check "$name: iomark report exits 0 ($(tail -1 "$work/$name.out"))" test $? -eq 0
  check_report "$name" "$work/$name.html" "$work/$name.out"
  check "$name: one SVG file per chart" \
    test "$(ls "$work/$name-svg" | wc -l)" = "$(sed -nE 's/^report: ([0-9]+) charts.*/\1/p' "$work/$name.out")"
done

# The project's own fixtures: an iomark JSON and results.csv of two managers, compared.
"$iomark" report "$fixtures/two-managers.json" "$fixtures/two-managers.csv" -o "$work/fixtures.html" \
  --title 'Fixtures <compared>' >"$work/fixtures.out" 2>&1
check "fixtures: iomark report exits 0 ($(tail -1 "$work/fixtures.out"))" test $? -eq 0
check_report fixtures "$work/fixtures.html" "$work/fixtures.out"
check "fixtures: the title is escaped text" grep -q '<h1>Fixtures &lt;compared&gt;</h1>' "$work/fixtures.dom"
check "fixtures: a curve per manager and source" \
  test "$(grep -c 'data-label="two-managers.csv | [^"]*"' "$work/fixtures.dom")" -gt 2
check "fixtures: the comparison table" grep -q '<section id="comparison">' "$work/fixtures.dom"
check "fixtures: a ratio chart" grep -q 'data-chart="[^"]*-iops-ratio"' "$work/fixtures.dom"

# A fresh run on the embedded agent, its report written by `iomark run --report`.
timeout 120 "$iomark" run --target "$work/data" --spec "4K random read" --qd 1,2,4 --time 1 --size 16M \
  --results "$work/fresh.csv" --json "$work/fresh.json" --report "$work/fresh.html" >"$work/fresh.out" 2>"$work/fresh.err"
check "fresh: iomark run exits 0 ($(tail -1 "$work/fresh.err"))" test $? -eq 0
grep '^report:' "$work/fresh.out" >"$work/fresh.report.out"
check_report fresh "$work/fresh.html" "$work/fresh.report.out"
check "fresh: the IOPS chart's ALL curve has the three runs" \
  grep -q 'data-label="ALL" data-points="3"' "$work/fresh.dom"
check "fresh: a latency percentile chart" grep -q 'data-chart="[^"]*-latency-percentiles"' "$work/fresh.dom"

"$iomark" report "$work/fresh.json" "$work/fresh.csv" -o "$work/mixed.html" >"$work/mixed.out" 2>&1
check "mixed: iomark report exits 0" test $? -eq 0
check_report mixed "$work/mixed.html" "$work/mixed.out"
check "mixed: the CSV of the same runs has the JSON's IOPS (ratio 1.000)" \
  test "$(grep -c '<td class="n">1.000</td>' "$work/mixed.dom")" = 3

# A screenshot: a PNG of the full window.
profile=$(mktemp -d -p "$work")
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
  --screenshot="$work/fresh.png" --window-size=1400,2400 "file://$work/fresh.html" >/dev/null 2>&1
check "a PNG screenshot" test "$(head -c 8 "$work/fresh.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a

finish report_browser

#!/usr/bin/env bash
# The Debian packages, end to end, on this machine: build them (release preset), install
# them with dpkg -i (missing dependencies from Debian through apt-get first), check their
# files and man pages, start the agent as the service would (through systemd when it is
# PID 1, else the unit's own commands as the user iomark), run a short series against it
# with the installed iomark and the installed key, then remove and purge the packages and
# check that nothing is left: files, the user, processes, device access.
#
# Needs root and changes the system (packages, a user), so it is not part of ./dev test:
# run it with ./dev package-test on a machine where that is fine. Exit 0 pass, 1 fail,
# 77 skipped (with the reason). Every step has a time limit; the agent it starts is
# stopped by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly UNIT=/lib/systemd/system/iomark-agent.service
readonly CONFIG=/etc/iomark/agent.conf
readonly KEY=/etc/iomark/agent.key
readonly STARTED=$SECONDS

say() { printf '\033[1m[install-test %3ds]\033[0m %s\n' "$((SECONDS - STARTED))" "$*"; }
fail() {
  say "FAIL: $*"
  exit 1
}
skip() {
  say "SKIP: $*"
  exit 77
}
check() {  # check DESCRIPTION COMMAND...: runs COMMAND, fails the test when it fails
  local what=$1
  shift
  "$@" || fail "$what"
  say "ok: $what"
}

((EUID == 0)) || skip "needs root: installs packages, adds the user iomark, grants device access"
for tool in dpkg dpkg-deb apt-get setpriv timeout; do
  command -v "$tool" >/dev/null || skip "needs $tool (a Debian system)"
done
for package in iomark iomark-agent iomark-gui; do
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'installed\|config-files'; then
    skip "package $package is already on this machine; the test would remove it (dpkg --purge $package first)"
  fi
done
getent passwd iomark >/dev/null && skip "a user iomark exists already; the test would delete it"

work=$(mktemp -d /var/tmp/iomark-install-test.XXXXXX)
targets=
agent_pid=
installed=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [[ -n $agent_pid ]] && kill -0 "$agent_pid" 2>/dev/null; then
    kill -TERM "$agent_pid" 2>/dev/null || true
    timeout 10 tail --pid="$agent_pid" -f /dev/null || kill -KILL "$agent_pid" 2>/dev/null || true
  fi
  if [[ -d /run/systemd/system ]] && systemctl is-active --quiet iomark-agent.service 2>/dev/null; then
    timeout 60 systemctl stop iomark-agent.service || true
  fi
  if [[ -x /usr/libexec/iomark/iomark-agent-access ]]; then /usr/libexec/iomark/iomark-agent-access revoke || true; fi
  if ((${#installed[@]})); then
    say "cleanup: purging ${installed[*]}"
    timeout 120 dpkg --purge "${installed[@]}" >/dev/null 2>&1 || true
  fi
  rm -rf "$work" ${targets:+"$targets"}
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- Build -----------------------------------------------------------------------------------
say "building the packages (release preset)"
if [[ ! -f build/release/build.ninja ]]; then
  timeout 600 cmake --preset release >/dev/null
fi
rm -f build/release/packages/*.deb
timeout 3600 cmake --build --preset release --target packages -- -j"$(nproc)" >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; fail "building the packages"; }
mapfile -t debs < <(find build/release/packages -maxdepth 1 -name '*.deb' | sort)
((${#debs[@]} >= 2)) || fail "expected at least iomark and iomark-agent packages, found: ${debs[*]:-none}"
version=$(sed -n 's/^project(iomark VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
for deb in "${debs[@]}"; do
  printf '  %-40s %8s bytes  %s %s\n    Depends: %s\n' "$(basename "$deb")" "$(stat -c %s "$deb")" \
    "$(dpkg-deb -f "$deb" Package)" "$(dpkg-deb -f "$deb" Version)" "$(dpkg-deb -f "$deb" Depends)"
  [[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "$deb: version is not the project's $version"
done
agent_deb=$(printf '%s\n' "${debs[@]}" | grep '/iomark-agent_')
check "the agent package does not depend on Qt" bash -c "! dpkg-deb -f '$agent_deb' Depends | grep -qi qt"

# --- Install ---------------------------------------------------------------------------------
mapfile -t wanted < <(for deb in "${debs[@]}"; do dpkg-deb -f "$deb" Depends; done | tr ',' '\n' |
  sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep . | sort -u)
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
  say "installing the dependencies missing here from Debian: ${missing[*]}"
  timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=120 "${missing[@]}" >/dev/null
fi
say "dpkg -i ${debs[*]##*/}"
for deb in "${debs[@]}"; do installed+=("$(dpkg-deb -f "$deb" Package)"); done
timeout 300 dpkg -i "${debs[@]}" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }

# --- Files, user, man pages ------------------------------------------------------------------
mapfile -t package_files < <(dpkg -L "${installed[@]}" | sort -u)
for path in /usr/bin/iomark /usr/bin/iomark-agent /usr/libexec/iomark/iomark-agent-access "$UNIT" "$CONFIG" \
  /usr/share/man/man1/iomark.1.gz /usr/share/man/man8/iomark-agent.8.gz \
  /usr/share/bash-completion/completions/iomark /usr/share/bash-completion/completions/iomark-agent; do
  [[ -e $path ]] || fail "$path is not installed"
done
say "ok: binaries, unit, configuration, man pages and bash completions in place"
check "the bash completions are what the installed programs print" \
  bash -c 'cmp -s <(iomark completion) /usr/share/bash-completion/completions/iomark &&
           cmp -s <(iomark-agent completion) /usr/share/bash-completion/completions/iomark-agent'
check "$CONFIG is a conffile" bash -c "dpkg-query -W -f='\${Conffiles}' iomark-agent | grep -q '$CONFIG'"
check "system user and group iomark (no login shell)" \
  bash -c '[[ $(getent passwd iomark | cut -d: -f7) == /usr/sbin/nologin ]] && getent group iomark >/dev/null &&
           (( $(id -u iomark) < 1000 ))'
check "$KEY made at installation, root:iomark 0640" bash -c "[[ \$(stat -c '%U:%G %a' $KEY) == 'root:iomark 640' ]]"
check "installed binaries report version $version" \
  bash -c "iomark --version | grep -qx 'iomark $version' && iomark-agent --version | grep -qx 'iomark-agent $version'"
check "iomark-agent links no Qt" bash -c '! ldd /usr/bin/iomark-agent | grep -qi qt'
if command -v systemd-analyze >/dev/null; then
  check "systemd-analyze verify $UNIT is clean" bash -c "[[ -z \$(systemd-analyze verify $UNIT 2>&1) ]]"
fi

# A man page: found by man, renders without warnings, and names every long option the
# command's --help lists.
check_man() {
  local page=$1 section=$2
  shift 2
  local path problems
  path=$(man -w "$section" "$page") || fail "man -w $section $page"
  problems=$(packaging/check_man_page.sh "$path" "$@") || fail "$problems"
  if (($#)); then
    say "ok: man $section $page ($path) renders cleanly and documents every flag of: $*"
  else
    say "ok: man $section $page ($path) renders cleanly"
  fi
}
check_man iomark 1 "iomark" "iomark run" "iomark icf convert" "iomark icf show" "iomark specs show" \
  "iomark results show"
check_man iomark-agent 8 "iomark-agent" "iomark-agent run-local" "iomark-agent engines"
if [[ " ${installed[*]} " == *" iomark-gui "* ]]; then
  for path in /usr/bin/iomark-gui /usr/share/applications/iomark-gui.desktop \
    /usr/share/icons/hicolor/scalable/apps/iomark.svg /usr/share/man/man1/iomark-gui.1.gz; do
    [[ -e $path ]] || fail "$path is not installed"
  done
  say "ok: iomark-gui, its .desktop file and icon in place"
  check_man iomark-gui 1 "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM iomark-gui"
  if command -v desktop-file-validate >/dev/null; then
    check "the .desktop file is valid" desktop-file-validate /usr/share/applications/iomark-gui.desktop
  fi
fi

# --- Configure and start the agent -----------------------------------------------------------
# Not below /tmp or /var/tmp: the unit gives the agent private ones.
targets=$(mktemp -d /var/lib/iomark-install-test.XXXXXX)
chmod 0711 "$targets"  # iomark must be able to reach the allowed directory (not list it)
allowed=$targets/allowed
not_allowed=$targets/not-allowed
mkdir -p "$allowed" "$not_allowed"
grep -q '^listen = ' "$CONFIG" || fail "the shipped $CONFIG has no listen line to change"
sed -i -e 's|^listen = .*|listen = "127.0.0.1:0"|' -e "\$a allow = [\"$allowed\"]" "$CONFIG"
say "configured: listen = \"127.0.0.1:0\", allow = [\"$allowed\"]"
log=$work/agent.log
start_time=$(date +%s)
if [[ -d /run/systemd/system ]]; then
  say "starting iomark-agent.service (systemd is PID 1)"
  timeout 60 systemctl start iomark-agent.service || fail "systemctl start iomark-agent"
  agent_pid=$(systemctl show -p MainPID --value iomark-agent.service)
  agent_log() { journalctl -u iomark-agent.service --no-pager -o cat --since "@$start_time" >"$log"; }
else
  # Without systemd, the unit's own commands: ExecStartPre as root, ExecStart as User=.
  read -r -a pre < <(sed -n 's/^ExecStartPre=+//p' "$UNIT")
  read -r -a main < <(sed -n 's/^ExecStart=//p' "$UNIT")
  say "systemd is not PID 1: running the unit's commands: ${pre[*]}; setpriv --reuid=iomark ${main[*]}"
  timeout 30 "${pre[@]}" || fail "${pre[*]}"
  setpriv --reuid=iomark --regid=iomark --init-groups --no-new-privs -- "${main[@]}" >"$log" 2>&1 &
  agent_pid=$!
  agent_log() { :; }
fi
port=
for _ in $(seq 100); do
  agent_log
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" | tail -1)
  [[ -n $port ]] && break
  kill -0 "$agent_pid" 2>/dev/null || { cat "$log"; fail "the agent exited"; }
  sleep 0.1
done
[[ -n $port ]] || { cat "$log"; fail "the agent did not listen within 10 s"; }
say "agent PID $agent_pid listening on 127.0.0.1:$port"
check "the agent runs as iomark" bash -c "[[ \$(ps -o user= -p $agent_pid) == iomark ]]"
check "iomark has access to the allowed directory (ACL)" bash -c "getfacl -p '$allowed' 2>/dev/null | grep -q '^user:iomark:rwx'"
check "no access to what is not listed" bash -c "! getfacl -p '$not_allowed' 2>/dev/null | grep -q '^user:iomark'"

# --- A short series --------------------------------------------------------------------------
say "iomark run --manager 127.0.0.1:$port --key-file $KEY --target $allowed --qd 1,4 --time 2"
timeout 120 iomark run --manager "127.0.0.1:$port" --key-file "$KEY" --target "$allowed" --size 16M \
  --spec Database --qd 1,4 --ramp 0 --time 2 --description "iomark install test" \
  --results "$work/results.csv" --json "$work/results.json" 2>"$work/run.err" || {
  cat "$work/run.err"
  agent_log
  cat "$log"
  fail "iomark run against the installed agent"
}
check "results.csv holds the two runs" bash -c "[[ \$(grep -c '^ALL,' '$work/results.csv') == 2 ]]"
check "the agent made iobw.tst as iomark" bash -c "[[ \$(stat -c %U '$allowed/iobw.tst') == iomark ]]"
# Two fences keep the agent to what is listed: its own allow list (a file anyone may write,
# but not listed, is refused by the agent) and the file permissions of the user iomark (a
# directory not listed, where the agent would make iobw.tst, is refused by the kernel).
refused() {  # refused NAME TARGET PATTERN: iomark run on TARGET fails with PATTERN in its errors
  if timeout 60 iomark run --manager "127.0.0.1:$port" --key-file "$KEY" --target "$2" --size 16M --time 1 \
    --results '' >/dev/null 2>"$work/$1.err"; then
    fail "iomark run --target $2 succeeded"
  fi
  grep -q "$3" "$work/$1.err" || { cat "$work/$1.err"; fail "iomark run --target $2 failed for another reason"; }
  say "ok: refused: $(grep -m1 "$3" "$work/$1.err")"
}
truncate -s 16M "$not_allowed/file"
chmod 0666 "$not_allowed/file"
refused listed "$not_allowed/file" 'is not allowed'
refused permissions "$not_allowed" 'Permission denied'
if IOMARK_KEY=not-the-key-of-this-agent timeout 60 iomark run --manager "127.0.0.1:$port" --target "$allowed" \
  --time 1 --results '' >/dev/null 2>"$work/key.err"; then
  fail "a controller with another key was served"
fi
grep -q 'another key' "$work/key.err" || { cat "$work/key.err"; fail "a wrong key failed for another reason"; }
say "ok: another key is refused: $(grep -m1 'another key' "$work/key.err")"

# --- Stop --------------------------------------------------------------------------------------
if [[ -d /run/systemd/system ]]; then
  timeout 60 systemctl stop iomark-agent.service || fail "systemctl stop iomark-agent"
else
  kill -TERM "$agent_pid"
  timeout 30 tail --pid="$agent_pid" -f /dev/null || fail "the agent did not stop within 30 s of SIGTERM"
  wait "$agent_pid" || fail "the agent exited with status $? on SIGTERM"
  read -r -a post < <(sed -n 's/^ExecStopPost=+//p' "$UNIT")
  timeout 30 "${post[@]}" || fail "${post[*]}"
fi
kill -0 "$agent_pid" 2>/dev/null && fail "the agent (PID $agent_pid) still runs"
agent_pid=
check "access taken back when the agent stopped" bash -c "! getfacl -p '$allowed' 2>/dev/null | grep -q '^user:iomark'"

# --- Remove, then purge ------------------------------------------------------------------------
iomark_uid=$(id -u iomark)
say "dpkg -r ${installed[*]}"
timeout 120 dpkg -r "${installed[@]}" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -r"; }
check "after dpkg -r the binaries are gone and the configuration stays" \
  bash -c "[[ ! -e /usr/bin/iomark-agent && ! -e /usr/bin/iomark && -f $CONFIG && -f $KEY ]] && getent passwd iomark >/dev/null"
say "dpkg --purge ${installed[*]}"
timeout 120 dpkg --purge "${installed[@]}" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg --purge"; }
installed=()
left=()
for path in "${package_files[@]}" /etc/iomark /run/iomark "$KEY"; do
  # Shared directories (/usr/bin, /etc, ...) stay, and must.
  [[ -d $path && $path != /etc/iomark && $path != /usr/libexec/iomark && $path != /run/iomark ]] && continue
  [[ -e $path ]] && left+=("$path")
done
((${#left[@]} == 0)) || fail "left after purge: ${left[*]}"
say "ok: no file of the packages is left (${#package_files[@]} paths checked)"
check "no package left, not even its configuration" \
  bash -c "! dpkg-query -W -f='\${Status}\n' iomark iomark-agent iomark-gui 2>/dev/null | grep -qv not-installed"
check "user and group iomark deleted" bash -c '! getent passwd iomark >/dev/null && ! getent group iomark >/dev/null'
check "no process of the former user iomark (uid $iomark_uid)" bash -c "! ps -e -o uid= | grep -qx ' *$iomark_uid'"
check "no process runs /usr/bin/iomark-agent" \
  bash -c '! for exe in /proc/[0-9]*/exe; do readlink "$exe" 2>/dev/null; done | grep -q "^/usr/bin/iomark-agent"'
say "PASS in $((SECONDS - STARTED)) s"

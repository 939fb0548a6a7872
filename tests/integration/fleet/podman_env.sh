# Sourced by the fleet tests: podman as this machine's sandbox allows it, and shared checks.
#
# Deviations from a stock podman, each because the sandbox refuses the default (docs/fleet.md,
# "Testing it here"): the OCI runtime is runc (crun refuses cgroups in hybrid mode), and every
# container gets the rlimits this shell already has (raising RLIMIT_NOFILE or RLIMIT_NPROC in
# a container is not permitted here). The file is written once per test into its scratch
# directory and named by CONTAINERS_CONF, so the machine's own configuration is untouched.
set -uo pipefail
fleet_work=$(mktemp -d /var/tmp/iomark-fleet.XXXXXX)
chmod 0755 "$fleet_work"
cat >"$fleet_work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Sn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF=$fleet_work/containers.conf
passed=0 failed=0
cleanups=()

check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else echo "FAIL $name"; failed=$((failed + 1)); return 1; fi
}
# Cleanup steps run last-in first-out at exit; each is one command line.
on_exit() { cleanups+=("$*"); }
fleet_cleanup() {
  local i
  for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[i]}" >/dev/null 2>&1 || true; done
  rm -rf "$fleet_work"
}
trap fleet_cleanup EXIT
log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
finish() {
  echo "$(basename "$0"): $passed passed, $failed failed"
  ((failed == 0 && passed > 0))
}
# A podman network of this test's own: its own bridge and subnet, removed at exit.
make_network() {  # make_network NAME SUBNET
  podman network rm -f "$1" >/dev/null 2>&1 || true
  podman network create --subnet "$2" "$1" >/dev/null || return 1
  on_exit podman network rm -f "$1"
}

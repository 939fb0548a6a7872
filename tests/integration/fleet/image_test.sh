#!/usr/bin/env bash
# The image itself: its configuration (user 10066, entrypoint iomark-agent, no key inside),
# and that benchmarking a block device needs access to the device node and no capability:
# on a loop device of this test's own, iomark-agent run-local in the image with every
# capability dropped and no-new-privileges succeeds when the container's user is in the
# device's group, and is refused without it.
# usage: image_test.sh IMAGE
set -uo pipefail
image=${1:?usage: image_test.sh IMAGE}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/podman_env.sh"

size=$(podman image inspect --format '{{.Size}}' "$image")
log "image $image: $((size / 1024 / 1024)) MiB"
check "the image is under 200 MiB" test "$size" -lt $((200 * 1024 * 1024))
check "it runs as user 10066:10066" test "$(podman image inspect --format '{{.Config.User}}' "$image")" = 10066:10066
check "its entrypoint is iomark-agent" test "$(podman image inspect --format '{{json .Config.Entrypoint}}' "$image")" = '["/usr/bin/iomark-agent"]'
check "it holds no key" test "$(podman run --rm --network none --entrypoint /bin/sh "$image" -c 'ls /etc/iomark/agent.key 2>/dev/null | wc -l')" = 0
check "it holds the controller too" podman run --rm --network none --entrypoint /usr/bin/iomark "$image" --version
check "a bad option exits 2 (usage), which no restart fixes" \
  test "$(podman run --rm --network none "$image" --no-such-option >/dev/null 2>&1; echo $?)" = 2
retry=iomark-image-test-$$
on_exit podman rm -f -t 0 "$retry"
podman run -d --name "$retry" --network none --cap-drop all "$image" --insecure -i 192.0.2.1:1066 >/dev/null
sleep 3
check "a controller not (yet) reachable: the agent keeps dialling, it does not exit" \
  test "$(podman inspect --format '{{.State.Running}}' "$retry")" = true
podman run --rm --network none --cap-drop all "$image" engines >"$fleet_work/engines.txt" 2>&1
log "engines in the container: $(tr '\n' ' ' <"$fleet_work/engines.txt" | cut -c1-300)"

# A loop device of this test's own (never a device it did not make).
truncate -s 256M "$fleet_work/disk.img"
if ! loop=$(losetup -f --show "$fleet_work/disk.img" 2>/dev/null); then
  echo "SKIP no loop device can be made here: the block-device checks did not run"
  finish
  exit
fi
on_exit losetup -d "$loop"
# The node as a distribution's udev leaves it (root:disk 0660); this sandbox has no udev and
# makes it root:root 0600. Group 6 is Debian's disk; owner and mode are put back at exit.
on_exit chown "$(stat -c %u:%g "$loop")" "$loop"
on_exit chmod "$(stat -c %a "$loop")" "$loop"
chgrp 6 "$loop" && chmod 0660 "$loop"
gid=$(stat -c %g "$loop")
# podman (unlike containerd and CRI-O, which Kubernetes runs) hides /sys/dev/block behind an
# empty tmpfs; the agent reads /sys/dev/block/MAJ:MIN to check a device before it writes.
run_local() {  # run_local EXTRA_PODMAN_ARGS...: a 2-second 4K random 50% read on the device
  podman run --rm --network none --cap-drop all --security-opt no-new-privileges \
    --security-opt unmask=/sys/dev/block "$@" \
    --device "$loop:/dev/iomark-target" "$image" run-local --target /dev/iomark-target \
    --spec-line 4096,100,50,100,0,1,4096,0 --qd 4 --time 2 --json - 2>"$fleet_work/run-local.err"
}
run_local --group-add "$gid" >"$fleet_work/run-local.json"
status=$?
check "no capabilities, the device's group: run-local on $loop exits 0 (got $status)" test "$status" = 0 ||
  tail -3 "$fleet_work/run-local.err"
cp "$fleet_work/run-local.err" "$fleet_work/run-local-allowed.err"
iops=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(int(d["runs"][0]["summary"]["iops"]))' \
  "$fleet_work/run-local.json" 2>/dev/null || echo 0)
log "measured: $iops IOPS of 4K random 50% read on $loop, as 10066 with no capabilities"
check "it did I/O" test "$iops" -gt 0
run_local >/dev/null
status=$?
check "without the device's group the same run is refused (got $status)" test "$status" != 0
check "... because the device cannot be opened" grep -q 'Permission denied' "$fleet_work/run-local.err" ||
  tail -3 "$fleet_work/run-local.err"
finish

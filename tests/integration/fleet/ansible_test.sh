#!/usr/bin/env bash
# deploy/ansible on three agent hosts and a controller host: containers with systemd as
# their init on a podman network of this test's own, reached by Ansible's podman connection.
# The role is applied twice (the second run must change nothing), the agents must run as
# iomark-agent.service with the key at mode 0600, and run.yml must run a series on all three
# from the controller host (a quick series, then an IOmeter .icf plan) and fetch results.csv,
# JSON and the report back here.
# usage: ansible_test.sh PACKAGE_DIR    (holds iomark-agent_*.deb and iomark_*.deb)
set -uo pipefail
packages=$(cd "${1:?usage: ansible_test.sh PACKAGE_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
playbooks=$(cd "$here/../../../deploy/ansible" && pwd)
source "$here/podman_env.sh"

agent_deb=$(ls -t "$packages"/iomark-agent_*.deb | head -n1)
cli_deb=$(ls -t "$packages"/iomark_*.deb | head -n1)

# The hosts' image: Debian with systemd, Python for Ansible, sudo, and the libraries the two
# packages depend on (so that apt installs them without a mirror from inside the hosts).
depends() { dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep .; }
host_packages=$( (printf '%s\n' systemd systemd-sysv dbus python3 python3-apt sudo iproute2; depends "$agent_deb"; depends "$cli_deb") | sort -u)
host_image=localhost/iomark-fleet-host:$(sha256sum <<<"$host_packages" | cut -c1-12)
if ! podman image exists "$host_image"; then
  log "making the test hosts' image $host_image"
  mmdebstrap --mode=root --variant=minbase --quiet --include="$(tr '\n' , <<<"$host_packages")" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/*' \
    bookworm "$fleet_work/host.tar" "deb ${IOMARK_IMAGE_MIRROR:-http://deb.debian.org/debian} bookworm main" ||
    { echo "FAIL mmdebstrap (the test hosts' image)"; exit 1; }
  podman import --change 'CMD ["/sbin/init"]' "$fleet_work/host.tar" "$host_image" >/dev/null ||
    { echo "FAIL podman import"; exit 1; }
  rm -f "$fleet_work/host.tar"
fi

net=iomark-ansible-$$
make_network "$net" "10.91.$((RANDOM % 200 + 20)).0/24" || { echo "FAIL cannot make the podman network $net"; exit 1; }
prefix=iomark-ans-$$
hosts=("$prefix-agent1" "$prefix-agent2" "$prefix-agent3")
# Each host stands for a machine: systemd as init, and CAP_SYS_ADMIN so that the unit's
# sandboxing (PrivateTmp, ProtectSystem) can make its mount namespace as on a real host.
# /srv/iomark is a directory of this test's scratch space (O_DIRECT works there).
for host in "${hosts[@]}" "$prefix-controller"; do
  mkdir -p "$fleet_work/srv/$host"
  on_exit podman rm -f -t 0 "$host"
  podman run -d --name "$host" --hostname "$host" --network "$net" --systemd=always --cap-add SYS_ADMIN \
    -v "$fleet_work/srv/$host:/srv/iomark" "$host_image" /sbin/init >/dev/null ||
    { echo "FAIL cannot start the test host $host"; exit 1; }
done
for host in "${hosts[@]}" "$prefix-controller"; do
  for _ in $(seq 1 100); do
    state=$(podman exec "$host" systemctl is-system-running 2>/dev/null)
    [[ $state == running || $state == degraded ]] && break
    sleep 0.2
  done
done

head -c 32 /dev/urandom | base64 >"$fleet_work/iomark.key"
chmod 0600 "$fleet_work/iomark.key"
cat >"$fleet_work/hosts.ini" <<INI
[iomark_agents]
$(printf '%s\n' "${hosts[@]}")

[iomark_controller]
$prefix-controller

[all:vars]
ansible_connection=containers.podman.podman
iomark_agent_deb=$agent_deb
iomark_deb=$cli_deb
iomark_agent_key_src=$fleet_work/iomark.key
iomark_agent_allow=["/srv/iomark"]
iomark_run_target=/srv/iomark
iomark_run_args=["--spec=Database", "--qd=1,4", "--size=64M", "--ramp=0", "--time=3"]
iomark_results_local_dir=$fleet_work/results
INI

started=$SECONDS
play() {  # play NAME PLAYBOOK: runs it, keeps its output in $fleet_work/NAME.out
  ANSIBLE_FORCE_COLOR=0 ANSIBLE_NOCOLOR=1 ansible-playbook -i "$fleet_work/hosts.ini" "$playbooks/$2" \
    >"$fleet_work/$1.out" 2>&1
}
recap() { sed -n '/^PLAY RECAP/,$p' "$fleet_work/$1.out"; }
all_hosts_with() {  # all_hosts_with NAME PATTERN: every agent's recap line matches
  local host
  for host in "${hosts[@]}"; do recap "$1" | grep "^$host " | grep -q -- "$2" || return 1; done
}

play first agents.yml
check "agents.yml applies (first run)" test $? -eq 0 || tail -30 "$fleet_work/first.out"
log "first run: $(recap first | grep -c 'changed=[1-9]') hosts changed, $((SECONDS - started)) s"
check "the first run changes every agent host" all_hosts_with first 'changed=[1-9]'
second=$SECONDS
play second agents.yml
check "agents.yml applies (second run)" test $? -eq 0 || tail -30 "$fleet_work/second.out"
check "the second run changes nothing (changed=0 failed=0 on every host)" all_hosts_with second 'changed=0 .*failed=0'
recap second | grep -v '^$'
log "second run: $((SECONDS - second)) s"

for host in "${hosts[@]}"; do
  check "$host: iomark-agent.service is enabled and active" \
    test "$(podman exec "$host" sh -c 'systemctl is-enabled iomark-agent; systemctl is-active iomark-agent' | tr '\n' ' ')" = "enabled active "
  check "$host: the key is the given one, owner iomark, mode 0600" \
    test "$(podman exec "$host" stat -c '%U %a' /etc/iomark/agent.key) $(podman exec "$host" cat /etc/iomark/agent.key)" = "iomark 600 $(cat "$fleet_work/iomark.key")"
  check "$host: agent.conf names the key, the allowed path and the host" \
    podman exec "$host" grep -qzE 'listen = "1066".*name = "'"$host"'".*key-file = "/etc/iomark/agent.key".*allow = \["/srv/iomark"\]' /etc/iomark/agent.conf
  check "$host: the agent runs as user iomark" \
    test "$(podman exec "$host" sh -c 'stat -c %U /proc/$(systemctl show -p MainPID --value iomark-agent)')" = iomark
done

run_started=$SECONDS
play run run.yml
check "run.yml runs a series from the controller host" test $? -eq 0 || tail -40 "$fleet_work/run.out"
log "run.yml: $((SECONDS - run_started)) s"
csv=$(ls "$fleet_work"/results/*/results.csv 2>/dev/null | head -n1)
check "results.csv came back to the Ansible controller" test -s "$csv"
check "results.json and report.html came back too" test -s "$(dirname "$csv")/results.json" -a -s "$(dirname "$csv")/report.html"
names=$(awk -F, '$1 == "MANAGER" {print $2}' "$csv" | sort -u | tr '\n' ' ')
log "managers in results.csv: $names"
check "results.csv has the three agents" test "$names" = "$(printf '%s ' "${hosts[@]}")"
check "two runs (QD 1 and 4) over 3 managers, with I/O and no errors" \
  test "$(awk -F, '$1 == "ALL" && $4 == 3 && $7 > 0 && $28 == 0' "$csv" | wc -l)" = 2
check "each agent made iobw.tst in its allowed directory" \
  test "$(ls "$fleet_work"/srv/"$prefix"-agent*/iobw.tst 2>/dev/null | wc -l)" = 3

# The same with an IOmeter plan: its managers are the agents' names (the role names each agent
# after its inventory host), each with one worker on /srv/iomark, queue depth cycling 1, 2, 4.
plan=$fleet_work/plan.icf
{
  printf 'Version 1.1.0 \n'
  printf "'TEST SETUP ====================================================================\n"
  printf "'Test Description\n\tthree agents from a plan\n'Run Time\n'\thours      minutes    seconds\n\t0          0          2\n"
  printf "'Ramp Up Time (s)\n\t0\n'Default Disk Workers to Spawn\n\t1\n'Default Network Workers to Spawn\n\t0\n"
  printf "'Record Results\n\tALL\n'Worker Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Disk Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Queue Depth Cycling\n'\tstart      end        step       step type\n\t1          4          2          EXPONENTIAL\n"
  printf "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n"
  printf "'MANAGER LIST ==================================================================\n"
  for host in "${hosts[@]}"; do
    printf "'Manager ID, manager name\n\t1,%s\n'Manager network address\n\t\n" "$host"
    printf "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n"
    printf "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n\t1,DISABLED,1,ENABLED,42\n"
    printf "'Disk maximum size,starting sector,Data pattern\n\t32768,0,0\n'End default target settings for worker\n"
    printf "'Assigned access specs\n\t4K random read\n'End assigned access specs\n"
    printf "'Target assignments\n'Target\n\t/srv/iomark\n'Target type\n\tDISK\n'End target\n'End target assignments\n'End worker\n'End manager\n"
  done
  printf "'END manager list\nVersion 1.1.0 \n"
} >"$plan"
rm -rf "$fleet_work/results"
plan_started=$SECONDS
ANSIBLE_NOCOLOR=1 ansible-playbook -i "$fleet_work/hosts.ini" "$playbooks/run.yml" -e "iomark_run_plan=$plan" \
  >"$fleet_work/plan.out" 2>&1
check "run.yml runs an .icf plan on the three agents" test $? -eq 0 || tail -40 "$fleet_work/plan.out"
log "run.yml with a plan: $((SECONDS - plan_started)) s"
pcsv=$(ls "$fleet_work"/results/*/results.csv 2>/dev/null | head -n1)
check "the plan's results.csv came back with its description" test "$(sed -n 2p "$pcsv" 2>/dev/null)" = "6,three agents from a plan"
check "the plan ran QD 1, 2, 4 over 3 managers with I/O and no errors" \
  test "$(awk -F, '$1 == "ALL" && $4 == 3 && $7 > 0 && $28 == 0 {print $48}' "$pcsv" | tr '\n' ,)" = "1,2,4,"
check "the plan's MANAGER rows are the three agents, in the plan's order" \
  test "$(awk -F, '$1 == "MANAGER" {print $2}' "$pcsv" | head -3 | tr '\n' ' ')" = "$(printf '%s ' "${hosts[@]}")"
log "ansible test took $((SECONDS - started)) s"
finish

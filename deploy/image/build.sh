#!/usr/bin/env bash
# deploy/image/build.sh PACKAGE_DIR [IMAGE]
#
# Builds the OCI image of iomark (the agent, and the controller for the Kubernetes Job) from
# Debian 12 packages and the project's own .deb files in PACKAGE_DIR, with no registry pull:
# mmdebstrap makes a root file system of the essential Debian packages plus iomark-agent and
# iomark (apt resolves their library dependencies from Debian's mirror), and `podman import`
# turns that tar into an image with its configuration. Default IMAGE: localhost/iomark:VERSION.
#
# What the image is (docs/fleet.md, "The image"):
# - user 10066:10066 (the name iomark; no root at run time), entrypoint iomark-agent, so a
#   pod's `args:` are the agent's options; the controller runs as command `iomark run ...`;
# - no key inside: the package's postinst makes a random /etc/iomark/agent.key, which would be
#   one shared secret in every copy of the image, so it is deleted; keys and TLS files come
#   from mounted Secrets (--key-file, --tls-*);
# - no capabilities needed: read/write access to a device node or a directory is enough;
# - logs go to standard error, one line per event, which `kubectl logs`, `podman logs` and
#   journald keep; the exit codes are iomark-agent(8)'s (4: retry, 2/3/5: fix the input).
set -euo pipefail

packages=${1:?usage: deploy/image/build.sh PACKAGE_DIR [IMAGE]}
packages=$(cd "$packages" && pwd)
log() { printf '\033[1m[image]\033[0m %s\n' "$*" >&2; }

agent_deb=$(ls -t "$packages"/iomark-agent_*.deb 2>/dev/null | head -n1 || true)
cli_deb=$(ls -t "$packages"/iomark_*.deb 2>/dev/null | head -n1 || true)
[[ -n $agent_deb && -n $cli_deb ]] || { log "no iomark-agent_*.deb and iomark_*.deb in $packages (./dev package)"; exit 3; }
version=$(dpkg-deb -f "$agent_deb" Version)
image=${2:-localhost/iomark:$version}
suite=${IOMARK_IMAGE_SUITE:-bookworm}
mirror=${IOMARK_IMAGE_MIRROR:-http://deb.debian.org/debian}

work=$(mktemp -d /var/tmp/iomark-image.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$agent_deb" "$cli_deb" "$work/"

# The user the containers run as, made before the packages so postinst's adduser keeps it:
# a fixed number, as Kubernetes' runAsUser and fsGroup name users by number.
essential_hook='echo "iomark:x:10066:10066:iomark agent:/nonexistent:/usr/sbin/nologin" >>"$1/etc/passwd"
echo "iomark:x:10066:" >>"$1/etc/group"
echo "iomark:*:19000:0:99999:7:::" >>"$1/etc/shadow"'
# The two packages' dependencies come from the mirror with the essential set; the packages
# themselves are copied in and installed with the chroot's dpkg (apt, which mmdebstrap runs
# from outside, cannot reach a local .deb inside the chroot).
depends() { dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep .; }
include=$( (depends "$agent_deb"; depends "$cli_deb") | sort -u | paste -sd,)
install_hook="copy-in $work/$(basename "$agent_deb") $work/$(basename "$cli_deb") /tmp"
dpkg_hook='chroot "$1" dpkg -i /tmp/'"$(basename "$agent_deb") /tmp/$(basename "$cli_deb")"
# Nothing the image never reads: documentation, man pages, locales, apt's lists, the
# postinst's key, logs. The directories for mounted keys and results exist and belong to
# the user, so the image also runs without a volume.
customize_hook='rm -f "$1/etc/iomark/agent.key" "$1"/tmp/*.deb
rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/cache/debconf/*-old "$1"/var/log/* \
  "$1"/usr/share/doc/*/changelog* "$1"/usr/share/info "$1"/usr/share/lintian "$1"/usr/share/common-licenses
mkdir -p "$1/etc/iomark/secret" "$1/data" "$1/results"
chown 10066:10066 "$1/data" "$1/results"'

log "making the root file system ($suite, $(basename "$agent_deb"), $(basename "$cli_deb"))"
mmdebstrap --mode=root --variant=essential ${IOMARK_IMAGE_VERBOSE:+--verbose} --quiet --include="$include" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/bash-completion/*' \
  --essential-hook="$essential_hook" --customize-hook="$install_hook" --customize-hook="$dpkg_hook" \
  --customize-hook="$customize_hook" \
  "$suite" "$work/rootfs.tar" "deb $mirror $suite main"

log "importing $image"
podman rmi --force "$image" >/dev/null 2>&1 || true
podman import \
  --change 'USER 10066:10066' \
  --change 'WORKDIR /' \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin' \
  --change 'ENTRYPOINT ["/usr/bin/iomark-agent"]' \
  --change 'STOPSIGNAL SIGTERM' \
  --change "LABEL org.opencontainers.image.title=iomark org.opencontainers.image.version=$version org.opencontainers.image.description=iomark-agent (entrypoint) and the iomark controller, from Debian $suite packages" \
  --message "iomark $version from $(basename "$agent_deb") and $(basename "$cli_deb")" \
  "$work/rootfs.tar" "$image" >/dev/null

size=$(podman image inspect --format '{{.Size}}' "$image")
log "built $image: $((size / 1024 / 1024)) MiB"
echo "$image"

#!/bin/sh
# The runtime stage's set-up, run as root inside a Debian bookworm root filesystem: by the
# Dockerfile (RUN) and by scripts/image-check.sh (chroot), so both set up the same system.
# Installs the packages of runtime-packages.txt (beside this script) and creates the user alertd
# runs as. Leaves no package lists behind.
set -eu
here=$(dirname "$0")
packages=$(grep -v '^[[:space:]]*#' "$here/runtime-packages.txt" | tr -s '[:space:]' ' ')
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages
apt-get clean
rm -rf /var/lib/apt/lists/*
useradd --system --uid 10001 --user-group --home-dir /var/lib/alertd --create-home --shell /usr/sbin/nologin alertd
chmod 0700 /var/lib/alertd

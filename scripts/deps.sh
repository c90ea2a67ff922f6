#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install every Debian package vcryptfs needs, only what is missing.
# Debian 12 (bookworm) package names. Runs as root (CI, demo); elsewhere it
# uses sudo when present.
set -euo pipefail
PKGS=(
	build-essential pkg-config git
	libfuse3-dev fuse3 libssl-dev openssl libjansson-dev liburing-dev
	nettle-dev libgcrypt20-dev
	clang-14 libclang-rt-14-dev clang-tidy clang-format cppcheck
	frama-c-base why3 z3 cvc4 cvc5
	qemu-user gocryptfs gnuplot-nox valgrind
	attr xxd acl
	openssh-server openssh-client sshfs unison rsync
	tar sqlite3 make python3 strace
	debhelper dpkg-dev fakeroot devscripts systemd man-db groff-base
)
missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ "${#missing[@]}" -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} Debian packages present"
	exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

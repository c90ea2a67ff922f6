#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Demo of the mount (called from scripts/demo.sh for `make demo`): create a
# cipher directory in a temp dir, mount it, write and read a file through
# the mount, show the ciphertext side, print `vcryptfs -speed`, unmount.
# Always unmounts and removes the temp dir, also on errors and Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
VC=${BUILD:-build}/vcryptfs
[ -x "$VC" ] || { echo "demo: $VC not built (make all)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/vcryptfs-demo.XXXXXX)
cleanup() {
	if mountpoint -q "$tmp/plain" 2>/dev/null; then
		fusermount3 -u "$tmp/plain" || fusermount3 -u -z "$tmp/plain"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$tmp/cipher" "$tmp/plain"
printf 'demo-password\n' >"$tmp/passfile"
run() { echo "\$ $*"; "$@"; }
run "$VC" -init -scryptn 10 -passfile "$tmp/passfile" "$tmp/cipher"
run "$VC" -passfile "$tmp/passfile" "$tmp/cipher" "$tmp/plain"
echo "\$ echo 'Hello through vcryptfs' > $tmp/plain/hello.txt"
echo 'Hello through vcryptfs' >"$tmp/plain/hello.txt"
run mkdir "$tmp/plain/docs"
echo "\$ head -c 100000 /dev/urandom > $tmp/plain/docs/random.bin"
head -c 100000 /dev/urandom >"$tmp/plain/docs/random.bin"
run cat "$tmp/plain/hello.txt"
run ls -l "$tmp/plain" "$tmp/plain/docs"
echo "--- the ciphertext side: encrypted names, header + 4 KiB blocks"
run ls -l "$tmp/cipher"
run "$VC" -speed
run fusermount3 -u "$tmp/plain"
echo "demo: mounted, wrote, read back and unmounted successfully"

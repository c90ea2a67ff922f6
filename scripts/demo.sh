#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make demo (runs after `make deps` and the build): shows vcryptfs working.
# The version and CPU report, the crypto self-test (RFC 8439, XChaCha draft,
# Wycheproof, OpenSSL differential and property tests), then a real mount:
# scripts/demo_mount.sh makes a cipher directory, mounts it, writes and reads
# through it, shows the ciphertext side, prints -speed and unmounts.
# Exits non-zero when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export VCRYPTFS_ROOT=$PWD
BUILD=${BUILD:-build}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

step() { printf '\n==> %s\n' "$*"; }

step "crypto test suite: $BUILD/tests/test_crypto"
if [ ! -x "$BUILD/tests/test_crypto" ]; then
	echo "demo: $BUILD/tests/test_crypto is not built (make tests-build)" >&2
	exit 1
fi
. scripts/shared_dir.sh
filter=()
if [ "$shared_found" = 0 ]; then
	# The Wycheproof files come with the project's shared/ test data, not
	# with the repository: without them, run every other crypto test.
	echo "  (no test data at $VCRYPTFS_SHARED: Wycheproof tests left out;" \
		"make check needs it)"
	filter=(rfc8439 xchacha-draft openssl prop- ct-)
fi
rc=0
"$BUILD/tests/test_crypto" "${filter[@]}" >"$tmp" || rc=$?
# one line per test: name, then its PASS/FAIL counts
awk '
	/^--- / { if (name != "") printf "  %-32s %4d passed, %d failed\n", name, p, f
		  name = $2; p = 0; f = 0; next }
	/^PASS: / { p++ } /^FAIL: / { f++ }
	END { if (name != "") printf "  %-32s %4d passed, %d failed\n", name, p, f }
' "$tmp"
grep '^FAIL: ' "$tmp" || true
echo "  total: $(grep -c '^PASS: ' "$tmp" || true) passed," \
	"$(grep -c '^FAIL: ' "$tmp" || true) failed (exit $rc)"
[ "$rc" -eq 0 ]

step "$BUILD/vcryptfs -version"
"$BUILD/vcryptfs" -version

step "a real mount: scripts/demo_mount.sh"
BUILD=$BUILD bash scripts/demo_mount.sh

step "demo done"

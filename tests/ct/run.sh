#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make ct: build/ct/ct_check under valgrind's memcheck (issue 24). Every
# secret is undefined; a branch or a memory index that depends on one is
# a memcheck error. Code that is not ours is suppressed only through
# tests/ct/ct.supp (each entry says why). Prints the PASS:/FAIL:/SKIP:
# lines of ct_check and valgrind's error summary; exits 1 on any error.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${CT_BIN:-${BUILD:-build}/ct/ct_check}
if ! command -v valgrind >/dev/null; then
	echo "FAIL: ct: valgrind is not installed (Debian package valgrind)"
	exit 1
fi
if [ ! -x "$BIN" ]; then
	echo "FAIL: ct: $BIN is not built (make ct)"
	exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "ct: $(valgrind --version), kernels this CPU runs natively: $("$BIN" \
	--kernels | tr '\n' ' ')"
# Two runs with the same suppressions: every case but AES-GCM, where only
# the scrypt entry may fire (so the GCM entries, which cannot be anchored
# on a caller, provably hide nothing in HKDF, EME's AES or our code), then
# the AES-GCM cases on OpenSSL, then on libgcrypt (the mount's backend;
# only the libgcrypt entries may fire there).
status=0
for part in --no-gcm --gcm-only --gcrypt; do
	valgrind --tool=memcheck --error-exitcode=99 --track-origins=yes \
		--suppressions=tests/ct/ct.supp --num-callers=30 -v \
		--log-file="$log" "$BIN" "$part"
	rc=$?
	summary=$(grep -m1 -E 'ERROR SUMMARY' "$log" | sed 's/^==[0-9]*== //')
	# what the suppressions hid (not our code; tests/ct/ct.supp says why)
	used=$(grep -E 'used_suppression' "$log" | sed -E \
		's/^--[0-9]+-- +used_suppression: +//')
	[ -n "$used" ] && echo "$used" |
		sed 's/^/ct: suppressed (not our code): /'
	if [ "$part" = --no-gcm ] &&
		echo "$used" | grep -qv 'openssl-scrypt-romix-index'; then
		echo "FAIL: ct: a suppression other than scrypt's fired" \
			"outside the AES-GCM cases"
		status=1
	fi
	# each backend's entries fire only in its own part
	if [ "$part" = --gcm-only ] && echo "$used" | grep -q 'libgcrypt-'; then
		echo "FAIL: ct: a libgcrypt suppression fired in the OpenSSL" \
			"AES-GCM part"
		status=1
	fi
	if [ "$part" = --gcrypt ] &&
		echo "$used" | grep -v 'libgcrypt-' | grep -q .; then
		echo "FAIL: ct: a suppression other than libgcrypt's fired" \
			"in the libgcrypt AES-GCM part"
		status=1
	fi
	if [ "$rc" -ne 0 ]; then
		# the reports, to say what was caught and where
		grep -E '^==[0-9]+== ' "$log" | sed 's/^==[0-9]*== /  vg: /' |
			grep -E 'vg: +(Conditional|Use of|Syscall|at |by |Uninit)' |
			head -n "${CT_REPORT_LINES:-60}"
		status=1
	fi
	echo "ct: $part: valgrind exit $rc; $summary"
done
exit "$status"

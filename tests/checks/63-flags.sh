#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: flags: every row of the flag table src/fuse/FLAGS.md. The tool
# $BUILD/tools/flagop performs one case (a call with one flag or mode, on
# files it sets up) in a directory and prints the outcome: each call's
# result or errno, the files' sizes and contents afterwards. Each case runs
# on a reference directory and on a vcryptfs mount, and the outcomes must
# be equal. The reference is a plain directory on disk, or for a feature
# the mount refuses, a filesystem without it (tmpfs in /dev/shm, or a
# gocryptfs 2.3 mount), as the table's Reference column says.
# Mounts: a fresh volume of each cipher (AES-GCM, -xchacha), each served by
# $BUILD/vcryptfs and by the ASan/UBSan $SANBUILD/vcryptfs (any sanitizer
# report fails the group). Cases:
#   table    the table and flagop name the same cases
#   default  every case on an AES-GCM mount (plain and sanitized daemon)
#   xchacha  every case on an -xchacha mount (plain and sanitized daemon)
# Every mount is unmounted by the EXIT trap.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool gocryptfs || exit 0
need_fuse flags || exit 0
VC=$BUILD/vcryptfs
SANVC=$SANBUILD/vcryptfs
FO=$BUILD/tools/flagop
TABLE=src/fuse/FLAGS.md
need_built flags "$VC" "$SANVC" "$FO" || exit 0
# the plain reference lives on the disk the build is on (not a tmpfs /tmp)
tmp=$(mktemp -d "$PWD/$BUILD/flags63.XXXXXX")
shm=$(mktemp -d /dev/shm/vcryptfs-63.XXXXXX)
MOUNTS=()
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	unmount_all "${MOUNTS[@]}"
	rm -rf "$tmp" "$shm"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
san_log_to "$tmp/san"
printf 'flags-test-password\n' >"$tmp/pf"

# reference outcome of every case, computed once: "NAME REF" lines from
# flagop -list; ref/NAME holds the outcome on the reference directory
mkdir -p "$tmp/plain" "$tmp/ref" "$tmp/g/c" "$tmp/g/m"
"$FO" -list >"$tmp/cases"
gmounted=0
ref_of() {
	local n=$1 ref=$2 d
	case $ref in
	plain) d=$tmp/plain/$n ;;
	tmpfs) d=$shm/$n ;;
	gocryptfs)
		if [ "$gmounted" = 0 ]; then
			gocryptfs -init -q -scryptn 10 -passfile "$tmp/pf" \
				"$tmp/g/c" >/dev/null 2>&1 &&
				MOUNTS+=("$tmp/g/m") &&
				gocryptfs -q -nosyslog -passfile "$tmp/pf" \
					"$tmp/g/c" "$tmp/g/m" 2>"$tmp/g.err" || return 1
			gmounted=1
		fi
		d=$tmp/g/m/$n
		;;
	*) return 1 ;;
	esac
	mkdir -p "$d" && "$FO" "$d" "$n" >"$tmp/ref/$n" 2>&1
}

case_table() {
	local n ref bad=0 rows
	if [ "$(stat -f -c %T /dev/shm)" != tmpfs ]; then
		fail "flags: /dev/shm is not a tmpfs (the tmpfs reference)"
		bad=1
	fi
	while read -r n ref; do
		if ! grep -q "\`$n\`" "$TABLE"; then
			fail "flags: case $n of flagop is not in $TABLE"
			bad=1
		fi
	done <"$tmp/cases"
	rows=$(grep -o '`[a-z0-9_]*`' "$TABLE" | tr -d '`' | sort -u)
	for n in $rows; do
		if ! grep -q "^$n " "$tmp/cases"; then
			fail "flags: $TABLE names case $n that flagop lacks"
			bad=1
		fi
	done
	[ "$bad" = 0 ] &&
		pass "flags: $TABLE and flagop name the same $(wc -l <"$tmp/cases") cases (plain reference on $(stat -f -c %T "$tmp"))"
}

# run_all LABEL CIPHERFLAG DAEMON: every case on a fresh mount
run_all() {
	local label=$1 cflag=$2 d=$3 c=$tmp/$1.c m=$tmp/$1.m n ref got
	mkdir -p "$c" "$m"
	# shellcheck disable=SC2086 # cflag is empty or one flag
	if ! "$VC" -init -q -scryptn 10 $cflag -passfile "$tmp/pf" "$c" \
		>"$tmp/$label.init" 2>&1; then
		fail "flags $label: -init failed: $(head -c 300 "$tmp/$label.init")"
		return
	fi
	MOUNTS+=("$m")
	if ! "$d" -q -passfile "$tmp/pf" "$c" "$m" 2>"$tmp/$label.err"; then
		fail "flags $label: mount failed: $(head -c 300 "$tmp/$label.err")"
		return
	fi
	while read -r n ref; do
		if [ ! -s "$tmp/ref/$n" ] && ! ref_of "$n" "$ref"; then
			fail "flags $label: $n: no $ref reference outcome"
			continue
		fi
		mkdir -p "$m/$n"
		got=$("$FO" "$m/$n" "$n" 2>&1)
		if [ "$got" = "$(cat "$tmp/ref/$n")" ]; then
			pass "flags $label: $got (as $ref)"
		else
			fail "flags $label: $n: mount '$got', $ref '$(cat "$tmp/ref/$n")'"
		fi
	done <"$tmp/cases"
	fusermount3 -u "$m" || fusermount3 -u -z "$m"
}

case_default() {
	run_all gcm "" "$VC"
	run_all gcm-san "" "$SANVC"
}
case_xchacha() {
	run_all xchacha -xchacha "$VC"
	run_all xchacha-san -xchacha "$SANVC"
}

run_cases case_table case_default case_xchacha
if [ -n "$(ls -A "$tmp/san" 2>/dev/null)" ]; then
	fail "flags: sanitizer reports: $(head -c 600 "$tmp"/san/*)"
fi
exit 0

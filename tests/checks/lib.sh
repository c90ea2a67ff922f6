# SPDX-License-Identifier: MIT
# Helpers sourced by tests/checks/*.sh (not a group itself: no NN- prefix).
BUILD=${BUILD:-build}
SANBUILD=${SANBUILD:-build-san}
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
# need_tool TOOL: in CI a missing tool is a failure; locally a loud SKIP.
# Returns 1 when the tool is missing so the caller can stop.
need_tool() {
	if command -v "$1" >/dev/null 2>&1; then return 0; fi
	if [ "${CI:-}" = true ]; then
		fail "required tool '$1' is missing (make deps installs it)"
	else
		echo "SKIP: tool '$1' missing (run make deps)"
	fi
	return 1
}
# need_fuse GROUP: /dev/fuse must exist (it does here and in CI); in CI its
# absence is a failure, locally a loud SKIP. Returns 1 when it is missing.
need_fuse() {
	[ -e /dev/fuse ] && return 0
	if [ "${CI:-}" = true ]; then
		fail "$1: /dev/fuse is missing"
	else
		echo "SKIP: $1 (no /dev/fuse)"
	fi
	return 1
}
# need_built GROUP BIN...: every BIN must be built; a missing one is a
# failure (never a skip). Returns 1 when one is missing.
need_built() {
	local g=$1 b
	shift
	for b in "$@"; do
		if [ ! -x "$b" ]; then
			fail "$g: $b not built (make tests-build)"
			return 1
		fi
	done
}
# group_needs GROUP BIN... [-- TOOL...]: what a group needs before it
# starts: the built binaries (need_built), /dev/fuse (need_fuse) and the
# tools (need_tool). Returns 1 when one is missing (the need_* helpers
# have said why).
group_needs() {
	local g=$1 t bins=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		bins+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	need_built "$g" "${bins[@]}" || return 1
	need_fuse "$g" || return 1
	for t in "$@"; do
		need_tool "$t" || return 1
	done
}
# scratch_dir NAME: T = a new /tmp/vcryptfs-NAME.XXXXXX; at exit every
# mount below it is unmounted (deepest first) and T is removed.
scratch_dir() {
	T=$(mktemp -d "/tmp/vcryptfs-$1.XXXXXX")
	trap scratch_cleanup EXIT
}
# shellcheck disable=SC2317 # called by the EXIT trap
scratch_cleanup() {
	local m
	while IFS= read -r m; do
		unmount_all "$m"
	done < <(awk -v t="$T/" 'index($2, t) == 1 { print $2 }' \
		/proc/self/mounts | sort -r)
	rm -rf "$T"
}
# prep_example SRC DST: copy a gocryptfs example cipher dir; git stores its
# symlinks as plain files holding the target, so turn those back into
# symlinks in the copy (encrypted file contents always start 00 02).
prep_example() {
	local src=$1 dst=$2 f t
	cp -a "$src" "$dst"
	chmod -R u+w "$dst"
	while IFS= read -r -d '' f; do
		[ -s "$f" ] || continue
		LC_ALL=C grep -q '[^A-Za-z0-9_=-]' "$f" && continue
		[ "$(head -c2 "$f" | od -An -tx1 | tr -d ' \n')" = 0002 ] && continue
		t=$(cat "$f")
		rm -f "$f"
		ln -s "$t" "$f"
	done < <(find "$dst" -type f ! -name 'gocryptfs.*' -print0)
}
# run_bin BIN [ARGS]: run a test binary that prints PASS:/FAIL:/SKIP: lines.
run_bin() {
	local bin=$1
	shift
	if [ ! -x "$bin" ]; then
		fail "$bin not built"
		return
	fi
	"$bin" "$@"
	local rc=$?
	[ "$rc" -eq 0 ] || fail "$bin exited $rc"
}
# unmount_all MOUNTPOINT...: unmount each one that is still mounted, lazily
# when it is busy (for EXIT traps: every exit path unmounts).
unmount_all() {
	local m
	for m in "$@"; do
		mountpoint -q "$m" 2>/dev/null &&
			{ fusermount3 -u "$m" 2>/dev/null || fusermount3 -u -z "$m"; }
	done
	return 0
}
# san_log_to DIR: ASan/UBSan reports of the processes started from now on
# go to files in DIR (a background daemon's stderr is /dev/null); a group
# fails when any file appears there.
san_log_to() {
	mkdir -p "$1"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$1/asan"
	export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$1/ubsan:print_stacktrace=1"
}
# run_cases FUNC...: the cases of a group, in order. Each case is a shell
# function named case_<name> that prints PASS:/FAIL:/SKIP: lines. With
# VC_CASE set (tests/run.sh GROUP --case NAME), only case_NAME runs; an
# unknown name is a failure that lists the group's cases.
run_cases() {
	local c ran=0
	for c in "$@"; do
		if [ -n "${VC_CASE:-}" ] && [ "${c#case_}" != "$VC_CASE" ]; then
			continue
		fi
		ran=$((ran + 1))
		"$c"
	done
	if [ -n "${VC_CASE:-}" ] && [ "$ran" -eq 0 ]; then
		fail "no case '$VC_CASE' in this group (cases: ${*#case_})"
	fi
	return 0
}
# patches_apply KIND DIR: one PASS/FAIL line per DIR/*.patch, on whether it
# still applies to this tree (the long mutant gates would otherwise find a
# stale patch only after make check)
patches_apply() {
	local p
	for p in "$2"/*.patch; do
		if patch --dry-run -s -p1 <"$p" >/dev/null 2>&1; then
			pass "$1 mutant $(basename "$p" .patch) applies"
		else
			fail "$1 mutant $(basename "$p" .patch): patch does not apply"
		fi
	done
}
# --- shared preamble and mount helpers for the mount groups ---
LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib
# vc_tmpdir NAME: the group's private temp dir in $tmp, an empty MOUNTS
# list, and the traps: on EXIT the group's on_exit function (when it has
# one) runs first, then every FUSE mount in MOUNTS is unmounted, then every
# plain mount in PLAIN_MOUNTS (a tmpfs under $tmp), then $tmp goes away.
vc_tmpdir() {
	tmp=$(mktemp -d "/tmp/vcryptfs-$1.XXXXXX")
	MOUNTS=()
	PLAIN_MOUNTS=()
	trap vc_cleanup EXIT
	trap 'exit 1' INT TERM
}
# shellcheck disable=SC2317 # called by the EXIT trap
vc_cleanup() {
	local m
	if declare -F on_exit >/dev/null; then on_exit; fi
	unmount_all "${MOUNTS[@]}"
	for m in "${PLAIN_MOUNTS[@]}"; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}
# wait_mounted MNT: 0 once MNT is a mount point (at most 5 s), else 1.
wait_mounted() {
	local i
	for i in $(seq 1 50); do
		mountpoint -q "$1" && return 0
		[ "$i" = 50 ] || sleep 0.1
	done
	return 1
}
# vc_mount CIPHERDIR MNT [FLAGS...]: mount with vcryptfs in the background
# and remember MNT for the EXIT trap. The binary is $VC_BIN (default
# $BUILD/vcryptfs; 55-mount sets its vcmount driver); -passfile $PASSFILE
# comes first when PASSFILE is set. Returns the daemon's exit code, and 1
# when it said 0 but MNT is not mounted 5 s later. Stderr is the caller's.
vc_mount() {
	local c=$1 m=$2 rc
	shift 2
	mkdir -p "$m"
	MOUNTS+=("$m")
	"${VC_BIN:-$BUILD/vcryptfs}" -q ${PASSFILE:+-passfile "$PASSFILE"} \
		"$@" "$c" "$m"
	rc=$?
	[ "$rc" -ne 0 ] && return "$rc"
	wait_mounted "$m"
}
# go_mount CIPHERDIR MNT [FLAGS...]: the same with gocryptfs (-nosyslog).
go_mount() {
	local c=$1 m=$2 rc
	shift 2
	mkdir -p "$m"
	MOUNTS+=("$m")
	gocryptfs -q -nosyslog ${PASSFILE:+-passfile "$PASSFILE"} "$@" "$c" "$m"
	rc=$?
	[ "$rc" -ne 0 ] && return "$rc"
	wait_mounted "$m"
}
# umnt MNT: unmount now, retrying once after a second, then lazily.
umnt() {
	fusermount3 -u "$1" 2>/dev/null || { sleep 1; fusermount3 -u "$1" ||
		fusermount3 -u -z "$1"; }
}
# treesum DIR: one line per entry of the tree (sorted): type, path, size,
# sha256 or symlink target, link count, permission bits, user xattrs; two
# trees with the same listing hold the same things (lib/treesum.py).
treesum() { python3 "$LIB_DIR/treesum.py" "$1"; }
# san_verdict GROUP DIR PASS-TEXT: after a sanitized daemon has run with
# san_log_to DIR, a FAIL quoting its reports (returns 1), or PASS: GROUP:
# PASS-TEXT.
san_verdict() {
	if ls "$2"/* >/dev/null 2>&1; then
		fail "$1: sanitizer reports from the daemon: $(head -c 1500 "$2"/* | grep -E 'ERROR|runtime error|SUMMARY|#[0-9] ' | head -n 12)"
		return 1
	else
		pass "$1: $3"
	fi
}
# unit_cases RUNNER BIN...: one case per unit binary, named after it
# without test_ (case_format for test_format), each running RUNNER BIN;
# a FAIL when there is none. For 20-unit and 30-sanitize.
unit_cases() {
	local runner=$1 t cases=()
	shift
	for t in "$@"; do
		[ -x "$t" ] || continue
		eval "case_${t##*/test_}() { $runner \"$t\"; }"
		cases+=("case_${t##*/test_}")
	done
	if [ "${#cases[@]}" -eq 0 ]; then
		fail "no unit test binaries ($*)"
		return 0
	fi
	run_cases "${cases[@]}"
}
# need_mount_group GROUP BIN...: what every mount group needs first:
# fusermount3, /dev/fuse, and each BIN built. 1 when one is missing (the
# SKIP or FAIL line is printed).
need_mount_group() {
	local g=$1
	shift
	need_tool fusermount3 && need_fuse "$g" && need_built "$g" "$@"
}
# want_san_daemon GROUP KNOB: 0 when the ASan/UBSan daemon
# $SANBUILD/vcryptfs is to run too (its reports then go to $tmp/san, for
# san_verdict); with KNOB=0 in the environment a SKIP, when it is not built
# a FAIL, and 1.
want_san_daemon() {
	if [ "${!2:-1}" = 0 ]; then
		echo "SKIP: $1: ASan/UBSan daemon ($2=0)"
	elif [ ! -x "$SANBUILD/vcryptfs" ]; then
		fail "$1: $SANBUILD/vcryptfs not built (make san-build)"
	else
		san_log_to "$tmp/san"
		return 0
	fi
	return 1
}

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

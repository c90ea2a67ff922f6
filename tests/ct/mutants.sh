#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make ct-mutants (issue 24): each tests/ct/mutants/NAME.patch seeds one
# constant-time bug (its first lines say which and what should catch it).
# The patch is applied to a scratch copy of the tree (never this one), the
# check build is rebuilt there and make ct runs; the mutant counts as
# caught only when make ct fails. Prints the cases that failed and the
# first place memcheck reported in our code. Exits 1 when any survives.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
B=${BUILD:-build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
survived=0 n=0
for p in "$HERE"/mutants/*.patch; do
	name=$(basename "$p" .patch)
	t="$scratch/tree"
	rm -rf "$t" && mkdir -p "$t"
	# the whole tree but .git and the build outputs (whatever the layout)
	for e in "$REPO"/* "$REPO"/.[!.]*; do
		case "$(basename "$e")" in
		.git | build | build-san | "$B") continue ;;
		esac
		[ -e "$e" ] && cp -a "$e" "$t/"
	done
	# the check build's objects, so that only what the patch touches
	# (and what includes it) is rebuilt
	if [ -d "$REPO/$B/ct" ]; then
		mkdir -p "$t/build" && cp -a "$REPO/$B/ct" "$t/build/"
	fi
	if ! patch -s -d "$t" -p1 <"$p"; then
		echo "FAIL: ct-mutant $name: patch does not apply"
		survived=1
		continue
	fi
	n=$((n + 1))
	if ! make -C "$t" --no-print-directory BUILD=build build/ct/ct_check \
		>"$scratch/$name.build" 2>&1; then
		echo "FAIL: ct-mutant $name: does not build:"
		tail -n 5 "$scratch/$name.build" | sed 's/^/    /'
		survived=1
		continue
	fi
	if (cd "$t" && BUILD=build CT_REPORT_LINES=400 bash tests/ct/run.sh) \
		>"$scratch/$name.log" 2>&1; then
		echo "FAIL: ct-mutant $name: SURVIVED (make ct passed)"
		survived=1
		continue
	fi
	caught=$(grep -c '^FAIL: ct ' "$scratch/$name.log")
	where=$(grep -m1 -E 'vg: +(at|by) .*\((src|tests)/|vg: +(at|by) .*\([a-z0-9_]+\.[ch]:[0-9]+\)' \
		"$scratch/$name.log" | sed -E 's/^ *vg: +(at|by) 0x[0-9A-F]+: //')
	what=$(grep -m1 -E 'vg: (Conditional jump|Use of uninitialised)' \
		"$scratch/$name.log" | sed 's/^ *vg: //')
	echo "PASS: ct-mutant $name: caught by $caught case(s); memcheck: $what at $where"
	grep '^FAIL: ct ' "$scratch/$name.log" | sed -E \
		's/^FAIL: ct /    caught by: /; s/ \[([^]]*)\]: / [\1]: /'
done
echo "ct-mutants: $n tried, $([ "$survived" = 0 ] && echo "all caught" ||
	echo "SOME SURVIVED")"
exit "$survived"

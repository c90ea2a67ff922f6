#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No #include cycle between the files of src/ (issue 19; part of make
# layers, group 15-layers). An edge runs from a file to every quoted
# include that names a file of the tree: "layer/x.h" resolved against src/
# (the -Isrc form), else against the including file's own folder.
# Usage: scripts/include_cycles.sh [SRC_DIR]   prints PASS:/FAIL:, exit 1 on a cycle
#        scripts/include_cycles.sh --self-test plants a cycle in a temp copy of
#                                         src/ and checks it is caught
set -uo pipefail
cd "$(dirname "$0")/.."

# Print "from to" for every include edge inside $1 (paths relative to $1).
edges() {
	local src=$1 f inc dir
	while IFS= read -r f; do
		dir=$(dirname "$f")
		sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' \
			"$src/$f" | while IFS= read -r inc; do
			if [ -f "$src/$inc" ]; then
				echo "$f $inc"
			elif [ -f "$src/$dir/$inc" ]; then
				echo "$f $(realpath -m --relative-to="$src" "$src/$dir/$inc")"
			fi
		done
	done < <(cd "$src" && find . -name '*.[ch]' -printf '%P\n' | sort)
}

# Reads edges on stdin; prints one cycle as "a -> b -> a" and exits 1, or
# prints nothing and exits 0. Depth-first search with three colours.
find_cycle() {
	awk '
	{ n[$1]++; adj[$1, n[$1]] = $2; node[$1] = 1; node[$2] = 1 }
	function dfs(u,    i, v, k, s) {
		colour[u] = 1; stack[++depth] = u
		for (i = 1; i <= n[u]; i++) {
			v = adj[u, i]
			if (colour[v] == 1) {
				for (k = depth; k >= 1 && stack[k] != v; k--)
					;
				s = ""
				for (; k <= depth; k++)
					s = s stack[k] " -> "
				print s v
				return 1
			}
			if (colour[v] == 0 && dfs(v))
				return 1
		}
		colour[u] = 2; depth--
		return 0
	}
	END {
		for (u in node)
			if (colour[u] == 0 && dfs(u))
				exit 1
		exit 0
	}'
}

# check DIR LABEL: PASS/FAIL line; returns 1 on a cycle.
check() {
	local cyc
	if cyc=$(edges "$1" | find_cycle); then
		echo "PASS: layers: no #include cycle in $2"
		return 0
	fi
	echo "FAIL: layers: #include cycle in $2: $cyc"
	return 1
}

if [ "${1:-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp -r src "$tmp/src"
	# plant base/log.h -> base/exitcodes.h -> base/log.h in the copy only
	echo '#include "base/exitcodes.h"' >>"$tmp/src/base/log.h"
	echo '#include "log.h"' >>"$tmp/src/base/exitcodes.h"
	if out=$(check "$tmp/src" "a copy with a planted cycle") ||
		! grep -qE '^FAIL: .*base/(log|exitcodes)\.h -> base/(log|exitcodes)\.h -> ' <<<"$out"; then
		echo "FAIL: layers: the include-cycle check misses a planted cycle ($out)"
		exit 1
	fi
	echo "PASS: layers: the include-cycle check catches a planted cycle"
	exit 0
fi
check "${1:-src}" "${1:-src}"

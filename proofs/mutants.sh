#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make prove-mutants: each proofs/mutants/NAME.patch seeds one bug. The
# first line of a patch names the component that must reject it
# ("# component: chacha"), the second the function it changes ("#
# functions: quarter_round"): only that function's goals are proved, so a
# mutant costs the timeouts of its own failing goals, not the component's
# whole proof. The patch is applied to a scratch copy of src/
# and spec/, the component is proved there, and the mutant counts as
# rejected only when WP fails where the unmutated tree (the control, run
# once per component and function list) passes. Each rejection names what
# caught it: the goals left unproved, or the gate check that failed.
# Exits 1 when any mutant survives or any control fails.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
survived=0 n=0
# control: each (component, functions) pair that a mutant uses must pass
# on the unmutated tree first, so that a mutant counts as rejected only
# because of what it changed (not a stale allowlist or a failing goal)
declare -A control
mkdir -p "$scratch/clean"
cp -r "$REPO/src" "$REPO/spec" "$scratch/clean/"
for p in "$HERE"/mutants/*.patch; do
	name=$(basename "$p" .patch)
	comp=$(sed -n 's/^# component: *//p' "$p" | head -n 1)
	fcts=$(sed -n 's/^# functions: *//p' "$p" | head -n 1)
	rm -rf "$scratch/tree" && mkdir -p "$scratch/tree"
	cp -r "$REPO/src" "$REPO/spec" "$scratch/tree/"
	if ! patch -s -d "$scratch/tree" -p1 <"$p"; then
		echo "mutant $name: patch does not apply: FAILED"
		survived=1
		continue
	fi
	n=$((n + 1))
	key="$comp:$fcts"
	if [ -z "${control[$key]:-}" ]; then
		if PROVE_ROOT="$scratch/clean" PROVE_OUT="$scratch/out-clean" \
			PROVE_FCT="$fcts" FRAMAC_WP_CACHE=replay \
			bash "$HERE/run.sh" gate "$comp" >"$scratch/clean.log" 2>&1; then
			control[$key]=ok
		else
			control[$key]=failed
			echo "control $comp ($fcts): the unmutated tree FAILS the gate:"
			grep -E '^prove: ' "$scratch/clean.log" | head -n 5 | sed 's/^/  /'
		fi
	fi
	if [ "${control[$key]}" != ok ]; then
		echo "mutant $name ($comp): not judged (its control failed): FAILED"
		survived=1
		continue
	fi
	if PROVE_ROOT="$scratch/tree" PROVE_OUT="$scratch/out-$name" \
		PROVE_FCT="$fcts" \
		FRAMAC_WP_CACHE=replay bash "$HERE/run.sh" gate "$comp" \
		>"$scratch/$name.log" 2>&1; then
		echo "mutant $name ($comp): SURVIVED (WP proved the mutant)"
		survived=1
	else
		echo "mutant $name ($comp): rejected $(grep -E '^prove: [a-z0-9-]+: [0-9]' \
			"$scratch/$name.log" | tail -n 1 | sed 's/^prove: //')"
		# what caught it: the goals WP did not prove, or the gate
		# check (allowlist, warning, smoke test) that failed
		caught=$(grep -hE '^\[wp\] \[(Timeout|Unknown|Failed|Stepout|Invalid)\]' \
			"$scratch/out-$name/$comp.log" 2>/dev/null |
			grep -v Smoke-test | sed -E 's/^\[wp\] //; s/ \(.*//' | head -n 3)
		[ -n "$caught" ] || caught=$(grep -E '^prove: ' "$scratch/$name.log" |
			grep -vE '^prove: [a-z0-9-]+: [0-9]+ / ' | grep -v 'gate checks FAILED' |
			sed 's/^prove: //' | head -n 3)
		[ -n "$caught" ] || caught="(no goal named: $(tail -n 1 "$scratch/$name.log"))"
		echo "$caught" | sed 's/^/  caught by: /'
	fi
done
echo "mutants: $n tried, $([ "$survived" = 0 ] && echo all rejected || echo SOME SURVIVED)"
exit "$survived"

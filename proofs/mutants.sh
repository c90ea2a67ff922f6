#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make prove-mutants: each proofs/mutants/NAME.patch seeds one bug. The
# first line of a patch names the component that must reject it
# ("# component: chacha"), the second the function it changes ("#
# functions: quarter_round"): only that function's goals are proved, so a
# mutant costs the timeouts of its own failing goals, not the component's
# whole proof. The patch is applied to a scratch copy of src/
# and spec/, the component is proved there, and the mutant counts as
# rejected only when WP fails where the unmutated tree (the control) passes.
# The control runs once per component, over every function that the
# component's mutants change (a gate that passes on those functions passes
# on each of them). Each rejection names what caught it: the goals left
# unproved, or the gate check that failed.
# PROVE_JOBS (default: the number of cores) runs that many WP runs at once;
# they only read the proof cache. The report is printed in patch order.
# Exits 1 when any mutant survives or any control fails.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
jobs_max=${PROVE_JOBS:-$(nproc)}
survived=0 n=0
declare -A comp_of fcts_of ctrl_fcts
names=()

# wait until fewer than jobs_max WP runs are under way
throttle() {
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
}

# the mutants: a tree each, the union of functions per component
for p in "$HERE"/mutants/*.patch; do
	name=$(basename "$p" .patch)
	comp=$(sed -n 's/^# component: *//p' "$p" | head -n 1)
	fcts=$(sed -n 's/^# functions: *//p' "$p" | head -n 1)
	mkdir -p "$scratch/tree-$name"
	cp -r "$REPO/src" "$REPO/spec" "$scratch/tree-$name/"
	if ! patch -s -d "$scratch/tree-$name" -p1 <"$p"; then
		echo "mutant $name: patch does not apply: FAILED" >"$scratch/res-$name"
		names+=("$name")
		continue
	fi
	names+=("$name")
	comp_of[$name]=$comp
	fcts_of[$name]=$fcts
	ctrl_fcts[$comp]="${ctrl_fcts[$comp]:+${ctrl_fcts[$comp]},}$fcts"
done

# the controls: each component on the unmutated tree, its mutants'
# functions only
mkdir -p "$scratch/clean"
cp -r "$REPO/src" "$REPO/spec" "$scratch/clean/"
for comp in "${!ctrl_fcts[@]}"; do
	fcts=$(echo "${ctrl_fcts[$comp]}" | tr ',' '\n' | sort -u | paste -sd,)
	throttle
	(
		if PROVE_ROOT="$scratch/clean" PROVE_OUT="$scratch/out-clean-$comp" \
			PROVE_FCT="$fcts" FRAMAC_WP_CACHE=replay \
			bash "$HERE/run.sh" gate "$comp" >"$scratch/clean-$comp.log" 2>&1; then
			echo ok >"$scratch/ctrl-$comp"
		else
			{
				echo "control $comp ($fcts): the unmutated tree FAILS the gate:"
				grep -E '^prove: ' "$scratch/clean-$comp.log" | head -n 5 | sed 's/^/  /'
			} >"$scratch/ctrl-$comp"
		fi
	) &
done
wait
for comp in "${!ctrl_fcts[@]}"; do
	[ "$(cat "$scratch/ctrl-$comp")" = ok ] || { cat "$scratch/ctrl-$comp"; survived=1; }
done

# one mutant: WP on its tree, the verdict into res-NAME
judge() {
	local name=$1 comp=${comp_of[$1]} fcts=${fcts_of[$1]} caught
	if [ "$(cat "$scratch/ctrl-$comp")" != ok ]; then
		echo "mutant $name ($comp): not judged (its control failed): FAILED"
		return
	fi
	if PROVE_ROOT="$scratch/tree-$name" PROVE_OUT="$scratch/out-$name" \
		PROVE_FCT="$fcts" \
		FRAMAC_WP_CACHE=replay bash "$HERE/run.sh" gate "$comp" \
		>"$scratch/$name.log" 2>&1; then
		echo "mutant $name ($comp): SURVIVED (WP proved the mutant)"
		return
	fi
	echo "mutant $name ($comp): rejected $(grep -E '^prove: [a-z0-9-]+: [0-9]' \
		"$scratch/$name.log" | tail -n 1 | sed 's/^prove: //; s/ (log [^)]*)//')"
	# what caught it: the goals WP did not prove, or the gate check
	# (allowlist, warning, smoke test) that failed
	caught=$(grep -hE '^\[wp\] \[(Timeout|Unknown|Failed|Stepout|Invalid)\]' \
		"$scratch/out-$name/$comp.log" 2>/dev/null |
		grep -v Smoke-test | sed -E 's/^\[wp\] //; s/ \(.*//' | head -n 3)
	[ -n "$caught" ] || caught=$(grep -E '^prove: ' "$scratch/$name.log" |
		grep -vE '^prove: [a-z0-9-]+: [0-9]+ / ' | grep -v 'gate checks FAILED' |
		sed 's/^prove: //' | head -n 3)
	[ -n "$caught" ] || caught="(no goal named: $(tail -n 1 "$scratch/$name.log"))"
	echo "$caught" | sed 's/^/  caught by: /'
}

for name in "${names[@]}"; do
	[ -e "$scratch/res-$name" ] && continue
	throttle
	judge "$name" >"$scratch/res-$name" &
done
wait
for name in "${names[@]}"; do
	cat "$scratch/res-$name"
	grep -qE '^mutant .*: rejected ' "$scratch/res-$name" || survived=1
	grep -q 'patch does not apply' "$scratch/res-$name" || n=$((n + 1))
done
echo "mutants: $n tried, $([ "$survived" = 0 ] && echo all rejected || echo SOME SURVIVED)"
exit "$survived"

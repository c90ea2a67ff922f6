#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make prove-mutants: each proofs/mutants/NAME.patch seeds one bug. The
# first line of a patch names the component that must reject it
# ("# component: chacha"), the second the function it changes ("#
# functions: quarter_round"): only that function's goals are proved, so a
# mutant costs the timeouts of its own failing goals, not the component's
# whole proof. The patch is applied to a scratch copy of src/
# and spec/, the component is proved there, and the mutant counts as
# rejected only when WP fails. Exits 1 when any mutant survives.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$HERE")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
survived=0 n=0
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
	if PROVE_ROOT="$scratch/tree" PROVE_OUT="$scratch/out-$name" \
		PROVE_FCT="$fcts" \
		FRAMAC_WP_CACHE=replay bash "$HERE/run.sh" gate "$comp" \
		>"$scratch/$name.log" 2>&1; then
		echo "mutant $name ($comp): SURVIVED (WP proved the mutant)"
		survived=1
	else
		why=$(grep -m1 -E 'Goal typed_' "$scratch/out-$name/$comp.log" \
			2>/dev/null | grep -B0 Failed || true)
		echo "mutant $name ($comp): rejected $(grep -E '^prove:' \
			"$scratch/$name.log" | tail -n 1 | sed 's/^prove: //')"
		[ -n "$why" ] && echo "  $why"
	fi
done
echo "mutants: $n tried, $([ "$survived" = 0 ] && echo all rejected || echo SOME SURVIVED)"
exit "$survived"

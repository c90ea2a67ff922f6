#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: Frama-C WP proofs (make prove): one PASS/FAIL line per component.
# Replays the committed cache in proofs/session/cache; provers run only on
# goals the cache does not know. In CI a missing tool is a FAIL.
. "$(dirname "$0")/lib.sh"
for t in frama-c why3 z3 cvc4 cvc5; do
	need_tool "$t" || exit 0
done
# the WP gate: one line per component
case_gate() {
	local out rc l comp
	out=$(bash proofs/run.sh gate 2>&1)
	rc=$?
	echo "$out"
	while IFS= read -r l; do
		comp=${l#prove: }
		comp=${comp%%:*}
		case "$l" in
		*", ok (log"*) pass "prove $comp: ${l#prove: $comp: }" ;;
		*) fail "prove $comp: ${l#prove: $comp: }" ;;
		esac
	done < <(echo "$out" | grep -E '^prove: [a-z0-9-]+: [0-9]+ / [0-9]+ goals')
	if [ "$rc" -ne 0 ] && ! echo "$out" | grep -q ', FAILED (log'; then
		fail "proofs/run.sh exited $rc ($(echo "$out" | tail -n 1))"
	fi
}

# spec/poly1305_model.acsl (the Poly1305 model over integers, which the
# gate's poly1305 and aead goals use) must parse and type-check on its own
case_spec() {
	local msg
	if msg=$(frama-c -cpp-extra-args="-I$PWD/src -D_GNU_SOURCE" \
		proofs/spec_check.c 2>&1); then
		pass "spec/poly1305_model.acsl type-checks"
	else
		fail "spec/poly1305_model.acsl: $(echo "$msg" | grep -m1 -iE 'error|warning')"
	fi
}

# README's "Proved crypto" table is the one proofs/table.py makes from
# proofs/results and proofs/datapath.tsv
case_table() {
	local msg
	if msg=$(python3 proofs/table.py --check README.md 2>&1); then
		pass "README proof table matches proofs/results"
	else
		fail "README proof table: $msg"
	fi
}

# every proofs/mutants patch still applies to today's code (make
# prove-mutants, the long gate, would otherwise find out an hour later)
case_mutants_apply() { patches_apply proof proofs/mutants; }

run_cases case_gate case_spec case_table case_mutants_apply
exit 0

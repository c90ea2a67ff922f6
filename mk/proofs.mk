# SPDX-License-Identifier: MIT
# Frama-C WP proofs (proofs/README.md). Included by the Makefile.
.PHONY: prove prove-wip prove-fresh prove-mutants

prove: ## Frama-C WP gate: every goal proved or non-zero exit
	@bash proofs/run.sh gate

prove-wip: ## WP work in progress (never fails the build)
	@bash proofs/run.sh wip

prove-fresh: ## the gate with every prover rerun: the cache is neither read nor written
	@FRAMAC_WP_CACHE=none bash proofs/run.sh gate

prove-mutants: ## apply each proofs/mutants/*.patch to a copy; WP must fail
	@bash proofs/mutants.sh

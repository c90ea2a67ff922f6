# SPDX-License-Identifier: MIT
# Frama-C WP proofs (proofs/README.md). Included by the Makefile.
.PHONY: prove prove-wip prove-mutants

prove: ## Frama-C WP gate: every goal proved or non-zero exit
	@bash proofs/run.sh gate

prove-wip: ## WP work in progress (never fails the build)
	@bash proofs/run.sh wip

prove-mutants: ## apply each proofs/mutants/*.patch to a copy; WP must fail
	@bash proofs/mutants.sh

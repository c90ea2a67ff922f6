#!/usr/bin/env bash
# group: layers (make layers): include lines point one way, per-layer allow
# lists (scripts/layers.sh), and no #include cycle (scripts/include_cycles.sh,
# with a self-test on a planted cycle in a temp copy). One case, all.
. "$(dirname "$0")/lib.sh"
case_all() { bash scripts/layers.sh; }
run_cases case_all
exit 0

#!/usr/bin/env bash
# group: layers (make layers): include lines point one way
# One case, all (scripts/layers.sh checks every layer).
. "$(dirname "$0")/lib.sh"
case_all() { bash scripts/layers.sh; }
run_cases case_all
exit 0

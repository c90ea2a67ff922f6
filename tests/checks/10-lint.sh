#!/usr/bin/env bash
# group: lint (make lint): cppcheck, clang-tidy, gcc -fanalyzer, clang-format
# One case, all (scripts/lint.sh runs the four tools over every C file).
. "$(dirname "$0")/lib.sh"
for t in cppcheck clang-tidy clang-format gcc; do need_tool "$t" || exit 0; done
case_all() { bash scripts/lint.sh; }
run_cases case_all
exit 0

#!/usr/bin/env bash
# group: lint (make lint): cppcheck, clang-tidy, gcc -fanalyzer, clang-format
. "$(dirname "$0")/lib.sh"
for t in cppcheck clang-tidy clang-format gcc; do need_tool "$t" || exit 0; done
bash scripts/lint.sh
exit 0

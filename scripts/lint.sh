#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make lint: cppcheck (all checks, inconclusive off), clang-tidy (.clang-tidy),
# gcc -fanalyzer and clang-format in check mode, over src/ tests/ bench/
# fuzz/. Prints PASS:/FAIL: lines (tests/run.sh protocol); exits 1 on any
# finding. SIMD files get their ISA flag, as in the Makefile.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
mapfile -t SRCS < <(ls src/*.c src/*/*.c src/crypto/*/*.c tests/unit/*.c tests/tools/*.c tests/fs/*.c tests/ct/*.c bench/*.c \
	fuzz/*.c 2>/dev/null)
mapfile -t HDRS < <(ls src/*.h src/*/*.h src/crypto/*/*.h tests/unit/*.h bench/*.h \
	fuzz/*.h 2>/dev/null)
INC=(-D_GNU_SOURCE -Isrc -Itests/unit $(pkg-config --cflags fuse3 libcrypto jansson))
isa() {
	case "$1" in
	src/crypto/*/ssse3.c) echo -mssse3 ;;
	src/crypto/*/avx.c) echo -mavx ;;
	src/crypto/*/avx2.c) echo -mavx2 ;;
	src/crypto/*/avx512.c) echo "-mavx512f -mavx512vl -mavx512bw" ;;
	src/crypto/*/ifma.c) echo "-mavx512f -mavx512vl -mavx512ifma" ;;
	esac
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# clang-format, check mode only
if clang-format --dry-run -Werror "${SRCS[@]}" "${HDRS[@]}" >"$tmp/fmt" 2>&1; then
	echo "PASS: lint clang-format (${#SRCS[@]} .c, ${#HDRS[@]} .h)"
else
	echo "FAIL: lint clang-format"
	head -n 40 "$tmp/fmt"
	rc=1
fi

# cppcheck: every check family; system-include noise is not a finding.
if cppcheck --enable=all --inline-suppr --error-exitcode=1 --quiet \
	--std=c11 --platform=unix64 -D__x86_64__ -D_GNU_SOURCE -Isrc -Itests/unit \
	--suppress=missingIncludeSystem --suppress=unusedFunction \
	--suppress=unmatchedSuppression \
	"${SRCS[@]}" >"$tmp/cppcheck" 2>&1; then
	echo "PASS: lint cppcheck"
else
	echo "FAIL: lint cppcheck"
	head -n 60 "$tmp/cppcheck"
	rc=1
fi

# clang-tidy with the committed .clang-tidy (warnings are errors there)
# and gcc -fanalyzer (compile only, every warning an error): one file per
# job, on every core.
export INC_STR="${INC[*]}"
isa() {
	case "$1" in
	src/crypto/*/ssse3.c) echo -mssse3 ;;
	src/crypto/*/avx.c) echo -mavx ;;
	src/crypto/*/avx2.c) echo -mavx2 ;;
	src/crypto/*/avx512.c) echo "-mavx512f -mavx512vl -mavx512bw" ;;
	src/crypto/*/ifma.c) echo "-mavx512f -mavx512vl -mavx512ifma" ;;
	esac
}
tidy_one() {
	local out
	# shellcheck disable=SC2046,SC2086
	out=$(clang-tidy --quiet "$1" -- -std=c11 $INC_STR $(isa "$1") 2>&1) &&
		return 0
	echo "clang-tidy: $1"
	echo "$out" | grep -E 'warning|error' | head -n 20
	return 1
}
analyze_one() {
	local out
	# shellcheck disable=SC2046,SC2086
	out=$(gcc -std=c11 -O1 -fanalyzer -Wall -Wextra -Werror $INC_STR \
		$(isa "$1") -c "$1" -o /dev/null 2>&1) && return 0
	echo "gcc -fanalyzer: $1"
	echo "$out" | head -n 30
	return 1
}
export -f isa tidy_one analyze_one
JOBS=${LINT_JOBS:-$(nproc)}
for tool in tidy_one:clang-tidy analyze_one:"gcc -fanalyzer"; do
	if printf '%s\n' "${SRCS[@]}" |
		xargs -P "$JOBS" -I{} bash -c "${tool%%:*} \"\$1\"" _ {}; then
		echo "PASS: lint ${tool#*:}"
	else
		echo "FAIL: lint ${tool#*:}"
		rc=1
	fi
done
exit "$rc"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make layers: #include lines point one way (STYLE.md section 1):
#   main -> fuse -> format -> crypto -> libcrypto; fuse alone may use sys.
# crypto/ includes nothing of ours outside crypto/; format/ nothing from
# sys/ or fuse/; sys/ nothing from fuse/ or format/. Prints PASS:/FAIL:.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
check() { # layer, regex of forbidden quoted includes
	local layer=$1 bad=$2 hits
	[ -d "src/$layer" ] || return 0
	hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
		src/"$layer"/*.[ch] 2>/dev/null | grep -E "$bad")
	if [ -n "$hits" ]; then
		echo "FAIL: layers: src/$layer includes what it must not:"
		echo "$hits" | sed 's/^/    /'
		rc=1
	else
		echo "PASS: layers: src/$layer points only downwards"
	fi
}
# crypto: only "crypto/..." headers (or same-directory names)
check crypto '"(format|fuse|sys)/|"(log|secmem|mount|main|version|speed)\.h"'
check format '"(fuse|sys)/|"(mount|main|version|speed)\.h"'
check sys '"(fuse|format|crypto)/|"(mount|main)\.h"'
# crypto must not use file descriptors or FUSE
if grep -nE '#include <(fuse|fcntl\.h|sys/stat\.h|dirent\.h)' src/crypto/*.[ch] \
	>/dev/null 2>&1; then
	echo "FAIL: layers: src/crypto includes file-system headers"
	rc=1
else
	echo "PASS: layers: src/crypto has no file-system headers"
fi
exit "$rc"

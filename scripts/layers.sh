#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make layers: #include lines point one way (STYLE.md section 1):
#   cli -> fuse | fsck | reverse -> format -> crypto -> libcrypto; fuse,
#   fsck and reverse also use sys; everything may use base; nothing
#   includes cli.
# Each layer's quoted includes must name a header of a layer it may use, in
# the -Isrc form ("layer/name.h"); the only other form allowed is a proved
# header's "../../spec/*.acsl" ("../../../spec/" one folder down). Also:
# crypto has no file-system headers, and there is no #include cycle (scripts/include_cycles.sh, with its self-test).
# Prints PASS:/FAIL: lines; exit 1 on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
# check LAYER ALLOWED_LAYERS [EXTRA_HEADERS]: every quoted include of
# src/LAYER/*.[ch] is "<allowed>/..." or one of the extra headers.
check() {
	local layer=$1 allowed=$2 extra=${3:-} ok hits
	[ -d "src/$layer" ] || return 0
	ok="^\"((${allowed// /|})/[^\"]+|(\.\./)+spec/[^\"/]+\.acsl)\"\$"
	hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' \
		src/"$layer"/*.[ch] src/"$layer"/*/*.[ch] 2>/dev/null |
		while IFS= read -r line; do
			inc=$(sed -E 's/.*include[[:space:]]*("[^"]*").*/\1/' <<<"$line")
			grep -qE "$ok" <<<"$inc" && continue
			case " $extra " in *" ${inc//\"/} "*) continue ;; esac
			echo "$line"
		done)
	if [ -n "$hits" ]; then
		echo "FAIL: layers: src/$layer includes what it must not" \
			"(allowed: ${allowed// /, }${extra:+, $extra}):"
		echo "$hits" | sed 's/^/    /'
		rc=1
	else
		echo "PASS: layers: src/$layer includes only ${allowed// /, }${extra:+, $extra}"
	fi
}
check base "base"
check crypto "crypto"
check format "format crypto base"
check sys "sys base"
check fuse "fuse format sys base"
check fsck "fsck format sys base"
# reverse (the -reverse daemon) uses the forward mount's two-core block
# helper, io_uring rings and daemon process and options (fuse/par.h,
# fuse/uring.h, fuse/daemon.h, fuse/daemon_opts.h) and crypto's SHA-256
check reverse "reverse format sys crypto base" "fuse/par.h fuse/uring.h fuse/daemon.h fuse/daemon_opts.h"
check cli "cli reverse fuse fsck format sys crypto base"
# vcryptfs-xray is a second program beside cli/ (it shares cli's option
# and version code); no layer includes it
check xray "xray cli format sys crypto base"
# crypto must not use file descriptors or FUSE
if grep -nE '#include <(fuse|fcntl\.h|sys/stat\.h|dirent\.h)' src/crypto/*.[ch] \
	src/crypto/*/*.[ch] \
	>/dev/null 2>&1; then
	echo "FAIL: layers: src/crypto includes file-system headers"
	rc=1
else
	echo "PASS: layers: src/crypto has no file-system headers"
fi
bash scripts/include_cycles.sh src || rc=1
bash scripts/include_cycles.sh --self-test || rc=1
exit "$rc"

# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh and scripts/demo.sh (from the repository root): sets
# and exports VCRYPTFS_SHARED, the folder with FORMAT.md, vectors/ and
# examples/. Order: an existing $VCRYPTFS_SHARED, ../shared beside the
# repository, ../shared beside the clone's origin when that is a local path
# (git clone . /tmp/x). Sets shared_found=1 when FORMAT.md is there.
if [ -z "${VCRYPTFS_SHARED:-}" ]; then
	VCRYPTFS_SHARED=$PWD/../shared
	origin=$(git remote get-url origin 2>/dev/null || true)
	if [ ! -f "$VCRYPTFS_SHARED/FORMAT.md" ] && [ -n "$origin" ] &&
		[ -f "$origin/../shared/FORMAT.md" ]; then
		VCRYPTFS_SHARED=$(cd "$origin/../shared" && pwd)
	fi
fi
export VCRYPTFS_SHARED
shared_found=0
if [ -f "$VCRYPTFS_SHARED/FORMAT.md" ]; then
	shared_found=1
fi

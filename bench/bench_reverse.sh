#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reverse-mode benchmark (issue 26): vcryptfs -reverse against gocryptfs
# 2.3 -reverse on the same plaintext tree and the same
# .gocryptfs.reverse.conf, in one run, the target order alternating per
# round (ROUNDS rounds, default 3; medians). Workloads, each on a fresh
# mount of the view:
#   cold   read every file of the view (find -type f | xargs cat) right
#          after mounting, with drop_caches before (root only);
#   warm   the same read again on that mount (dentries, inodes and the
#          plaintext in the page cache);
#   rsync  rsync -a of the whole view into an empty directory on the
#          same disk as the tree (after a remount).
# The tree: one file of SIZE_MIB MiB (default 256) and BENCH_FILES small
# files (default 3000, 1..16 KiB) in 30 directories, plus symlinks.
# Output: seconds per workload and target, and the ratio gocryptfs time /
# vcryptfs time (higher is better; the goal of issue 26 is >= 1.5). The
# machine is shared: compare ratios of the same run only.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-3}
SIZE_MIB=${SIZE_MIB:-256}
FILES=${BENCH_FILES:-3000}
VC=$PWD/$BUILD/vcryptfs
[ -x "$VC" ] || { echo "bench_reverse: $VC not built" >&2; exit 1; }
command -v gocryptfs >/dev/null || { echo "bench_reverse: gocryptfs missing" >&2; exit 1; }
tmp=$(mktemp -d "${BENCH_TMP:-/var/tmp}/vcryptfs-bench-rev.XXXXXX")
V=$tmp/view
cleanup() {
	mountpoint -q "$V" 2>/dev/null && fusermount3 -u -z "$V"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
printf 'bench\n' >"$tmp/pf"
P=$tmp/plain
mkdir -p "$P" "$V"
echo "# building the tree: ${SIZE_MIB} MiB file + $FILES small files"
head -c $((SIZE_MIB * 1048576)) /dev/urandom >"$P/big"
python3 - "$P" "$FILES" <<'PY'
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
random.seed(26)
for i in range(n):
    d = os.path.join(root, "d%02d" % (i % 30))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "file-%05d.dat" % i), "wb") as f:
        f.write(os.urandom(random.randint(1, 16384)))
    if i % 100 == 0:
        os.symlink("file-%05d.dat" % i, os.path.join(d, "link-%05d" % i))
PY
"$VC" -q -init -reverse -scryptn 10 -passfile "$tmp/pf" "$P" >/dev/null 2>&1 ||
	{ echo "bench_reverse: -init -reverse failed" >&2; exit 1; }
drop() {
	sync
	[ "$(id -u)" = 0 ] && echo 3 >/proc/sys/vm/drop_caches
	return 0
}
[ "$(id -u)" = 0 ] || echo "# not root: no drop_caches, 'cold' has the plaintext cached"
mnt() { # TARGET
	if [ "$1" = vcryptfs ]; then
		"$VC" -q -reverse -passfile "$tmp/pf" "$P" "$V"
	else
		gocryptfs -q -nosyslog -reverse -passfile "$tmp/pf" "$P" "$V" 2>/dev/null
	fi
}
umnt() { fusermount3 -u "$V" 2>/dev/null || { sleep 1; fusermount3 -u -z "$V"; }; }
now() { date +%s.%N; }
readall() { find "$V" -type f -print0 | xargs -0 cat >/dev/null; }
declare -A T
run_target() { # TARGET ROUND
	local t=$1 r=$2 a b
	drop
	mnt "$t" || { echo "bench_reverse: $t did not mount" >&2; exit 1; }
	a=$(now); readall; b=$(now)
	T[cold,$t,$r]=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
	a=$(now); readall; b=$(now)
	T[warm,$t,$r]=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
	umnt
	rm -rf "$tmp/dst"
	drop
	mnt "$t" || exit 1
	a=$(now); rsync -a "$V/" "$tmp/dst/"; b=$(now)
	T[rsync,$t,$r]=$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')
	umnt
	rm -rf "$tmp/dst"
}
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="vcryptfs gocryptfs"; else order="gocryptfs vcryptfs"; fi
	for t in $order; do
		run_target "$t" "$r"
	done
	echo "# round $r done"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-8s %12s %12s %8s\n' workload "vcryptfs s" "gocryptfs s" ratio
for w in cold warm rsync; do
	vs=() gs=()
	for r in $(seq 1 "$ROUNDS"); do
		vs+=("${T[$w,vcryptfs,$r]}")
		gs+=("${T[$w,gocryptfs,$r]}")
	done
	mv=$(median "${vs[@]}")
	mg=$(median "${gs[@]}")
	printf '%-8s %12.3f %12.3f %8.2f\n' "$w" "$mv" "$mg" "$(awk -v g="$mg" -v v="$mv" 'BEGIN { print g / v }')"
done

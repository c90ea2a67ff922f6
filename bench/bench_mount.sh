#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-mount (issue 7): the mount benchmark. One invocation measures,
# on the same workloads and with the target order alternating per round
# (ROUNDS rounds, default 3; medians):
#   vcryptfs   our CLI, `$BUILD/vcryptfs -passfile F DIR MNT`, on a
#              `vcryptfs -init` volume (AES-GCM), with FUSE over io_uring
#              when the kernel has it (see below);
#   vcryptfs-nouring  the same volume type mounted with -nouring (every
#              request through /dev/fuse), only when io_uring is in use;
#   gocryptfs  gocryptfs 2.3, same cipher, on a `gocryptfs -init` volume;
#   vcryptfs-xchacha, gocryptfs-xchacha  the same with -xchacha, only when
#              BENCH_XCHACHA=1; with BENCH_XCHACHA_CAP=LEVEL (ssse3 or
#              avx; implies BENCH_XCHACHA=1) the vcryptfs one runs with
#              VCRYPTFS_IMPL=LEVEL and the gocryptfs one with
#              GODEBUG=cpu.avx2=off (Go's SSSE3 path): the CPU class
#              without AVX2 (issue 21);
#   vcryptfs-old  only when BENCH_OLD=PATH names another vcryptfs binary
#              (an older build, to compare a change): mounted like
#              vcryptfs, on a volume of its own;
#   passthrough  libfuse's passthrough_ll example as installed by Debian
#              (/usr/share/doc/libfuse3-dev/examples), compiled at bench
#              time into $BUILD/bench/passthrough_ll: the no-crypto ceiling;
#   plain      the backing directory itself, no FUSE.
# Workloads (each target, each round):
#   write    dd of SIZE_MIB MiB (default 500) with conv=fsync;
#   read     the same file read back after a remount and drop_caches;
#   extract  tar xf of a tarball of BENCH_FILES files (default 20,000)
#            taken once per run from trees this machine has (listed in
#            the output);
#   ls       ls -lR of the tree (after a remount and drop_caches);
#   readall  cat of every file (after a remount and drop_caches);
#   rm       rm -rf of the tree.
# Before round 1, one untimed streaming write to the plain directory warms
# the disk up (see the warm-up below).
# Output: a table of medians (MB/s = 10^6 bytes per second for write and
# read, seconds for the others) with the ratio to gocryptfs of the same
# cipher (higher is better: throughput ratio, or gocryptfs's time divided
# by the target's). `-o FILE.tsv` also writes one line per measurement:
#   workload<TAB>target<TAB>round<TAB>seconds<TAB>MBps
# (MBps empty for the small-file phases). The machine is shared, so
# absolute numbers are noisy: compare ratios from the same run. Needs root
# for drop_caches (without it the caches stay warm, and it says so).
# Every mount is unmounted on every exit path.
# Backing: `-b disk` (default) puts the cipher directories (and the plain
# and passthrough ones) in a temp dir under BENCH_TMP (default /tmp, a
# disk here); `-b tmpfs` puts that temp dir on a tmpfs of its own (root
# only), which takes the disk out of the figures: what is left is FUSE and
# crypto. drop_caches does not empty a tmpfs, so there every read comes
# from memory. vcryptfs's large reads reopen the file with O_DIRECT
# (src/fuse/rw_read.c pread_odirect) except on a tmpfs, which it detects
# at the first large read (fstatfs): there O_DIRECT would be the same
# page-cache copy as a plain pread (Linux 6.6+) or refused (before), so
# those reads are normal preads.
# FUSE over io_uring: the fuse module serves it only with its parameter
# enable_uring=Y (Linux 6.14+). As root this script turns it on for the run
# and puts the old value back at exit (BENCH_URING=0 leaves it alone).
# Only vcryptfs asks for io_uring: gocryptfs 2.3 and Debian's libfuse 3.14
# passthrough_ll do not, so the parameter does not change them.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-3}
SIZE_MIB=${SIZE_MIB:-500}
FILES=${BENCH_FILES:-18000}
XCHACHA=${BENCH_XCHACHA:-0}
XCAP=${BENCH_XCHACHA_CAP:-}
case "$XCAP" in
"") ;;
ssse3 | avx) XCHACHA=1 ;;
*) echo "bench_mount.sh: BENCH_XCHACHA_CAP must be ssse3 or avx" >&2; exit 2 ;;
esac
URING=${BENCH_URING:-1}
URING_PARAM=/sys/module/fuse/parameters/enable_uring
URING_OLD=""
OUT=""
BACKING=${BENCH_BACKING:-disk}

usage() {
	echo "usage: bench_mount.sh [-o FILE.tsv] [-b disk|tmpfs]" >&2
	echo "env: BUILD ROUNDS SIZE_MIB BENCH_FILES BENCH_XCHACHA BENCH_XCHACHA_CAP BENCH_TMP BENCH_BACKING" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	-o)
		[ $# -ge 2 ] || usage
		OUT=$2
		shift 2
		;;
	-b)
		[ $# -ge 2 ] || usage
		BACKING=$2
		shift 2
		;;
	*) usage ;;
	esac
done

die() {
	echo "bench_mount: $*" >&2
	exit 1
}
VC=$BUILD/vcryptfs
[ -x "$VC" ] || die "$VC not built (make BUILD=$BUILD)"
command -v gocryptfs >/dev/null || die "gocryptfs not installed"
command -v fusermount3 >/dev/null || die "fusermount3 not installed"
[ -e /dev/fuse ] || die "no /dev/fuse"

case $BACKING in
disk | tmpfs) ;;
*) usage ;;
esac
tmp=$(mktemp -d "${BENCH_TMP:-/tmp}/vcryptfs-bench.XXXXXX")
TMPFS=""
if [ "$BACKING" = tmpfs ]; then
	# room for the tarball, one streaming file and one tree at a time
	mount -t tmpfs -o "size=$((SIZE_MIB * 2 + 4096))m,mode=0700" \
		vcryptfs-bench "$tmp" || {
		rmdir "$tmp"
		die "cannot mount a tmpfs on $tmp (-b tmpfs needs root)"
	}
	TMPFS=$tmp
fi
MOUNTS=()
CHILD=""
cleanup() {
	local m
	# a workload still running (its own process group, see timed)
	if [ -n "$CHILD" ]; then
		kill -TERM -- "-$CHILD" 2>/dev/null
		wait "$CHILD" 2>/dev/null
	fi
	for m in "${MOUNTS[@]}"; do
		if mountpoint -q "$m" 2>/dev/null; then
			fusermount3 -u "$m" 2>/dev/null ||
				fusermount3 -u -z "$m" 2>/dev/null
		fi
	done
	if [ -n "$TMPFS" ]; then
		umount "$TMPFS" 2>/dev/null || umount -l "$TMPFS"
		rmdir "$TMPFS"
	else
		rm -rf "$tmp"
	fi
	if [ -n "$URING_OLD" ]; then
		echo "$URING_OLD" >"$URING_PARAM" 2>/dev/null
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Trees of 20,000 files hold one descriptor per inode in the daemons that
# keep O_PATH descriptors (passthrough_ll, vcryptfs): lift the limit.
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null

# The no-crypto ceiling, built from the installed example source.
EXDIR=/usr/share/doc/libfuse3-dev/examples
PT=$BUILD/bench/passthrough_ll
if [ ! -x "$PT" ] || [ "$EXDIR/passthrough_ll.c" -nt "$PT" ]; then
	mkdir -p "$BUILD/bench"
	# shellcheck disable=SC2046
	${CC:-gcc} -O2 -w -I"$EXDIR" $(pkg-config --cflags fuse3) \
		-o "$PT" "$EXDIR/passthrough_ll.c" \
		$(pkg-config --libs fuse3) -lpthread ||
		die "cannot build $PT from $EXDIR/passthrough_ll.c"
fi

DROP=1
if ! [ -w /proc/sys/vm/drop_caches ]; then
	DROP=0
	echo "note: cannot write /proc/sys/vm/drop_caches (not root):" \
		"reads after remount may hit the page cache" >&2
fi
drop_caches() {
	sync
	if [ "$DROP" = 1 ]; then
		echo 3 >/proc/sys/vm/drop_caches
	fi
}

# The small-file tree: the first FILES regular files of these trees.
SRC_TREES=(/usr/include /usr/lib/python3 /usr/lib/python3.11
	/usr/share/perl /usr/share/perl5 /usr/lib/x86_64-linux-gnu/perl
	/usr/share/man)
have=()
for d in "${SRC_TREES[@]}"; do
	[ -d "$d" ] && have+=("$d")
done
[ ${#have[@]} -gt 0 ] || die "none of ${SRC_TREES[*]} exists"
find "${have[@]}" -type f -print 2>/dev/null | head -n "$FILES" |
	sed 's|^/||' >"$tmp/files.lst"
TARBALL=$tmp/tree.tar
tar -C / -cf "$TARBALL" -T "$tmp/files.lst" 2>/dev/null ||
	die "cannot make the tarball"
sync # the tarball's writeback must not land in the first measurement
nfiles=$(wc -l <"$tmp/files.lst")
tree_mb=$(($(stat -c %s "$TARBALL") / 1000000))
used=""
for d in "${have[@]}"; do
	n=$(grep -c "^${d#/}/" "$tmp/files.lst")
	[ "$n" -gt 0 ] && used="$used $d ($n)"
done

printf '%s\n' bench >"$tmp/pass"
uring_note="not used (BENCH_URING=0)"
if [ "$URING" = 1 ]; then
	if [ -w "$URING_PARAM" ]; then
		URING_OLD=$(cat "$URING_PARAM")
		echo Y >"$URING_PARAM" ||
			die "cannot write $URING_PARAM"
		uring_note="on for this run ($URING_PARAM was $URING_OLD)"
	elif [ -r "$URING_PARAM" ] &&
		[ "$(cat "$URING_PARAM")" = Y ]; then
		uring_note="on ($URING_PARAM is Y)"
	else
		URING=0
		uring_note="not available (no writable $URING_PARAM)"
	fi
fi
TARGETS=(vcryptfs)
if [ "$URING" = 1 ]; then
	TARGETS+=(vcryptfs-nouring)
fi
TARGETS+=(gocryptfs)
if [ -n "${BENCH_OLD:-}" ]; then
	[ -x "$BENCH_OLD" ] || die "BENCH_OLD=$BENCH_OLD is not executable"
	TARGETS+=(vcryptfs-old)
fi
if [ "$XCHACHA" = 1 ]; then
	TARGETS+=(vcryptfs-xchacha gocryptfs-xchacha)
fi
TARGETS+=(passthrough plain)

# setup T: make the volume or backing directory; mnt T: mount it;
# umnt T: unmount it (the plain target has nothing to mount).
setup() {
	local t=$1 c=$tmp/$1/c
	mkdir -p "$c" "$tmp/$t/m"
	case "$t" in
	vcryptfs-old)
		"$BENCH_OLD" -init -q -scryptn 10 -passfile "$tmp/pass" "$c"
		;;
	vcryptfs | vcryptfs-nouring)
		"$VC" -init -q -scryptn 10 -passfile "$tmp/pass" "$c"
		;;
	vcryptfs-xchacha)
		"$VC" -init -q -xchacha -scryptn 10 -passfile "$tmp/pass" "$c"
		;;
	gocryptfs)
		gocryptfs -init -q -scryptn 10 -passfile "$tmp/pass" "$c"
		;;
	gocryptfs-xchacha)
		gocryptfs -init -q -xchacha -scryptn 10 -passfile "$tmp/pass" "$c"
		;;
	*) : ;;
	esac
}
mntdir() {
	if [ "$1" = plain ]; then
		echo "$tmp/plain/c"
	else
		echo "$tmp/$1/m"
	fi
}
mnt() {
	local t=$1 c=$tmp/$1/c m=$tmp/$1/m
	MOUNTS+=("$m")
	case "$t" in
	vcryptfs-nouring)
		"$VC" -q -nouring -passfile "$tmp/pass" "$c" "$m"
		;;
	vcryptfs-old) "$BENCH_OLD" -q -passfile "$tmp/pass" "$c" "$m" ;;
	vcryptfs-xchacha)
		if [ -n "$XCAP" ]; then
			VCRYPTFS_IMPL=$XCAP "$VC" -q -passfile "$tmp/pass" "$c" "$m"
		else
			"$VC" -q -passfile "$tmp/pass" "$c" "$m"
		fi
		;;
	gocryptfs-xchacha)
		if [ -n "$XCAP" ]; then
			GODEBUG=cpu.avx2=off gocryptfs -q -nosyslog \
				-passfile "$tmp/pass" "$c" "$m"
		else
			gocryptfs -q -nosyslog -passfile "$tmp/pass" "$c" "$m"
		fi
		;;
	vcryptfs*) "$VC" -q -passfile "$tmp/pass" "$c" "$m" ;;
	gocryptfs*) gocryptfs -q -nosyslog -passfile "$tmp/pass" "$c" "$m" ;;
	passthrough) "$PT" -o source="$c" "$m" ;;
	plain) return 0 ;;
	esac || return 1
	mountpoint -q "$m"
}
umnt() {
	local m=$tmp/$1/m
	[ "$1" = plain ] && return 0
	fusermount3 -u "$m" 2>/dev/null ||
		{ sleep 1 && fusermount3 -u "$m"; }
}
remount() {
	umnt "$1" || return 1
	drop_caches
	mnt "$1"
}

now() { echo "${EPOCHREALTIME/[,]/.}"; }
RES=$tmp/results.tsv
: >"$RES"
# timed WORKLOAD TARGET ROUND BYTES CMD...: run CMD, record its time.
timed() {
	local w=$1 t=$2 r=$3 bytes=$4 t0 t1
	shift 4
	t0=$(now)
	# in its own process group (set -m), so that a signal stops it at once
	set -m
	"$@" &
	CHILD=$!
	set +m
	wait "$CHILD" || die "$w on $t failed (round $r)"
	t1=$(now)
	CHILD=""
	awk -v w="$w" -v t="$t" -v r="$r" -v b="$bytes" -v a="$t0" \
		-v z="$t1" 'BEGIN {
		s = z - a; if (s <= 0) s = 1e-6
		mb = b > 0 ? sprintf("%.1f", b / 1e6 / s) : ""
		printf "%s\t%s\t%d\t%.3f\t%s\n", w, t, r, s, mb }' >>"$RES"
}
w_write() {
	dd if=/dev/zero of="$1/big" bs=1M count="$SIZE_MIB" conv=fsync \
		status=none
}
w_read() { dd if="$1/big" of=/dev/null bs=1M status=none; }
w_extract() { mkdir "$1/src" && tar -xf "$TARBALL" -C "$1/src"; }
w_ls() { ls -lR "$1/src" >/dev/null; }
w_readall() {
	find "$1/src" -type f -print0 | xargs -0 cat >/dev/null
}
w_rm() { rm -rf "$1/src"; }

# One target, one round: every workload.
run_target() {
	local t=$1 r=$2 m
	m=$(mntdir "$t")
	echo "round $r/$ROUNDS: $t" >&2
	sync
	timed write "$t" "$r" $((SIZE_MIB * 1048576)) w_write "$m"
	remount "$t" || die "remount of $t failed"
	timed read "$t" "$r" $((SIZE_MIB * 1048576)) w_read "$m"
	rm -f "$m/big"
	cat "$TARBALL" >/dev/null
	timed extract "$t" "$r" 0 w_extract "$m"
	remount "$t" || die "remount of $t failed"
	timed ls "$t" "$r" 0 w_ls "$m"
	remount "$t" || die "remount of $t failed"
	timed readall "$t" "$r" 0 w_readall "$m"
	timed rm "$t" "$r" 0 w_rm "$m"
	sync
}

start=$(now)
for t in "${TARGETS[@]}"; do
	setup "$t" >/dev/null || die "cannot set up $t"
	mnt "$t" || die "cannot mount $t"
done
# Warm-up, not timed: here the first large write after a quiet spell ran
# at a third of the speed of the next ones, whichever program made it
# (gocryptfs 113 MB/s then 286-340, vcryptfs the same when first), and
# round 1 always starts with the same target.
w_write "$(mntdir plain)" && rm -f "$(mntdir plain)/big" && sync
for ((r = 1; r <= ROUNDS; r++)); do
	order=("${TARGETS[@]}")
	if ((r % 2 == 0)); then
		order=()
		for ((i = ${#TARGETS[@]} - 1; i >= 0; i--)); do
			order+=("${TARGETS[i]}")
		done
	fi
	for t in "${order[@]}"; do
		run_target "$t" "$r"
	done
done
for t in "${TARGETS[@]}"; do
	umnt "$t" || die "cannot unmount $t"
done
elapsed=$(awk -v a="$start" -v z="$(now)" 'BEGIN { printf "%.0f", z - a }')

[ -n "$OUT" ] && cp "$RES" "$OUT"

echo "vcryptfs mount benchmark: $ROUNDS rounds, alternating order, medians"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo |
	cut -d: -f2- | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: $("$VC" -version 2>/dev/null | head -n1);" \
	"$(gocryptfs -version 2>/dev/null | head -n1 | cut -d';' -f1)"
echo "streaming: $SIZE_MIB MiB, dd bs=1M (write with conv=fsync;" \
	"read after remount + drop_caches)"
echo "FUSE over io_uring (vcryptfs only): $uring_note"
echo "backing: $BACKING ($(df -T "$tmp" | awk 'NR == 2 { print $2 }') at $tmp)"
echo "small files: $nfiles files, $tree_mb MB, from $used"
if [ -n "$XCAP" ]; then
	echo "-xchacha targets capped to the class without AVX2:" \
		"vcryptfs VCRYPTFS_IMPL=$XCAP ($(VCRYPTFS_IMPL=$XCAP "$VC" \
			-version 2>/dev/null | grep -m1 '^kernel:')), gocryptfs" \
		"GODEBUG=cpu.avx2=off"
fi
echo "MB/s for write/read, seconds for the rest; (xN) = ratio to" \
	"gocryptfs of the same cipher, higher is better"
awk -F'\t' -v targets="${TARGETS[*]}" '
function med(k,   n, i, j, v, tmp) {
	n = cnt[k]
	for (i = 1; i <= n; i++) v[i] = val[k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			tmp = v[j]; v[j] = v[j - 1]; v[j - 1] = tmp
		}
	if (n % 2) return v[(n + 1) / 2]
	return (v[n / 2] + v[n / 2 + 1]) / 2
}
{
	k = $1 SUBSEP $2
	x = $5 != "" ? $5 : $4
	val[k, ++cnt[k]] = x
}
END {
	nt = split(targets, T, " ")
	nw = split("write read extract ls readall rm", W, " ")
	printf "%-8s", "workload"
	for (i = 1; i <= nt; i++) printf " %22s", T[i]
	printf "\n"
	for (w = 1; w <= nw; w++) {
		printf "%-8s", W[w]
		stream = W[w] == "write" || W[w] == "read"
		for (i = 1; i <= nt; i++) {
			k = W[w] SUBSEP T[i]
			if (!(k in cnt)) { printf " %22s", "-"; continue }
			m = med(k)
			ref = T[i] ~ /xchacha/ ? "gocryptfs-xchacha" : "gocryptfs"
			rk = W[w] SUBSEP ref
			r = ""
			if (rk in cnt && m > 0) {
				rm = med(rk)
				r = sprintf("(x%.2f)", stream ? m / rm : rm / m)
			}
			s = stream ? sprintf("%.0f MB/s", m) : sprintf("%.2f s", m)
			printf " %22s", s " " r
		}
		printf "\n"
	}
}' "$RES"
echo "total run time: ${elapsed} s"

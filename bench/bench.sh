#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench (issue 8): every benchmark in one invocation, with a progress
# line on stderr, then bench/results/latest.md and two gnuplot PNGs:
#   1. crypto: bench/bench_crypto.sh -o (medians of BENCH_ROUNDS alternating
#      rounds, CPU time): XChaCha20-Poly1305 seal per kernel at 64 B, 512 B,
#      4 KiB, 64 KiB and 1 MiB, OpenSSL ChaCha20-Poly1305 and AES-256-GCM
#      through our wrapper beside it, `openssl speed` (chacha20-poly1305
#      with OPENSSL_ia32cap masks, aes-256-gcm plain and -aead) at 4096,
#      gocryptfs -speed's Go lines, the -march=native twin;
#   2. `vcryptfs -speed` and `gocryptfs -speed` side by side (wall time,
#      SPEED_ROUNDS alternating runs each, best run per line);
#   3. bench/bench_mount.sh -o (mount workloads against gocryptfs 2.3,
#      a plain directory and libfuse's passthrough_ll), ROUNDS, SIZE_MIB and
#      BENCH_FILES from MOUNT_ROUNDS, MOUNT_SIZE_MIB, MOUNT_FILES (smaller
#      than its defaults, to stay under 10 minutes on 2 cores), stopped
#      after MOUNT_TIMEOUT seconds. If it is missing, fails or times out,
#      the report says so and shows no mount numbers.
# Output (BENCH_OUT, default bench/results): latest.md (machine, versions,
# tables, ratios, the goals of issues 2, 3 and 8 as MET / NOT MET),
# crypto.png (MB/s per block size per kernel, log x), mount.png (bars).
# Writing them (step 4) is bench/report.sh, sourced at the end (split off
# for size; it uses this script's variables and helpers).
# Nothing is estimated: a kernel the CPU lacks, a missing tool or a failed
# step is reported as such. The machine may be shared: the load average at
# start and end goes into the report.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
OUT=${BENCH_OUT:-bench/results}
CRYPTO_ROUNDS=${BENCH_ROUNDS:-7}
CRYPTO_SECS=${BENCH_SECS:-0.1}
SIZES="64 512 4096 65536 1048576"
SPEED_ROUNDS=${SPEED_ROUNDS:-3}
M_ROUNDS=${MOUNT_ROUNDS:-5}
M_SIZE=${MOUNT_SIZE_MIB:-300}
M_FILES=${MOUNT_FILES:-2000}
M_TIMEOUT=${MOUNT_TIMEOUT:-300}
BUDGET=${BENCH_BUDGET:-560}
# The crypto and -speed steps run at a raised priority when we are root
# (BENCH_NICE, default -10; empty: off): the machine is shared, and wall-time
# figures (gocryptfs -speed, vcryptfs -speed) are otherwise mostly a measure
# of the other jobs. The mount step keeps the normal priority.
BENCH_NICE=${BENCH_NICE--10}
NICE=()
if [ -n "$BENCH_NICE" ] && [ "$(id -u)" = 0 ]; then
	NICE=(nice -n "$BENCH_NICE")
fi
NSTEPS=4
VC=$BUILD/vcryptfs

tmp=$(mktemp -d /tmp/vcryptfs-benchall.XXXXXX)
CHILD=""
cleanup() {
	if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
		kill "$CHILD" 2>/dev/null
		wait "$CHILD" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

for f in "$VC" "$BUILD/bench/bench_crypto" "$BUILD/bench-native/bench_crypto"; do
	if [ ! -x "$f" ]; then
		echo "bench: $f not built (make bench builds it)" >&2
		exit 1
	fi
done
for t in gnuplot openssl; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "bench: $t missing (make deps)" >&2
		exit 1
	fi
done
have_go=0
command -v gocryptfs >/dev/null 2>&1 && have_go=1

# ------------------------------------------------------------ progress
T0=$SECONDS
LASTMSG=""
progress() { # text: one updating line on a terminal, else on change only
	if [ -t 2 ]; then
		printf '\r\033[K%s' "${1:0:110}" >&2
	elif [ "$1" != "$LASTMSG" ]; then
		echo "$1" >&2
	fi
	LASTMSG=$1
}

# run_step N TITLE OUT ERR CMD...: run CMD in the background (stdout to OUT,
# stderr to ERR), showing its last stderr line; returns CMD's status.
run_step() {
	local n=$1 title=$2 out=$3 err=$4 pid rc last
	shift 4
	"$@" >"$out" 2>"$err" &
	pid=$!
	CHILD=$pid
	while kill -0 "$pid" 2>/dev/null; do
		last=$(tail -c 400 "$err" 2>/dev/null | tr '\r' '\n' |
			sed '/^[[:space:]]*$/d' | tail -n 1 | sed 's/^ *//')
		if [ -t 2 ]; then
			progress "[$n/$NSTEPS $((SECONDS - T0)) s] $title: $last"
		else
			progress "[$n/$NSTEPS] $title: $last"
		fi
		sleep 1
	done
	wait "$pid"
	rc=$?
	CHILD=""
	return "$rc"
}

# ------------------------------------------------------------ helpers
load() { cut -d' ' -f1-3 /proc/loadavg; }
# awk's med(k): the median of val[k, 1..cnt[k]] (insertion sort), for the
# mount tables below
AWK_MED='
function med(k,   n, i, j, v, t) {
	n = cnt[k]
	for (i = 1; i <= n; i++) v[i] = val[k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
'
kv() { # key -> median from the crypto step, or N/A
	awk -F'\t' -v k="$1" '$1 == k { v = $2 } END { print (v == "") ? "N/A" : v }' \
		"$tmp/crypto/crypto.kv" 2>/dev/null || echo N/A
}
ratio() { # a b -> a / b with 2 decimals, or "-"
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "N/A" || b == "N/A" || a == "" || b == "" || b + 0 <= 0)
			print "-"
		else printf "%.2f", a / b }'
}
status() { # ratio min -> MET / NOT MET / not measured
	awk -v r="$1" -v m="$2" 'BEGIN {
		if (r == "-") print "not measured"
		else print (r + 0 >= m + 0) ? "MET" : "NOT MET" }'
}
START_DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
LOAD_START=$(load)
progress "bench: start, load $LOAD_START"
[ -t 2 ] || echo >&2

# ------------------------------------------------------------ 1. crypto
mkdir -p "$tmp/crypto"
crypto_ok=1
if ! run_step 1 "crypto sizes" "$tmp/crypto.txt" "$tmp/crypto.err" \
	"${NICE[@]}" env BUILD="$BUILD" BENCH_ROUNDS="$CRYPTO_ROUNDS" \
	BENCH_SECS="$CRYPTO_SECS" BENCH_SIZES="$SIZES" \
	bash bench/bench_crypto.sh -o "$tmp/crypto"; then
	crypto_ok=0
fi
[ -s "$tmp/crypto/crypto.kv" ] || crypto_ok=0
T1=$SECONDS

# ------------------------------------------------------------ 2. -speed
# Both -speed tables report wall time (about one second per row), which on
# a shared machine mostly measures the other jobs. cpu_speed OUT CMD... runs
# one table (stdout and stderr to OUT) and samples the process's CPU time
# (/proc/PID/stat utime + stime, all its threads) every 20 ms: for each row
# OUT.share gets "name<TAB>share", the CPU seconds per wall second while
# that row ran (since the line before it). Wall MB/s / share = MB/s per
# CPU second, comparable with the crypto step; both are reported.
HZ=$(getconf CLK_TCK)
cpu_speed() {
	local out=$1 pid n=0 st c=0 t tp cp line alive all
	local -a L F
	shift
	: >"$out"
	: >"$out.share"
	# exec: $! must be the measured process itself, not a subshell
	(exec "$@") >"$out" 2>&1 &
	pid=$!
	tp=$EPOCHREALTIME
	t=$tp
	cp=0
	while :; do
		alive=0
		# a zombie's times are not kept: the last row then ends at the
		# last live sample (at most 20 ms early)
		if read -r st 2>/dev/null <"/proc/$pid/stat"; then
			read -r -a F <<<"${st##*) }"
			if [ "${F[0]}" != Z ]; then
				c=$((F[11] + F[12]))
				t=$EPOCHREALTIME
				alive=1
			fi
		fi
		# complete lines only (gocryptfs prints a row's name first)
		all=""
		IFS= read -r -d '' all <"$out"
		all=${all%"${all##*$'\n'}"}
		all=${all%$'\n'}
		L=()
		[ -n "$all" ] && mapfile -t L <<<"$all"
		while [ "$n" -lt "${#L[@]}" ]; do
			line=${L[n]}
			n=$((n + 1))
			case "$line" in
			*$'\t'*MB/s*)
				awk -v c="$c" -v cp="$cp" -v t="$t" -v tp="$tp" \
					-v hz="$HZ" -v name="${line%%$'\t'*}" 'BEGIN {
					w = t - tp; s = (w > 0) ? (c - cp) / hz / w : 0
					sub(/ +$/, "", name); printf "%s\t%.3f\n", name, s }' \
					>>"$out.share"
				;;
			esac
			# a row's interval starts at the row before it (or at the
			# start: header lines may arrive with the first row)
			case "$line" in
			*$'\t'*)
				tp=$t
				cp=$c
				;;
			esac
		done
		[ "$alive" = 1 ] || break
		sleep 0.02
	done
	wait "$pid"
}
speed_pair() {
	local r w order
	for ((r = 1; r <= SPEED_ROUNDS; r++)); do
		order="vc go"
		((r % 2 == 0)) && order="go vc"
		for w in $order; do
			echo "-speed round $r/$SPEED_ROUNDS: $w" >&2
			if [ "$w" = vc ]; then
				cpu_speed "$tmp/speed.vc.$r" "${NICE[@]}" "$VC" -speed ||
					echo "vcryptfs -speed failed" >&2
			elif [ "$have_go" = 1 ]; then
				cpu_speed "$tmp/speed.go.$r" "${NICE[@]}" gocryptfs -speed ||
					echo "gocryptfs -speed failed" >&2
			fi
		done
	done
}
run_step 2 "-speed side by side" "$tmp/speed.out" "$tmp/speed.err" speed_pair
# medians over the rounds: "name<TAB>wall MB/s<TAB>MB/s per CPU s<TAB>mark"
agg_speed() { # vc|go
	local f
	for f in "$tmp"/speed."$1".[0-9]*; do
		case "$f" in *.share) continue ;; esac
		awk -F'\t' 'FNR == NR { share[$1] = $2; next }
			/ MB\/s|N\/A/ && NF >= 2 {
				name = $1; sub(/ +$/, "", name)
				split($2, a, " "); v = a[1]
				cpu = (v != "N/A" && share[name] > 0) ? sprintf("%.2f", v / share[name]) : "N/A"
				printf "%s\t%s\t%s\t%s\n", name, v, cpu, (NF >= 3) ? $3 : ""
			}' "$f.share" "$f"
	done | awk -F'\t' '
	function med(s,   n, v, i, j, t) {
		n = split(s, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
			}
		if (n == 0) return "N/A"
		return (n % 2) ? v[(n + 1) / 2] : sprintf("%.2f", (v[n / 2] + v[n / 2 + 1]) / 2)
	}
	{
		if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 }
		if ($2 != "N/A") w[$1] = w[$1] " " $2
		if ($3 != "N/A") c[$1] = c[$1] " " $3
		if ($4 != "") mark[$1] = $4
	}
	END { for (i = 1; i <= k; i++) { x = order[i]
		printf "%s\t%s\t%s\t%s\n", x, med(w[x]), med(c[x]), mark[x] } }'
}
T2=$SECONDS
agg_speed vc >"$tmp/speed.vc"
agg_speed go >"$tmp/speed.go"

# ------------------------------------------------------------ 3. mount
mount_state="not run"
# another mount benchmark (someone else's) would share the disk, the page
# cache and drop_caches with ours: wait for it a little, then say so
others() { pgrep -f 'bench/bench_mount\.sh' | grep -vx "$$" | wc -l; }
mount_note=""
for ((i = 0; i < 60; i++)); do
	[ "$(others)" = 0 ] && break
	progress "[3/$NSTEPS] waiting for another bench_mount.sh to finish ($i s)"
	sleep 1
done
[ "$(others)" = 0 ] || mount_note="another bench_mount.sh was running at the same time: these numbers are disturbed by it."
# what is left of the whole-run budget (BENCH_BUDGET s, under 10 minutes)
left=$((BUDGET - (SECONDS - T0)))
[ "$left" -lt "$M_TIMEOUT" ] && M_TIMEOUT=$left
if [ ! -f bench/bench_mount.sh ]; then
	mount_state="missing: bench/bench_mount.sh does not exist"
elif [ "$M_TIMEOUT" -lt 60 ]; then
	mount_state="skipped: the earlier steps used up the ${BUDGET} s budget"
else
	run_step 3 "mount workloads" "$tmp/mount.txt" "$tmp/mount.err" \
		env BUILD="$BUILD" ROUNDS="$M_ROUNDS" SIZE_MIB="$M_SIZE" \
		BENCH_FILES="$M_FILES" timeout -k 20 "$M_TIMEOUT" \
		bash bench/bench_mount.sh -o "$tmp/mount.tsv"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		mount_state="timed out after $M_TIMEOUT s (stopped; no numbers shown)"
	elif [ "$rc" != 0 ]; then
		mount_state="failed (exit $rc): $(tail -n 2 "$tmp/mount.err" | tr '\n' ' ')"
	elif [ ! -s "$tmp/mount.tsv" ]; then
		mount_state="failed: no result lines"
	else
		mount_state=ok
	fi
fi
if grep -qs fuse /proc/mounts && grep -s fuse /proc/mounts | grep -q "$tmp"; then
	echo "bench: warning: a mount under $tmp is still there" >&2
fi

# ------------------------------------------------------------ 4. report
# (bench/report.sh, split off for size: the markdown report and plots)
# shellcheck source=bench/report.sh
. bench/report.sh

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-crypto (issues 2, 3 and 8): seal throughput, MB/s = 10^6 bytes
# per second of CPU time (bench_crypto -c, and `openssl speed`'s default),
# medians of ROUNDS alternating rounds, in one invocation (the machine is
# shared: CPU time is steadier than wall time; gocryptfs -speed can only
# report wall time):
#   - XChaCha20-Poly1305 per kernel (portable, ssse3, avx, avx2, avx512 when the
#     CPU has it; absent kernels stay N/A, never estimated), the baseline
#     build ($BUILD/bench/bench_crypto, no -march) at every size in
#     BENCH_SIZES and the -march=native twin ($BUILD/bench-native/
#     bench_crypto, mk/bench.mk) at 4096; xchachapoly_seal on the
#     portable kernel (the proved ref functions only) and the AVX2 open
#     (tag check, plaintext out) at 4096;
#   - OpenSSL EVP_chacha20_poly1305 in-process (same loop, one context,
#     only the IV changes) at every size;
#   - AES-256-GCM at every size through our wrapper ossl_gcm_seal (the
#     filesystem's per-block path: one context per thread, new 16-byte IV,
#     24-byte AD and a tag per block), the same sequence written directly
#     against EVP (the floor for any wrapper), and one running EVP context
#     without per-block IV/AD/tag (what `openssl speed` measures);
#   - `openssl speed -evp chacha20-poly1305 -bytes 4096` as shipped, with
#     AVX-512 masked, with AVX-512+AVX2 masked, and with every SIMD path
#     masked (scalar) through OPENSSL_ia32cap (bits from the
#     OPENSSL_ia32cap(3) manual: LV0 #41 SSSE3, #60 AVX; LV1 #5 AVX2,
#     #16 AVX512F, #17 DQ, #21 IFMA, #30 BW, #31 VL);
#   - `openssl speed -evp aes-256-gcm -bytes 4096`, plain (streaming, no
#     per-block IV or tag) and with -aead (TLS-like: IV, AD, tag per block);
#   - `gocryptfs -speed`: XChaCha20-Poly1305-Go, AES-GCM-256-Go, per CPU
#     second (wall MB/s over the CPU seconds per wall second of the run,
#     from bash's `time`) and wall; also with GODEBUG=cpu.avx2=off (Go's
#     SSSE3 path, what a CPU without AVX2 runs) and
#     GODEBUG=cpu.avx2=off,cpu.ssse3=off (its generic code);
#   - a table per CPU class: the kernel the calibration would choose there
#     (the 5% rule on our medians), Go's path for the class, Go's generic
#     code and OpenSSL with the matching mask;
#   - the ceiling of each class: ChaCha20 alone (the keystream XOR of a
#     4 KiB seal, no HChaCha20, no MAC) on our kernel (bench_crypto
#     xor:NAME) and on OpenSSL's EVP_chacha20 with the class's mask
#     (openssl-xor, in-process), against Go's whole seal on that class:
#     no seal on that kernel can beat its ChaCha20 alone.
# Prints tables with ratios and the goals of issues 2, 3, 8 and 21.
# Usage: bench_crypto.sh [-o DIR]: DIR/crypto.kv gets "key<TAB>median<TAB>n"
# for every measured key (bench/bench.sh reads it).
# Env: BUILD, BENCH_ROUNDS (7), BENCH_SECS (0.3 s per in-process
# measurement), BENCH_SIZES ("4096"; make bench: 64 512 4096 65536 1048576).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
ROUNDS=${BENCH_ROUNDS:-7}
SECS=${BENCH_SECS:-0.3}
SIZES=${BENCH_SIZES:-4096}
OUTDIR=""
base=$BUILD/bench/bench_crypto
native=$BUILD/bench-native/bench_crypto

while [ $# -gt 0 ]; do
	case "$1" in
	-o)
		[ $# -ge 2 ] || { echo "usage: bench_crypto.sh [-o DIR]" >&2; exit 2; }
		OUTDIR=$2
		shift 2
		;;
	*)
		echo "usage: bench_crypto.sh [-o DIR]" >&2
		exit 2
		;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for b in "$base" "$native"; do
	if [ ! -x "$b" ]; then
		echo "bench-crypto: $b not built (make bench-crypto builds it)" >&2
		exit 1
	fi
done
slist=$(echo "$SIZES" | tr -s ' ' ',')

CAP_NO512=":~0xc0230000"
CAP_NO512_AVX2=":~0xc0230020"
CAP_SCALAR="~0x1000020000000000:~0xc0230020"
CAP_SSSE3="~0x1000000000000000:~0xc0230020" # AVX, AVX2, AVX-512 masked

ossl_speed() { # CIPHER [OPENSSL_ia32cap] [-aead] -> MB/s at 4096 bytes
	local out alg=$1 cap=${2:-} extra=${3:-}
	# shellcheck disable=SC2086
	if [ -n "$cap" ]; then
		out=$(OPENSSL_ia32cap=$cap openssl speed $extra -evp "$alg" \
			-bytes 4096 -seconds 1 2>/dev/null)
	else
		out=$(env -u OPENSSL_ia32cap openssl speed $extra -evp "$alg" \
			-bytes 4096 -seconds 1 2>/dev/null)
	fi
	# last line: "ChaCha20-Poly1305  1234567.89k" (1000s of bytes/s)
	echo "$out" | awk '/^(ChaCha20-Poly1305|AES-256-GCM) / { v = $NF;
		sub(/k$/, "", v); printf "%.1f\n", v / 1000 }' | tail -n 1
}

median() { # file -> median of its numbers
	sort -g "$1" | awk '{ a[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print a[(NR + 1) / 2];
		else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

add() { # key value (ignored when empty, N/A or FAILED)
	if [ -n "$2" ] && [ "$2" != "N/A" ] && [ "$2" != FAILED ]; then
		echo "$2" >>"$tmp/k.$1"
	fi
}

# run_bc PREFIX SIZE_LIST BIN TARGETS...: one bench_crypto run, into add
run_bc() {
	local pre=$1 sl=$2 bin=$3 name val
	shift 3
	"$bin" -c -t "$SECS" -s "$sl" "$@" >"$tmp/out" || return 1
	while read -r name val; do
		[[ "$name" == *@* ]] || name="$name@$sl"
		name=${name#kernel:}
		add "$pre.${name/:/-}" "$val"
	done <"$tmp/out"
}

echo "bench-crypto: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
if [ -x "$BUILD/vcryptfs" ]; then
	"$BUILD/vcryptfs" -version | sed 's/^/  /'
fi
echo "openssl: $(openssl version)"
have_go=0
command -v gocryptfs >/dev/null 2>&1 && have_go=1
echo "rounds: $ROUNDS alternating, ${SECS}s CPU time per in-process measurement, sizes: $SIZES"

# go_run PREFIX GODEBUG: one `gocryptfs -speed` run into PREFIX (the
# XChaCha20 reference), PREFIX_gcm, _wall, _gcm_wall, _cpu and _share.
# bash's `time` gives the run's wall, user and system seconds: Go's MB/s
# per CPU second = wall MB/s / (CPU s per wall s), comparable with our
# CPU-time figures on a loaded machine. The reference is the larger of
# the two: on a quiet machine Go's GC threads run beside the crypto (CPU s
# per wall s > 1) and wall is larger; under load per CPU s is. Never in
# our favour.
go_run() {
	local pre=$1 dbg=$2 share gw gg
	{
		TIMEFORMAT='%R %U %S'
		if [ -n "$dbg" ]; then
			time GODEBUG=$dbg gocryptfs -speed >"$tmp/go" 2>/dev/null
		else
			time gocryptfs -speed >"$tmp/go" 2>/dev/null
		fi
	} 2>"$tmp/go.time"
	share=$(awk '{ if ($1 > 0) printf "%.4f", ($2 + $3) / $1 }' "$tmp/go.time")
	gw=$(awk '/^XChaCha20-Poly1305-Go/ { print $2 }' "$tmp/go")
	gg=$(awk '/^AES-GCM-256-Go/ { print $2 }' "$tmp/go")
	add "${pre}_wall" "$gw"
	add "${pre}_gcm_wall" "$gg"
	if [ -n "$share" ] && [ -n "$gw" ]; then
		add "${pre}_cpu" "$(awk -v w="$gw" -v s="$share" 'BEGIN { if (s > 0) printf "%.1f", w / s }')"
		add "$pre" "$(awk -v w="$gw" -v s="$share" 'BEGIN { c = s > 0 ? w / s : w; printf "%.1f", (c > w ? c : w) }')"
		add "${pre}_gcm" "$(awk -v w="$gg" -v s="$share" 'BEGIN { c = s > 0 ? w / s : w; printf "%.1f", (c > w ? c : w) }')"
		add "${pre}_share" "$share"
	fi
}

kernels=(kernel:portable kernel:ssse3 kernel:avx kernel:avx2 kernel:avx512)
sized=("${kernels[@]}" openssl gcm gcm-evp gcm-stream)
rsized=()
for ((i = ${#sized[@]} - 1; i >= 0; i--)); do rsized+=("${sized[$i]}"); done
caps=("" "$CAP_NO512" "$CAP_NO512_AVX2" "$CAP_SCALAR" "" "" "$CAP_SSSE3")
algs=(chacha20-poly1305 chacha20-poly1305 chacha20-poly1305 chacha20-poly1305 aes-256-gcm aes-256-gcm chacha20-poly1305)
extras=("" "" "" "" "" "-aead" "")
okeys=(ossl ossl_no512 ossl_no512_avx2 ossl_scalar ossl_gcm ossl_gcm_aead ossl_ssse3)
# ChaCha20 alone (the ceilings): ours per kernel, OpenSSL's per class mask
xors=(xor:portable xor:ssse3 xor:avx xor:avx2 xor:avx512)
xcaps=("$CAP_SSSE3" "$CAP_NO512_AVX2" "$CAP_NO512")
xkeys=(x_ssse3 x_no512_avx2 x_no512)
for r in $(seq 1 "$ROUNDS"); do
	printf '\r  crypto round %d/%d ' "$r" "$ROUNDS" >&2
	order="base native"
	list=("${sized[@]}")
	if [ $((r % 2)) -eq 0 ]; then
		order="native base"
		list=("${rsized[@]}")
	fi
	for which in $order; do
		if [ "$which" = base ]; then
			run_bc b "$slist" "$base" "${list[@]}" || exit 1
			run_bc b 4096 "$base" open:avx2 ref "${xors[@]}" \
				openssl-xor || exit 1
			for i in 0 1 2; do
				OPENSSL_ia32cap=${xcaps[$i]} run_bc "${xkeys[$i]}" \
					4096 "$base" openssl-xor || exit 1
			done
		else
			run_bc n 4096 "$native" "${kernels[@]}" || exit 1
		fi
	done
	for i in 0 1 2 3 4 5 6; do
		j=$i
		[ $((r % 2)) -eq 0 ] && j=$((6 - i))
		add "${okeys[$j]}" "$(ossl_speed "${algs[$j]}" "${caps[$j]}" "${extras[$j]}")"
	done
	if [ "$have_go" = 1 ] && [ "$r" -le 3 ]; then
		go_run go ""
		# Go's paths per CPU class: SSSE3 (what a CPU without AVX2
		# runs) and generic (the baseline-build regression)
		go_run go_ssse3 cpu.avx2=off
		go_run go_generic cpu.avx2=off,cpu.ssse3=off
	fi
done
printf '\r%30s\r' "" >&2
echo "(done)" >&2

val() { # key -> median or N/A
	if [ -s "$tmp/k.$1" ]; then median "$tmp/k.$1"; else echo "N/A"; fi
}
ratio() { # a b -> a / b
	if [ "$1" = N/A ] || [ "$2" = N/A ]; then echo "-"; else
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
	fi
}
if [ -n "$OUTDIR" ]; then
	mkdir -p "$OUTDIR"
	: >"$OUTDIR/crypto.kv"
	for f in "$tmp"/k.*; do
		[ -e "$f" ] || continue
		k=${f##*/k.}
		printf '%s\t%s\t%s\n' "$k" "$(median "$f")" "$(wc -l <"$f")" \
			>>"$OUTDIR/crypto.kv"
	done
fi
go=$(val go)
ossl_avx2=$(val ossl_no512)
[ "$have_go" = 1 ] || go=N/A

echo
printf '%-46s %9s %7s %9s\n' "XChaCha20-Poly1305 seal, 4096-byte blocks" "MB/s" "vs Go" "vs OSSL-avx2"
row() { # label key
	local v
	v=$(val "$2")
	printf '%-46s %9s %7s %9s\n' "$1" "$v" "$(ratio "$v" "$go")" "$(ratio "$v" "$ossl_avx2")"
}
for k in portable ssse3 avx avx2 avx512; do
	row "vcryptfs $k (baseline build)" "b.$k@4096"
done
for k in portable ssse3 avx avx2 avx512; do
	row "vcryptfs $k (-march=native build)" "n.$k@4096"
done
row "vcryptfs avx2 open (tag check)" b.open-avx2@4096
row "vcryptfs portable (proved ref functions)" b.ref@4096
row "OpenSSL EVP chacha20-poly1305, in-process" b.openssl@4096
row "openssl speed (as shipped)" ossl
row "openssl speed, AVX-512 masked" ossl_no512
row "openssl speed, AVX-512+AVX2 masked" ossl_no512_avx2
row "openssl speed, all SIMD masked (scalar)" ossl_scalar
printf '%-46s %9s\n' "gocryptfs -speed XChaCha20-Poly1305-Go, per CPU s" "$(val go_cpu)"
printf '%-46s %9s   (CPU s per wall s: %s)\n' "gocryptfs -speed XChaCha20-Poly1305-Go, wall" \
	"$(val go_wall)" "$(val go_share)"
printf '%-46s %9s   (the larger of the two, per run: "vs Go")\n' \
	"gocryptfs -speed XChaCha20-Poly1305-Go, ref" "$go"

if [ "$SIZES" != 4096 ]; then
	echo
	printf '%-34s' "seal MB/s by block size"
	for s in $SIZES; do printf ' %9s' "$s"; done
	echo
	for k in portable ssse3 avx avx2 avx512 openssl gcm gcm-evp gcm-stream; do
		printf '%-34s' "$k"
		for s in $SIZES; do printf ' %9s' "$(val "b.$k@$s")"; done
		echo
	done
fi

ogcm=$(val ossl_gcm)
gcm=$(val b.gcm@4096)
echo
printf '%-46s %9s %9s\n' "AES-256-GCM seal, 4096-byte blocks" "MB/s" "vs speed"
grow() { # label value
	printf '%-46s %9s %9s\n' "$1" "$2" "$(ratio "$2" "$ogcm")"
}
grow "vcryptfs ossl_gcm_seal (per block: IV, AD, tag)" "$gcm"
grow "EVP per block, same sequence, no wrapper" "$(val b.gcm-evp@4096)"
grow "EVP one running context (no IV/AD/tag)" "$(val b.gcm-stream@4096)"
grow "openssl speed -evp aes-256-gcm" "$ogcm"
grow "openssl speed -aead -evp aes-256-gcm" "$(val ossl_gcm_aead)"
printf '%-46s %9s\n' "gocryptfs -speed AES-GCM-256-Go, ref (larger)" "$(val go_gcm)"
printf '%-46s %9s\n' "gocryptfs -speed AES-GCM-256-Go, wall" "$(val go_gcm_wall)"

# Per CPU class (issue 21): the kernel the start-up calibration would pick
# on such a CPU (the 5% rule of crypto/calibrate.h over the baseline
# medians of the kernels up to the class's level), gocryptfs's Go path for
# that class (GODEBUG), its generic build (the seed's regression) and
# OpenSSL with the matching OPENSSL_ia32cap mask. A class above this CPU
# prints N/A for us.
pick_upto() { # level index 0..4 -> "kernel MB/s" or "N/A"
	local ks=(portable ssse3 avx avx2 avx512) i b="" bv=0 v
	v=$(val "b.${ks[$1]}@4096")
	[ "$v" = N/A ] && { echo "N/A"; return; }
	for ((i = 0; i <= $1; i++)); do
		v=$(val "b.${ks[$i]}@4096")
		[ "$v" = N/A ] && continue
		if [ -z "$b" ] || awk -v a="$v" -v c="$bv" 'BEGIN { exit !(a >= 1.05 * c) }'; then
			b=${ks[$i]} bv=$v
		fi
	done
	echo "$b $bv"
}
echo
printf '%-40s %-16s %8s %8s %8s %9s %6s %6s %6s\n' "XChaCha20-Poly1305 4 KiB, per CPU class" \
	"vcryptfs (kern)" "Go path" "Go gen." "OpenSSL" "OSSL mask" "/path" "/gen." "/OSSL"
cls=("no SSSE3 (qemu64)" "SSSE3, no AVX (Nehalem)" "AVX, no AVX2 (i3-2100)" "AVX2 (Haswell, Zen)" "AVX-512")
gopath=(go_generic go_ssse3 go_ssse3 go go)
oss=(ossl_scalar ossl_ssse3 ossl_no512_avx2 ossl_no512 ossl)
omask=(scalar ssse3 no-avx2 no-avx512 none)
for i in 0 1 2 3 4; do
	p=$(pick_upto "$i")
	pk=${p%% *} pv=${p#* }
	[ "$p" = N/A ] && pk=N/A pv=N/A
	gp=$(val "${gopath[$i]}") gg=$(val go_generic) ov=$(val "${oss[$i]}")
	[ "$have_go" = 1 ] || { gp=N/A; gg=N/A; }
	printf '%-40s %-16s %8s %8s %8s %9s %6s %6s %6s\n' "${cls[$i]}" "$pv ($pk)" \
		"$gp" "$gg" "$ov" "${omask[$i]}" "$(ratio "$pv" "$gp")" \
		"$(ratio "$pv" "$gg")" "$(ratio "$pv" "$ov")"
done

# The ceiling of each class: ChaCha20 alone on the kernel picked there and
# on OpenSSL with the class's mask, against Go's whole seal on that class
echo
printf '%-40s %-16s %10s %10s %8s %10s\n' "ChaCha20 alone 4 KiB (ceiling), per class" \
	"vcryptfs (kern)" "OSSL xor" "Go seal" "ours/Go" "seal/xor"
xoss=(N/A x_ssse3.openssl-xor@4096 x_no512_avx2.openssl-xor@4096 \
	x_no512.openssl-xor@4096 b.openssl-xor@4096)
for i in 0 1 2 3 4; do
	p=$(pick_upto "$i")
	pk=${p%% *} pv=${p#* }
	xv=N/A
	[ "$p" = N/A ] || xv=$(val "b.xor-$pk@4096")
	[ "$p" = N/A ] && pk=N/A pv=N/A
	ox=N/A
	[ "${xoss[$i]}" = N/A ] || ox=$(val "${xoss[$i]}")
	gp=$(val "${gopath[$i]}")
	[ "$have_go" = 1 ] || gp=N/A
	printf '%-40s %-16s %10s %10s %8s %10s\n' "${cls[$i]}" "$xv ($pk)" \
		"$ox" "$gp" "$(ratio "$xv" "$gp")" "$(ratio "$pv" "$xv")"
done
echo "(ours/Go: ChaCha20 alone over Go's whole seal, the most any seal on"
echo " that kernel could reach; seal/xor: our seal over its ChaCha20 alone)"

# best kernel of each build, for the baseline-vs-native comparison
best() { # prefix -> max median over kernels
	local m=0 v
	for k in portable ssse3 avx avx2 avx512; do
		v=$(val "$1.$k@4096")
		[ "$v" = N/A ] && continue
		m=$(awk -v a="$m" -v b="$v" 'BEGIN { print (b > a) ? b : a }')
	done
	echo "$m"
}
bb=$(best b)
bn=$(best n)
avx2=$(val b.avx2@4096)
echo
goal() { # text ratio min
	local st="met"
	if [ "$2" = "-" ]; then st="not measured"; elif
		awk -v r="$2" -v m="$3" 'BEGIN { exit !(r < m) }'; then st="NOT met"; fi
	printf 'goal: %-58s %5s (>= %s): %s\n' "$1" "$2" "$3" "$st"
}
goal "portable / OpenSSL scalar (issue 2)" "$(ratio "$(val b.portable@4096)" "$(val ossl_scalar)")" 0.8
goal "avx2 path / gocryptfs Go (issue 3)" "$(ratio "$avx2" "$go")" 1.0
goal "avx2 path / OpenSSL AVX2 path (issue 3)" "$(ratio "$avx2" "$ossl_avx2")" 1.0
goal "best path / gocryptfs Go (issues 3, 8; needs AVX-512)" "$(ratio "$bb" "$go")" 1.5
goal "AES-GCM wrapper / openssl speed aes-256-gcm (issue 8)" "$(ratio "$gcm" "$ogcm")" 0.95
# issue 21: the best level without AVX2 (avx, else ssse3) against Go's
# SSSE3 path, avx2 against Go as shipped, avx512 against openssl speed
nav=$(pick_upto 2)
nav=${nav#* }
goal "best non-AVX2 level / Go SSSE3 path (issue 21)" "$(ratio "$nav" "$(val go_ssse3)")" 1.2
goal "avx2 / gocryptfs Go (issue 21)" "$(ratio "$avx2" "$go")" 1.2
goal "avx512 / openssl speed, AVX-512 path (issue 21)" "$(ratio "$(val b.avx512@4096)" "$(val ossl)")" 0.9
# Baseline and native builds run the same kernel code, so their gap is
# load noise, which only ever slows a round down: besides the ratio of the
# medians, the ratio of the fastest rounds (best of ROUNDS) is given, and
# the goal is judged on that one.
top() { # prefix -> the fastest single round over kernels
	local m=0 k
	for k in portable ssse3 avx avx2 avx512; do
		[ -s "$tmp/k.$1.$k@4096" ] || continue
		m=$(sort -g "$tmp/k.$1.$k@4096" | tail -n 1 |
			awk -v a="$m" '{ print ($1 > a) ? $1 : a }')
	done
	echo "$m"
}
nb=$(ratio "$bb" "$bn")
nt=$(ratio "$(top b)" "$(top n)")
st=$(awk -v r="$nt" 'BEGIN { d = r - 1; if (d < 0) d = -d; print (d <= 0.03) ? "met" : "NOT met" }')
printf 'goal: %-58s %5s (within 3%%): %s (medians: %s)\n' \
	"baseline best / -march=native best, fastest rounds" "$nt" "$st" "$nb"
if [ ! -s "$tmp/k.b.avx512@4096" ]; then
	echo "note: no AVX-512 on this CPU: the avx512 kernel is built but cannot run here"
fi
exit 0

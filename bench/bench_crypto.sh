#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-crypto (issues 2 and 3): XChaCha20-Poly1305 seal of 4096-byte
# blocks, MB/s = 10^6 bytes per second of CPU time (bench_crypto -c, and
# `openssl speed`'s default), medians of ROUNDS alternating runs, in one
# invocation (the machine is shared: CPU time is steadier than wall time;
# gocryptfs -speed can only report wall time):
#   - vcryptfs per kernel (portable, ssse3, avx2, avx512 if the CPU has it),
#     the baseline build ($BUILD/bench/bench_crypto, no -march) and the
#     -march=native twin ($BUILD/bench-native/bench_crypto, mk/simd.mk);
#     also the proved reference xchachapoly_seal (aead_xchacha.c) and the
#     stitched AVX2 seal (off by default in the filesystem);
#   - OpenSSL EVP_chacha20_poly1305 seal in-process (same loop, one context,
#     only the IV changes);
#   - `openssl speed -evp chacha20-poly1305 -bytes 4096` as shipped,
#     with AVX-512 masked, with AVX-512+AVX2 masked, and with every SIMD
#     path masked (scalar) through OPENSSL_ia32cap (bits from the
#     OPENSSL_ia32cap(3) manual: LV0 #41 SSSE3, #60 AVX; LV1 #5 AVX2,
#     #16 AVX512F, #17 DQ, #21 IFMA, #30 BW, #31 VL);
#   - `gocryptfs -speed`'s XChaCha20-Poly1305-Go line.
# Prints a table with ratios and the goals of issues 2 and 3. The machine
# is shared: numbers move with its load, which is printed too.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
ROUNDS=${BENCH_ROUNDS:-7}
SECS=${BENCH_SECS:-0.3}
base=$BUILD/bench/bench_crypto
native=$BUILD/bench-native/bench_crypto
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for b in "$base" "$native"; do
	if [ ! -x "$b" ]; then
		echo "bench-crypto: $b not built (make bench-crypto builds it)" >&2
		exit 1
	fi
done

CAP_NO512=":~0xc0230000"
CAP_NO512_AVX2=":~0xc0230020"
CAP_SCALAR="~0x1000020000000000:~0xc0230020"

ossl_speed() { # [OPENSSL_ia32cap] -> MB/s
	local out
	if [ -n "${1:-}" ]; then
		out=$(OPENSSL_ia32cap=$1 openssl speed -evp \
			chacha20-poly1305 -bytes 4096 -seconds 1 2>/dev/null)
	else
		out=$(env -u OPENSSL_ia32cap openssl speed -evp \
			chacha20-poly1305 -bytes 4096 -seconds 1 2>/dev/null)
	fi
	# last line: "ChaCha20-Poly1305  1234567.89k" (1000s of bytes/s)
	echo "$out" | awk '/^ChaCha20-Poly1305/ { v = $NF; sub(/k$/, "", v);
		printf "%.1f\n", v / 1000 }' | tail -n 1
}

median() { # file -> median of its numbers
	sort -g "$1" | awk '{ a[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print a[(NR + 1) / 2];
		else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

add() { # key value
	[ -n "$2" ] && [ "$2" != "N/A" ] && echo "$2" >>"$tmp/$1"
}

echo "bench-crypto: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
if [ -x "$BUILD/vcryptfs" ]; then
	"$BUILD/vcryptfs" -version | sed 's/^/  /'
fi
echo "openssl: $(openssl version)"
have_go=0
command -v gocryptfs >/dev/null 2>&1 && have_go=1
echo "rounds: $ROUNDS alternating, ${SECS}s CPU time per in-process measurement"

targets="kernel:portable kernel:ssse3 kernel:avx2 kernel:avx512"
for r in $(seq 1 "$ROUNDS"); do
	printf '\r  round %d/%d ' "$r" "$ROUNDS" >&2
	order="base native"
	[ $((r % 2)) -eq 0 ] && order="native base"
	for which in $order; do
		if [ "$which" = base ]; then
			# shellcheck disable=SC2086
			"$base" -c -t "$SECS" $targets stitch:avx2 ref openssl \
				>"$tmp/out" || exit 1
			pre=b
		else
			# shellcheck disable=SC2086
			"$native" -c -t "$SECS" $targets >"$tmp/out" || exit 1
			pre=n
		fi
		while read -r name val; do
			name=${name#kernel:}
			add "$pre.${name/:/-}" "$val"
		done <"$tmp/out"
	done
	caps=("" "$CAP_NO512" "$CAP_NO512_AVX2" "$CAP_SCALAR")
	keys=(ossl ossl_no512 ossl_no512_avx2 ossl_scalar)
	for i in 0 1 2 3; do
		j=$i
		[ $((r % 2)) -eq 0 ] && j=$((3 - i))
		add "${keys[$j]}" "$(ossl_speed "${caps[$j]}")"
	done
	if [ "$have_go" = 1 ] && [ "$r" -le 3 ]; then
		add go "$(gocryptfs -speed 2>/dev/null |
			awk '/^XChaCha20-Poly1305-Go/ { print $2 }')"
	fi
done
printf '\r%30s\r' "" >&2
echo "(done)" >&2

val() { # key -> median or N/A
	if [ -s "$tmp/$1" ]; then median "$tmp/$1"; else echo "N/A"; fi
}
ratio() { # a b -> a / b
	if [ "$1" = N/A ] || [ "$2" = N/A ]; then echo "-"; else
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
	fi
}
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
for k in portable ssse3 avx2 avx512; do
	row "vcryptfs $k (baseline build)" "b.$k"
done
for k in portable ssse3 avx2 avx512; do
	row "vcryptfs $k (-march=native build)" "n.$k"
done
row "vcryptfs avx2, stitched seal (not default)" b.stitch-avx2
row "vcryptfs proved reference (aead_xchacha.c)" b.ref
row "OpenSSL EVP chacha20-poly1305, in-process" b.openssl
row "openssl speed (as shipped)" ossl
row "openssl speed, AVX-512 masked" ossl_no512
row "openssl speed, AVX-512+AVX2 masked" ossl_no512_avx2
row "openssl speed, all SIMD masked (scalar)" ossl_scalar
printf '%-46s %9s\n' "gocryptfs -speed XChaCha20-Poly1305-Go (wall)" "$go"

# best kernel of each build, for the baseline-vs-native comparison
best() { # prefix -> max median over kernels
	local m=0 v
	for k in portable ssse3 avx2 avx512; do
		v=$(val "$1.$k")
		[ "$v" = N/A ] && continue
		m=$(awk -v a="$m" -v b="$v" 'BEGIN { print (b > a) ? b : a }')
	done
	echo "$m"
}
bb=$(best b)
bn=$(best n)
avx2=$(val b.avx2)
echo
goal() { # text ratio min
	local st="met"
	if [ "$2" = "-" ]; then st="not measured"; elif
		awk -v r="$2" -v m="$3" 'BEGIN { exit !(r < m) }'; then st="NOT met"; fi
	printf 'goal: %-58s %5s (>= %s): %s\n' "$1" "$2" "$3" "$st"
}
goal "portable / OpenSSL scalar (issue 2)" "$(ratio "$(val b.portable)" "$(val ossl_scalar)")" 0.8
goal "avx2 path / gocryptfs Go (issue 3)" "$(ratio "$avx2" "$go")" 1.0
goal "avx2 path / OpenSSL AVX2 path (issue 3)" "$(ratio "$avx2" "$ossl_avx2")" 1.0
goal "best path / gocryptfs Go (issue 3; needs AVX-512)" "$(ratio "$bb" "$go")" 1.5
nb=$(ratio "$bb" "$bn")
st=$(awk -v r="$nb" 'BEGIN { d = r - 1; if (d < 0) d = -d; print (d <= 0.03) ? "met" : "NOT met" }')
printf 'goal: %-58s %5s (within 3%%): %s\n' "baseline best / -march=native best" "$nb" "$st"
if [ ! -s "$tmp/b.avx512" ]; then
	echo "note: no AVX-512 on this CPU: the avx512 kernel is built but cannot run here"
fi
exit 0

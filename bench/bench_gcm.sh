#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench-gcm (issue 21): AES-256-GCM per 4096-byte block, the gocryptfs
# content block (16-byte IV changed per block, 24-byte AD, 16-byte tag),
# through every library Debian ships, against gocryptfs's own Go code, in
# one run. Each of ROUNDS rounds runs $BUILD/bench/bench_gcm once (all of
# its targets in one process, thread CPU time, the target order reversed
# every other round; see bench/bench_gcm.c for what each target does),
# then `gocryptfs -speed`. gocryptfs's AES-GCM-256-Go is converted to MB/s
# per CPU second as bench/bench_crypto.sh does (wall MB/s over the CPU
# seconds per wall second of the run, from bash's `time`); the reference
# ("Go") is the larger of that and wall, never in our favour.
# Prints the code paths the libraries report for this CPU, then a table of
# medians with the ratio to Go and to our wrapper, and the issue's goal.
# Usage: bench_gcm.sh [-o FILE]: FILE gets "key<TAB>median<TAB>n" lines.
# Env: BUILD, BENCH_ROUNDS (7), BENCH_SECS (0.3 s per measurement),
# BENCH_GCRYPT_DISABLE_HWF (passed on: mask libgcrypt hardware features).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
ROUNDS=${BENCH_ROUNDS:-7}
SECS=${BENCH_SECS:-0.3}
OUT=""
bin=$BUILD/bench/bench_gcm

if [ $# -eq 2 ] && [ "$1" = -o ]; then
	OUT=$2
elif [ $# -ne 0 ]; then
	echo "usage: bench_gcm.sh [-o FILE]" >&2
	exit 2
fi
if [ ! -x "$bin" ]; then
	echo "bench-gcm: $bin not built (make bench-gcm builds it)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "bench-gcm: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
flags=""
for f in aes pclmulqdq avx avx2 movbe avx512f vaes vpclmulqdq; do
	grep -qw "$f" /proc/cpuinfo && flags="$flags $f"
done
echo "cpu flags:$flags"
echo "openssl: $(openssl version)"
NETTLE_FAT_VERBOSE=1 "$bin" -l 2>&1 | sed 's/^/  /'
have_go=0
command -v gocryptfs >/dev/null 2>&1 && have_go=1
echo "rounds: $ROUNDS alternating, ${SECS}s thread CPU time per measurement"

add() { # key value
	[ -n "$2" ] && echo "$2" >>"$tmp/k.$1"
}
for r in $(seq 1 "$ROUNDS"); do
	printf '\r  gcm round %d/%d ' "$r" "$ROUNDS" >&2
	rev=()
	[ $((r % 2)) -eq 0 ] && rev=(-R)
	if ! "$bin" -c -t "$SECS" "${rev[@]}" >"$tmp/out"; then
		cat "$tmp/out" >&2
		echo "bench-gcm: bench_gcm failed" >&2
		exit 1
	fi
	while read -r kind x name val; do
		[ "$kind" = round ] && add "$name" "$val"
		[ "$kind" = check ] && [ "$r" = 1 ] && echo "  $kind $x $name $val"
	done <"$tmp/out"
	if [ "$have_go" = 1 ]; then
		{
			TIMEFORMAT='%R %U %S'
			time gocryptfs -speed >"$tmp/go" 2>/dev/null
		} 2>"$tmp/go.time"
		share=$(awk '{ if ($1 > 0) printf "%.4f", ($2 + $3) / $1 }' "$tmp/go.time")
		gg=$(awk '/^AES-GCM-256-Go/ { print $2 }' "$tmp/go")
		add go_wall "$gg"
		if [ -n "$share" ] && [ -n "$gg" ]; then
			add go_cpu "$(awk -v w="$gg" -v s="$share" 'BEGIN { if (s > 0) printf "%.1f", w / s }')"
			add go "$(awk -v w="$gg" -v s="$share" 'BEGIN { c = s > 0 ? w / s : w; printf "%.1f", (c > w ? c : w) }')"
			add go_share "$share"
		fi
	fi
done
printf '\r%30s\r' "" >&2

median() { # file -> median
	sort -g "$1" | awk '{ a[NR] = $1 } END {
		if (NR == 0) { print "N/A"; exit }
		if (NR % 2) print a[(NR + 1) / 2];
		else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
val() { # key -> median or N/A
	if [ -s "$tmp/k.$1" ]; then median "$tmp/k.$1"; else echo N/A; fi
}
spread() { # key -> "min-max"
	[ -s "$tmp/k.$1" ] || { echo -; return; }
	sort -g "$tmp/k.$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'
}
ratio() { # a b -> a / b
	if [ "$1" = N/A ] || [ "$2" = N/A ]; then echo "-"; else
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
	fi
}
if [ -n "$OUT" ]; then
	: >"$OUT"
	for f in "$tmp"/k.*; do
		[ -e "$f" ] || continue
		printf '%s\t%s\t%s\n' "${f##*/k.}" "$(median "$f")" "$(wc -l <"$f")" >>"$OUT"
	done
fi

go=$(val go)
wrap=$(val wrap)
wrapo=$(val wrap-open)
echo
printf '%-58s %8s %15s %6s %7s\n' "AES-256-GCM, 4096-byte block, IV16 AD24 tag16" "MB/s" "min-max" "vs Go" "vs wrap"
row() { # key label base
	local v
	v=$(val "$1")
	printf '%-58s %8s %15s %6s %7s\n' "$2" "$v" "$(spread "$1")" "$(ratio "$v" "$go")" "$(ratio "$v" "$3")"
}
row wrap "seal: vcryptfs ossl_gcm_seal (wrapper)" "$wrap"
row evp "seal: EVP, the wrapper's sequence, EVP_aes_256_gcm()" "$wrap"
row evp-fetch "seal: EVP, fetched cipher held" "$wrap"
row evp-init2 "seal: EVP, fetched, IV by EVP_EncryptInit_ex2" "$wrap"
row evp-ivfixed "seal: EVP, fetched, IV by ctrl SET_IV_FIXED -1" "$wrap"
row evp-ptag "seal: EVP, fetched, tag by get_params" "$wrap"
row evp-cipher "seal: EVP, fetched, AD/data/final by EVP_Cipher" "$wrap"
row evp-lean "seal: EVP, fetched, EVP_Cipher + get_params tag" "$wrap"
row evp-copy "seal: EVP_CIPHER_CTX_copy of a keyed template" "$wrap"
row evp-stream "EVP one running context, no IV/AD/tag (ceiling)" "$wrap"
row nettle "seal: nettle gcm_aes256 (set_iv 16, update, encrypt)" "$wrap"
row gcrypt "seal: libgcrypt (setiv, authenticate, encrypt)" "$wrap"
row backend "seal: gcm_backend_gcrypt (the mount's AES-GCM path)" "$wrap"
row wrap-open "open: vcryptfs ossl_gcm_open (wrapper)" "$wrapo"
row evp-open "open: EVP, the wrapper's sequence" "$wrapo"
row evp-lean-open "open: EVP, fetched, EVP_Cipher + set_params tag" "$wrapo"
row nettle-open "open: nettle gcm_aes256 + memeql_sec" "$wrapo"
row gcrypt-open "open: libgcrypt (decrypt, checktag)" "$wrapo"
row backend-open "open: gcm_backend_gcrypt" "$wrapo"
printf '%-58s %8s %15s\n' "gocryptfs -speed AES-GCM-256-Go, per CPU s" "$(val go_cpu)" "$(spread go_cpu)"
printf '%-58s %8s %15s   (CPU s per wall s: %s)\n' "gocryptfs -speed AES-GCM-256-Go, wall" \
	"$(val go_wall)" "$(spread go_wall)" "$(val go_share)"
printf '%-58s %8s   (the larger of the two, per run: "vs Go")\n' \
	"gocryptfs -speed AES-GCM-256-Go, ref" "$go"
[ "$have_go" = 1 ] || echo "note: gocryptfs not installed: no Go reference"

best=wrap
for k in evp evp-fetch evp-init2 evp-ivfixed evp-ptag evp-cipher evp-lean nettle gcrypt; do
	v=$(val "$k")
	[ "$v" = N/A ] && continue
	awk -v a="$v" -v b="$(val "$best")" 'BEGIN { exit !(a > b) }' && best=$k
done
echo
echo "fastest per-block seal: $best ($(val "$best") MB/s)"
# the goal is judged on what the mount runs: the libgcrypt backend behind
# the wrapper (content_gcm_backend_enable), seal and open; the OpenSSL
# wrapper row is the fallback when libgcrypt is unusable
goal_line() { # label key
	local r st=met
	r=$(ratio "$(val "$2")" "$go")
	if [ "$r" = "-" ]; then st="not measured"; elif
		awk -v r="$r" 'BEGIN { exit !(r < 1.0) }'; then st="NOT met"; fi
	printf 'goal: %-58s %5s (>= 1.0): %s\n' "$1" "$r" "$st"
}
goal_line "mount's AES-GCM seal (libgcrypt) / gocryptfs Go (issue 21)" backend
goal_line "mount's AES-GCM open (libgcrypt) / gocryptfs Go (issue 21)" backend-open
printf '      %-58s %5s\n' "OpenSSL wrapper seal (the fallback) / gocryptfs Go" "$(ratio "$wrap" "$go")"
exit 0

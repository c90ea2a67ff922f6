#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: -ctlsock and vcryptfs-xray against gocryptfs 2.3. One cipher dir
# (short, long, nested names) is mounted by vcryptfs -ctlsock (also the
# ASan/UBSan build) and by gocryptfs -ctlsock; gocryptfs-xray
# -encrypt-paths/-decrypt-paths and vcryptfs-xray give the same output,
# warnings, errors and exit codes through either socket, and raw JSON
# requests get the same replies (ErrNo and, where gocryptfs's text is not
# Go-specific, the text); so do -aessiv, -xchacha, -plaintextnames,
# -deterministic-names and -longnamemax 62 volumes. vcryptfs-xray's
# dumps of AES-GCM, AES-SIV and XChaCha20 files (and of broken ones)
# equal gocryptfs-xray's, and
# -dumpmasterkey prints the same key. A socket that cannot be created:
# exit 20, as gocryptfs. Spec: ../shared/FORMAT.md 4, 5, 11, 12.3.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
VS=$PWD/$SANBUILD/vcryptfs
X=$PWD/$BUILD/vcryptfs-xray
XS=$PWD/$SANBUILD/vcryptfs-xray
group_needs 68-ctlsock "$V" "$VS" "$X" "$XS" -- \
	gocryptfs gocryptfs-xray python3 || exit 0
scratch_dir ctlsock
san_log_to "$T/san"
cd "$T" || exit 0
printf 'pw\n' >pf
mkdir c mv mg
"$V" -q -init -scryptn 10 -passfile pf c >/dev/null 2>&1 || fail "-init"
LONG=$(printf 'L%.0s' $(seq 200))
"$V" -q -passfile pf c mv || fail "plain mount"
mkdir -p "mv/dir/sub" "mv/$LONG"
touch "mv/dir/sub/file" "mv/f2" "mv/$LONG/inner"
unmount_all mv

# req SOCKET JSON: one raw request, the reply line.
req() {
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode())
print(s.recv(65536).decode(), end="")' "$1" "$2"
}

start_mounts() { # BIN
	"$1" -q -passfile pf -ctlsock "$T/v.sock" c mv >mv.log 2>&1 ||
		fail "vcryptfs -ctlsock mount: $(cat mv.log)"
	gocryptfs -q -passfile pf -ctlsock "$T/g.sock" c mg >/dev/null 2>&1 ||
		fail "gocryptfs -ctlsock mount"
}

ENC_IN=("dir/sub/file" "f2" "$LONG" "$LONG/inner" "dir" "nonexist" "nonexist/x"
	"/dir" "./dir//sub/" "dir/../f2" "gocryptfs.conf" "")

# same_xray TAG XRAY MODE INPUT: XRAY MODE through both sockets, equal
# stdout, stderr (socket name aside) and exit code.
same_xray() {
	local tag=$1 xr=$2 mode=$3 in=$4 vo go vrc grc
	vo=$(printf '%s\n' "$in" | "$xr" "$mode" "$T/v.sock" 2>&1)
	vrc=$?
	go=$(printf '%s\n' "$in" | gocryptfs-xray "$mode" "$T/g.sock" 2>&1)
	grc=$?
	if [ "$tag" != gocryptfs-xray ]; then
		go=$(printf '%s\n' "$in" | "$xr" "$mode" "$T/g.sock" 2>&1)
		grc=$?
	fi
	if [ "$vo" = "$go" ] && [ "$vrc" -eq "$grc" ]; then
		return 0
	fi
	fail "$tag $mode '${in:0:40}': vcryptfs socket: rc $vrc '$vo'; gocryptfs socket: rc $grc '$go'"
	return 1
}

case_xray_paths() {
	local bin ok n in enc
	for bin in "$V" "$VS"; do
		start_mounts "$bin"
		ok=1
		n=0
		for in in "${ENC_IN[@]}"; do
			same_xray gocryptfs-xray gocryptfs-xray -encrypt-paths "$in" || ok=0
			same_xray vcryptfs-xray "$X" -encrypt-paths "$in" || ok=0
			n=$((n + 2))
		done
		for in in "${ENC_IN[@]:0:5}"; do
			enc=$(printf '%s\n' "$in" | gocryptfs-xray -encrypt-paths "$T/g.sock" 2>/dev/null)
			for d in "$enc" "/$enc/" "$enc/nonexist" "garbage" "gocryptfs.conf" \
				"$(find c -maxdepth 1 -name 'gocryptfs.longname.*' ! -name '*.name' -printf '%f\n')"; do
				same_xray gocryptfs-xray gocryptfs-xray -decrypt-paths "$d" || ok=0
				same_xray vcryptfs-xray "$X" -decrypt-paths "$d" || ok=0
				n=$((n + 2))
			done
		done
		# several paths on one connection, NUL separated
		if [ "$(printf 'f2\0dir/sub\0' | gocryptfs-xray -0 -encrypt-paths "$T/v.sock" | od -c)" = \
			"$(printf 'f2\0dir/sub\0' | gocryptfs-xray -0 -encrypt-paths "$T/g.sock" | od -c)" ]; then
			n=$((n + 1))
		else
			fail "-0 -encrypt-paths differs"
			ok=0
		fi
		[ "$ok" -eq 1 ] && pass "$(basename "$(dirname "$bin")"): gocryptfs-xray and vcryptfs-xray through vcryptfs's socket = through gocryptfs's ($n comparisons)"
		unmount_all mv mg
	done
}

# the socket on the other volume kinds, made by vcryptfs (-aessiv,
# -xchacha, -plaintextnames, -deterministic-names, -longnamemax 62):
# gocryptfs-xray and vcryptfs-xray through either socket say the same
case_xray_kinds() {
	local k d ok=1 n=0 p enc xr
	for k in -aessiv -xchacha -plaintextnames -deterministic-names "-longnamemax 62"; do
		d=k${k// /}
		mkdir -p "$d" mkv mkg
		# shellcheck disable=SC2086
		"$V" -q -init -scryptn 10 $k -passfile pf "$d" >/dev/null 2>&1 || fail "-init $k"
		"$V" -q -passfile pf "$d" mkv || fail "mount $d"
		mkdir -p "mkv/dir/sub" "mkv/$LONG"
		touch "mkv/dir/sub/file" "mkv/$LONG/inner"
		unmount_all mkv
		"$VS" -q -passfile pf -ctlsock "$T/v.sock" "$d" mkv >mv.log 2>&1 ||
			fail "vcryptfs -ctlsock $k: $(cat mv.log)"
		gocryptfs -q -passfile pf -ctlsock "$T/g.sock" "$d" mkg >/dev/null 2>&1 ||
			fail "gocryptfs -ctlsock $k"
		for p in dir/sub/file dir "$LONG" "$LONG/inner" nonexist "" /dir; do
			enc=$(printf '%s\n' "$p" | gocryptfs-xray -encrypt-paths "$T/g.sock" 2>/dev/null)
			for xr in gocryptfs-xray "$X"; do
				same_xray "$k $xr" "$xr" -encrypt-paths "$p" || ok=0
				same_xray "$k $xr" "$xr" -decrypt-paths "$enc" || ok=0
				n=$((n + 2))
			done
		done
		unmount_all mkv mkg
		rm -f "$T/v.sock" "$T/g.sock"
	done
	[ "$ok" -eq 1 ] && pass "-aessiv, -xchacha, -plaintextnames, -deterministic-names, -longnamemax 62 volumes: gocryptfs-xray and vcryptfs-xray through vcryptfs's socket = through gocryptfs's ($n comparisons)"
}

case_raw_json() {
	local r vr gr ok=1 n=0
	start_mounts "$VS"
	for r in '{"EncryptPath":"dir/sub/file"}' '{"EncryptPath":"nonexist/x"}' \
		'{"EncryptPath":""}' '{"EncryptPath":"/dir"}' '{"EncryptPath":"."}' \
		'{"EncryptPath":"dir/.."}' '{"DecryptPath":"garbage"}' '{"DecryptPath":""}' \
		'{"Foo":1}' '{"EncryptPath":"a","DecryptPath":"b"}' \
		"{\"EncryptPath\":\"$LONG/inner\"}"; do
		vr=$(req "$T/v.sock" "$r")
		gr=$(req "$T/g.sock" "$r")
		n=$((n + 1))
		[ "$vr" = "$gr" ] || { fail "raw $r: vcryptfs '$vr', gocryptfs '$gr'"; ok=0; }
	done
	# JSON syntax errors: ErrNo -1 and the same prefix (the rest is the
	# parser's own wording)
	for r in 'notjson' '{"EncryptPath":1}'; do
		vr=$(req "$T/v.sock" "$r")
		gr=$(req "$T/g.sock" "$r")
		n=$((n + 1))
		if [[ $vr != *'"ErrNo":-1,"ErrText":"JSON Unmarshal error: '* ]] ||
			[[ $gr != *'"ErrNo":-1,"ErrText":"JSON Unmarshal error: '* ]]; then
			fail "raw $r: vcryptfs '$vr', gocryptfs '$gr'"
			ok=0
		fi
	done
	[ "$ok" -eq 1 ] && pass "raw JSON: $n requests answered as gocryptfs answers them"
	unmount_all mv mg
}

case_ctlsock_fail() {
	local vrc grc
	"$VS" -q -passfile pf -ctlsock "$T/nonexist/x.sock" c mv >cf.log 2>&1
	vrc=$?
	gocryptfs -q -passfile pf -ctlsock "$T/nonexist/x.sock" c mg >/dev/null 2>&1
	grc=$?
	if [ "$vrc" -eq 20 ] && [ "$grc" -eq 20 ] && ! mountpoint -q mv; then
		pass "-ctlsock in a missing directory: exit 20 as gocryptfs, nothing mounted ($(cat cf.log))"
	else
		fail "-ctlsock failure: exit $vrc (gocryptfs $grc): $(cat cf.log)"
	fi
	unmount_all mv mg
}

case_xray_dump() {
	local m ok=1 n=0 f flag go vo
	for m in gcm aessiv xchacha; do
		flag=; [ "$m" != gcm ] && flag=-$m
		mkdir -p "x$m" "xm$m"
		gocryptfs -q -init $flag -scryptn 10 -passfile pf "x$m" >/dev/null 2>&1
		gocryptfs -q -passfile pf "x$m" "xm$m" >/dev/null 2>&1
		head -c 9000 /dev/urandom >"xm$m/big"
		head -c 10 /dev/urandom >"xm$m/small"
		: >"xm$m/empty"
		head -c 4096 /dev/urandom >"xm$m/exact"
		unmount_all "xm$m"
		for f in $(find "x$m" -type f ! -name 'gocryptfs.*'); do
			head -c 30 "$f" >"$f.t30" 2>/dev/null
			for g in "$f" "$f.t30"; do
				for xr in "$X" "$XS"; do
					go=$(gocryptfs-xray $flag "$g" 2>&1; echo "rc=$?")
					vo=$("$xr" $flag "$g" 2>&1; echo "rc=$?")
					n=$((n + 1))
					[ "$go" = "$vo" ] || { fail "xray $m $g: gocryptfs '$go', vcryptfs '$vo'"; ok=0; }
				done
			done
		done
		go=$(printf 'pw\n' | gocryptfs-xray -dumpmasterkey "x$m/gocryptfs.conf" 2>/dev/null)
		vo=$(printf 'pw\n' | "$XS" -dumpmasterkey "x$m/gocryptfs.conf" 2>/dev/null)
		n=$((n + 1))
		[ "$go" = "$vo" ] && [ ${#vo} -eq 64 ] || { fail "-dumpmasterkey $m: '$vo' vs '$go'"; ok=0; }
	done
	head -c 10 /dev/zero >t10
	head -c 18 /dev/zero >z18
	for g in t10 z18 nonexist; do
		go=$(gocryptfs-xray "$g" 2>&1 | grep -v Syslog; echo "rc=${PIPESTATUS[0]}")
		vo=$("$XS" "$g" 2>&1; echo "rc=$?")
		n=$((n + 1))
		[ "$go" = "$vo" ] || { fail "xray $g: gocryptfs '$go', vcryptfs '$vo'"; ok=0; }
	done
	[ "$ok" -eq 1 ] && pass "vcryptfs-xray dumps = gocryptfs-xray's (AES-GCM, AES-SIV, XChaCha20; whole, truncated, empty, bad files; -dumpmasterkey): $n comparisons"
}

case_sanitizer() {
	if [ -n "$(ls -A "$T/san" 2>/dev/null)" ]; then
		fail "ASan/UBSan reports: $(head -c 600 "$T"/san/*)"
	else
		pass "ASan/UBSan: no report from the sanitizer mounts and xray runs"
	fi
}

run_cases case_xray_paths case_xray_kinds case_raw_json case_ctlsock_fail case_xray_dump case_sanitizer

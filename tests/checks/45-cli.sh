#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: the command line on the built binary (${BUILD}/vcryptfs): -init for
# every option set, -info (exact, and equal to gocryptfs -info), -passwd,
# passwords, -masterkey, bad configs and usage errors with gocryptfs's exit
# codes and one stderr line; the bad-input cases also under
# ${SANBUILD}/vcryptfs. Cross-checks with gocryptfs 2.3 (-info, -fsck).
# Each section is a case (`tests/run.sh cli --case NAME`); cases that
# need the volumes of case_init make them quietly (need_vol) when it did
# not run.
# Spec: ../shared/FORMAT.md sections 2, 11, 12, 13.1-13.3.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
VS=$PWD/$SANBUILD/vcryptfs
SHARED=${VCRYPTFS_SHARED:-$PWD/../shared}
EX=$SHARED/examples
if [ ! -x "$V" ]; then
	fail "$V not built"
	exit 0
fi
vc_tmpdir cli
T=$tmp
# shellcheck disable=SC2317 # called by the EXIT trap (lib.sh's vc_cleanup)
on_exit() {
	unmount_all "$T"/mnt*
	chmod -R u+w "$T" 2>/dev/null
}
cd "$T" || exit 0
printf 'pw\n' >pf
printf 'newpw\n' >pf2
printf 'bad\n' >pfbad
: >pfempty
head -c 3000 /dev/zero | tr '\0' 'x' >pflong

# expect NAME RC LINES CMD...: run CMD, want exit RC and, when LINES is not
# "-", exactly LINES lines on stderr; never a sanitizer report or a signal.
expect() {
	local name=$1 want=$2 lines=$3
	shift 3
	"$@" >out.txt 2>err.txt </dev/null
	local rc=$? n
	n=$(wc -l <err.txt)
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, want $want ($(head -c 300 err.txt))"
	elif [ "$lines" != - ] && [ "$n" -ne "$lines" ]; then
		fail "$name: $n stderr lines, want $lines: $(head -c 300 err.txt)"
	elif grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' err.txt; then
		fail "$name: sanitizer report: $(head -c 300 err.txt)"
	else
		pass "$name (exit $rc${lines/#[0-9]*/, one line})"
	fi
}

# --- -init for every option set, checked by vcryptfs -info and gocryptfs
declare -A FLAGS=(
	[default]="HKDF GCMIV128 DirIV EMENames LongNames Raw64"
	[xchacha]="HKDF XChaCha20Poly1305 DirIV EMENames LongNames Raw64"
	[aessiv]="HKDF GCMIV128 DirIV EMENames LongNames Raw64 AESSIV"
	[plaintextnames]="HKDF GCMIV128 PlaintextNames"
	[deterministic]="HKDF GCMIV128 EMENames LongNames Raw64"
	[lnm64]="HKDF GCMIV128 DirIV LongNameMax EMENames LongNames Raw64"
)
declare -A OPTS=(
	[default]="-aessiv=false"
	[xchacha]="-xchacha"
	[aessiv]="-aessiv"
	[plaintextnames]="-plaintextnames"
	[deterministic]="-deterministic-names"
	[lnm64]="-longnamemax 64"
)
have_go=0
need_tool gocryptfs && have_go=1
# need_vol KIND...: v-KIND made by -init as case_init makes it (when that
# case did not run), with no PASS line of its own
need_vol() {
	local k
	for k in "$@"; do
		[ -f "v-$k/gocryptfs.conf" ] && continue
		mkdir -p "v-$k"
		# shellcheck disable=SC2086
		"$V" -init -q -scryptn 10 ${OPTS[$k]} -passfile pf "v-$k" >/dev/null 2>&1 ||
			fail "need_vol: -init v-$k failed"
	done
}

case_init() {
	for k in default xchacha aessiv plaintextnames deterministic lnm64; do
		mkdir "v-$k"
		# shellcheck disable=SC2086
		expect "init $k" 0 0 "$V" -init -scryptn 10 ${OPTS[$k]} -passfile pf "v-$k"
		"$V" -info "v-$k" >info.txt 2>&1
		if grep -qx "FeatureFlags:      ${FLAGS[$k]}" info.txt &&
			grep -q '^Creator:           vcryptfs' info.txt; then
			pass "init $k: -info shows ${FLAGS[$k]}"
		else
			fail "init $k: -info: $(tr '\n' '|' <info.txt)"
		fi
		mode=$(stat -c %a "v-$k/gocryptfs.conf")
		[ "$mode" = 400 ] && pass "init $k: config mode 0400" ||
			fail "init $k: config mode $mode"
		if [ "$k" = plaintextnames ] || [ "$k" = deterministic ]; then
			[ ! -e "v-$k/gocryptfs.diriv" ] &&
				pass "init $k: no root diriv" || fail "init $k: diriv"
		else
			[ "$(stat -c %s "v-$k/gocryptfs.diriv")" = 16 ] &&
				[ "$(stat -c %a "v-$k/gocryptfs.diriv")" = 444 ] &&
				pass "init $k: 16-byte root diriv, 0444" ||
				fail "init $k: root diriv"
		fi
		if [ "$have_go" = 1 ]; then
			if gocryptfs -info "v-$k" >goinfo.txt 2>&1 &&
				diff -q goinfo.txt info.txt >/dev/null; then
				pass "init $k: gocryptfs -info accepts it, same text"
			else
				fail "init $k: gocryptfs -info: $(tr '\n' '|' <goinfo.txt)"
			fi
			if gocryptfs -fsck -passfile pf "v-$k" >fsck.txt 2>&1 &&
				grep -q 'no problems found' fsck.txt; then
				pass "init $k: gocryptfs -fsck: no problems found"
			else
				fail "init $k: gocryptfs -fsck: $(tail -n 3 fsck.txt | tr '\n' '|')"
			fi
			# and the other way round: gocryptfs -init, vcryptfs -info
			mkdir "g-$k"
			# shellcheck disable=SC2086
			if gocryptfs -init -q -scryptn 10 ${OPTS[$k]} -passfile pf \
				"g-$k" >/dev/null 2>&1; then
				gocryptfs -info "g-$k" >goinfo.txt 2>&1
				if "$V" -info "g-$k" >info.txt 2>&1 &&
					diff -q goinfo.txt info.txt >/dev/null; then
					pass "gocryptfs -init $k: vcryptfs -info accepts it, same text"
				else
					fail "gocryptfs -init $k: vcryptfs -info: $(tr '\n' '|' <info.txt)"
				fi
				expect "gocryptfs -init $k: vcryptfs unlocks it" 0 0 \
					"$V" -passwd -passfile pf "g-$k"
			else
				fail "gocryptfs -init $k failed"
			fi
		fi
	done
}

# --- -info on the shipped example: exact text
case_info_example() {
	"$V" -info "$EX/gocryptfs-2.3-aesgcm/cipherdir" >info.txt 2>&1
	printf '%s\n' "Creator:           gocryptfs 2.3" \
		"FeatureFlags:      HKDF GCMIV128 DirIV EMENames LongNames Raw64" \
		"EncryptedKey:      64B" \
		"ScryptObject:      Salt=32B N=65536 R=8 P=1 KeyLen=32" \
		"contentEncryption: AES-GCM-256" >want.txt
	diff -q want.txt info.txt >/dev/null && pass "-info example: exact output" ||
		fail "-info example: $(tr '\n' '|' <info.txt)"
}

# --- -passwd: stdin old/new, then unlock with the new password only
case_passwd() {
	cp -r "$EX/gocryptfs-2.3-xchacha/cipherdir" ex-x
	chmod -R u+w ex-x
	printf 'vcryptfs-example-password\nnewpw\n' | "$V" -passwd ex-x >out.txt 2>&1
	rc=$?
	[ "$rc" = 0 ] && grep -q 'Password changed.' out.txt &&
		pass "-passwd via stdin 'old\\nnew\\n'" || fail "-passwd stdin: $rc $(cat out.txt)"
	expect "-passwd: old password now wrong" 12 1 "$V" -passwd -passfile \
		"$EX/gocryptfs-2.3-xchacha/passfile.txt" ex-x
	expect "-passwd: new password unlocks (2.3: re-salt with same passfile)" 0 0 \
		"$V" -passwd -passfile pf2 ex-x
	if [ "$have_go" = 1 ]; then
		# (gocryptfs -fsck of the example itself trips on its ../ symlink,
		# so gocryptfs proves the new password by changing it once more)
		cp -r ex-x ex-x2
		printf 'newpw\nthird\n' | gocryptfs -passwd ex-x2 >go.txt 2>&1 &&
			pass "-passwd: gocryptfs accepts the new password" ||
			fail "-passwd: gocryptfs -passwd: $(tail -n 2 go.txt | tr '\n' '|')"
	fi
	grep -q '"N": 1024' ex-x/gocryptfs.conf &&
		pass "-passwd keeps N without -scryptn" || fail "-passwd changed N"
	# -masterkey (dashes allowed) re-wraps and leaves a .bak hard link
	cp -r "$EX/gocryptfs-2.3-aesgcm/cipherdir" ex-g
	chmod -R u+w ex-g
	printf 'viamk\n' | "$V" -passwd -scryptn 10 -masterkey \
		de591921-23be4ef3-80b8e19e-3e77ecb0-9349fa48-ebe28b53-e098c84a-02065604 \
		ex-g >out.txt 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ -f ex-g/gocryptfs.conf.bak ] &&
		grep -q '"N": 1024' ex-g/gocryptfs.conf &&
		pass "-passwd -masterkey: re-wrapped with N=1024, .bak kept" ||
		fail "-passwd -masterkey: rc=$rc $(tr '\n' '|' <out.txt)"
	printf 'viamk\n' >pfmk
	expect "-passwd -masterkey: new password unlocks" 0 0 \
		"$V" -passwd -o passfile="$T/pfmk" ex-g
	expect "-o passfile=... rewriting with a wrong password" 12 1 \
		"$V" -o passfile="$T/pfbad",q -passwd ex-g
}

# -masterkey=stdin: key line, then the new password, both from stdin
case_masterkey_stdin() {
	cp -r "$EX/gocryptfs-2.3-aesgcm/cipherdir" ex-s
	chmod -R u+w ex-s
	printf '%s\n%s\n' de59192123be4ef380b8e19e3e77ecb09349fa48ebe28b53e098c84a02065604 \
		viastdin | "$V" -q -passwd -scryptn 10 -masterkey=stdin ex-s >out.txt 2>&1 &&
		printf 'viastdin\n' >pfs &&
		"$V" -q -passwd -passfile pfs ex-s >/dev/null 2>&1 &&
		pass "-passwd -masterkey=stdin" || fail "-masterkey=stdin: $(cat out.txt)"
	printf 'nothex\n' | "$V" -q -passwd -masterkey=stdin ex-s >/dev/null 2>&1
	[ $? = 14 ] && pass "-masterkey=stdin with a bad key -> 14" ||
		fail "-masterkey=stdin bad key"
}

# --- -extpass (no shell) and repeated -passfile
case_extpass() {
	mkdir ext
	expect "-init -extpass 'echo pw' (split on spaces)" 0 0 \
		"$V" -init -scryptn 10 -extpass "echo pw" ext
	expect "-extpass result unlocks with -passfile" 0 0 "$V" -passwd -passfile pf ext
	expect "-extpass failing program -> 9" 9 1 "$V" -passwd -extpass false ext
	printf 'p\n' >pa
	printf 'w\nignored\n' >pb
	expect "two -passfile are concatenated (first lines)" 0 - \
		"$V" -passwd --passfile pa -passfile=pb ext
}

# --- bad input: wrong password, empty/long password, bad -masterkey
case_bad_input() {
	need_vol default
	mkdir mnt1
	for bin in "$V" "$VS"; do
		[ -x "$bin" ] || { fail "$bin not built"; continue; }
		tag=$([ "$bin" = "$V" ] && echo gcc || echo san)
		expect "$tag: wrong password at mount -> 12" 12 1 \
			"$bin" -q -passfile pfbad v-default mnt1
		expect "$tag: wrong password at -passwd -> 12" 12 1 \
			"$bin" -q -passwd -passfile pfbad v-default
		expect "$tag: empty passfile -> 9" 9 1 "$bin" -q -passfile pfempty v-default mnt1
		expect "$tag: empty stdin password -> 9" 9 1 "$bin" -q v-default mnt1
		expect "$tag: password > 2048 bytes -> 9" 9 1 "$bin" -q -passfile pflong v-default mnt1
		expect "$tag: -masterkey 1234 -> 14" 14 1 "$bin" -masterkey 1234 v-default mnt1
		expect "$tag: -masterkey non-hex -> 14" 14 1 "$bin" -masterkey \
			zz591921-23be4ef3-80b8e19e-3e77ecb0-9349fa48-ebe28b53-e098c84a-02065604 \
			v-default mnt1
		# broken configs: exit codes of gocryptfs 2.3 (mount / -info)
		good=v-default/gocryptfs.conf
		mkbad() { # name, then a command that edits $1/gocryptfs.conf
			rm -rf "bad-$1"
			mkdir "bad-$1"
			cp v-default/gocryptfs.diriv "bad-$1/"
			cp "$good" "bad-$1/gocryptfs.conf"
			chmod 600 "bad-$1/gocryptfs.conf"
		}
		mkbad trunc && head -c 150 "$good" >bad-trunc/gocryptfs.conf
		mkbad empty && : >bad-empty/gocryptfs.conf
		mkbad corrupt && printf '{"Creator": xx' >bad-corrupt/gocryptfs.conf
		mkbad flag && sed -i 's/"Raw64"/"Raw64",\n\t\t"Bogus"/' bad-flag/gocryptfs.conf
		mkbad v3 && sed -i 's/"Version": 2/"Version": 3/' bad-v3/gocryptfs.conf
		mkbad n40 && sed -i 's/"N": 1024/"N": 1099511627776/' bad-n40/gocryptfs.conf
		mkbad nlow && sed -i 's/"N": 1024/"N": 512/' bad-nlow/gocryptfs.conf
		mkbad missing && rm bad-missing/gocryptfs.conf
		for c in trunc:11:8 empty:11:8 corrupt:11:8 flag:27:8 v3:27:8 \
			n40:13:0 nlow:27:8 missing:11:8; do
			IFS=: read -r name mrc irc <<<"$c"
			expect "$tag: $name config, mount -> $mrc" "$mrc" 1 \
				"$bin" -q -passfile pf "bad-$name" mnt1
			expect "$tag: $name config, -info -> $irc" "$irc" \
				"$([ "$irc" = 0 ] && echo 0 || echo 1)" "$bin" -info "bad-$name"
		done
		expect "$tag: -passwd on Version 3 config -> 27" 27 1 \
			"$bin" -passwd -passfile pf bad-v3
		# the good paths too, so the sanitizer sees them
		rm -rf "ok-$tag"
		mkdir "ok-$tag"
		expect "$tag: -init -aessiv" 0 0 "$bin" -q -init -aessiv -scryptn 10 \
			-passfile pf "ok-$tag"
		expect "$tag: -passwd (same passfile: re-salt)" 0 0 "$bin" -q -passwd \
			-passfile pf "ok-$tag"
		expect "$tag: -info" 0 0 "$bin" -info "ok-$tag"
	done
}

# --- terminal: prompt twice without echo, master key shown (via script(1))
case_terminal() {
	if need_tool script; then
		mkdir tty1 tty2
		(sleep 0.5; printf 'ttypw\n'; sleep 0.3; printf 'ttypw\n'; sleep 1.2) |
			script -qec "$V -init -scryptn 10 tty1" /dev/null >tty.txt 2>&1
		if grep -q 'Repeat:' tty.txt && ! grep -q ttypw tty.txt &&
			grep -qE '^    [0-9a-f]{8}(-[0-9a-f]{8}){3}-.?$' tty.txt &&
			grep -qE '^    [0-9a-f]{8}(-[0-9a-f]{8}){3}.?$' tty.txt; then
			pass "tty -init: asked twice, no echo, master key in 8 groups"
		else
			fail "tty -init: $(tr -d '\r' <tty.txt | tr '\n' '|' | head -c 400)"
		fi
		printf 'ttypw\n' >pftty
		expect "tty -init: the typed password unlocks" 0 0 \
			"$V" -passwd -passfile pftty tty1
		(sleep 0.5; printf 'aaa\n'; sleep 0.3; printf 'bbb\n'; sleep 1.2) |
			script -qec "$V -init -scryptn 10 tty2; echo rc=\$?" /dev/null >tty.txt 2>&1
		grep -q 'rc=9' tty.txt && grep -q 'Passwords do not match' tty.txt &&
			[ -z "$(ls -A tty2)" ] &&
			pass "tty -init: mismatched passwords -> 9, nothing written" ||
			fail "tty -init mismatch: $(tr -d '\r' <tty.txt | tr '\n' '|')"
	fi
}

# --- unlock and mount: a vcryptfs -init dir, written through vcryptfs,
# passes gocryptfs -fsck (the mount itself is src/fuse's; this is the
# key path end to end)
case_mount() {
	need_vol xchacha
	if need_fuse "cli: unlock and mount" && need_tool fusermount3; then
		mkdir mnt2
		if "$V" -q -passfile pf v-xchacha mnt2 >out.txt 2>&1; then
			printf 'hello\n' >mnt2/a.txt && mkdir mnt2/d &&
				head -c 5000 /dev/urandom >mnt2/d/b.bin
			fusermount3 -u mnt2
			if [ "$have_go" = 1 ]; then
				gocryptfs -fsck -passfile pf v-xchacha >fsck.txt 2>&1 &&
					pass "mount: files written via vcryptfs pass gocryptfs -fsck" ||
					fail "mount: gocryptfs -fsck: $(tail -n 2 fsck.txt | tr '\n' '|')"
			fi
		else
			fail "mount v-xchacha: $(tr '\n' '|' <out.txt)"
		fi
	fi
}

# --- usage errors and directory checks
case_usage() {
	need_vol default
	expect "no arguments -> 1" 1 - "$V"
	expect "unknown flag -> 1" 1 1 "$V" -bogus v-default mnt1
	expect "two actions -> 1" 1 1 "$V" -info -passwd v-default
	expect "-info with two dirs -> 1" 1 1 "$V" -info v-default mnt1
	expect "mount with one dir -> 1" 1 1 "$V" v-default
	expect "flags but no CIPHERDIR -> 1" 1 1 "$V" -q
	expect "-longnamemax 20 -> 1" 1 1 "$V" -init -longnamemax 20 mnt1
	expect "-passfile with -extpass -> 1" 1 1 "$V" -passfile pf -extpass "echo x" v-default mnt1
	expect "-o o -> 1" 1 1 "$V" -o o v-default mnt1
	expect "missing flag value -> 1" 1 1 "$V" v-default mnt1 -passfile
	expect "-h -> 0" 0 0 "$V" -h
	expect "--version -> 0" 0 0 "$V" --version
	mkdir nonempty && touch nonempty/x
	expect "-init on a non-empty dir -> 6" 6 1 "$V" -init -passfile pf nonempty
	expect "-init on a missing dir -> 6" 6 1 "$V" -init -passfile pf nosuchdir
	mkdir e1 e2
	expect "-init -xchacha -aessiv -> 24" 24 1 "$V" -init -xchacha -aessiv -passfile pf e1
	expect "-init -scryptn 5 -> 24" 24 1 "$V" -init -scryptn 5 -passfile pf e1
	expect "-init -scryptn 40 -> 13 (memory cap)" 13 1 "$V" -init -scryptn 40 -passfile pf e1
	[ -z "$(ls -A e1)" ] && pass "failed -init leaves the dir empty" || fail "e1 not empty"
	expect "mount: missing cipherdir -> 6" 6 1 "$V" -passfile pf nosuchdir mnt1
	expect "mount: non-empty mountpoint -> 10" 10 1 "$V" -passfile pf v-default nonempty
	expect "mount: mountpoint inside cipherdir -> 10" 10 1 "$V" -passfile pf . "$T/mnt1"
	expect "mount: mountpoint = cipherdir -> 10" 10 1 "$V" -passfile pf e2 e2
	expect "mount: missing mountpoint -> 10" 10 1 "$V" -passfile pf v-default nosuch
	expect "-- ends options (-dir is a path)" 6 1 "$V" -info -- -dir
	expect "-reverse without .gocryptfs.reverse.conf -> 11" 11 1 "$V" -reverse -passfile pf v-default mnt1
	# -init -config elsewhere: config outside, diriv inside
	mkdir e3
	expect "-init -config FILE" 0 0 "$V" -init -scryptn 10 -passfile pf -config "$T/e3.conf" e3
	[ -f e3.conf ] && [ ! -e e3/gocryptfs.conf ] && [ -f e3/gocryptfs.diriv ] &&
		pass "-config: config written outside CIPHERDIR" || fail "-config placement"
	expect "-info -config FILE" 0 0 "$V" -info -config "$T/e3.conf" e3
}

# --- -init without a cipher flag (issue 8): AES-GCM when the CPU has AES-NI
# and PCLMULQDQ, XChaCha20-Poly1305 otherwise, with a notice naming it. The
# host CPU (/proc/cpuinfo says which case) and qemu-user as core2duo (its
# CPUID has SSSE3 but no AES-NI: vcryptfs -version must agree) give both.
# init_auto NAME KIND CMD...: KIND default (AES-GCM) or xchacha
init_auto() {
	local name=$1 kind=$2 d="auto-${1%% *}" want
	shift 2
	want="using AES-GCM-256"
	[ "$kind" = xchacha ] && want="using XChaCha20-Poly1305"
	mkdir "$d"
	if ! "$@" -init -scryptn 10 -passfile pf "$d" >out.txt 2>&1; then
		fail "-init auto ($name): $(tr '\n' '|' <out.txt)"
	elif ! grep -q "^Notice: .*$want" out.txt; then
		fail "-init auto ($name): no notice '$want': $(tr '\n' '|' <out.txt)"
	elif ! "$V" -info "$d" 2>&1 | grep -qx "FeatureFlags:      ${FLAGS[$kind]}"; then
		fail "-init auto ($name): flags $("$V" -info "$d" 2>&1 | grep Feature)"
	else
		pass "-init auto ($name): $want, flags ${FLAGS[$kind]}"
	fi
}
case_init_auto() {
	if grep -qw aes /proc/cpuinfo && grep -qw pclmulqdq /proc/cpuinfo; then
		init_auto host default "$V"
	else
		init_auto host xchacha "$V"
	fi
}

# --- -speed on this CPU (issue 8; the core2duo case is in 40-qemu): every
# row, gocryptfs's layout, one XChaCha20-Poly1305 kernel selected, one
# AES-GCM row (the mount's backend, gcrypt when libgcrypt is usable)
# selected exactly when the CPU has AES-NI and PCLMULQDQ; VCRYPTFS_IMPL
# masks show; the per-CPU-class lines follow the calibration's rule on
# the rows. Short rows (VCRYPTFS_SPEED_SECONDS); no time is asserted.
# speed_check NAME IMPL BIN: IMPL is a VCRYPTFS_IMPL value or "" (auto)
speed_check() {
	local name=$1 impl=$2 bin=$3 row bad="" nsel want_gcm=0 sel
	grep -qw aes /proc/cpuinfo && grep -qw pclmulqdq /proc/cpuinfo &&
		want_gcm=1
	VCRYPTFS_IMPL=$impl VCRYPTFS_SPEED_SECONDS=0.02 "$bin" -speed \
		>speed.txt 2>speed.err
	local rc=$?
	[ "$rc" = 0 ] || bad="exit $rc"
	[ -s speed.err ] && bad="$bad; stderr: $(head -c 200 speed.err)"
	grep -q '^vcryptfs .*; OpenSSL ' speed.txt || bad="$bad; no version line"
	grep -qE '^cpu: .*; (with|no) AES acceleration; features: .*; masked by VCRYPTFS_IMPL=' \
		speed.txt || bad="$bad; no cpu line"
	for row in AES-GCM-256-OpenSSL AES-GCM-256-gcrypt AES-SIV-512-OpenSSL \
		XChaCha20-Poly1305-portable XChaCha20-Poly1305-ssse3 \
		XChaCha20-Poly1305-avx XChaCha20-Poly1305-avx2 XChaCha20-Poly1305-avx512 \
		XChaCha20-Poly1305-OpenSSL; do
		grep -qE "^$row *"$'\t'"( *[0-9]+\.[0-9]{2} MB/s|    N/A)" \
			speed.txt || bad="$bad; row $row"
	done
	grep -qE '^XChaCha20-Poly1305-portable.*[0-9] MB/s' speed.txt ||
		bad="$bad; portable row not measured"
	nsel=$(grep -c '^XChaCha20-Poly1305-[a-z0-9]*[[:space:]].*(selected in auto mode)' speed.txt)
	[ "$nsel" = 1 ] || bad="$bad; $nsel XChaCha20 kernels selected"
	# the selected kernel is the one the start-up calibration chose
	if [ -z "$impl" ]; then
		sel=$(sed -n 's/^XChaCha20-Poly1305-\([a-z0-9]*\)[[:space:]].*(selected in auto mode).*/\1/p' speed.txt)
		grep -q "^calibration: .* chosen $sel " speed.txt ||
			bad="$bad; selected '$sel' is not the calibration's choice"
	else
		grep -q "^calibration: skipped (VCRYPTFS_IMPL=$impl " speed.txt ||
			bad="$bad; VCRYPTFS_IMPL=$impl did not skip the calibration"
	fi
	# one AES-GCM row selected, exactly with AES-NI: the mount's backend,
	# gcrypt when its row was measured, else OpenSSL
	local gsel=OpenSSL
	grep -qE '^AES-GCM-256-gcrypt[[:space:]]+[0-9.]+ MB/s' speed.txt &&
		gsel=gcrypt
	nsel=$(grep -c '^AES-GCM-256-[A-Za-z]*[[:space:]].*(selected in auto mode)' speed.txt)
	if [ "$want_gcm" = 1 ]; then
		if [ "$nsel" != 1 ] ||
			! grep -q "^AES-GCM-256-${gsel}[[:space:]].*(selected in auto mode)" speed.txt; then
			bad="$bad; AES-GCM-256-$gsel not the one AES-GCM row selected ($nsel selected)"
		fi
	else
		[ "$nsel" = 0 ] || bad="$bad; AES-GCM selected without AES-NI"
	fi
	# per CPU class: one line for each level whose kernel ran, naming
	# the kernel the 5% rule picks among the levels up to it (recomputed
	# here from the rows), none for a level that did not run
	local want got
	want=$(awk -F'\t' '/^XChaCha20-Poly1305-(portable|ssse3|avx|avx2|avx512) *\t/ {
			k = $1; sub(/^XChaCha20-Poly1305-/, "", k); sub(/ +$/, "", k)
			v = $2; sub(/ MB\/s.*/, "", v); gsub(/ /, "", v)
			n++; name[n] = k; mb[n] = (v == "N/A") ? 0 : v + 0 }
		END { for (l = 1; l <= n; l++) { if (mb[l] <= 0) continue
			b = 0; for (i = 1; i <= l; i++) if (mb[i] > 0 &&
				(b == 0 || mb[i] >= 1.05 * mb[b])) b = i
			printf "%s ", name[b] } }' speed.txt)
	got=$(sed -n '/^per CPU class/,$ s/^  class .* \([a-z][a-z0-9]*\) *[0-9.]* MB\/s$/\1/p' speed.txt |
		tr '\n' ' ')
	grep -q '^per CPU class (the calibrated choice' speed.txt ||
		bad="$bad; no per-class lines"
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		bad="$bad; per-class kernels '$got', the rule gives '$want'"
	if [ "$impl" = ssse3 ] && grep -qw avx2 /proc/cpuinfo; then
		grep -q '^XChaCha20-Poly1305-avx2 .*N/A.*(masked by VCRYPTFS_IMPL)' \
			speed.txt || bad="$bad; avx2 row not shown as masked"
		grep -q '^XChaCha20-Poly1305-ssse3 .*(selected in auto mode)' \
			speed.txt || bad="$bad; ssse3 not selected"
		grep -q 'masked by VCRYPTFS_IMPL=ssse3: .*avx2' speed.txt ||
			bad="$bad; cpu line does not list avx2 as masked"
	fi
	if [ -z "$bad" ]; then
		pass "-speed ($name): every row, $(grep -o '^XChaCha20-Poly1305-[a-z0-9]*[[:space:]].*(selected' speed.txt | cut -d' ' -f1) selected"
	else
		fail "-speed ($name):${bad#;} | $(tr '\n' '|' <speed.txt | head -c 400)"
	fi
}
case_speed() {
	speed_check auto "" "$V"
	speed_check "VCRYPTFS_IMPL=ssse3" ssse3 "$V"
	[ -x "$VS" ] && speed_check "ASan+UBSan build" "" "$VS"
}

# --- the calibrated kernel choice (issue 21): -version prints what the
# start-up calibration measured (a figure for each kernel this CPU's
# /proc/cpuinfo allows, N/A for the others) and the kernel it chose, which
# is the kernel line; VCRYPTFS_IMPL skips the calibration and forces the
# kernel named, also the highest level when the calibration would have
# chosen a lower one. No time is asserted.
case_calibration() {
	local ver cal kern k f flags have bad="" top=portable
	ver=$("$V" -version 2>&1)
	cal=$(grep '^calibration: ' <<<"$ver")
	kern=$(sed -n 's/^kernel: \([a-z0-9]*\).*/\1/p' <<<"$ver")
	for k in portable ssse3 avx avx2 avx512; do
		case $k in
		portable) flags= ;;
		avx512) flags="avx512f avx512vl avx512bw" ;;
		*) flags=$k ;;
		esac
		have=1
		for f in $flags; do
			grep -qw "$f" /proc/cpuinfo || have=0
		done
		if [ "$have" = 1 ]; then
			top=$k
			[[ "$cal" =~ \ $k\ [0-9]+\.[0-9] ]] || bad="$bad; no figure for $k"
		else
			[[ "$cal" == *" $k N/A"* ]] || bad="$bad; $k not N/A"
			[ "$kern" = "$k" ] && bad="$bad; chose $k, which the CPU lacks"
		fi
	done
	[[ "$cal" == *"chosen $kern "* ]] || bad="$bad; kernel $kern is not the calibration's choice"
	if [ -z "$bad" ]; then
		pass "-version: calibrated kernel $kern (${cal#calibration: })"
	else
		fail "-version calibration:${bad#;} | $(tr '\n' '|' <<<"$ver")"
	fi
	for k in ssse3 "$top"; do
		ver=$(VCRYPTFS_IMPL=$k "$V" -version 2>&1)
		if grep -q "^kernel: $k " <<<"$ver" &&
			grep -q "^calibration: skipped (VCRYPTFS_IMPL=$k forces the kernel)" <<<"$ver"; then
			pass "-version: VCRYPTFS_IMPL=$k forces kernel $k, no calibration"
		else
			fail "-version: VCRYPTFS_IMPL=$k: $(tr '\n' '|' <<<"$ver")"
		fi
	done
}

# -init without a cipher flag as qemu's core2duo (no AES-NI)
case_qemu_init() {
	if need_tool qemu-x86_64; then
		feat=$(timeout 120 qemu-x86_64 -cpu core2duo "$V" -version 2>&1 |
			sed -n 's/^cpu features: //p')
		if [ -z "$feat" ] || [[ " $feat " == *" aes "* ]]; then
			fail "qemu core2duo: -version features '$feat' (want no aes)"
		else
			init_auto "qemu core2duo, features: $feat" xchacha \
				timeout 300 qemu-x86_64 -cpu core2duo "$V"
		fi
	fi
}

run_cases case_init case_info_example case_passwd case_masterkey_stdin \
	case_extpass case_bad_input case_terminal case_mount case_usage \
	case_init_auto case_speed case_calibration case_qemu_init
exit 0

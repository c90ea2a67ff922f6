#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: the options of issue 25 on the built binary, each against what
# gocryptfs 2.3 does where it has the option: -h/-hh (every option of
# cli/options.c's table listed, -fsck too), -idle/-i (unmounts when idle, not
# while a file is open), a dead mount after kill -9 (exit 10, says
# ENOTCONN and how to clear it), options of gocryptfs fstab lines
# (-kernel_cache -acl -serialize_reads -noxattr -idle 0 -i 0, also via
# -o), 44 mounts with gocryptfs's other mount-time options (exit code,
# findmnt source and options, write outcome equal), -force_owner, -noxattr (ENOTSUP), -fido2 (exit 31 as gocryptfs
# without fido2-tools; a FIDO2 volume: 1 without -fido2, 31 with, for
# mount, -fsck and xray -dumpmasterkey), -masterkey=stdin (no ps-ax
# warning), -openssl (garbage refused like gocryptfs), -d (debug
# lines), -acl (ACLs stored as gocryptfs stores them: each reads the
# other's; enforced), the scrypt
# memory cap (N=2^21 works as gocryptfs's; 2^28 refused naming need and
# limit when the memory is not there). Mounts also under ASan/UBSan.
# Spec: ../shared/FORMAT.md 7, 11, 12.3, 13.5; issue 25.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
VS=$PWD/$SANBUILD/vcryptfs
group_needs 67-options "$V" "$VS" -- \
	gocryptfs gocryptfs-xray setfacl getfacl getfattr setfattr setpriv findmnt || exit 0
scratch_dir options
SRC=$PWD
san_log_to "$T/san"
cd "$T" || exit 0
# a password no path or debug line holds by chance (case_debug greps for it)
PW=opt-secret-Qz7
printf '%s\n' "$PW" >pf
mkdir c
"$V" -q -init -scryptn 10 -passfile pf c >/dev/null 2>&1 || fail "-init c"
mkdir m m2

# wait_unmounted MP: poll (no time asserted) until MP is no mount point;
# 1 when it still is after 30 s.
wait_unmounted() {
	local i
	for i in $(seq 300); do
		mountpoint -q "$1" || return 0
		sleep 0.1
	done
	return 1
}

case_help() {
	local h hh miss=() o
	h=$("$V" -h 2>&1)
	hh=$("$V" -hh 2>&1)
	if "$V" -h >/dev/null 2>&1 && echo "$h" | grep -q -- '-fsck ' &&
		echo "$h" | grep -q -- '-i, -idle' &&
		[ "$(echo "$h" | grep -c '^  -')" -ge 25 ]; then
		pass "-h: $(echo "$h" | grep -c '^  -') common options with descriptions, -fsck and -idle among them (exit 0)"
	else
		fail "-h: $h"
	fi
	# every name in cli/options.c's option table is a -hh line with a description:
	# the flags column is 27 wide ("  %-27s %s"), aliases split by ", "
	local listed=" " line col
	while IFS= read -r line; do
		col=${line:2:27}
		[ -n "${line:30}" ] || continue
		for w in ${col//,/ }; do
			[[ $w == -* ]] && listed+="${w#-} "
		done
	done < <(echo "$hh" | grep '^  -')
	for o in $(sed -n 's/^\t{ "\([^"]*\)", K_.*/\1/p' "$SRC/src/cli/options.c"); do
		[[ $listed == *" $o "* ]] || miss+=("$o")
	done
	if [ "${#miss[@]}" -eq 0 ]; then
		pass "-hh: every option of cli/options.c ($(sed -n 's/^\t{ "\([^"]*\)", K_.*/\1/p' "$SRC/src/cli/options.c" | wc -l)) on a line with a description"
	else
		fail "-hh lacks: ${miss[*]}"
	fi
	if echo "$hh" | grep -q 'Exit codes:.*0 ok'; then
		pass "-hh lists the exit codes"
	else
		fail "-hh: no exit codes"
	fi
}

case_idle() {
	local pid rc
	"$VS" -fg -q -idle 1s -passfile pf c m >idle.log 2>&1 &
	pid=$!
	for _ in $(seq 600); do mountpoint -q m && break; sleep 0.1; done
	echo hi >m/f
	exec 7<m/f
	sleep 3
	if mountpoint -q m; then
		pass "-idle 1s: stays mounted while a file is open (3 s)"
	else
		fail "-idle 1s: unmounted with a file open"
	fi
	exec 7<&-
	if wait_unmounted m; then
		wait "$pid"
		rc=$?
		if [ "$rc" -eq 0 ]; then
			pass "-idle 1s: unmounts once idle with no open file, exit 0"
		else
			fail "-idle: exit $rc: $(cat idle.log)"
		fi
	else
		fail "-idle 1s: still mounted after 30 s idle"
		kill "$pid"
	fi
	"$V" -q -i 500ms -passfile pf c m >idle2.log 2>&1
	if wait_unmounted m; then
		pass "-i 500ms (background mount) unmounts when idle"
	else
		fail "-i 500ms: still mounted"
	fi
	"$V" -idle 5parsecs -passfile pf c m >idle3.log 2>&1
	rc=$?
	gocryptfs -idle 5parsecs -passfile pf c m >/dev/null 2>&1
	local grc=$?
	if [ "$rc" -eq 1 ] && [ "$grc" -eq 1 ] && grep -q 'invalid argument "5parsecs" for -idle' idle3.log; then
		pass "-idle 5parsecs: exit 1 as gocryptfs ($(cat idle3.log))"
	else
		fail "-idle 5parsecs: exit $rc: $(cat idle3.log)"
	fi
}

# A dead mount right after kill -9, six times: the kernel answers the
# first access ECONNABORTED while it tears the connection down (FUSE over
# io_uring lets the ring go a moment after the daemon), then ENOTCONN; in
# even rounds the mount is listed just before the kill, so that stat()
# itself fails on it. Every round must give the one dead-mount line.
case_dead_mount() {
	local pid rc round bad=""
	for round in 1 2 3 4 5 6; do
		"$V" -fg -q -passfile pf c m >dead.log 2>&1 &
		pid=$!
		for _ in $(seq 600); do mountpoint -q m && break; sleep 0.1; done
		mountpoint -q m || { fail "dead mount: the mount did not come up"; kill "$pid"; return; }
		[ $((round % 2)) -eq 0 ] && ls -A m >/dev/null
		kill -9 "$pid"
		wait "$pid" 2>/dev/null
		"$VS" -passfile pf c m >dead2.log 2>&1
		rc=$?
		if ! { [ "$rc" -eq 10 ] && grep -q 'transport endpoint is not connected' dead2.log &&
			grep -q "fusermount3 -u $T/m" dead2.log &&
			[ "$(grep -c 'vcryptfs:' dead2.log)" -eq 1 ]; }; then
			bad="$bad; round $round: exit $rc: $(cat dead2.log)"
		fi
		fusermount3 -u m
	done
	if [ -z "$bad" ]; then
		pass "dead mount after kill -9 (6 rounds, listed before the kill or not): exit 10, says ENOTCONN and 'fusermount3 -u MOUNTPOINT'"
	else
		fail "dead mount${bad}"
	fi
	if "$V" -q -passfile pf c m && mountpoint -q m && fusermount3 -u m; then
		pass "after fusermount3 -u the mount point mounts again"
	else
		fail "remount after clearing the dead mount"
	fi
}

# mount_ok TAG ARGS...: a background mount with ARGS works (write, read).
mount_ok() {
	local tag=$1 rc
	shift
	"$VS" -q -passfile pf "$@" >opt.log 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && echo "x$tag" >m/t && [ "$(cat m/t)" = "x$tag" ]; then
		pass "$tag: mounts (exit 0), file written and read"
	else
		fail "$tag: exit $rc: $(cat opt.log)"
	fi
	unmount_all m
}

case_fstab_options() {
	mount_ok "-kernel_cache" -kernel_cache c m
	mount_ok "-acl" -acl c m
	mount_ok "-serialize_reads" -serialize_reads c m
	mount_ok "-noxattr" -noxattr c m
	mount_ok "-idle 0" -idle 0 c m
	mount_ok "-i 0" -i 0 c m
	mount_ok "-o kernel_cache,acl,serialize_reads,idle=0,nofail,rw" c m \
		-o kernel_cache,acl,serialize_reads,idle=0,nofail,rw
	mount_ok "-openssl=auto/-openssl false" -openssl=auto -openssl false c m
	mount_ok "-wpanic -fido2 X (ignored on a password volume)" -wpanic -fido2 /dev/null c m
}

# same_mount OPTS...: vcryptfs and gocryptfs mount c on ${SM_MP:-m}
# with OPTS: the same exit code, findmnt SOURCE and OPTIONS (gocryptfs's
# max_read aside) and outcome of a write. Prints a FAIL line and returns
# 1 when they differ.
same_mount() {
	local mp=${SM_MP:-m} b rc out=() w
	for b in "$VS" gocryptfs; do
		if [ "$b" = gocryptfs ]; then
			gocryptfs -q -nosyslog -passfile pf "$@" c "$mp" >/dev/null 2>&1 </dev/null
		else
			"$b" -q -passfile pf "$@" c "$mp" >sm.log 2>&1 </dev/null
		fi
		rc=$?
		w=-
		if mountpoint -q "$mp"; then
			w=$( (echo x >"$mp/sm") 2>&1 && cat "$mp/sm")
			rm -f "$mp/sm" 2>/dev/null
		fi
		out+=("rc=$rc [$(findmnt -n -o SOURCE,OPTIONS "$mp" 2>/dev/null |
			sed 's/,max_read=[0-9]*//')] write=$w")
		unmount_all "$mp"
	done
	[ "${out[0]}" = "${out[1]}" ] && return 0
	fail "mount $*: vcryptfs ${out[0]} ($(head -c 200 sm.log)); gocryptfs ${out[1]}"
	return 1
}

# options of gocryptfs 2.3 that a mount takes (mount flags, obsolete
# and Go-only ones that are ignored, -ko, -fsname, -zerokey, ...): the
# same outcome as gocryptfs's
case_mount_options() {
	local ok=1 n=0 o
	mkdir -p ne
	touch ne/x
	SM_MP=ne same_mount -nonempty || ok=0
	SM_MP=ne same_mount || ok=0
	n=2
	for o in "-fsname vcname" "-ko noatime" "-o fsname=x2,ko=noatime" "-ro" "-rw" \
		"-ro -rw" "-o ro" "-dev" "-nodev" "-suid" "-nosuid" "-exec" "-noexec" \
		"-o dev,suid,noexec" "-allow_other" "-noprealloc" "-devrandom" \
		"-forcedecode" "-longnames=false" "-hkdf" "-raw64" "-nofail" "-quiet" \
		"-debug" "-fusedebug" "-sharedstorage" "-badname zz" "-zerokey" \
		"-cpuprofile $T/cpu.prof" "-memprofile $T/mem.prof" "-trace $T/trace.out" \
		"-wpanic" "-one-file-system" "-scryptn 12" "-plaintextnames" "-aessiv" \
		"-xchacha" "-deterministic-names" "-longnamemax 100" "-e x" \
		"-ko" "-fsname"; do
		# shellcheck disable=SC2086
		same_mount $o || ok=0
		n=$((n + 1))
	done
	[ "$ok" -eq 1 ] &&
		pass "$n mounts with options of gocryptfs 2.3: exit code, findmnt source and options, write outcome as gocryptfs's"
}

case_force_owner() {
	local rc own
	"$VS" -q -passfile pf -force_owner 1234:567 c m >fo.log 2>&1
	rc=$?
	mkdir -p m/dfo && touch m/dfo/ffo
	own=$(stat -c '%u:%g' m m/dfo m/dfo/ffo | sort -u | tr '\n' ' ')
	if [ "$rc" -eq 0 ] && [ "$own" = "1234:567 " ] &&
		[ "$(stat -c %u:%g "$T/c")" = "0:0" ] &&
		findmnt -n -o OPTIONS m | grep -q allow_other; then
		pass "-force_owner 1234:567: everything reported as 1234:567 (backing files keep theirs), allow_other"
	else
		fail "-force_owner: exit $rc, owners '$own' $(cat fo.log)"
	fi
	unmount_all m
	local bad want got gmsg
	for bad in abc 1:x x:1 1:2:3 -1:0; do
		"$V" -q -passfile pf -force_owner "$bad" c m >fo2.log 2>&1
		got=$?
		gocryptfs -q -passfile pf -force_owner "$bad" c m >/dev/null 2>&1
		want=$?
		unmount_all m
		if [ "$got" -eq "$want" ] && [ "$got" -eq 1 ] && [ "$(wc -l <fo2.log)" -eq 1 ]; then
			pass "-force_owner $bad: exit $got as gocryptfs ($(cat fo2.log))"
		else
			fail "-force_owner $bad: exit $got, gocryptfs $want: $(cat fo2.log)"
		fi
	done
}

case_noxattr() {
	local out
	setfattr -n user.before -v 1 "$T/c" 2>/dev/null
	"$VS" -q -passfile pf -noxattr c m >nx.log 2>&1 || fail "-noxattr mount: $(cat nx.log)"
	touch m/nx
	out=$(setfattr -n user.a -v b m/nx 2>&1)
	if [[ $out == *"Operation not supported"* ]] &&
		[[ $(getfattr -n user.a m/nx 2>&1) == *"Operation not supported"* ]] &&
		[[ $(getfattr -d m/nx 2>&1) == *"Operation not supported"* ]] &&
		[ "$(cat m/nx; echo ok)" = ok ]; then
		pass "-noxattr: setfattr/getfattr/listxattr fail with ENOTSUP, files still work"
	else
		fail "-noxattr: $out"
	fi
	unmount_all m
}

case_fido2() {
	local got want
	mkdir -p f1 f2
	"$VS" -init -fido2 /dev/null -passfile pf f1 >f1.log 2>&1
	got=$?
	PATH=/usr/bin:/bin gocryptfs -init -fido2 /dev/null -passfile pf f2 >/dev/null 2>&1
	want=$?
	if [ "$got" -eq 31 ] && [ "$want" -eq 31 ] && [ "$(wc -l <f1.log)" -eq 1 ] &&
		[ ! -e f1/gocryptfs.conf ]; then
		pass "-init -fido2: exit 31 as gocryptfs without fido2-tools, no config written ($(cat f1.log))"
	else
		fail "-init -fido2: exit $got (gocryptfs $want): $(cat f1.log)"
	fi
	# a volume whose master key a FIDO2 token protects (config edited:
	# FIDO2 flag and object); without -fido2 gocryptfs stops at the
	# command line (exit 1), with it at fido2-assert (31)
	rm -rf f3
	cp -r c f3
	chmod u+w f3/gocryptfs.conf
	sed -z -i 's/"Raw64"\n\t\]/"Raw64",\n\t\t"FIDO2"\n\t],\n\t"FIDO2": {\n\t\t"CredentialID": "AAECAwQFBgcICQoLDA0ODw==",\n\t\t"HMACSalt": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="\n\t}/' \
		f3/gocryptfs.conf
	grep -q '"HMACSalt"' f3/gocryptfs.conf || fail "-fido2: FIDO2 config not made"
	local xr=$SRC/$BUILD/vcryptfs-xray t line ok=1 n=0
	for t in "1|-passfile pf f3 m" "31|-fido2 /dev/null f3 m" "1|-fsck -passfile pf f3" \
		"31|-fsck -fido2 /dev/null f3" "1|-passwd -passfile pf f3" "0|-info f3" \
		"1|xray -dumpmasterkey f3/gocryptfs.conf" \
		"31|xray -fido2 /dev/null -dumpmasterkey f3/gocryptfs.conf"; do
		want=${t%%|*}
		line=${t#*|}
		n=$((n + 1))
		# shellcheck disable=SC2086
		case $line in
		xray*)
			"$xr" ${line#xray } >f3.log 2>&1 </dev/null
			got=$?
			PATH=/usr/bin:/bin gocryptfs-xray ${line#xray } >/dev/null 2>&1 </dev/null
			;;
		*)
			"$VS" -q $line >f3.log 2>&1 </dev/null
			got=$?
			unmount_all m
			PATH=/usr/bin:/bin gocryptfs -q -nosyslog $line >/dev/null 2>&1 </dev/null
			;;
		esac
		grc=$?
		unmount_all m
		if [ "$got" -ne "$want" ] || [ "$grc" -ne "$want" ] ||
			{ [ "$want" -ne 0 ] && [ "$(wc -l <f3.log)" -ne 1 ]; }; then
			fail "FIDO2 volume, $line: exit $got (gocryptfs $grc, want $want): $(cat f3.log)"
			ok=0
		fi
	done
	[ "$ok" -eq 1 ] &&
		pass "FIDO2 volume: $n commands (mount, -fsck, -passwd, -info, xray -dumpmasterkey; with and without -fido2) exit as gocryptfs's, one line"
}

case_masterkey_stdin() {
	local mk
	mk=$(printf '%s\n' "$PW" | "$SRC/$BUILD/vcryptfs-xray" -dumpmasterkey c/gocryptfs.conf 2>/dev/null)
	echo "$mk" | "$VS" -masterkey=stdin c m >mk.log 2>&1
	if mountpoint -q m && ! grep -q 'ps ax' mk.log; then
		pass "-masterkey=stdin mounts without the ps-ax warning"
	else
		fail "-masterkey=stdin: $(cat mk.log)"
	fi
	unmount_all m
	"$VS" -masterkey="$mk" c m >mk2.log 2>&1
	if mountpoint -q m && grep -q 'ps ax' mk2.log; then
		pass "-masterkey=HEX still warns about ps ax"
	else
		fail "-masterkey=HEX: $(cat mk2.log)"
	fi
	unmount_all m
}

case_openssl() {
	local got want
	"$VS" -openssl=garbage -passfile pf c m >os.log 2>&1
	got=$?
	gocryptfs -openssl=garbage -passfile pf c m >/dev/null 2>&1
	want=$?
	unmount_all m
	if [ "$got" -eq "$want" ] && [ "$got" -eq 1 ] && grep -q 'Invalid "-openssl" setting' os.log &&
		[ "$(wc -l <os.log)" -eq 1 ]; then
		pass "-openssl=garbage: exit 1 as gocryptfs ($(cat os.log))"
	else
		fail "-openssl=garbage: exit $got, gocryptfs $want: $(cat os.log)"
	fi
}

case_debug() {
	local pid
	"$VS" -fg -d -passfile pf c m >dbg.log 2>&1 &
	pid=$!
	for _ in $(seq 600); do mountpoint -q m && break; sleep 0.1; done
	ls m >/dev/null
	cat m/t >/dev/null 2>&1
	fusermount3 -u m
	wait "$pid"
	if grep -q 'debug: cli: action=mount' dbg.log && grep -q 'debug: mount: cipherdir=' dbg.log &&
		grep -qE 'debug: (LOOKUP|GETATTR|READDIRPLUS|OPENDIR) ino' dbg.log &&
		! grep -q "$PW" <(grep debug dbg.log | grep -v passfile); then
		pass "-d: $(grep -c debug: dbg.log) debug lines (command line, mount options, requests)"
	else
		fail "-d: $(head -5 dbg.log)"
	fi
	"$V" -fg -passfile pf c m >nodbg.log 2>&1 &
	pid=$!
	for _ in $(seq 600); do mountpoint -q m && break; sleep 0.1; done
	ls m >/dev/null
	fusermount3 -u m
	wait "$pid"
	if ! grep -q debug: nodbg.log; then
		pass "without -d: no debug line"
	else
		fail "debug lines without -d"
	fi
}

case_acl() {
	chmod 755 "$T" # nobody must reach the mount point
	"$VS" -q -acl -allow_other -passfile pf c m >acl.log 2>&1 || { fail "-acl mount: $(cat acl.log)"; return; }
	echo secret >m/vfile
	chmod 644 m/vfile
	mkdir -p m/vdir
	if setfacl -m u:nobody:--- m/vfile && setfacl -d -m u:nobody:rx m/vdir; then
		pass "-acl: setfacl on the vcryptfs mount"
	else
		fail "-acl: setfacl failed"
	fi
	if setpriv --reuid=65534 --regid=65534 --clear-groups cat m/vfile >/dev/null 2>&1; then
		fail "-acl: nobody read a file its ACL denies"
	elif echo hi >m/vother && chmod 644 m/vother &&
		setpriv --reuid=65534 --regid=65534 --clear-groups cat m/vother >/dev/null 2>&1; then
		pass "-acl: enforced (nobody denied by u:nobody:---, reads a plain 644 file)"
	else
		fail "-acl: nobody cannot read a 644 file either"
	fi
	touch m/vdir/inherit
	unmount_all m
	# stored as gocryptfs stores them: plaintext system.posix_acl_* xattrs
	local n
	n=$(getfattr -R -d -m '^system.posix_acl' c 2>/dev/null | grep -c '^system.posix_acl_')
	if [ "$n" -ge 3 ]; then
		pass "-acl: $n unencrypted system.posix_acl_* xattrs in the cipher dir"
	else
		fail "-acl: $n posix_acl xattrs on the backing files"
	fi
	gocryptfs -q -acl -passfile pf c m2 >/dev/null 2>&1
	if getfacl -n m2/vfile 2>/dev/null | grep -q '^user:65534:---' &&
		getfacl -n m2/vdir 2>/dev/null | grep -q '^default:user:65534:r-x' &&
		getfacl -n m2/vdir/inherit 2>/dev/null | grep -q '^user:65534:r-x'; then
		pass "-acl: gocryptfs reads vcryptfs's ACLs (access, default, inherited)"
	else
		fail "-acl: gocryptfs sees $(getfacl -n m2/vfile 2>&1 | tr '\n' ' ')"
	fi
	touch m2/gfile
	setfacl -m u:nobody:r m2/gfile
	unmount_all m2
	"$VS" -q -acl -passfile pf c m >/dev/null 2>&1
	if getfacl -n m/gfile 2>/dev/null | grep -q '^user:65534:r--'; then
		pass "-acl: vcryptfs reads gocryptfs's ACL"
	else
		fail "-acl: vcryptfs sees $(getfacl -n m/gfile 2>&1 | tr '\n' ' ')"
	fi
	unmount_all m
}

case_scrypt_cap() {
	local avail need rc
	mkdir -p s21 g21 s28 mg21
	if "$V" -q -init -scryptn 21 -passfile pf s21 >s21.log 2>&1 &&
		"$V" -q -passfile pf s21 m && mountpoint -q m; then
		pass "-init -scryptn 21 (2 GiB) and mounting it"
	else
		fail "-scryptn 21: $(cat s21.log)"
	fi
	unmount_all m
	gocryptfs -q -init -scryptn 21 -passfile pf g21 >/dev/null 2>&1
	if "$V" -q -passfile pf g21 m && mountpoint -q m; then
		pass "a volume of gocryptfs -init -scryptn 21 mounts"
	else
		fail "gocryptfs -scryptn 21 volume does not mount"
	fi
	unmount_all m
	avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
	need=$((128 * 8 * (1 << 28) / 1048576))
	if [ "$avail" -lt "$need" ]; then
		"$V" -init -scryptn 28 -passfile pf s28 >s28.log 2>&1
		rc=$?
		if [ "$rc" -eq 13 ] && grep -q "needs $need MiB" s28.log &&
			grep -qE "than the [0-9]+ MiB available" s28.log && [ ! -e s28/gocryptfs.conf ]; then
			pass "-scryptn 28 with $avail MiB available: exit 13, $(cat s28.log)"
		else
			fail "-scryptn 28: exit $rc: $(cat s28.log)"
		fi
	else
		echo "SKIP: -scryptn 28 refusal ($avail MiB available, it fits)"
	fi
}

case_sanitizer() {
	if [ -n "$(ls -A "$T/san" 2>/dev/null)" ]; then
		fail "ASan/UBSan reports: $(head -c 600 "$T"/san/*)"
	else
		pass "ASan/UBSan: no report from the sanitizer mounts of this group"
	fi
}

run_cases case_help case_idle case_dead_mount case_fstab_options case_mount_options \
	case_force_owner case_noxattr case_fido2 case_masterkey_stdin \
	case_openssl case_debug case_acl case_scrypt_cap case_sanitizer

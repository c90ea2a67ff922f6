#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: posix: the POSIX-semantics suite (tests/fs/fsposix.c) on a fresh
# `vcryptfs -init` volume mounted through the real command line, compared
# case by case with the same suite on a plain directory (the reference: a
# case passes only when the mount gives the plain directory's outcome):
#   1. root cases, EXDEV against a second mount; then on the other volume
#      kinds (-longnamemax 64, -plaintextnames, -xchacha, -aessiv,
#      -deterministic-names);
#   2. the non-root cases (nobody) on an -allow_other mount, and the owner
#      of what nobody created, on the ciphertext side too;
#   3. both again with the ASan/UBSan daemon and suite (no report allowed);
#   4. -sharedstorage: two mounts of one cipherdir see each other at once;
#   5. -badname: a Dropbox-style conflict copy made in the cipherdir;
#   6. a daemon without root's permission override: write-only files, rmdir
#      of directories without u+rwx.
# Sections 4 and 5 use the ASan/UBSan daemon too.
# Each section is a case (`tests/run.sh posix --case NAME`: root, kinds,
# nobody, asan, sharedstorage, badname, nopriv); the plain-dir references
# are made by the first case that needs them. Every mount is unmounted by
# the EXIT trap.
. "$(dirname "$0")/lib.sh"
VC=$BUILD/vcryptfs
SANVC=$SANBUILD/vcryptfs
FSP=$BUILD/tests/fsposix
need_mount_group posix "$VC" "$FSP" || exit 0
vc_tmpdir 56
chmod 755 "$tmp" # nobody must reach the plain reference too
printf 'posix-test-password\n' >"$tmp/pf"
# Sanitized daemons (sections 3 to 5) and the sanitized suite log to files
# (a background daemon's stderr is /dev/null); any report fails the group.
san_log_to "$tmp/san"
SD=$VC
if [ -x "$SANVC" ]; then
	SD=$SANVC
else
	fail "posix: $SANVC not built (make san-build)"
fi

# new_vol DIR [init flags]
new_vol() {
	local c=$1
	shift
	mkdir -p "$c" && chmod 755 "$c"
	"$VC" -init -q -scryptn 10 -passfile "$tmp/pf" "$@" "$c" >/dev/null 2>&1
}
# mnt BIN CIPHERDIR MNT [mount flags]: vcryptfs -passfile through BIN
mnt() {
	local bin=$1
	shift
	VC_BIN=$bin PASSFILE=$tmp/pf vc_mount "$@"
}


# compare LABEL MOUNT-OUTPUT PLAIN-OUTPUT: one line per case.
compare() {
	awk -v label="$1" '
	# "PASS: fs: NAME" / "FAIL: fs: NAME: DETAIL" (NAME may hold ": ")
	function key(l) {
		if (sub(/^PASS: fs: /, "", l)) return l
		sub(/^FAIL: fs: /, "", l); match(l, /.*: /); return substr(l, 1, RLENGTH - 2)
	}
	function res(l) { if (l ~ /^PASS: /) return "pass"; r = l; sub(/.*: /, "", r); return "fail (" r ")" }
	FNR == NR { if ($0 ~ /^(PASS|FAIL): fs: /) ref[key($0)] = res($0); next }
	/^(PASS|FAIL): fs: / {
		k = key($0); r = res($0); n++
		if (!(k in ref)) { printf "FAIL: posix %s: %s: not run on the plain dir\n", label, k; next }
		if (r == ref[k]) {
			if (r == "pass") printf "PASS: posix %s: %s\n", label, k
			else { printf "PASS: posix %s: %s (same as the plain dir, which differs from the expectation: %s)\n", label, k, r; odd++ }
		} else printf "FAIL: posix %s: %s: mount %s, plain dir %s\n", label, k, r, ref[k]
		seen[k] = 1
	}
	/^SKIP: / { print }
	END {
		for (k in ref) if (!(k in seen)) printf "FAIL: posix %s: %s: not run on the mount\n", label, k
		printf "INFO: posix %s: %d cases compared, %d where the plain dir differs from the expectation\n", label, n, odd
	}' "$3" "$2"
}

# plain_ref: $tmp/ref.out, the root cases on a plain directory ($tmp/plain),
# their EXDEV partner on a second mount ($tmp/m2, case_root unmounts it).
# Made once, by the first case that needs it.
plain_ref() {
	[ -s "$tmp/ref.out" ] && return 0
	new_vol "$tmp/c2" && mnt "$VC" "$tmp/c2" "$tmp/m2" || return 1
	mkdir -p "$tmp/plain" "$tmp/m2/x1" "$tmp/m2/x2"
	"$FSP" -x "$tmp/m2/x1" "$tmp/plain" >"$tmp/ref.out" 2>&1
}
# plain_ref_nobody: $tmp/refn.out, the non-root cases on $tmp/plain-n
plain_ref_nobody() {
	[ -s "$tmp/refn.out" ] && return 0
	mkdir -p "$tmp/plain-n"
	chmod 755 "$tmp/plain-n"
	"$FSP" -n "$tmp/plain-n" >"$tmp/refn.out" 2>&1
}

# ---------------------------------------------------------------------------
# 1. root cases: vcryptfs mount vs plain dir; EXDEV against a second mount
case_root() {
	local n
	if plain_ref && new_vol "$tmp/c1" && mnt "$VC" "$tmp/c1" "$tmp/m1"; then
		"$FSP" -x "$tmp/m2/x2" "$tmp/m1" >"$tmp/m1.out" 2>&1
		compare root "$tmp/m1.out" "$tmp/ref.out" >"$tmp/cmp1"
		grep -v '^INFO' "$tmp/cmp1"
		n=$(grep -c '^PASS: ' "$tmp/cmp1")
		[ "$n" -ge 150 ] && pass "posix: $n root cases agree with the plain dir (>= 150)" ||
			fail "posix: only $n root cases agree with the plain dir"
		grep '^INFO' "$tmp/cmp1" | sed 's/^INFO/  info/'
		if find "$tmp/c1" -name 'fsposix.d' | grep -q .; then
			fail "posix: a plaintext name reached the cipherdir"
		else
			pass "posix: no plaintext name in the cipherdir"
		fi
		umnt "$tmp/m1"
		umnt "$tmp/m2"
	else
		fail "posix: vcryptfs -init or mount failed"
	fi
}

# 1b. the same on the other volume kinds (long names from 64 bytes on,
#     plaintext names, XChaCha20-Poly1305, AES-SIV, deterministic names)
case_kinds() {
	local opt f t n
	plain_ref || { fail "posix: the plain-dir reference failed"; return; }
	for opt in "-longnamemax 64" -plaintextnames -xchacha -aessiv -deterministic-names; do
		read -r -a f <<<"$opt"
		t=${opt// /}
		if new_vol "$tmp/c$t" "${f[@]}" && mnt "$VC" "$tmp/c$t" "$tmp/m$t"; then
			"$FSP" -x "$tmp/plain" "$tmp/m$t" >"$tmp/o$t.out" 2>&1
			umnt "$tmp/m$t"
			compare "$opt" "$tmp/o$t.out" "$tmp/ref.out" >"$tmp/cmp$t"
			grep '^FAIL' "$tmp/cmp$t"
			n=$(grep -c '^PASS' "$tmp/cmp$t")
			[ "$n" -ge 150 ] && ! grep -q '^FAIL' "$tmp/cmp$t" &&
				pass "posix: $opt volume: all $n root cases agree with the plain dir"
		else
			fail "posix: $opt volume: -init or mount failed"
		fi
	done
}

# ---------------------------------------------------------------------------
# 2. non-root cases on an -allow_other mount (nobody:nogroup)
case_nobody() {
	local pub r n want got
	if new_vol "$tmp/c3" && mnt "$VC" "$tmp/c3" "$tmp/m3" -allow_other; then
		plain_ref_nobody
		"$FSP" -n "$tmp/m3" >"$tmp/m3.out" 2>&1
		compare nobody "$tmp/m3.out" "$tmp/refn.out" >"$tmp/cmp3"
		grep -v '^INFO' "$tmp/cmp3"
		grep '^INFO' "$tmp/cmp3" | sed 's/^INFO/  info/'
		# Remount with cold caches and gocryptfs' diriv mode 0440 (only root
		# may read root's): nobody still creates in root's 0777 dir.
		umnt "$tmp/m3"
		find "$tmp/c3" -name gocryptfs.diriv -exec chmod 0440 {} +
		pub=$tmp/m3/fsposix-n.d/pub
		if mnt "$VC" "$tmp/c3" "$tmp/m3" -allow_other &&
			setpriv --reuid=65534 --regid=65534 --clear-groups bash -c \
				'mkdir "$1/cold" && : >"$1/coldf" && ln -s x "$1/colds" && mkfifo "$1/coldp"' _ "$pub"; then
			pass "posix: nobody creates in root's dir after a remount (diriv 0440, cold cache)"
		else
			fail "posix: nobody cannot create in root's dir after a remount"
		fi
		# root and nobody create at the same time: each worker thread takes the
		# caller's identity for a creation and gives it back
		if command -v setpriv >/dev/null && mkdir "$pub/race"; then
			chmod 777 "$pub/race"
			(for i in $(seq 1 150); do : >"$pub/race/r$i" && mkdir "$pub/race/rd$i"; done) &
			setpriv --reuid=65534 --regid=65534 --clear-groups bash -c \
				'for i in $(seq 1 150); do : >"$1/n$i" && mkdir "$1/nd$i"; done' _ "$pub/race"
			wait
			r=$(find "$pub/race" -mindepth 1 -name 'r*' -user root | wc -l)
			n=$(find "$pub/race" -name 'n*' -user nobody -group nogroup | wc -l)
			[ "$r" = 300 ] && [ "$n" = 300 ] &&
				pass "posix: root and nobody creating at once: every object has its creator's owner" ||
				fail "posix: concurrent creations: $r of 300 root-owned, $n of 300 nobody-owned"
		fi
		umnt "$tmp/m3"
		want=$(($(find "$tmp/plain-n" -user nobody | wc -l) + 304))
		got=$(find "$tmp/c3" -user nobody ! -name gocryptfs.diriv \
			! -name 'gocryptfs.longname.*.name' | wc -l)
		if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
			pass "posix: nobody's $want new objects are owned by nobody in the cipherdir too"
		else
			fail "posix: nobody owns $got objects in the cipherdir, $want in the plain dir"
		fi
	else
		fail "posix: -allow_other mount failed"
	fi
}

# ---------------------------------------------------------------------------
# 3. the ASan/UBSan daemon with -allow_other, root and non-root cases, the
#    suite's own ASan/UBSan twin as the client
case_asan() {
	local sfsp n
	plain_ref || { fail "posix: the plain-dir reference failed"; return; }
	plain_ref_nobody
	if new_vol "$tmp/c4" && mnt "$SD" "$tmp/c4" "$tmp/m4" -allow_other; then
		sfsp=$SANBUILD/tests/fsposix
		[ -x "$sfsp" ] || sfsp=$FSP
		"$sfsp" -x "$tmp/plain" "$tmp/m4" >"$tmp/m4.out" 2>&1
		"$sfsp" -n "$tmp/m4" >"$tmp/m4n.out" 2>&1
		umnt "$tmp/m4"
		{
			compare asan "$tmp/m4.out" "$tmp/ref.out"
			compare asan-nobody "$tmp/m4n.out" "$tmp/refn.out"
		} >"$tmp/cmp4"
		grep '^FAIL' "$tmp/cmp4"
		n=$(grep -c '^PASS' "$tmp/cmp4")
		! grep -q '^FAIL' "$tmp/cmp4" &&
			pass "posix: ASan daemon (-allow_other): all $n cases agree with the plain dir"
	else
		fail "posix: ASan daemon mount failed"
	fi
}

# ---------------------------------------------------------------------------
# 4. -sharedstorage: two mounts of one cipherdir
case_sharedstorage() {
	local A B
	if new_vol "$tmp/c5" && mnt "$SD" "$tmp/c5" "$tmp/m5a" -sharedstorage &&
		mnt "$SD" "$tmp/c5" "$tmp/m5b" -sharedstorage; then
		A=$tmp/m5a B=$tmp/m5b
		ls "$B" >/dev/null
		stat "$B/new" >/dev/null 2>&1 # a negative lookup the kernel may cache
		echo one >"$A/new"
		[ "$(cat "$B/new" 2>/dev/null)" = one ] &&
			pass "posix: sharedstorage: a file created on mount A is read on B at once" ||
			fail "posix: sharedstorage: B does not see A's new file"
		echo "first version" >"$A/new"
		[ "$(cat "$B/new" 2>/dev/null)" = "first version" ] &&
			pass "posix: sharedstorage: a rewrite (new file ID) on A is read on B" ||
			fail "posix: sharedstorage: B reads a stale or broken rewrite: $(cat "$B/new" 2>&1)"
		echo "more" >>"$A/new"
		[ "$(stat -c %s "$B/new")" = 19 ] &&
			pass "posix: sharedstorage: B sees A's new size at once" ||
			fail "posix: sharedstorage: B sees size $(stat -c %s "$B/new"), want 19"
		mv "$A/new" "$A/renamed"
		if [ ! -e "$B/new" ] && [ -f "$B/renamed" ]; then
			pass "posix: sharedstorage: a rename on A is seen on B at once"
		else
			fail "posix: sharedstorage: B does not see A's rename"
		fi
		mkdir "$A/d" && echo in >"$A/d/f"
		ln "$A/d/f" "$A/d/g"
		[ "$(cat "$B/d/g" 2>/dev/null)" = in ] && [ "$(stat -c %h "$B/d/f")" = 2 ] &&
			[ "$(stat -c %i "$B/d/f")" = "$(stat -c %i "$B/d/g")" ] &&
			[ "$(stat -c %i "$B/d/f")" = "$(stat -c %i "$A/d/g")" ] &&
			pass "posix: sharedstorage: a hard link made on A is seen on B (one inode number on both)" ||
			fail "posix: sharedstorage: B does not see A's hard link"
		echo "via g" >"$A/d/g"
		[ "$(cat "$B/d/f" 2>/dev/null)" = "via g" ] &&
			pass "posix: sharedstorage: a rewrite through one link on A is read through the other on B" ||
			fail "posix: sharedstorage: B reads '$(cat "$B/d/f" 2>&1)' through the other link"
		rm "$A/renamed"
		[ ! -e "$B/renamed" ] &&
			pass "posix: sharedstorage: an unlink on A is seen on B at once" ||
			fail "posix: sharedstorage: B still sees A's deleted file"
		chmod 600 "$A/d/f"
		[ "$(stat -c %a "$B/d/f")" = 600 ] &&
			pass "posix: sharedstorage: a chmod on A is seen on B at once" ||
			fail "posix: sharedstorage: B sees mode $(stat -c %a "$B/d/f")"
		umnt "$A"
		umnt "$B"
	else
		fail "posix: -sharedstorage mounts failed"
	fi
}

# ---------------------------------------------------------------------------
# 5. -badname: an undecryptable conflict copy next to its original
case_badname() {
	local enc bn n got
	if new_vol "$tmp/c6" && mnt "$SD" "$tmp/c6" "$tmp/m6"; then
		echo "original" >"$tmp/m6/report.txt"
		umnt "$tmp/m6"
		enc=$(cd "$tmp/c6" && ls | grep -v '^gocryptfs\.')
		cp "$tmp/c6/$enc" "$tmp/c6/$enc (conflicted copy)"
		echo junk >"$tmp/c6/not-a-name"
		if mnt "$SD" "$tmp/c6" "$tmp/m6" -nosyslog -badname '*conflicted*' 2>"$tmp/badname.log"; then
			bn="report.txt (conflicted copy) GOCRYPTFS_BAD_NAME"
			ls "$tmp/m6" >"$tmp/ls1" && ls "$tmp/m6" >/dev/null
			grep -qxF "$bn" "$tmp/ls1" &&
				pass "posix: badname: the conflict copy is listed as '$bn'" ||
				fail "posix: badname: listing is: $(tr '\n' '|' <"$tmp/ls1")"
			! grep -q 'not-a-name' "$tmp/ls1" &&
				pass "posix: badname: a name outside the glob stays hidden" ||
				fail "posix: badname: not-a-name is listed"
			[ "$(cat "$tmp/m6/$bn" 2>/dev/null)" = original ] &&
				pass "posix: badname: the conflict copy can be looked up and read" ||
				fail "posix: badname: cannot read '$bn'"
			rm -f "$tmp/m6/$bn"
			[ ! -e "$tmp/c6/$enc (conflicted copy)" ] && [ -e "$tmp/c6/$enc" ] &&
				pass "posix: badname: the conflict copy can be deleted" ||
				fail "posix: badname: delete did not remove the backing file"
			umnt "$tmp/m6"
			n=$(grep -c 'not-a-name' "$tmp/badname.log")
			[ "$n" = 1 ] &&
				pass "posix: badname: the hidden name is logged once" ||
				fail "posix: badname: hidden name logged $n times"
		else
			fail "posix: -badname mount failed"
		fi
		# a glob matching everything: never ".." or gocryptfs' own files
		if mnt "$SD" "$tmp/c6" "$tmp/m6" -badname '*'; then
			grep -qxF "not-a-name GOCRYPTFS_BAD_NAME" <(ls "$tmp/m6") &&
				pass "posix: badname '*': an undecryptable name is listed" ||
				fail "posix: badname '*': not-a-name is not listed"
			got=""
			for n in ".. GOCRYPTFS_BAD_NAME" ". GOCRYPTFS_BAD_NAME" \
				"gocryptfs.conf GOCRYPTFS_BAD_NAME" \
				"gocryptfs.diriv GOCRYPTFS_BAD_NAME"; do
				stat "$tmp/m6/$n" >/dev/null 2>&1 && got="$got '$n'"
			done
			[ -z "$got" ] &&
				pass "posix: badname '*': .., . and gocryptfs.* cannot be looked up" ||
				fail "posix: badname '*': looked up:$got"
			umnt "$tmp/m6"
		else
			fail "posix: -badname '*' mount failed"
		fi
	else
		fail "posix: badname volume failed"
	fi
}

# ---------------------------------------------------------------------------
# 6. A daemon without root's permission override (uid 0 without
#    CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER: what a daemon run
#    by the owner of the files meets; /dev/fuse is root-only here): RMW in a
#    write-only (0200) file gets u+r for the moment, rmdir of a directory
#    without u+rwx works as on a plain dir and keeps the mode on failure.
perm_cases() { # DIR: one "case result" line each
	(
		cd "$1" || exit 1
		printf 'hello world' >f
		chmod 200 f
		printf X | dd of=f bs=1 seek=3 conv=notrunc status=none 2>/dev/null
		echo "RMW-in-a-0200-file rc=$? mode=$(stat -c %a f)"
		truncate -s 8 f 2>/dev/null
		echo "truncate-a-0200-file rc=$? size=$(stat -c %s f)"
		chmod 600 f
		echo "0200-file-content-after-RMW $(cat f 2>&1)"
		mkdir d0 && chmod 000 d0
		rmdir d0 2>/dev/null
		echo "rmdir-a-mode-0000-dir rc=$?"
		mkdir d5 && chmod 500 d5
		rmdir d5 2>/dev/null
		echo "rmdir-a-mode-0500-dir rc=$?"
		mkdir dn && : >dn/x && chmod 500 dn
		rmdir dn 2>/dev/null
		echo "rmdir-a-non-empty-0500-dir rc=$? mode=$(stat -c %a dn)"
	)
}
case_nopriv() {
	local k r m
	if ! need_tool setpriv; then
		: # SKIP (or FAIL in CI) printed by need_tool
	elif new_vol "$tmp/c7" && mkdir -p "$tmp/m7" "$tmp/plain7" &&
		MOUNTS+=("$tmp/m7") &&
		setpriv --bounding-set=-dac_override,-dac_read_search,-fowner \
			"$VC" -q -passfile "$tmp/pf" "$tmp/c7" "$tmp/m7"; then
		perm_cases "$tmp/plain7" >"$tmp/p7.ref"
		perm_cases "$tmp/m7" >"$tmp/p7.out"
		umnt "$tmp/m7"
		[ "$(wc -l <"$tmp/p7.ref")" = 6 ] ||
			fail "posix: the permission cases did not all run on the plain dir"
		while read -r k r; do
			m=$(grep "^$k " "$tmp/p7.out" | cut -d' ' -f2-)
			if [ "$m" = "$r" ]; then
				pass "posix: non-root-like daemon: $k: $r"
			else
				fail "posix: non-root-like daemon: $k: mount '$m', plain dir '$r'"
			fi
		done <"$tmp/p7.ref"
	else
		fail "posix: mount without permission override failed"
	fi
}

run_cases case_root case_kinds case_nobody case_asan case_sharedstorage \
	case_badname case_nopriv

# ---------------------------------------------------------------------------
# Sanitizer reports of sections 3 to 5 (daemons write them when they exit)
for _ in $(seq 1 50); do
	pgrep -f "vcryptfs .*$tmp/" >/dev/null || break
	sleep 0.1
done
if ls "$tmp/san"/* >/dev/null 2>&1; then
	fail "posix: sanitizer reports: $(head -c 1500 "$tmp"/san/* | grep -E 'ERROR|runtime error|SUMMARY|#[0-9] ' | head -n 12)"
elif [ "$SD" = "$SANVC" ]; then
	pass "posix: ASan/UBSan daemons (-allow_other, -sharedstorage, -badname) and suite: no report"
fi
exit 0

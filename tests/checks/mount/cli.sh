# SPDX-License-Identifier: MIT
# 55-mount cases (sourced by 55-mount.sh): the real command line, vcryptfs
# -init / mount with -passfile, exit codes, -fg with SIGTERM (exit 15), and
# both directions with gocryptfs through configs.

cli_state=
# cli_ready: 0 when $VC -init works (probed once; the first case that finds
# it broken says so, the others return quietly).
cli_ready() {
	if [ -z "$cli_state" ]; then
		cli_state=1
		if [ -x "$VC" ] && "$VC" -init -scryptn 10 -passfile "$tmp/pf" "$tmp/cli-probe" \
			>/dev/null 2>&1 || { mkdir -p "$tmp/cli-probe" &&
			"$VC" -init -scryptn 10 -passfile "$tmp/pf" "$tmp/cli-probe" >/dev/null 2>&1; }; then
			cli_state=0
		else
			fail "mount: $VC -init failed, the command-line mount tests cannot run"
		fi
	fi
	return "$cli_state"
}
# cli_mount CIPHERDIR MNT [flags]: vcryptfs -passfile $tmp/pf
cli_mount() {
	VC_BIN=$VC PASSFILE=$tmp/pf vc_mount "$@"
}
# go_pf_mount CIPHERDIR MNT: gocryptfs -passfile $tmp/pf
go_pf_mount() {
	PASSFILE=$tmp/pf go_mount "$@"
}
# cli_vol: $tmp/clidefault-a, a default volume made by vcryptfs -init (by
# case_cli, or here when that case did not run)
cli_vol() {
	c=$tmp/clidefault-a
	[ -f "$c/gocryptfs.conf" ] && return 0
	mkdir -p "$c"
	"$VC" -init -scryptn 10 -passfile "$tmp/pf" "$c" >/dev/null 2>&1
}

case_cli_examples() {
	local ex d
	cli_ready || return 0
	for ex in aesgcm xchacha; do
		d=$EX/gocryptfs-2.3-$ex
		rm -rf "$tmp/cex"
		prep_example "$d/cipherdir" "$tmp/cex"
		if VC_BIN=$VC PASSFILE=$d/passfile.txt vc_mount "$tmp/cex" "$tmp/cm" -ro; then
			check_manifest "$tmp/cm" "$d/MANIFEST.txt" "example $ex via vcryptfs -passfile"
			umnt "$tmp/cm"
		else
			fail "mount: vcryptfs -passfile could not mount example $ex"
		fi
	done
}

case_cli() {
	local opt f tag c
	cli_ready || return 0
	ref_sum
	for opt in default -xchacha -aessiv -plaintextnames -deterministic-names "-longnamemax 64"; do
		f=()
		[ "$opt" = default ] || read -r -a f <<<"$opt"
		tag=${opt// /}
		c=$tmp/cli$tag-a
		mkdir -p "$c"
		if ! "$VC" -init -scryptn 10 -passfile "$tmp/pf" "${f[@]}" "$c" >/dev/null 2>&1; then
			fail "mount: vcryptfs -init $opt failed"
			continue
		fi
		cross "cli $opt" "vcryptfs -init + mount, gocryptfs reads the same tree" \
			"$c" "$tmp/cm" cli_mount go_pf_mount &&
			go_fsck_clean "cli $opt" -passfile "$tmp/pf" "$c"
		c=$tmp/cli$tag-b
		mkdir -p "$c"
		gocryptfs -q -init -scryptn 10 -passfile "$tmp/pf" "${f[@]}" "$c" >/dev/null 2>&1
		cross "cli $opt" "gocryptfs -init volume reads back identically in vcryptfs" \
			"$c" "$tmp/cm" go_pf_mount cli_mount
	done
}

# exit codes: a non-empty mountpoint (10), a wrong password (12)
case_exit_codes() {
	local c rc
	cli_ready || return 0
	cli_vol
	mkdir -p "$tmp/nonempty" && : >"$tmp/nonempty/x"
	"$VC" -q -passfile "$tmp/pf" "$c" "$tmp/nonempty" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 10 ] && pass "mount: non-empty mountpoint -> exit 10" ||
		fail "mount: non-empty mountpoint gave exit $rc, want 10"
	printf 'wrong\n' >"$tmp/pf-wrong"
	mkdir -p "$tmp/cm"
	"$VC" -q -passfile "$tmp/pf-wrong" "$c" "$tmp/cm" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 12 ] && pass "mount: wrong password -> exit 12" ||
		fail "mount: wrong password gave exit $rc, want 12"
	mountpoint -q "$tmp/cm" && umnt "$tmp/cm"
}

# -fg: the ready line, -notifypid's SIGUSR1, SIGTERM unmounts with exit 15
case_fg() {
	local c fgpid rc
	cli_ready || return 0
	cli_vol
	got_usr1=0
	trap 'got_usr1=1' USR1
	MOUNTS+=("$tmp/cm")
	"$VC" -fg -notifypid $$ -passfile "$tmp/pf" "$c" "$tmp/cm" >"$tmp/fg.out" 2>&1 &
	fgpid=$!
	for _ in $(seq 1 50); do mountpoint -q "$tmp/cm" && break; sleep 0.1; done
	if mountpoint -q "$tmp/cm" && grep -q 'Filesystem mounted and ready.' "$tmp/fg.out"; then
		pass "mount: -fg mounts and prints the ready line"
	else
		fail "mount: -fg did not mount"
	fi
	for _ in $(seq 1 20); do [ "$got_usr1" = 1 ] && break; sleep 0.1; done
	trap - USR1
	if [ "$got_usr1" = 1 ]; then
		pass "mount: -notifypid sent SIGUSR1 after mounting"
	else
		fail "mount: -notifypid sent no SIGUSR1"
	fi
	kill -TERM "$fgpid"
	wait "$fgpid"
	rc=$?
	if [ "$rc" = 15 ] && ! mountpoint -q "$tmp/cm"; then
		pass "mount: SIGTERM in -fg unmounts, exit 15"
	else
		fail "mount: SIGTERM in -fg gave exit $rc (mounted: $(mountpoint -q "$tmp/cm" && echo yes || echo no))"
	fi
	mountpoint -q "$tmp/cm" && umnt "$tmp/cm"
}

# the background daemon exits once its mount is unmounted
case_daemon() {
	local c dpid
	cli_ready || return 0
	cli_vol
	if cli_mount "$c" "$tmp/cm"; then
		dpid=$(pgrep -n -f "vcryptfs -q -passfile $tmp/pf $c $tmp/cm" || true)
		umnt "$tmp/cm"
		for _ in $(seq 1 50); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
		if [ -n "$dpid" ] && ! kill -0 "$dpid" 2>/dev/null; then
			pass "mount: background daemon exits after fusermount3 -u"
		else
			fail "mount: background daemon ($dpid) still running after unmount"
		fi
	else
		fail "mount: background mount failed"
	fi
}

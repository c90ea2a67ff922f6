#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: `make install` / `make uninstall` (mk/install.mk) into a scratch
# DESTDIR with PREFIX=/usr: every file lands where it should, the
# installed vcryptfs runs (-init, mount through mount.fuse3 as mount(8)
# runs a fuse.vcryptfs entry, with -o passfile=FILE,nofail; write, read
# back, unmount), the man pages render without a troff warning, the bash
# completion loads and completes, and uninstall leaves no file behind.
# Spec: ../shared/FORMAT.md 12.1 (-o rewriting), issue 25.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
group_needs 66-install "$V" "$PWD/$BUILD/vcryptfs-xray" -- \
	man bash mount.fuse3 fusermount3 make || exit 0
SRC=$PWD
scratch_dir install
D=$T/root
FILES=(usr/bin/vcryptfs usr/bin/vcryptfs-xray
	usr/share/man/man1/vcryptfs.1 usr/share/man/man1/vcryptfs-xray.1
	usr/share/bash-completion/completions/vcryptfs
	usr/share/bash-completion/completions/vcryptfs-xray
	usr/lib/systemd/system/vcryptfs@.service)

case_install() {
	local f missing=0
	if ! make -s -C "$SRC" install PREFIX=/usr DESTDIR="$D" \
		>"$T/install.log" 2>&1; then
		fail "make install: $(tail -3 "$T/install.log")"
		return
	fi
	for f in "${FILES[@]}"; do
		[ -e "$D/$f" ] || { fail "install: $f missing"; missing=1; }
	done
	[ "$missing" -eq 0 ] && pass "make install PREFIX=/usr DESTDIR: ${#FILES[@]} files"
	if grep -q "ExecStart=/usr/bin/vcryptfs " \
		"$D/usr/lib/systemd/system/vcryptfs@.service"; then
		pass "installed unit names /usr/bin/vcryptfs"
	else
		fail "installed unit: $(grep ExecStart= "$D"/usr/lib/systemd/system/vcryptfs@.service)"
	fi
	if cmp -s "$D/usr/bin/vcryptfs" "$V"; then
		pass "installed binary is the built one"
	else
		fail "installed binary differs from $V"
	fi
}

# mount_via BIN TAG: -init, then mount as mount(8) mounts a fuse.vcryptfs
# fstab entry (mount.fuse3 -t fuse.BIN -o rw,passfile=FILE,nofail),
# write, read back, unmount.
case_run() {
	mount_via "$D/usr/bin/vcryptfs" installed
}

case_san() {
	need_built 66-install "$PWD/$SANBUILD/vcryptfs" || return
	san_log_to "$T/san"
	mount_via "$PWD/$SANBUILD/vcryptfs" ASan/UBSan
	if [ -n "$(ls -A "$T/san" 2>/dev/null)" ]; then
		fail "sanitizer reports: $(head -c 400 "$T"/san/*)"
	else
		pass "ASan/UBSan: no report from the mount via mount.fuse3"
	fi
}

mount_via() {
	local b=$1 tag=$2
	rm -rf "$T/c" "$T/mnt"
	mkdir -p "$T/c" "$T/mnt"
	printf 'pw\n' >"$T/pf"
	if ! "$b" -q -init -scryptn 10 -passfile "$T/pf" "$T/c" >"$T/init.log" 2>&1; then
		fail "$tag vcryptfs -init: $(cat "$T/init.log")"
		return
	fi
	pass "$tag vcryptfs -init"
	# what mount(8) does for "CIPHERDIR MP fuse.vcryptfs passfile=..,nofail"
	if ! mount.fuse3 "$T/c" "$T/mnt" -t "fuse.$b" \
		-o "rw,passfile=$T/pf,nofail" >"$T/mount.log" 2>&1; then
		fail "mount.fuse3 -t fuse.$b: $(cat "$T/mount.log")"
		return
	fi
	if findmnt -n -o FSTYPE "$T/mnt" | grep -q '^fuse\.vcryptfs$'; then
		pass "$tag: mount.fuse3 -t fuse.vcryptfs -o rw,passfile=FILE,nofail mounts (findmnt: fuse.vcryptfs)"
	else
		fail "findmnt: $(findmnt -n "$T/mnt")"
	fi
	echo installed-hello >"$T/mnt/f"
	if [ "$(cat "$T/mnt/f" 2>&1)" = installed-hello ] &&
		[ "$(find "$T/c" -type f ! -name 'gocryptfs.*' | wc -l)" -eq 1 ]; then
		pass "$tag: write and read back through the mount"
	else
		fail "read back: $(cat "$T/mnt/f" 2>&1)"
	fi
	if fusermount3 -u "$T/mnt" && ! mountpoint -q "$T/mnt"; then
		pass "$tag: fusermount3 -u unmounts"
	else
		fail "unmount of $T/mnt"
	fi
	[ "$tag" = installed ] || return 0
	if "$D/usr/bin/vcryptfs-xray" "$(find "$T/c" -type f ! -name 'gocryptfs.*')" \
		>"$T/xray.txt" 2>&1 && grep -q '^Block  0: IV: ' "$T/xray.txt"; then
		pass "installed vcryptfs-xray dumps the file"
	else
		fail "installed vcryptfs-xray: $(head -3 "$T/xray.txt")"
	fi
}

case_man() {
	local p out
	for p in vcryptfs vcryptfs-xray; do
		out=$(MANWIDTH=80 man --warnings -l "$D/usr/share/man/man1/$p.1" 2>&1 >/dev/null)
		if [ -n "$out" ]; then
			fail "man -l $p.1 warns: $(echo "$out" | head -3)"
		elif ! MANWIDTH=80 man -l "$D/usr/share/man/man1/$p.1" 2>/dev/null |
			grep -q 'EXIT STATUS'; then
			fail "man -l $p.1: no EXIT STATUS section"
		else
			pass "man --warnings -l $p.1: no warning"
		fi
	done
	# every option of -hh is in the man page
	local miss=()
	source "$D/usr/share/bash-completion/completions/vcryptfs"
	MANWIDTH=200 man -l "$D/usr/share/man/man1/vcryptfs.1" >"$T/man.txt" 2>/dev/null
	for o in $(_vcryptfs_opts "$V" -hh); do
		grep -qE -- "(^|[ ,/])${o}([ ,./=]|$)" "$T/man.txt" || miss+=("$o")
	done
	if [ "${#miss[@]}" -eq 0 ]; then
		pass "every -hh option is in vcryptfs(1)"
	else
		fail "not in vcryptfs(1): ${miss[*]}"
	fi
	if MANWIDTH=80 man -l "$D/usr/share/man/man1/vcryptfs.1" 2>/dev/null |
		grep -qE '^ +31 +FIDO2'; then
		pass "vcryptfs(1) lists the exit codes"
	else
		fail "vcryptfs(1): exit code table missing"
	fi
}

case_completion() {
	local out
	out=$(bash --norc --noprofile -c '
		source "$1" || exit 9
		complete -p vcryptfs >/dev/null || exit 8
		COMP_WORDS=("$2" -ctl); COMP_CWORD=1; _vcryptfs
		echo "${COMPREPLY[*]}"
		COMP_WORDS=("$2" -o passfile=x,kern); COMP_CWORD=2; _vcryptfs
		echo "${COMPREPLY[*]}"
		COMP_WORDS=("$3" -dec); COMP_CWORD=1; _vcryptfs_xray
		echo "${COMPREPLY[*]}"' _ \
		"$D/usr/share/bash-completion/completions/vcryptfs" \
		"$D/usr/bin/vcryptfs" "$D/usr/bin/vcryptfs-xray" 2>&1)
	if [ "$out" = $'-ctlsock\nkernel_cache\n-decrypt-paths' ]; then
		pass "bash completion loads and completes -ctl, -o ...kern, xray -dec"
	else
		fail "bash completion: $(echo "$out" | tr '\n' '|')"
	fi
}

case_uninstall() {
	local left
	if ! make -s -C "$SRC" uninstall PREFIX=/usr DESTDIR="$D" \
		>"$T/uninstall.log" 2>&1; then
		fail "make uninstall: $(tail -3 "$T/uninstall.log")"
		return
	fi
	left=$(find "$D" ! -type d | sed "s|^$D/||")
	if [ -z "$left" ]; then
		pass "make uninstall removes every installed file"
	else
		fail "left after uninstall: $left"
	fi
}

run_cases case_install case_run case_san case_man case_completion case_uninstall

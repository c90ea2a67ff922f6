#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: the Debian package. A copy of the tree in a scratch dir is built
# with `dpkg-buildpackage -us -uc -b` (debian/), the .deb is checked and
# installed on this machine (CI's machine is disposable; a vcryptfs
# package installed before is left as it was), `man vcryptfs` finds the
# page, and the line CIPHERDIR MOUNTPOINT fuse.vcryptfs
# passfile=FILE,nofail 0 0 of a temporary fstab (never /etc/fstab)
# mounts with `mount -a -T FILE` and shows in findmnt as fuse.vcryptfs;
# files written there read back, umount unmounts. The package is removed
# again at the end (dpkg -r), leaving no /usr/bin/vcryptfs behind.
. "$(dirname "$0")/lib.sh"
for t in dpkg-buildpackage dh fakeroot dpkg man mount findmnt gocryptfs; do
	need_tool "$t" || exit 0
done
need_fuse 69-deb || exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: 69-deb (installing a package needs root)"
	exit 0
fi
SRC=$PWD
T=$(mktemp -d /tmp/vcryptfs-deb.XXXXXX)
PRE=$(dpkg-query -W -f='${Status}' vcryptfs 2>/dev/null)
cleanup() {
	unmount_all "$T/m"
	if [ "$PRE" != "install ok installed" ] &&
		dpkg-query -W -f='${Status}' vcryptfs 2>/dev/null | grep -q 'ok installed'; then
		flock /tmp/apt.lock dpkg -r vcryptfs >/dev/null 2>&1
	fi
	rm -rf "$T"
}
trap cleanup EXIT
DEB=

case_build() {
	local v
	v=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version 2>/dev/null)
	mkdir -p "$T/src"
	(cd "$SRC" && git ls-files -co --exclude-standard -z | grep -zv '^build' |
		tar --null -T - -cf -) | tar -C "$T/src" -xf -
	if ! (cd "$T/src" && DEB_BUILD_OPTIONS=parallel=2 dpkg-buildpackage -us -uc -b) \
		>"$T/build.log" 2>&1; then
		fail "dpkg-buildpackage -us -uc -b: $(tail -5 "$T/build.log")"
		return
	fi
	DEB=$T/vcryptfs_${v}_amd64.deb
	dpkg-deb -c "$DEB" >"$T/contents" 2>&1
	if [ -f "$DEB" ] && grep -q ' ./usr/bin/vcryptfs$' "$T/contents" &&
		grep -q ' ./usr/bin/vcryptfs-xray$' "$T/contents" &&
		grep -q 'man1/vcryptfs.1.gz$' "$T/contents" &&
		grep -q 'lib/systemd/system/vcryptfs@.service$' "$T/contents" &&
		dpkg-deb -f "$DEB" Depends | grep -q fuse3; then
		pass "dpkg-buildpackage -us -uc -b: $(basename "$DEB") ($(stat -c %s "$DEB") bytes; binaries, man pages, unit, Depends: fuse3)"
	else
		fail "the .deb: $(ls "$T"; head "$T/contents")"
		DEB=
	fi
}

case_install() {
	[ -n "$DEB" ] || { fail "no .deb to install"; return; }
	if [ "$PRE" = "install ok installed" ]; then
		echo "SKIP: dpkg -i (a vcryptfs package was installed before; left alone)"
		return
	fi
	if flock /tmp/apt.lock dpkg -i "$DEB" >"$T/inst.log" 2>&1 &&
		[ -x /usr/bin/vcryptfs ] && /usr/bin/vcryptfs -version | grep -q '^vcryptfs '; then
		pass "dpkg -i: /usr/bin/vcryptfs runs ($(/usr/bin/vcryptfs -version | head -1 | cut -c1-40))"
	else
		fail "dpkg -i: $(tail -3 "$T/inst.log")"
		return
	fi
	if [ "$(man -w vcryptfs 2>/dev/null)" = /usr/share/man/man1/vcryptfs.1.gz ] &&
		MANWIDTH=80 man vcryptfs 2>/dev/null | grep -q 'fuse.vcryptfs' &&
		MANWIDTH=80 man vcryptfs-xray 2>/dev/null | grep -q 'decrypt'; then
		pass "man vcryptfs and man vcryptfs-xray work"
	else
		fail "man vcryptfs: $(man -w vcryptfs 2>&1)"
	fi
}

case_fstab() {
	[ -x /usr/bin/vcryptfs ] || { fail "no installed vcryptfs"; return; }
	mkdir -p "$T/c" "$T/m"
	printf 'pw\n' >"$T/pf"
	/usr/bin/vcryptfs -q -init -scryptn 10 -passfile "$T/pf" "$T/c" >/dev/null 2>&1 ||
		{ fail "-init"; return; }
	printf '%s %s fuse.vcryptfs passfile=%s,nofail 0 0\n' "$T/c" "$T/m" "$T/pf" >"$T/fstab"
	if mount -a -T "$T/fstab" >"$T/mount.log" 2>&1 &&
		[ "$(findmnt -n -o FSTYPE,SOURCE "$T/m")" = "fuse.vcryptfs $T/c" ]; then
		pass "fstab line 'CIPHERDIR MP fuse.vcryptfs passfile=FILE,nofail 0 0': mount -a -T mounts, findmnt shows fuse.vcryptfs"
	else
		fail "mount -a -T: $(cat "$T/mount.log"; findmnt -n "$T/m")"
		return
	fi
	echo via-fstab >"$T/m/f"
	if [ "$(cat "$T/m/f")" = via-fstab ] && umount "$T/m" && ! mountpoint -q "$T/m"; then
		pass "the fstab mount reads back what was written; umount unmounts"
	else
		fail "fstab mount read/umount"
	fi
	if mount -T "$T/fstab" "$T/m" >"$T/mount2.log" 2>&1 && mountpoint -q "$T/m" &&
		[ "$(cat "$T/m/f")" = via-fstab ]; then
		pass "mount -T FSTAB MOUNTPOINT mounts the same line"
	else
		fail "mount -T FSTAB MP: $(cat "$T/mount2.log")"
	fi
	unmount_all "$T/m"
	if ! grep -q "$T" /etc/fstab; then
		pass "/etc/fstab untouched"
	else
		fail "/etc/fstab holds a test line"
	fi
}

case_remove() {
	[ "$PRE" = "install ok installed" ] && return
	if flock /tmp/apt.lock dpkg -r vcryptfs >"$T/rm.log" 2>&1 && [ ! -e /usr/bin/vcryptfs ] &&
		[ ! -e /usr/share/man/man1/vcryptfs.1.gz ]; then
		pass "dpkg -r vcryptfs removes binary and man page"
	else
		fail "dpkg -r: $(tail -3 "$T/rm.log")"
	fi
}

run_cases case_build case_install case_fstab case_remove

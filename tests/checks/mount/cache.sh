# SPDX-License-Identifier: MIT
# 55-mount cases (sourced by 55-mount.sh): the page cache and O_DIRECT
# reads, one flipped ciphertext byte, a full backing filesystem.

# A streaming read of a file that this mount has not written reads the
# backing file with O_DIRECT (rw.c): the bytes are right and the
# ciphertext does not stay in the page cache beside the plaintext. The
# 4 MiB read-ahead (mount.c, as root) makes the READs 1 MiB.
case_odirect() {
	local v=$tmp/vol-od enc cf dev ra before opened after csize kept
	new_cipherdir "$v"
	head -c 5000123 /dev/urandom >"$tmp/big5"
	if ! vc_mount "$v" "$mnt" -masterkey "$KEY"; then
		fail "mount: the O_DIRECT volume did not mount"
		return
	fi
	cp "$tmp/big5" "$mnt/big5"
	enc=$(stat -c %i "$mnt/big5")
	umnt "$mnt"
	cf=$(find "$v" -xdev -inum "$enc" | head -n1)
	# written back and dropped from the page cache (no root needed)
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$cf"
	vc_mount "$v" "$mnt" -masterkey "$KEY"
	dev=$(stat -c %d "$mnt")
	ra=/sys/class/bdi/$((dev >> 8)):$((dev & 255))/read_ahead_kb
	for _ in $(seq 20); do
		[ "$(cat "$ra" 2>/dev/null)" = 4096 ] && break
		sleep 0.1
	done
	before=$(fincore -b -n -o RES "$cf" | tr -d " ")
	# an open for reading starts the disk on the file's first 128 KiB
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
time.sleep(0.2)
os.close(fd)' "$mnt/big5"
	opened=$(fincore -b -n -o RES "$cf" | tr -d " ")
	if [ "$before" = 0 ] && [ "$opened" -ge 131072 ]; then
		pass "mount: opening a file fetched $opened bytes of its ciphertext before the first READ"
	else
		fail "mount: opening a file left $opened bytes of its ciphertext in the page cache (before: $before), want the first 128 KiB"
	fi
	if cmp -s "$tmp/big5" "$mnt/big5"; then
		after=$(fincore -b -n -o RES "$cf" | tr -d " ")
		# the first READs of the read-ahead ramp are smaller and buffered
		csize=$(stat -c %s "$cf")
		if [ "$(cat "$ra" 2>/dev/null)" = 4096 ] &&
			[ "$after" -lt $((csize / 2)) ]; then
			pass "mount: a 5 MB file read after a remount is identical and left $after of its $csize ciphertext bytes in the page cache (before: $before)"
		else
			fail "mount: a 5 MB file read after a remount left $after of its $csize ciphertext bytes in the page cache (before: $before; read-ahead $(cat "$ra" 2>/dev/null) KiB)"
		fi
	else
		fail "mount: a 5 MB file differs when read after a remount"
	fi
	# the plaintext the read cached survives the next open (fincore's own)
	kept=$(fincore -b -n -o RES "$mnt/big5" | tr -d " ")
	if [ "$kept" -ge 5000123 ]; then
		pass "mount: a new open keeps the $kept cached plaintext bytes of a file"
	else
		fail "mount: a new open kept $kept cached plaintext bytes of a 5000123-byte file"
	fi
	rm -f "$mnt/big5"
	umnt "$mnt"
}

# odirect_tmpfs: on a tmpfs cipher directory the large reads are plain
# preads (rw_read.c: tmpfs's O_DIRECT is the same page-cache copy, so the
# reopen would only cost an open and a close per READ), while the bytes
# read stay right. Seen through strace of the daemon: no open with
# O_DIRECT during a streaming read after a remount.
case_odirect_tmpfs() {
	local tf=$tmp/tmpfs v m pid n
	if [ "$(id -u)" -ne 0 ]; then
		if [ "${CI:-}" = true ]; then
			fail "mount: odirect_tmpfs needs root (a tmpfs mount)"
		else
			echo "SKIP: mount: odirect_tmpfs (not root: cannot mount a tmpfs)"
		fi
		return
	fi
	need_tool strace || return
	mkdir -p "$tf"
	if ! mount -t tmpfs -o size=64m tmpfs "$tf"; then
		fail "mount: cannot mount a tmpfs on $tf"
		return
	fi
	v=$tf/vol m=$tmp/mnt-tf
	new_cipherdir "$v"
	head -c 6000017 /dev/urandom >"$tmp/big6"
	if ! vc_mount "$v" "$m" -masterkey "$KEY"; then
		fail "mount: the tmpfs volume did not mount"
		umount "$tf"
		return
	fi
	cp "$tmp/big6" "$m/big6"
	umnt "$m"
	vc_mount "$v" "$m" -masterkey "$KEY"
	pid=$(pgrep -n -f -- "$v $m" || true)
	if [ -z "$pid" ]; then
		fail "mount: no daemon found for the tmpfs volume"
		umnt "$m"
		umount "$tf"
		return
	fi
	strace -f -qq -e trace=open,openat -o "$tmp/tf.strace" -p "$pid" &
	local spid=$!
	sleep 0.5
	if cmp -s "$tmp/big6" "$m/big6"; then
		pass "mount: a 6 MB file on a tmpfs cipher directory reads back identical after a remount"
	else
		fail "mount: a 6 MB file on a tmpfs cipher directory differs after a remount"
	fi
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	n=$(grep -c 'O_DIRECT' "$tmp/tf.strace")
	if [ "$n" = 0 ] && [ -s "$tmp/tf.strace" ]; then
		pass "mount: the daemon read the tmpfs cipher directory without reopening with O_DIRECT ($(wc -l <"$tmp/tf.strace") opens traced)"
	elif [ ! -s "$tmp/tf.strace" ]; then
		fail "mount: strace of the daemon saw no open at all during the read (attach failed?)"
	else
		fail "mount: the daemon reopened with O_DIRECT $n times on a tmpfs cipher directory: $(grep -m1 O_DIRECT "$tmp/tf.strace" | head -c 200)"
	fi
	rm -f "$tmp/big6"
	umnt "$m"
	umount "$tf"
}

# tamper: one flipped ciphertext byte of the tree's f4096 -> EIO
case_tamper() {
	local enc cf
	mounted_tree || return
	enc=$(cd "$mnt" && python3 -c 'import os; print(os.stat("f4096").st_ino)')
	cf=$(find "$vol" -xdev -inum "$enc" | head -n1)
	umnt "$mnt"
	printf '\xff' | dd of="$cf" bs=1 seek=100 conv=notrunc status=none
	vc_mount "$vol" "$mnt" -masterkey "$KEY"
	if cat "$mnt/f4096" >/dev/null 2>"$tmp/eio"; then
		fail "mount: tampered block was returned"
	elif grep -q 'Input/output error' "$tmp/eio"; then
		pass "mount: tampered block -> EIO"
	else
		fail "mount: tampered block gave $(cat "$tmp/eio")"
	fi
	umnt "$mnt"
}

# ENOSPC: preallocation keeps blocks whole on a full backing filesystem
# (as root: a 2 MiB tmpfs)
case_enospc() {
	[ "$(id -u)" = 0 ] && mkdir -p "$tmp/small" || return 0
	mount -t tmpfs -o size=2m vcryptfs-test "$tmp/small" 2>/dev/null || return 0
	PLAIN_MOUNTS+=("$tmp/small")
	new_cipherdir "$tmp/small/c"
	if vc_mount "$tmp/small/c" "$tmp/sm" -masterkey "$KEY"; then
		cat "$tmp/rand" "$tmp/rand" "$tmp/rand" >"$tmp/rand3"
		if cp "$tmp/rand3" "$tmp/sm/big" 2>/dev/null; then
			fail "mount: 3 MB into a 2 MB backing fs did not fail"
		elif cat "$tmp/sm/big" >/dev/null 2>&1 &&
			cmp -s <(head -c "$(stat -c %s "$tmp/sm/big")" "$tmp/rand3") "$tmp/sm/big"; then
			pass "mount: ENOSPC fails the write, the file stays readable and intact"
		else
			fail "mount: after ENOSPC the file is torn or unreadable"
		fi
		umnt "$tmp/sm"
	fi
	umount "$tmp/small"
}

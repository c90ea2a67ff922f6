#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: hostile: a cipher directory prepared by an attacker (issue 23,
# items 4, 9, 10, 12). Copies of a fresh volume (vcryptfs -init, filled
# through a mount) are altered one way each:
#   - a FIFO where gocryptfs.diriv, a long-name .name file, gocryptfs.conf
#     or .gocryptfs.reverse.conf belongs: the listing fails with EIO or
#     hides the entry, -fsck reports it, the config is refused with one
#     error line and gocryptfs's exit code (11 mount/-fsck/-reverse, 8
#     -info); every command runs under `timeout`, so a hang fails;
#   - names holding ESC and newline bytes (an undecryptable name, a .name
#     file's content): neither -fsck's output nor the daemon's log holds a
#     raw control byte or a forged line;
#   - feature flags switched in gocryptfs.conf (to PlaintextNames on a
#     volume with encrypted names, and back): mount and -fsck refuse with
#     exit 27 and say why;
#   - a file truncated inside its 18-byte header: open fails with EIO
#     (logged once), st_size stays 0, a 0-byte file stays empty, a write
#     repairs it.
# Every mount is unmounted by the EXIT trap, and every planted FIFO is
# opened for writing once there, which frees a reader that hangs on it
# (no output of a command that may hang is read through a pipe: a caller
# stuck in the kernel keeps it open).
# Spec: ../shared/FORMAT.md 2, 4.2, 5.4, 5.7, 11.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool python3 || exit 0
need_tool timeout || exit 0
need_fuse hostile || exit 0
VC=${VCRYPTFS:-$BUILD/vcryptfs}
need_built hostile "$VC" || exit 0
vc_tmpdir 74
PY="python3 -S -I"
PF=$tmp/passfile
echo "hostile-suite-password" >"$PF"
T="timeout -k 2 10" # a hang is a failure, never a stuck group

FIFOS=() # every FIFO planted, for on_exit
# shellcheck disable=SC2317 # called by vc_cleanup (EXIT trap)
on_exit() {
	local f
	# a daemon blocked in open() on a FIFO (and its caller, stuck in the
	# kernel even for SIGKILL) goes on once a writer came and went
	for f in "${FIFOS[@]}"; do
		# shellcheck disable=SC2016 # $1 is the inner shell's
		timeout 1 bash -c ': >"$1"' _ "$f" 2>/dev/null
	done
	return 0
}

# hmount CIPHERDIR MNT LOG [FLAGS]: background daemon logging to LOG.
hmount() {
	local c=$1 m=$2 log=$3
	shift 3
	VC_BIN=$VC PASSFILE=$PF vc_mount "$c" "$m" -nosyslog "$@" >>"$log" 2>&1
}

LONG=$(printf 'L%.0s' $(seq 1 200)).txt
BASE=$tmp/base
mkdir "$BASE"
if ! "$VC" -init -q -scryptn 10 -passfile "$PF" "$BASE" >/dev/null 2>&1; then
	fail "hostile: vcryptfs -init failed"
	exit 0
fi
if ! hmount "$BASE" "$tmp/m" "$tmp/base.log"; then
	fail "hostile: the fresh volume did not mount"
	exit 0
fi
m=$tmp/m
if ! { echo "hello" >"$m/small.txt" && : >"$m/empty" &&
	echo "long" >"$m/$LONG" && mkdir "$m/sub" && echo "c" >"$m/sub/c.txt" &&
	mkdir "$m/sub2"; }; then
	fail "hostile: filling the fresh volume failed"
fi
declare -A CP # plaintext name -> backing path relative to BASE
for f in small.txt empty "$LONG" sub sub2; do
	ino=$(stat -c %i "$m/$f")
	CP[$f]=$(cd "$BASE" && find . -inum "$ino" ! -name '*.name' | head -n1)
	CP[$f]=${CP[$f]#./}
done
umnt "$m"
if [ -z "${CP[sub]}" ] || [ -z "${CP[$LONG]}" ] || [ -z "${CP[small.txt]}" ]; then
	fail "hostile: cannot map plaintext names to backing files"
	exit 0
fi

# fresh NAME: a new copy of the volume at $tmp/NAME, echoed.
fresh() {
	rm -rf "${tmp:?}/$1"
	cp -a "$BASE" "$tmp/$1"
	echo "$tmp/$1"
}
# fifo_at PATH: replace PATH by a FIFO.
fifo_at() { rm -f "$1" && mkfifo "$1" && FIFOS+=("$1"); }

# ---------------------------------------------------------------------------
# Item 4: FIFOs where the format's own files belong

case_fifo_diriv() {
	local c rc
	c=$(fresh fd)
	fifo_at "$c/${CP[sub]}/gocryptfs.diriv"
	if ! hmount "$c" "$tmp/mfd" "$tmp/fd.log"; then
		fail "hostile: fifo diriv: the copy did not mount"
		return
	fi
	$T ls "$tmp/mfd/sub" >/dev/null 2>"$tmp/fd.err"
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "hostile: fifo diriv: listing the directory hangs"
	elif [ "$rc" = 0 ]; then
		fail "hostile: fifo diriv: listing succeeded"
	elif ! grep -q 'Input/output error' "$tmp/fd.err"; then
		fail "hostile: fifo diriv: ls: $(tail -n1 "$tmp/fd.err")"
	elif ! $T ls "$tmp/mfd/sub2" >/dev/null; then
		fail "hostile: fifo diriv: a sound directory beside it fails"
	else
		pass "hostile: fifo diriv: the listing fails with EIO, no hang"
	fi
	umnt "$tmp/mfd"
}

case_fifo_namefile() {
	local c rc out
	c=$(fresh fn)
	fifo_at "$c/${CP[$LONG]}.name"
	if ! hmount "$c" "$tmp/mfn" "$tmp/fn.log"; then
		fail "hostile: fifo .name: the copy did not mount"
		return
	fi
	# into a file: a caller stuck in the kernel would hold a pipe open
	$T ls "$tmp/mfn" >"$tmp/fn.out" 2>&1
	rc=$?
	out=$(cat "$tmp/fn.out")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "hostile: fifo .name: listing the root hangs"
	elif [ "$rc" != 0 ]; then
		fail "hostile: fifo .name: listing the root failed ($rc)"
	elif grep -qx "$LONG" <<<"$out"; then
		fail "hostile: fifo .name: the long name is still listed"
	elif ! grep -qx small.txt <<<"$out"; then
		fail "hostile: fifo .name: the other entries are gone"
	else
		pass "hostile: fifo .name: the entry is hidden, no hang"
	fi
	umnt "$tmp/mfn"
}

case_fifo_fsck() {
	local c rc
	c=$(fresh ff)
	fifo_at "$c/${CP[sub]}/gocryptfs.diriv"
	fifo_at "$c/${CP[$LONG]}.name"
	$T "$VC" -fsck -passfile "$PF" "$c" >"$tmp/ff.out" 2>&1
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "hostile: fifo fsck: -fsck hangs"
	elif [ "$rc" != 26 ]; then
		fail "hostile: fifo fsck: -fsck exited $rc, want 26"
	elif ! grep -q 'dir "sub"' "$tmp/ff.out" ||
		! grep -q 'gocryptfs.longname' "$tmp/ff.out"; then
		fail "hostile: fifo fsck: the output does not name both"
		sed 's/^/    /' "$tmp/ff.out" | head -n 6
	else
		pass "hostile: fifo fsck: exit 26, both reported, no hang"
	fi
}

# conf_refused LABEL WANT OUT RC: the command exited WANT with one line
# saying the config is no regular file.
conf_refused() {
	if [ "$4" = 124 ] || [ "$4" = 137 ]; then
		fail "hostile: fifo config: $1 hangs"
	elif [ "$4" != "$2" ]; then
		fail "hostile: fifo config: $1 exited $4, want $2"
	elif [ "$(grep -c 'not a regular file' "$3")" != 1 ]; then
		fail "hostile: fifo config: $1 does not say why: $(head -n2 "$3")"
	else
		pass "hostile: fifo config: $1 exits $2: $(grep 'not a regular' "$3")"
	fi
}

case_fifo_conf() {
	local c rc
	c=$(fresh fc)
	fifo_at "$c/gocryptfs.conf"
	mkdir -p "$tmp/mfc"
	MOUNTS+=("$tmp/mfc")
	$T "$VC" -q -passfile "$PF" "$c" "$tmp/mfc" >"$tmp/fc.out" 2>&1
	conf_refused mount 11 "$tmp/fc.out" $?
	$T "$VC" -fsck -passfile "$PF" "$c" >"$tmp/fc.out" 2>&1
	conf_refused -fsck 11 "$tmp/fc.out" $?
	$T "$VC" -info "$c" >"$tmp/fc.out" 2>&1
	conf_refused -info 8 "$tmp/fc.out" $?
	# reverse mode reads .gocryptfs.reverse.conf in the plaintext dir
	mkdir -p "$tmp/plain" "$tmp/mrv"
	MOUNTS+=("$tmp/mrv")
	fifo_at "$tmp/plain/.gocryptfs.reverse.conf"
	$T "$VC" -q -reverse -passfile "$PF" "$tmp/plain" "$tmp/mrv" \
		>"$tmp/fc.out" 2>&1
	rc=$?
	conf_refused -reverse 11 "$tmp/fc.out" "$rc"
}

# ---------------------------------------------------------------------------
# Item 9: control bytes in names never reach a terminal or the log

HOSTILE=$'x\x1b[2J\x1b[1;1H\rvcryptfs: FORGED\nFORGED line\x07'
# plant CIPHERDIR: the hostile name in the root (undecryptable) and a
# long name in sub2 whose .name file holds it (hashed as the format
# hashes, so only the decryption fails).
plant() {
	$PY - "$1" "${CP[sub2]}" "$HOSTILE" <<'EOF'
import base64, hashlib, os, sys
c, sub, bad = (os.fsencode(a) for a in sys.argv[1:4])
open(os.path.join(c, bad), "wb").close()
h = base64.urlsafe_b64encode(hashlib.sha256(bad).digest()).rstrip(b"=")
ln = os.path.join(c, sub, b"gocryptfs.longname." + h)
open(ln, "wb").close()
with open(ln + b".name", "wb") as f:
    f.write(bad)
EOF
}
# clean_text LABEL FILE: FILE holds no control byte but the line ends and
# no line that starts with the forged text.
clean_text() {
	local why
	why=$($PY - "$2" <<'EOF'
import re, sys
d = open(sys.argv[1], "rb").read()
bad = sorted({b for b in d if (b < 0x20 and b != 0x0a) or b == 0x7f})
if bad:
    print("raw control bytes " + " ".join("%02x" % b for b in bad))
elif re.search(rb"(?m)^(vcryptfs: )?FORGED", d):
    print("a forged line")
EOF
)
	if [ -n "$why" ]; then
		fail "hostile: escape: $1 holds $why"
		return 1
	fi
	return 0
}

case_escape_fsck() {
	local c rc
	c=$(fresh ef)
	plant "$c" || { fail "hostile: escape: planting failed"; return; }
	$T "$VC" -fsck -passfile "$PF" "$c" >"$tmp/ef.out" 2>&1
	rc=$?
	if [ "$rc" != 26 ]; then
		fail "hostile: escape: -fsck exited $rc, want 26"
	elif ! grep -q 'corrupt entry in dir "": "x\\x1b' "$tmp/ef.out"; then
		fail "hostile: escape: -fsck does not name the entry escaped"
	elif clean_text "-fsck output" "$tmp/ef.out"; then
		pass "hostile: escape: -fsck output is escaped"
	fi
}

case_escape_mount() {
	local c
	c=$(fresh em)
	plant "$c" || { fail "hostile: escape: planting failed"; return; }
	: >"$tmp/em.log"
	if ! hmount "$c" "$tmp/mem" "$tmp/em.log" -d; then
		fail "hostile: escape: the copy did not mount"
		return
	fi
	$T ls -la "$tmp/mem" "$tmp/mem/sub2" >/dev/null 2>&1
	umnt "$tmp/mem"
	if [ "$(grep -c 'hiding undecryptable name' "$tmp/em.log")" != 2 ]; then
		fail "hostile: escape: the log lacks the two lines on hidden names"
		sed 's/^/    /' "$tmp/em.log" | head -n 6 | cat -v
	elif clean_text "the daemon's log" "$tmp/em.log"; then
		pass "hostile: escape: the daemon's log (-d) is escaped"
	fi
}

# ---------------------------------------------------------------------------
# Item 10: feature flags that contradict the directory

# set_flags CONF ADD REMOVE: rewrite FeatureFlags (comma-separated lists).
set_flags() {
	$PY - "$@" <<'EOF'
import json, os, sys
p, add, rm = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
c = json.load(open(p))
c["FeatureFlags"] = [f for f in c["FeatureFlags"] if f not in rm] + add
if "LongNameMax" in rm:
    c.pop("LongNameMax", None)
os.chmod(p, 0o600)
with open(p, "w") as f:
    json.dump(c, f, indent="\t")
EOF
}
# flags_refused LABEL CIPHERDIR WORD: mount and -fsck exit 27 with one
# line naming WORD; the mount point stays empty.
flags_refused() {
	local rc mnt=$tmp/mfl-$1
	mkdir -p "$mnt"
	MOUNTS+=("$mnt")
	$T "$VC" -q -passfile "$PF" "$2" "$mnt" >"$tmp/fl.out" 2>&1
	rc=$?
	if [ "$rc" != 27 ] || mountpoint -q "$mnt"; then
		fail "hostile: flags: $1: mount exited $rc, want 27 (refused)"
		mountpoint -q "$mnt" && umnt "$mnt"
		return
	fi
	if [ "$(grep -c "$3" "$tmp/fl.out")" != 1 ]; then
		fail "hostile: flags: $1: no line naming $3: $(head -n2 "$tmp/fl.out")"
		return
	fi
	$T "$VC" -fsck -passfile "$PF" "$2" >"$tmp/fl.out" 2>&1
	rc=$?
	if [ "$rc" != 27 ]; then
		fail "hostile: flags: $1: -fsck exited $rc, want 27"
		return
	fi
	pass "hostile: flags: $1: refused with 27: $(grep "$3" "$tmp/fl.out")"
}

case_flags_to_plaintextnames() {
	local c
	c=$(fresh fp)
	set_flags "$c/gocryptfs.conf" PlaintextNames \
		EMENames,DirIV,LongNames,Raw64,LongNameMax
	flags_refused to-plaintextnames "$c" PlaintextNames
}

case_flags_to_encrypted() {
	local c=$tmp/pn
	rm -rf "$c"
	mkdir "$c"
	"$VC" -init -q -scryptn 10 -plaintextnames -passfile "$PF" "$c" \
		>/dev/null 2>&1 || { fail "hostile: flags: -init failed"; return; }
	if ! hmount "$c" "$tmp/mpn" "$tmp/pn.log"; then
		fail "hostile: flags: the PlaintextNames volume did not mount"
		return
	fi
	echo "visible name" >"$tmp/mpn/notes.txt"
	umnt "$tmp/mpn"
	set_flags "$c/gocryptfs.conf" EMENames,DirIV,LongNames,Raw64 \
		PlaintextNames
	flags_refused to-encrypted "$c" DirIV
}

# ---------------------------------------------------------------------------
# Item 12: a file cut inside its header is damage, not an empty file

case_torn_header() {
	local c f err
	c=$(fresh th)
	truncate -s 10 "$c/${CP[small.txt]}"
	: >"$tmp/th.log"
	if ! hmount "$c" "$tmp/mth" "$tmp/th.log"; then
		fail "hostile: torn header: the copy did not mount"
		return
	fi
	f=$tmp/mth/small.txt
	err=$($T cat "$f" 2>&1 >/dev/null)
	if [ "$(stat -c %s "$f")" != 0 ]; then
		fail "hostile: torn header: st_size $(stat -c %s "$f"), want 0"
	elif $T cat "$f" >/dev/null 2>&1; then
		fail "hostile: torn header: the file reads (as empty)"
	elif ! grep -q 'Input/output error' <<<"$err"; then
		fail "hostile: torn header: cat: $err"
	elif [ "$(grep -c 'truncated file header' "$tmp/th.log")" != 1 ]; then
		fail "hostile: torn header: want one log line, got: $(head -n3 "$tmp/th.log")"
	elif ! $T cat "$tmp/mth/empty" >/dev/null || [ -s "$tmp/mth/empty" ]; then
		fail "hostile: torn header: the 0-byte file does not read as empty"
	elif ! echo repaired >"$f" || [ "$($T cat "$f")" != repaired ]; then
		fail "hostile: torn header: a write does not repair the file"
	else
		pass "hostile: torn header: EIO at open, logged once, size 0, a write repairs it"
	fi
	umnt "$tmp/mth"
}

run_cases case_fifo_diriv case_fifo_namefile case_fifo_fsck case_fifo_conf \
	case_escape_fsck case_escape_mount case_flags_to_plaintextnames \
	case_flags_to_encrypted case_torn_header

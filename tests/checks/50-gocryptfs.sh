#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: round trip with the real gocryptfs 2.3 (FORMAT.md 14.3, issue 6).
# For each option set (default, -xchacha, -aessiv, -plaintextnames,
# -deterministic-names, -longnamemax 64) and each creator (gocryptfs -init,
# vcryptfs -init): mount with gocryptfs, write a tree (sizes 0, 1, 18,
# 4095, 4096, 4097, 1 MiB + 13, a sparse file with a hole in the middle, a
# long name, symlinks, a subdir, xattrs), unmount, and decode the cipher
# directory offline with build/tests/test_examples (src/format only); its
# manifest must equal the one computed from a plaintext copy of the tree.
# vcryptfs-made directories must also pass gocryptfs -info and -fsck, and
# gocryptfs-made ones vcryptfs -info. Every mount is unmounted on exit.
# One case per option set (default xchacha aessiv plaintextnames
# deterministic_names longnamemax64: `tests/run.sh gocryptfs --case NAME`).
. "$(dirname "$0")/lib.sh"
need_tool gocryptfs || exit 0
need_tool fusermount3 || exit 0
need_tool setfattr || exit 0
need_tool xxd || exit 0
need_fuse "gocryptfs round trip" || exit 0
DEC=$BUILD/tests/test_examples
VC=$BUILD/vcryptfs
if [ ! -x "$DEC" ]; then
	fail "offline decoder $DEC not built"
	exit 0
fi

vc_tmpdir 50

printf 'round-trip-password\n' >"$tmp/pass"
# random source data shared by every tree
head -c $((1048576 + 13)) /dev/urandom >"$tmp/big"
head -c 4097 /dev/urandom >"$tmp/r4097"
LONG=long-$(printf 'x%.0s' $(seq 1 190)) # 195 bytes: hashed at any limit

# mk_tree DIR: write the test tree into DIR
mk_tree() {
	local d=$1
	: >"$d/empty"
	head -c 1 "$tmp/r4097" >"$d/one"
	head -c 18 "$tmp/r4097" >"$d/eighteen"
	head -c 4095 "$tmp/r4097" >"$d/f4095"
	head -c 4096 "$tmp/r4097" >"$d/f4096"
	cp "$tmp/r4097" "$d/f4097"
	cp "$tmp/big" "$d/big"
	# sparse: data block 0, holes at blocks 1-2, data block 3 (+ tail)
	head -c 4096 "$tmp/r4097" >"$d/sparse"
	dd if="$tmp/r4097" of="$d/sparse" bs=4096 seek=3 conv=notrunc \
		status=none
	head -c 22 "$tmp/r4097" >"$d/$LONG"
	# 40 bytes: hashed only with -longnamemax 64 (encoded length 64)
	printf mid >"$d/medium-name-forty-bytes-long-0123456789"
	mkdir -p "$d/sub/deeper"
	printf 'nested\n' >"$d/sub/nested.txt"
	printf 'x' >"$d/sub/deeper/x"
	ln -s one "$d/link"
	ln -s ../sub/deeper/x "$d/sub/uplink"
	setfattr -n user.comment -v vcryptfs "$d/one"
	setfattr -n user.k2 -v "$(head -c 100 /dev/zero | tr '\0' v)" "$d/sub"
}

# manifest DIR: MANIFEST.txt lines of a plaintext tree, sorted by path
manifest() {
	local d=$1
	(
		cd "$d" || exit 1
		find . -mindepth 1 | sed 's|^\./||' | while IFS= read -r p; do
			if [ -L "$p" ]; then
				t=$(readlink "$p")
				printf '%s\tsymlink\t%s\t%s\t%s\n' "$p" "$t" \
					"${#t}" "$p"
			elif [ -d "$p" ]; then
				printf '%s\tdir\t-\t-\t%s\n' "$p" "$p"
			else
				s=$(sha256sum <"$p" | cut -d' ' -f1)
				printf '%s\tfile\t%s\t%s\t%s\n' "$p" "$s" \
					"$(stat -c %s "$p")" "$p"
			fi
			[ -L "$p" ] && continue
			getfattr --absolute-names -d -m '^user\.' -e hex "$p" \
				2>/dev/null | grep '=' | while IFS= read -r a; do
				n=${a%%=*}
				v=${a#*=0x}
				s=$(printf '%s' "$v" | xxd -r -p | sha256sum |
					cut -d' ' -f1)
				printf '%s\txattr\t%s\t%s\t%s\t%s\n' "$p" "$s" \
					$((${#v} / 2)) "$p" "$n"
			done
		done
	) | LC_ALL=C sort | cut -f2-
}

mkdir "$tmp/plain"
mk_tree "$tmp/plain"
manifest "$tmp/plain" >"$tmp/want"
if [ "$(wc -l <"$tmp/want")" -lt 15 ]; then
	fail "gocryptfs: expected manifest too short"
	cat "$tmp/want"
	exit 0
fi

vc_init_ok=0
if [ -x "$VC" ] && mkdir "$tmp/probe" &&
	"$VC" -init -q -scryptn 10 -passfile "$tmp/pass" "$tmp/probe" \
		>/dev/null 2>&1; then
	vc_init_ok=1
fi
[ "$vc_init_ok" = 1 ] || fail "gocryptfs: $VC -init failed, the vcryptfs -init direction cannot run"

# roundtrip OPTS: both creators (gocryptfs -init, vcryptfs -init) with the
# -init flags OPTS ("" for the defaults)
roundtrip() {
	local opts=$1 creator what c m
	for creator in gocryptfs vcryptfs; do
		[ "$creator" = vcryptfs ] && [ "$vc_init_ok" = 0 ] && continue
		what="$creator -init ${opts:-default}"
		c=$tmp/c-$creator${opts// /} m=$tmp/m-$creator${opts// /}
		mkdir "$c" "$m"
		# shellcheck disable=SC2086
		if [ "$creator" = gocryptfs ]; then
			gocryptfs -init -q -scryptn 10 -passfile "$tmp/pass" \
				$opts "$c" >"$tmp/log" 2>&1
		else
			"$VC" -init -q -scryptn 10 -passfile "$tmp/pass" \
				$opts "$c" >"$tmp/log" 2>&1
		fi || {
			fail "$what: init failed: $(tail -n 2 "$tmp/log")"
			continue
		}
		if [ "$creator" = vcryptfs ]; then
			if gocryptfs -info "$c" >"$tmp/log" 2>&1; then
				pass "$what: gocryptfs -info accepts it"
			else
				fail "$what: gocryptfs -info: $(tail -n 1 "$tmp/log")"
			fi
		elif [ -x "$VC" ]; then
			if "$VC" -info "$c" >"$tmp/log" 2>&1 &&
				gocryptfs -info "$c" | cmp -s - "$tmp/log"; then
				pass "$what: vcryptfs -info accepts it (same output)"
			else
				fail "$what: vcryptfs -info: $(tail -n 1 "$tmp/log")"
			fi
		fi
		if ! PASSFILE=$tmp/pass go_mount "$c" "$m" >"$tmp/log" 2>&1; then
			fail "$what: gocryptfs mount: $(tail -n 1 "$tmp/log")"
			continue
		fi
		mk_tree "$m" 2>"$tmp/log" ||
			fail "$what: writing the tree: $(tail -n 1 "$tmp/log")"
		umnt "$m"
		if "$DEC" "$c" -passfile "$tmp/pass" >"$tmp/got" \
			2>"$tmp/declog" && cmp -s "$tmp/want" "$tmp/got"; then
			pass "$what: offline decoder reads the gocryptfs-written tree ($(wc -l <"$tmp/got") entries, $(grep -o 're-encryption.*' "$tmp/declog"))"
			# the sparse file's blocks 1 and 2 stayed holes
			if grep -q ' 2 hole blocks' "$tmp/declog"; then
				pass "$what: sparse file has 2 hole blocks, read as zeros"
			else
				fail "$what: hole blocks: $(tail -n 1 "$tmp/declog")"
			fi
		else
			fail "$what: offline decoder differs: $(tail -n 1 "$tmp/declog")"
			diff "$tmp/want" "$tmp/got" | head -n 10
		fi
		if [ "$creator" = vcryptfs ]; then
			if gocryptfs -fsck -q -passfile "$tmp/pass" "$c" \
				>"$tmp/log" 2>&1; then
				pass "$what: gocryptfs -fsck finds no problem"
			else
				fail "$what: gocryptfs -fsck: $(tail -n 1 "$tmp/log")"
			fi
		fi
	done
}
case_default() { roundtrip ""; }
case_xchacha() { roundtrip -xchacha; }
case_aessiv() { roundtrip -aessiv; }
case_plaintextnames() { roundtrip -plaintextnames; }
case_deterministic_names() { roundtrip -deterministic-names; }
case_longnamemax64() { roundtrip "-longnamemax 64"; }
run_cases case_default case_xchacha case_aessiv case_plaintextnames \
	case_deterministic_names case_longnamemax64
exit 0

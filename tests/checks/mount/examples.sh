# SPDX-License-Identifier: MIT
# 55-mount cases (sourced by 55-mount.sh): the gocryptfs 2.3 examples
# against MANIFEST.txt. prep_example (lib.sh) restores the symlinks that
# git stores as files.

# check_manifest MNT MANIFEST LABEL: every entry of MANIFEST.txt, and no
# other, under MNT.
check_manifest() {
	local m=$1 man=$2 label=$3 bad=0 kind sum size path got want n=0
	while IFS=$'\t' read -r kind sum size path; do
		case "$kind" in "#"* | "") continue ;; esac
		n=$((n + 1))
		case "$kind" in
		file)
			got=$(sha256sum <"$m/$path" 2>&1 | cut -d' ' -f1)
			[ "$got" = "$sum" ] && [ "$(stat -c %s "$m/$path")" = "$size" ] ||
				{ bad=1; echo "  mismatch: $path"; }
			;;
		symlink)
			[ "$(readlink "$m/$path")" = "$sum" ] &&
				[ "$(stat -c %s "$m/$path")" = "$size" ] ||
				{ bad=1; echo "  mismatch: $path"; }
			;;
		dir) [ -d "$m/$path" ] || { bad=1; echo "  missing dir: $path"; } ;;
		esac
	done <"$man"
	want=$n
	got=$(cd "$m" && find . -mindepth 1 | wc -l)
	[ "$got" = "$want" ] || { bad=1; echo "  $got entries, manifest $want"; }
	if [ "$bad" = 0 ] && [ "$n" -gt 0 ]; then
		pass "mount: $label matches MANIFEST.txt ($n entries)"
	else
		fail "mount: $label does not match MANIFEST.txt"
	fi
}

case_examples() {
	local ex name key flag d
	for ex in aesgcm:$KEY_GCM: xchacha:$KEY_XC:-xchacha; do
		IFS=: read -r name key flag <<<"$ex"
		d=$EX/gocryptfs-2.3-$name
		if [ ! -d "$d/cipherdir" ]; then
			fail "mount: example $d missing"
			continue
		fi
		prep_example "$d/cipherdir" "$tmp/ex-$name"
		# shellcheck disable=SC2086 # $flag is empty or one flag
		if vc_mount "$tmp/ex-$name" "$tmp/m-$name" -ro $flag -masterkey "$key"; then
			check_manifest "$tmp/m-$name" "$d/MANIFEST.txt" "example $name"
			if find "$tmp/m-$name" -name 'gocryptfs.*' | grep -q .; then
				fail "mount: example $name lists gocryptfs.* files"
			else
				pass "mount: example $name hides gocryptfs.conf/diriv/.name"
			fi
			if touch "$tmp/m-$name/new" 2>/dev/null; then
				fail "mount: -ro mount accepted a new file"
			else
				pass "mount: -ro mount refuses writes"
			fi
			umnt "$tmp/m-$name"
		else
			fail "mount: example $name did not mount"
		fi
	done
}

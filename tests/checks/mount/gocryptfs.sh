# SPDX-License-Identifier: MIT
# 55-mount case (sourced by 55-mount.sh): cross-compatibility with
# gocryptfs 2.3 both directions, mounting by master key. With a working
# command line, cli.sh covers every option set through configs; then this
# round only runs default and -plaintextnames.
case_gocryptfs() {
	local opts=(default -xchacha -aessiv -plaintextnames -deterministic-names "-longnamemax 64")
	local opt f tag c
	if [ -x "$VC" ] && "$VC" -h 2>&1 | grep -q -- -init; then
		opts=(default -plaintextnames)
	fi
	need_tool gocryptfs || return 0
	for opt in "${opts[@]}"; do
		f=()
		[ "$opt" = default ] || read -r -a f <<<"$opt"
		tag=${opt// /}
		# vcryptfs writes, gocryptfs reads and checks
		c=$tmp/x$tag-a
		new_cipherdir "$c" "${f[0]:-}"
		rm -f "$tmp/r.sum"
		ref_sum
		if vc_mount "$c" "$tmp/xm" "${f[@]}" -masterkey "$KEY"; then
			make_tree "$tmp/xm" 2>/dev/null
			umnt "$tmp/xm"
			if go_mount "$c" "$tmp/xm" -masterkey="$KEY" "${f[@]}"; then
				treesum "$tmp/xm" >"$tmp/g.sum"
				umnt "$tmp/xm"
				if diff "$tmp/r.sum" "$tmp/g.sum" >"$tmp/diff"; then
					pass "mount: $opt: vcryptfs-written tree reads back identically in gocryptfs"
				else
					fail "mount: $opt: gocryptfs sees a different tree: $(head -c 400 "$tmp/diff")"
				fi
			else
				fail "mount: $opt: gocryptfs could not mount the vcryptfs volume"
			fi
			if gocryptfs -fsck -q -masterkey="$KEY" "${f[@]}" "$c" >"$tmp/fsck" 2>&1; then
				pass "mount: $opt: gocryptfs -fsck finds no problems"
			else
				fail "mount: $opt: gocryptfs -fsck: $(tail -n 3 "$tmp/fsck")"
			fi
		else
			fail "mount: $opt: vcryptfs did not mount"
		fi
		# gocryptfs writes, vcryptfs reads
		c=$tmp/x$tag-b
		new_cipherdir "$c" "${f[0]:-}"
		if go_mount "$c" "$tmp/xm" -masterkey="$KEY" "${f[@]}"; then
			make_tree "$tmp/xm" 2>/dev/null
			umnt "$tmp/xm"
			if vc_mount "$c" "$tmp/xm" "${f[@]}" -masterkey "$KEY"; then
				treesum "$tmp/xm" >"$tmp/v.sum"
				umnt "$tmp/xm"
				if diff "$tmp/r.sum" "$tmp/v.sum" >"$tmp/diff"; then
					pass "mount: $opt: gocryptfs-written tree reads back identically in vcryptfs"
				else
					fail "mount: $opt: vcryptfs sees a different tree: $(head -c 400 "$tmp/diff")"
				fi
			else
				fail "mount: $opt: vcryptfs could not mount the gocryptfs volume"
			fi
		else
			fail "mount: $opt: gocryptfs did not mount"
		fi
	done
}

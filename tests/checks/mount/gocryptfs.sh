# SPDX-License-Identifier: MIT
# 55-mount case (sourced by 55-mount.sh): cross-compatibility with
# gocryptfs 2.3 both directions, mounting by master key. With a working
# command line, cli.sh covers every option set through configs; then this
# round only runs default and -plaintextnames.
# vcryptfs_mk / gocryptfs_mk CIPHERDIR MNT: mount by master key with the
# option flags of the round (the caller's array f)
vcryptfs_mk() { vc_mount "$1" "$2" "${f[@]}" -masterkey "$KEY"; }
gocryptfs_mk() { go_mount "$1" "$2" -masterkey="$KEY" "${f[@]}"; }

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
		cross "$opt" "vcryptfs-written tree reads back identically in gocryptfs" \
			"$c" "$tmp/xm" vcryptfs_mk gocryptfs_mk &&
			go_fsck_clean "$opt" -masterkey="$KEY" "${f[@]}" "$c"
		# gocryptfs writes, vcryptfs reads
		c=$tmp/x$tag-b
		new_cipherdir "$c" "${f[0]:-}"
		cross "$opt" "gocryptfs-written tree reads back identically in vcryptfs" \
			"$c" "$tmp/xm" gocryptfs_mk vcryptfs_mk
	done
}

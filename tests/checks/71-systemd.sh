#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: the example unit dist/systemd/vcryptfs@.service, installed by
# `make install` (PREFIX in a scratch dir, so its ExecStart names the
# built binary). `systemd-analyze verify` passes on it and fails on a
# broken copy. Under a running systemd (PID 1) the unit is started,
# stopped and restarted after kill -9 with systemctl; without one (this
# machine: check `ps -p 1`), the same sequence runs by hand with the
# unit's own ExecStartPre/ExecStart/ExecStop lines and ${VAR}s from its
# EnvironmentFile: start mounts (Type=forking returns once mounted), stop
# unmounts and the daemon ends, kill -9 leaves a dead mount that the
# restart clears and mounts again, and a stop by SIGTERM exits 15, the
# unit's SuccessExitStatus. Spec: ../shared/FORMAT.md 11, 13.5.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
group_needs 71-systemd "$V" "$PWD/$BUILD/vcryptfs-xray" -- \
	systemd-analyze fusermount3 man || exit 0
SRC=$PWD
scratch_dir systemd
P=$T/prefix
make -s -C "$SRC" install PREFIX="$P" >"$T/install.log" 2>&1 ||
	fail "make install PREFIX=$P: $(tail -3 "$T/install.log")"
UNIT=$P/lib/systemd/system/vcryptfs@.service
mkdir -p "$T/c" "$T/m" "$T/etc"
printf 'pw\n' >"$T/pf"
"$V" -q -init -scryptn 10 -passfile "$T/pf" "$T/c" >/dev/null 2>&1 || fail "-init"
printf 'CIPHERDIR=%s\nMOUNTPOINT=%s\nPASSFILE=%s\n' "$T/c" "$T/m" "$T/pf" >"$T/etc/t1.env"

case_verify() {
	mkdir -p "$T/u"
	cp "$UNIT" "$T/u/vcryptfs@t1.service"
	if MANPATH=$P/share/man systemd-analyze verify "$T/u/vcryptfs@t1.service" \
		>"$T/verify.log" 2>&1; then
		pass "systemd-analyze verify vcryptfs@t1.service: no finding"
	else
		fail "systemd-analyze verify: $(cat "$T/verify.log")"
	fi
	sed 's|/vcryptfs -passfile|/vcryptfs-missing -passfile|' "$UNIT" >"$T/u/vcryptfs@t2.service"
	if ! MANPATH=$P/share/man systemd-analyze verify "$T/u/vcryptfs@t2.service" \
		>/dev/null 2>&1; then
		pass "systemd-analyze verify fails on a broken copy (ExecStart binary missing)"
	else
		fail "systemd-analyze verify accepts a missing ExecStart binary"
	fi
	if grep -q '^Type=forking$' "$UNIT" && grep -q '^SuccessExitStatus=15$' "$UNIT"; then
		pass "unit: Type=forking, SuccessExitStatus=15"
	else
		fail "unit lacks Type=forking or SuccessExitStatus=15"
	fi
}

# exec_line KEY: the unit's KEY= command with ${VAR}s of the env file
# replaced, without systemd's leading "-" (ignore-failure) flag.
exec_line() {
	local l
	l=$(sed -n "s/^$1=//p" "$UNIT")
	l=${l#-}
	# shellcheck disable=SC1090
	(. "$T/etc/t1.env"
		l=${l//'${CIPHERDIR}'/$CIPHERDIR}
		l=${l//'${MOUNTPOINT}'/$MOUNTPOINT}
		l=${l//'${PASSFILE}'/$PASSFILE}
		echo "$l")
}

# daemon_pid: the PID of the process running exactly the ExecStart line
# (started by this group; its arguments name this group's scratch dir).
daemon_pid() {
	local want p
	want="$(exec_line ExecStart) "
	for p in /proc/[0-9]*; do
		[ "$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" = "$want" ] &&
			{ echo "${p#/proc/}"; return 0; }
	done
	return 1
}

start_unit() {
	$(exec_line ExecStartPre) >/dev/null 2>&1 # "-": failure ignored
	$(exec_line ExecStart) >"$T/start.log" 2>&1
}

case_by_hand() {
	local pid rc
	if [ "$(ps -p 1 -o comm= 2>/dev/null)" = systemd ]; then
		echo "SKIP: by-hand sequence (systemd runs as PID 1: case_systemctl covers it)"
		return
	fi
	if start_unit && mountpoint -q "$T/m" && pid=$(daemon_pid); then
		pass "start (ExecStartPre + ExecStart, Type=forking): returns mounted, daemon pid $pid"
	else
		fail "start: $(cat "$T/start.log")"
		return
	fi
	echo unit >"$T/m/f"
	$(exec_line ExecStop)
	for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
	if ! mountpoint -q "$T/m" && [ ! -d "/proc/$pid" ]; then
		pass "stop (ExecStop): unmounted, daemon gone"
	else
		fail "stop: still mounted or daemon $pid alive"
	fi
	start_unit && pid=$(daemon_pid) || { fail "second start: $(cat "$T/start.log")"; return; }
	kill -9 "$pid"
	for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
	if ls "$T/m" 2>&1 | grep -q 'not connected'; then
		pass "kill -9 of the daemon leaves a dead mount (ENOTCONN)"
	else
		fail "after kill -9: $(ls "$T/m" 2>&1)"
	fi
	if start_unit && mountpoint -q "$T/m" && [ "$(cat "$T/m/f" 2>&1)" = unit ]; then
		pass "restart after kill -9: ExecStartPre clears the dead mount, ExecStart mounts again"
	else
		fail "restart after kill: $(cat "$T/start.log"; ls "$T/m" 2>&1)"
	fi
	$(exec_line ExecStop)
	for _ in $(seq 100); do mountpoint -q "$T/m" || break; sleep 0.1; done
	# what systemctl stop without ExecStop does: SIGTERM to the daemon
	$(exec_line ExecStart) -fg >"$T/fg.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do mountpoint -q "$T/m" && break; sleep 0.1; done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" -eq 15 ] && ! mountpoint -q "$T/m" &&
		grep -q "^SuccessExitStatus=$rc\$" "$UNIT"; then
		pass "stop by SIGTERM: unmounted, exit 15 = the unit's SuccessExitStatus"
	else
		fail "SIGTERM: exit $rc: $(cat "$T/fg.log")"
	fi
}

case_systemctl() {
	if [ "$(ps -p 1 -o comm= 2>/dev/null)" != systemd ]; then
		echo "SKIP: systemctl sequence (PID 1 is $(ps -p 1 -o comm=), not systemd; case_by_hand runs the unit's lines)"
		return
	fi
	local u=vcryptfs@vctest$$.service
	mkdir -p /etc/vcryptfs
	cp "$T/etc/t1.env" "/etc/vcryptfs/vctest$$.env"
	cp "$UNIT" /run/systemd/system/vcryptfs@.service
	systemctl daemon-reload
	if systemctl start "$u" && mountpoint -q "$T/m"; then
		pass "systemctl start $u mounts"
	else
		fail "systemctl start: $(systemctl status "$u" 2>&1 | tail -5)"
	fi
	systemctl kill -s KILL "$u"
	sleep 3
	if mountpoint -q "$T/m" && ls "$T/m" >/dev/null 2>&1; then
		pass "restart after kill -9 (Restart=on-failure) mounts again"
	else
		fail "no restart after kill: $(systemctl status "$u" 2>&1 | tail -5)"
	fi
	systemctl kill -s TERM "$u"
	sleep 2
	if [ "$(systemctl is-failed "$u")" != failed ]; then
		pass "stop by SIGTERM leaves the unit $(systemctl is-active "$u"), not failed"
	else
		fail "unit failed after SIGTERM"
	fi
	systemctl stop "$u"
	rm -f "/etc/vcryptfs/vctest$$.env" /run/systemd/system/vcryptfs@.service
	systemctl daemon-reload
}

run_cases case_verify case_by_hand case_systemctl

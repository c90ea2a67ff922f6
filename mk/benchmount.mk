# SPDX-License-Identifier: MIT
# Issue 7 mount benchmark, included by the Makefile: make bench-mount runs
# bench/bench_mount.sh (vcryptfs vs gocryptfs 2.3, a plain directory and
# libfuse's passthrough_ll example; alternating rounds, medians). It writes
# $(BUILD)/bench/mount.tsv (workload, target, round, seconds, MBps) for
# make bench. Knobs: ROUNDS, SIZE_MIB, BENCH_FILES, BENCH_XCHACHA,
# BENCH_URING (0: leave the fuse module's enable_uring alone).
.PHONY: bench-mount

bench-mount: $(BUILD)/vcryptfs ## mount benchmark vs gocryptfs (< 8 min)
	@mkdir -p $(BUILD)/bench
	@BUILD=$(BUILD) bash bench/bench_mount.sh -o $(BUILD)/bench/mount.tsv

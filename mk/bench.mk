# SPDX-License-Identifier: MIT
# Issue 8 make rules, included by the Makefile: make bench runs every
# benchmark in one invocation (bench/bench.sh: crypto sizes per kernel with
# OpenSSL and gocryptfs beside them, -speed side by side, the mount
# workloads of bench/bench_mount.sh) and writes bench/results/latest.md,
# crypto.png and mount.png (gnuplot). Under 10 minutes on 2 cores.
# Knobs (environment): BENCH_ROUNDS, BENCH_SECS, SPEED_ROUNDS,
# MOUNT_ROUNDS, MOUNT_SIZE_MIB, MOUNT_FILES, MOUNT_TIMEOUT, BENCH_OUT.
# The -march=native twin is named by path: mk/simd.mk (which defines it)
# is included after this file.
.PHONY: bench

bench: $(BENCH_BINS) $(BUILD)/vcryptfs $(BUILD)/bench-native/bench_crypto ## all benchmarks -> bench/results/ (< 10 min)
	@BUILD=$(BUILD) bash bench/bench.sh

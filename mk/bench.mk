# SPDX-License-Identifier: MIT
# Benchmarks. The bench/*.c programs themselves are built by the Makefile
# ($(BENCH_BINS): bench/NAME.c -> $(BUILD)/bench/NAME); this file adds
#   make bench-crypto   crypto micro-benchmark against OpenSSL
#                       (bench/bench_crypto.sh), baseline and -march=native
#   make bench-mount    throughput through a mount (bench/bench_mount.sh:
#                       vcryptfs vs gocryptfs 2.3, a plain directory and
#                       libfuse's passthrough_ll; alternating rounds,
#                       medians) -> $(BUILD)/bench/mount.tsv. Knobs: ROUNDS,
#                       SIZE_MIB, BENCH_FILES, BENCH_XCHACHA, BENCH_URING
#                       (0: leave the fuse module's enable_uring alone)
#   make bench          all of it in one run (bench/bench.sh), writes
#                       bench/results/latest.md, crypto.png and mount.png
#                       (gnuplot); under 10 minutes on 2 cores. Knobs:
#                       BENCH_ROUNDS, BENCH_SECS, SPEED_ROUNDS, MOUNT_ROUNDS,
#                       MOUNT_SIZE_MIB, MOUNT_FILES, MOUNT_TIMEOUT, BENCH_OUT
#   make bench-gcm      AES-256-GCM per 4 KiB block (bench/bench_gcm.sh):
#                       our wrapper, OpenSSL EVP sequences, nettle,
#                       libgcrypt and gocryptfs -speed's AES-GCM-256-Go in
#                       one run (issue 21). Knobs: BENCH_ROUNDS, BENCH_SECS
#   make bench-native   $(BUILD)/bench-native/bench_crypto: bench_crypto
#                       built with -march=native, the ONLY place that flag
#                       is used, so a run shows baseline against native
# Included by the Makefile after its variables.
.PHONY: bench bench-crypto bench-mount bench-native bench-gcm

# --- the -march=native twin of bench_crypto ---
NATIVE_DIR := $(BUILD)/bench-native
NATIVE_SRCS := $(sort $(wildcard src/crypto/*.c src/crypto/*/*.c)) \
	bench/bench_crypto.c
NATIVE_OBJS := $(NATIVE_SRCS:%.c=$(NATIVE_DIR)/obj/%.o)

bench-native: $(NATIVE_DIR)/bench_crypto ## bench_crypto built with -march=native

$(NATIVE_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -march=native $(call isa_flags,$<) \
		-MMD -MP -c $< -o $@

$(NATIVE_DIR)/bench_crypto: $(NATIVE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -march=native $(HARDEN_LD) -o $@ $^ $(LDLIBS)

-include $(NATIVE_OBJS:.o=.d)

# --- bench_gcm also links nettle, which it compares (only it does) ---
BENCH_GCM_LIBS := $(shell pkg-config --libs nettle 2>/dev/null)
$(BUILD)/bench/bench_gcm: LDLIBS += $(BENCH_GCM_LIBS)

# --- the benchmarks ---
bench-crypto: $(BENCH_BINS) $(BUILD)/vcryptfs $(NATIVE_DIR)/bench_crypto ## crypto micro-benchmark vs OpenSSL
	@bash bench/bench_crypto.sh

bench-gcm: $(BUILD)/bench/bench_gcm ## AES-256-GCM per block: OpenSSL, nettle, libgcrypt vs gocryptfs
	@BUILD=$(BUILD) bash bench/bench_gcm.sh

bench-mount: $(BUILD)/vcryptfs ## mount benchmark vs gocryptfs (< 8 min)
	@mkdir -p $(BUILD)/bench
	@BUILD=$(BUILD) bash bench/bench_mount.sh -o $(BUILD)/bench/mount.tsv

bench: $(BENCH_BINS) $(BUILD)/vcryptfs $(NATIVE_DIR)/bench_crypto ## all benchmarks -> bench/results/ (< 10 min)
	@BUILD=$(BUILD) bash bench/bench.sh

# SPDX-License-Identifier: MIT
# Issue 3 (SIMD kernels) make rules, included by the Makefile.
# $(BUILD)/bench-native/bench_crypto: the same crypto benchmark built with
# -march=native (the ONLY place that flag is used), so that
# bench/bench_crypto.sh can show baseline-vs-native throughput in one run.
# The baseline build is $(BUILD)/bench/bench_crypto from the main Makefile.

NATIVE_DIR := $(BUILD)/bench-native
NATIVE_SRCS := $(sort $(wildcard src/crypto/*.c)) bench/bench_crypto.c
NATIVE_OBJS := $(NATIVE_SRCS:%.c=$(NATIVE_DIR)/obj/%.o)

.PHONY: bench-native

bench-native: $(NATIVE_DIR)/bench_crypto ## bench_crypto built with -march=native

$(NATIVE_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -march=native $(call isa_flags,$<) \
		-MMD -MP -c $< -o $@

$(NATIVE_DIR)/bench_crypto: $(NATIVE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -march=native $(HARDEN_LD) -o $@ $^ $(LDLIBS)

# make bench-crypto needs the native twin too
bench-crypto: $(NATIVE_DIR)/bench_crypto

-include $(NATIVE_OBJS:.o=.d)

# The AVX-512 kernel cannot run on this project's CPUs (no AVX-512; qemu 7.2
# lacks it). test_avx512_emul compiles chacha20_avx512.c against scalar
# stand-ins for its intrinsics (tests/avx512emu/immintrin.h, found first
# through -I) and checks its data flow against the portable code;
# tests/checks/40-qemu.sh runs it.
EMU_DIR := $(BUILD)/avx512-emul
EMU_FLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -mssse3 \
	-D__AVX512F__ -Itests/avx512emu -Isrc -Itests/unit

$(EMU_DIR)/chacha20_avx512.o: src/crypto/chacha20_avx512.c \
		src/crypto/chacha20_simd.h src/crypto/chacha20_simd_row.h \
		tests/avx512emu/immintrin.h
	@mkdir -p $(dir $@)
	$(CC) $(EMU_FLAGS) -c $< -o $@

$(EMU_DIR)/test_avx512_emul: tests/avx512emu/test_avx512_emul.c \
		$(EMU_DIR)/chacha20_avx512.o tests/unit/th.c \
		$(BUILD)/obj/src/crypto/chacha20.o $(BUILD)/obj/src/crypto/ct.o
	@mkdir -p $(dir $@)
	$(CC) $(EMU_FLAGS) -o $@ $^

tests-build: $(EMU_DIR)/test_avx512_emul

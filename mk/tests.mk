# SPDX-License-Identifier: MIT
# Test programs beyond the unit binaries (those are rules of the Makefile):
#   tests/tools/NAME.c    -> $(BUILD)/tools/NAME, linked with the library
#                            and tests/unit/th.c (hex, random helpers)
#                            (vcmount, fsxv, concw, crashw, crashfull; the
#                            groups in tests/checks/ name the ones they use)
#   tests/fs/fsposix.c    -> $(BUILD)/tests/fsposix, the POSIX-semantics
#                            suite (standalone, no library; 56-posix.sh)
#   test_avx512_emul      -> $(BUILD)/avx512-emul/, the AVX-512 kernel and
#                            the IFMA Poly1305 run on scalar stand-ins for
#                            their intrinsics
#                            (40-qemu.sh)
# each with an ASan/UBSan twin under $(SANBUILD) where it runs our code, and
# make stress (the fsxv model checker at full size on a mount).
# Included by the Makefile after its variables (CC, CFLAGS, LDLIBS, ...).
.PHONY: fuse-tools fs-tests stress

# --- test tools (tests/tools/*.c) ---
TOOL_NAMES := $(basename $(notdir $(wildcard tests/tools/*.c)))
FUSE_TOOLS := $(addprefix $(BUILD)/tools/,$(TOOL_NAMES))
SAN_FUSE_TOOLS := $(addprefix $(SANBUILD)/tools/,$(TOOL_NAMES))

fuse-tools: $(FUSE_TOOLS) $(SAN_FUSE_TOOLS) ## build the test tools

$(BUILD)/tools/%: $(BUILD)/obj/tests/tools/%.o $(BUILD)/obj/tests/unit/th.o \
		$(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS) -lpthread

$(SANBUILD)/tools/%: $(SANBUILD)/obj/tests/tools/%.o \
		$(SANBUILD)/obj/tests/unit/th.o $(SANBUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS) -lpthread

tests-build: $(FUSE_TOOLS)
san-build: $(SAN_FUSE_TOOLS)

-include $(wildcard $(BUILD)/obj/tests/tools/*.d $(SANBUILD)/obj/tests/tools/*.d)

# --- the POSIX-semantics suite (tests/fs/*.c, one program) ---
FS_SRCS := $(sort $(wildcard tests/fs/*.c))
FS_TESTS := $(BUILD)/tests/fsposix
SAN_FS_TESTS := $(SANBUILD)/tests/fsposix

fs-tests: $(FS_TESTS) $(SAN_FS_TESTS) ## build the POSIX suite (tests/fs)

$(BUILD)/tests/fsposix: $(FS_SRCS:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^

$(SANBUILD)/tests/fsposix: $(FS_SRCS:%.c=$(SANBUILD)/obj/%.o)
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^

tests-build: $(FS_TESTS)
san-build: $(SAN_FS_TESTS)

-include $(wildcard $(BUILD)/obj/tests/fs/*.d $(SANBUILD)/obj/tests/fs/*.d)

# --- the AVX-512 kernel on emulated intrinsics ---
# Not every CPU this project meets has AVX-512 (qemu 7.2 lacks it).
# test_avx512_emul compiles chacha20/avx512.c and poly1305/ifma.c against
# scalar stand-ins for their intrinsics (tests/avx512emu/immintrin.h, found first through -I) and
# checks its data flow against the portable code (aead/chachapoly.c on
# tests/avx512emu/kern_ref.c: the aead/kern.h entry points as the ref functions).
EMU_DIR := $(BUILD)/avx512-emul
EMU_FLAGS := -std=c11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -mssse3 \
	-D__AVX512F__ -Itests/avx512emu -Isrc -Itests/unit

$(EMU_DIR)/chacha20_avx512.o: src/crypto/chacha20/avx512.c \
		src/crypto/chacha20/simd.h src/crypto/chacha20/simd_row.h \
		src/crypto/chacha20/fastblock.h src/crypto/poly1305/p64r.h \
		src/crypto/poly1305/ifma.h \
		tests/avx512emu/immintrin.h
	@mkdir -p $(dir $@)
	$(CC) $(EMU_FLAGS) -c $< -o $@

# poly1305/ifma.c against the same stand-ins (its 64-bit lane, permute and
# IFMA multiply-add intrinsics), as if built with -mavx512f -mavx512vl
# -mavx512ifma; checked against poly1305/ref.c by the same program.
$(EMU_DIR)/poly1305_ifma.o: src/crypto/poly1305/ifma.c \
		src/crypto/poly1305/x64.h src/crypto/poly1305/ifma.h src/crypto/kernels.h \
		tests/avx512emu/immintrin.h
	@mkdir -p $(dir $@)
	$(CC) $(EMU_FLAGS) -D__AVX512VL__ -D__AVX512IFMA__ -c $< -o $@

$(EMU_DIR)/test_avx512_emul: tests/avx512emu/test_avx512_emul.c \
		$(EMU_DIR)/chacha20_avx512.o $(EMU_DIR)/poly1305_ifma.o \
		tests/unit/th.c tests/avx512emu/kern_ref.c \
		$(BUILD)/obj/src/crypto/chacha20/ref.o $(BUILD)/obj/src/crypto/ct.o \
		$(BUILD)/obj/src/crypto/poly1305/ref.o \
		$(BUILD)/obj/src/crypto/poly1305/x64.o \
		$(BUILD)/obj/src/crypto/aead/chachapoly.o \
		tests/unit/hchacha_check.h
	@mkdir -p $(dir $@)
	$(CC) $(EMU_FLAGS) -o $@ $(filter %.c %.o,$^)

tests-build: $(EMU_DIR)/test_avx512_emul

# --- make stress ---
# The fsxv model-checking stress test (tests/tools/fsxv.c) at full size:
# STRESS_OPS operations (default a million) in two processes on a fresh
# AES-GCM vcryptfs mount (tests/checks/59-stress.sh with a bigger count, no
# sanitizer run). Prints "stress: N ops, 0 mismatches" and fails on any FAIL
# line. STRESS_SEED=... repeats a run; STRESS_CIPHERS="gcm xchacha" splits
# the count over both ciphers.
STRESS_OPS ?= 1000000

stress: $(BUILD)/vcryptfs $(BUILD)/tools/fsxv ## fsxv stress test, a million ops on a mount
	@out=$$(mktemp); \
	BUILD=$(BUILD) SANBUILD=$(SANBUILD) STRESS_OPS=$(STRESS_OPS) \
		STRESS_SAN_OPS=0 STRESS_CIPHERS="$${STRESS_CIPHERS:-gcm}" \
		bash tests/checks/59-stress.sh 2>&1 | tee "$$out"; \
	if grep -q '^FAIL: ' "$$out" || ! grep -q '^stress: .* 0 mismatches' "$$out"; then \
		rm -f "$$out"; exit 1; fi; \
	rm -f "$$out"

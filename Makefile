# SPDX-License-Identifier: MIT
# vcryptfs: the only entry point. `make help` lists the targets.
#
# Sources are found by wildcard, so a new module needs no edit here:
#   src/<layer>/*.c          -> build/libvcryptfs.a (everything but
#   src/crypto/<prim>/*.c       src/cli/main.c); layers: base crypto format
#                               sys fuse fsck cli (scripts/layers.sh checks
#                               them); crypto has one folder per primitive
#                               (chacha20/, poly1305/: ref.c is the proved
#                               portable code, one ISA per other file;
#                               aead/: the one composition and its kernel
#                               entry points)
#   src/crypto/*/ssse3.c     -> the only files built with -mssse3
#   src/crypto/*/avx.c       -> the only files built with -mavx
#   src/crypto/*/avx2.c      -> the only files built with -mavx2
#   src/crypto/*/avx512.c    -> the only files built with -mavx512f/vl/bw
#   src/crypto/*/ifma.c      -> the only files built with -mavx512ifma
#                               (and -mavx512f/vl)
#   tests/unit/test_*.c      -> build/tests/test_*  (and build-san/tests/...)
#   tests/checks/*.sh        -> groups run by tests/run.sh (make test)
# Fragments in mk/, one per kind of target (included at the end, in order):
#   mk/tests.mk (test tools, POSIX suite, emulation test, stress),
#   mk/bench.mk, mk/fuzz.mk, mk/proofs.mk. Shell scripts live in scripts/.
# No -march flag anywhere: the binary targets baseline x86-64 and picks its
# SIMD kernels at run time (src/crypto/cpu.c, dispatch.c).

SHELL := /bin/bash
.DEFAULT_GOAL := all
.SUFFIXES:

CC       ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
SANCC    ?= clang-14
BUILD    ?= build
SANBUILD ?= build-san

PKGS_LIBS := fuse3 libcrypto jansson liburing libgcrypt
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS_LIBS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS_LIBS) 2>/dev/null)

WARN := -Wall -Wextra -Wconversion -Wshadow -Wformat=2 -Wvla \
	-Wimplicit-fallthrough -Werror
HARDEN := -fstack-protector-strong -fstack-clash-protection -fcf-protection \
	-fPIE
HARDEN_LD := -pie -Wl,-z,relro,-z,now
OPT ?= -O2
EXTRA_CFLAGS ?=
CPPFLAGS_BASE := -D_GNU_SOURCE -Isrc $(PKG_CFLAGS)
CFLAGS_BASE := -std=c11 $(OPT) -g $(WARN) $(HARDEN) $(EXTRA_CFLAGS)
LDLIBS := $(PKG_LIBS) -lpthread
export BUILD SANBUILD

# Normal build: gcc, fortified.
CFLAGS := $(CFLAGS_BASE) -D_FORTIFY_SOURCE=3
# Sanitizer build: clang-14, ASan + UBSan, no fortify (it defeats ASan).
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
SAN_CFLAGS := -std=c11 -O1 -g $(WARN) -Wno-unused-command-line-argument \
	$(SANFLAGS) $(EXTRA_CFLAGS)

ISA_FLAGS_ssse3  := -mssse3
ISA_FLAGS_avx    := -mavx
ISA_FLAGS_avx2   := -mavx2
ISA_FLAGS_avx512 := -mavx512f -mavx512vl -mavx512bw
ISA_FLAGS_ifma   := -mavx512f -mavx512vl -mavx512ifma
isa_flags = $(strip \
	$(if $(filter src/crypto/%/ssse3.c,$(1)),$(ISA_FLAGS_ssse3)) \
	$(if $(filter src/crypto/%/avx.c,$(1)),$(ISA_FLAGS_avx)) \
	$(if $(filter src/crypto/%/avx2.c,$(1)),$(ISA_FLAGS_avx2)) \
	$(if $(filter src/crypto/%/avx512.c,$(1)),$(ISA_FLAGS_avx512)) \
	$(if $(filter src/crypto/%/ifma.c,$(1)),$(ISA_FLAGS_ifma)))

LAYERS := base crypto format sys fuse fsck reverse cli
MAIN_SRC := src/cli/main.c
LIB_SRCS := $(sort $(wildcard $(LAYERS:%=src/%/*.c) src/crypto/*/*.c))
LIB_SRCS := $(filter-out $(MAIN_SRC),$(LIB_SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_HELPERS := $(sort $(filter-out $(TEST_SRCS),$(wildcard tests/unit/*.c)))
BENCH_SRCS := $(sort $(wildcard bench/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:%.c=$(SANBUILD)/obj/%.o)
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
SAN_TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(SANBUILD)/tests/%)
HELPER_OBJS := $(TEST_HELPERS:%.c=$(BUILD)/obj/%.o)
SAN_HELPER_OBJS := $(TEST_HELPERS:%.c=$(SANBUILD)/obj/%.o)
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)

.PHONY: all help deps check test unit sanitize lint layers clean demo \
	tests-build san-build

all: $(BUILD)/vcryptfs ## build build/vcryptfs (baseline x86-64)

help: ## list targets
	@grep -hE '^[a-zA-Z_%-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/:.*## /\t/' | sort | expand -t 20

deps: ## install the Debian packages the project needs (only what is missing)
	@bash scripts/deps.sh

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) $(call isa_flags,$<) -MMD -MP -c $< -o $@

$(SANBUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(SANCC) $(CPPFLAGS_BASE) $(SAN_CFLAGS) $(call isa_flags,$<) -MMD -MP \
		-c $< -o $@

$(BUILD)/libvcryptfs.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SANBUILD)/libvcryptfs.a: $(SAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/vcryptfs: $(MAIN_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/libvcryptfs.a
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

$(SANBUILD)/vcryptfs: $(MAIN_SRC:%.c=$(SANBUILD)/obj/%.o) $(SANBUILD)/libvcryptfs.a
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(HELPER_OBJS) \
		$(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

$(SANBUILD)/tests/%: $(SANBUILD)/obj/tests/unit/%.o $(SAN_HELPER_OBJS) \
		$(SANBUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

tests-build: $(BUILD)/vcryptfs $(TEST_BINS) $(BENCH_BINS) ## build tests
san-build: $(SANBUILD)/vcryptfs $(SAN_TEST_BINS) ## build ASan+UBSan tests

unit: tests-build ## run the unit tests only
	@bash tests/run.sh unit

sanitize: san-build ## run the unit tests under ASan+UBSan only
	@bash tests/run.sh sanitize

test: tests-build san-build ## run every check group (tests/checks/*.sh)
	@bash tests/run.sh

check: ## deps, build, then every test, lint, proof and fuzz group
	@bash scripts/deps.sh
	@$(MAKE) --no-print-directory tests-build san-build
	@bash tests/run.sh

lint: ## cppcheck, clang-tidy, gcc -fanalyzer, clang-format (zero findings)
	@bash scripts/lint.sh

layers: ## #include lines point one way (cli->fuse|fsck->format->crypto), no cycle
	@bash scripts/layers.sh

demo: ## install, build, and show vcryptfs working
	@bash scripts/deps.sh
	@$(MAKE) --no-print-directory all tests-build
	@bash scripts/demo.sh

clean: ## remove build outputs
	rm -rf $(BUILD) $(SANBUILD)

# The fragments, in this order. Each uses only the variables defined above
# and none uses another's, so no order is load-bearing today; the list is
# written out so that a new fragment (or a dependency between two) is a
# visible edit here, not a side effect of its file name.
include mk/tests.mk  # test tools, tests/fs suite, AVX-512 emulation, stress
include mk/bench.mk  # bench-crypto, bench-mount, bench, the -march=native twin
include mk/fuzz.mk   # libFuzzer targets and their plain replay builds
include mk/proofs.mk # Frama-C WP gate, work in progress, mutants
include mk/ct.mk     # constant-time check (valgrind), its mutants, timing
include mk/install.mk  # vcryptfs-xray, make install / uninstall
-include $(LIB_OBJS:.o=.d) $(SAN_LIB_OBJS:.o=.d)
-include $(wildcard $(BUILD)/obj/tests/unit/*.d $(SANBUILD)/obj/tests/unit/*.d)
-include $(MAIN_SRC:%.c=$(BUILD)/obj/%.d) $(MAIN_SRC:%.c=$(SANBUILD)/obj/%.d)

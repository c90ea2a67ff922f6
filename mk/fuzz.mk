# SPDX-License-Identifier: MIT
# libFuzzer campaigns and corpus replays. Included by the Makefile; reuses its
# LIB_SRCS, WARN, CPPFLAGS_BASE, LDLIBS, isa_flags and the sanitizer library
# $(SANBUILD)/libvcryptfs.a. See fuzz/README.md.
#
#   fuzz/fuzz_<t>.c -> fuzz/build/<t>          libFuzzer + ASan + UBSan
#                   -> fuzz/build/replay-<t>   ASan + UBSan, fuzz/replay_main.c
#   fuzz/corpus/<t>/                            committed seeds (kept small)
#
# make fuzz [FUZZ_SECONDS=60]   every target for FUZZ_SECONDS, then a table
# make fuzz-long                campaign: 900 s per fuzz_diff_*, 300 s per
#                               other target (FUZZ_SECONDS=N overrides both)
# make fuzz-merge               add what the last campaign found (new
#                               coverage only) to fuzz/corpus/<t>/
# make fuzz-replay              replay every committed corpus, no libFuzzer
# make fuzz-selftest            a deliberately broken kernel must be caught

FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= fuzz/build
FUZZ_SRCS := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_TARGETS := $(FUZZ_SRCS:fuzz/%.c=%)
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/%)
FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay-%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -O1 -g $(WARN) -Wno-unused-command-line-argument \
	$(FUZZ_SANFLAGS) $(EXTRA_CFLAGS)
FUZZ_CPPFLAGS := $(CPPFLAGS_BASE) -Ifuzz
# The broken kernel: a copy of the portable ChaCha20 with one bit of the
# first "expand 32-byte k" word flipped, its symbols renamed.
FUZZ_BROKEN_SED := s/0x61707865U/0x61707864U/
FUZZ_BROKEN_RENAME := -Dchacha20_xor=fuzz_broken_chacha20_xor \
	-Dchacha20_block=fuzz_broken_chacha20_block \
	-Dhchacha20=fuzz_broken_hchacha20 \
	-Dxchacha20_xor=fuzz_broken_xchacha20_xor

.PHONY: fuzz fuzz-long fuzz-merge fuzz-replay fuzz-selftest fuzz-build \
	fuzz-clean

fuzz-build: $(FUZZ_BINS) $(FUZZ_REPLAYS) ## build fuzz/build/* (clang-14)

fuzz: fuzz-build ## run every fuzz target FUZZ_SECONDS (60) each, table
	@FUZZ_DIR=$(FUZZ_DIR) bash fuzz/run.sh campaign "$(FUZZ_SECONDS)" "$(FUZZ_SECONDS)" \
		$(FUZZ_TARGETS)

ifeq ($(origin FUZZ_SECONDS),command line)
FUZZ_LONG_DIFF := $(FUZZ_SECONDS)
FUZZ_LONG_PARSE := $(FUZZ_SECONDS)
else
FUZZ_LONG_DIFF := 900
FUZZ_LONG_PARSE := 300
endif
fuzz-long: fuzz-build ## campaign: 900 s per diff target, 300 s per parser
	@FUZZ_DIR=$(FUZZ_DIR) bash fuzz/run.sh campaign "$(FUZZ_LONG_DIFF)" "$(FUZZ_LONG_PARSE)" \
		$(FUZZ_TARGETS)

fuzz-merge: $(FUZZ_BINS) ## add the last campaign's new coverage to fuzz/corpus
	@FUZZ_DIR=$(FUZZ_DIR) bash fuzz/run.sh merge $(FUZZ_TARGETS)

fuzz-replay: $(FUZZ_REPLAYS) ## replay every committed fuzz corpus
	@FUZZ_DIR=$(FUZZ_DIR) bash fuzz/run.sh replay $(FUZZ_TARGETS)

fuzz-selftest: $(FUZZ_DIR)/fuzz_diff_chacha20_broken ## broken kernel caught?
	@FUZZ_DIR=$(FUZZ_DIR) bash fuzz/run.sh selftest

fuzz-clean: ## remove fuzz/build
	rm -rf $(FUZZ_DIR)

# Library sources with coverage instrumentation (and ISA flags per file).
$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		$(call isa_flags,$<) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/lib.a: $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# Targets: libFuzzer build and plain replay build.
$(FUZZ_DIR)/tobj/%.o: fuzz/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-MMD -MP -c $< -o $@

$(FUZZ_DIR)/robj/%.o: fuzz/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) \
		-MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/tobj/fuzz_%.o $(FUZZ_DIR)/lib.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

$(FUZZ_DIR)/replay-%: $(FUZZ_DIR)/robj/%.o $(FUZZ_DIR)/robj/replay_main.o \
		$(SANBUILD)/libvcryptfs.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ $(LDLIBS)

# The deliberately broken kernel, only in fuzz_diff_chacha20_broken.
$(FUZZ_DIR)/broken/chacha20_broken.c: src/crypto/chacha20/ref.c
	@mkdir -p $(dir $@)
	sed -e '$(FUZZ_BROKEN_SED)' $< >$@.tmp
	@if cmp -s $< $@.tmp; then \
		echo "fuzz.mk: broken-kernel edit did not apply" >&2; \
		rm -f $@.tmp; exit 1; fi
	mv $@.tmp $@

$(FUZZ_DIR)/broken/chacha20_broken.o: $(FUZZ_DIR)/broken/chacha20_broken.c
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		$(FUZZ_BROKEN_RENAME) -c $< -o $@

$(FUZZ_DIR)/broken/fuzz_diff_chacha20.o: fuzz/fuzz_diff_chacha20.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-DVCRYPTFS_FUZZ_BROKEN_KERNEL -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_diff_chacha20_broken: \
		$(FUZZ_DIR)/broken/fuzz_diff_chacha20.o \
		$(FUZZ_DIR)/broken/chacha20_broken.o $(FUZZ_DIR)/lib.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# keep the target objects (make would delete them as intermediates)
.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/tobj/%.o) \
	$(FUZZ_TARGETS:%=$(FUZZ_DIR)/robj/%.o) $(FUZZ_DIR)/robj/replay_main.o

-include $(wildcard $(FUZZ_DIR)/obj/src/*.d $(FUZZ_DIR)/obj/src/*/*.d \
	$(FUZZ_DIR)/tobj/*.d $(FUZZ_DIR)/robj/*.d $(FUZZ_DIR)/broken/*.d)

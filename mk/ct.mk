# SPDX-License-Identifier: MIT
# Constant time checked by a tool (valgrind's memcheck).
# $(CTBUILD)/ct_check: tests/ct/ct_check.c on the library built again with
# -DVCRYPTFS_CT_CHECK (ct.h's ct_public marks public-by-design bytes
# defined for memcheck), the same gcc and flags as the mount otherwise, so
# memcheck sees the machine code the mount runs.
#   make ct          run it under valgrind (tests/ct/run.sh); 0 errors
#   make ct-mutants  each tests/ct/mutants/*.patch must make make ct fail
#   make ct-timing   dudect-style Welch t-test of open and ct_compare
CTBUILD := $(BUILD)/ct
CT_LIB_OBJS := $(LIB_SRCS:%.c=$(CTBUILD)/obj/%.o)
CT_CFLAGS := $(CFLAGS) -DVCRYPTFS_CT_CHECK

.PHONY: ct ct-build ct-mutants ct-timing

$(CTBUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_BASE) $(CT_CFLAGS) $(call isa_flags,$<) -MMD -MP \
		-c $< -o $@

$(CTBUILD)/libvcryptfs-ct.a: $(CT_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CTBUILD)/ct_check: $(CTBUILD)/obj/tests/ct/ct_check.o \
		$(CTBUILD)/libvcryptfs-ct.a
	$(CC) $(CT_CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

# the timing test is built like the mount (no CT_CHECK hooks)
$(BUILD)/ct/ct_timing: $(BUILD)/obj/tests/ct/ct_timing.o \
		$(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS) -lm

ct-build: $(CTBUILD)/ct_check $(BUILD)/ct/ct_timing

ct: $(CTBUILD)/ct_check ## constant-time check under valgrind memcheck
	@bash tests/ct/run.sh

ct-mutants: ## each tests/ct/mutants/*.patch must make `make ct` fail
	@bash tests/ct/mutants.sh

ct-timing: $(BUILD)/ct/ct_timing ## dudect-style timing t-test (not in check)
	@$(BUILD)/ct/ct_timing

tests-build: ct-build

-include $(CT_LIB_OBJS:.o=.d) $(CTBUILD)/obj/tests/ct/ct_check.d

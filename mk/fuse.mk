# SPDX-License-Identifier: MIT
# Test tools: every tests/tools/NAME.c becomes $(BUILD)/tools/NAME (and an
# ASan/UBSan twin in $(SANBUILD)/tools/NAME), linked with the library. The
# vcmount driver (mount from a known master key without gocryptfs.conf) is
# used by tests/checks/55-mount.sh; the others by the groups that name them.
.PHONY: fuse-tools

TOOL_NAMES := $(basename $(notdir $(wildcard tests/tools/*.c)))
FUSE_TOOLS := $(addprefix $(BUILD)/tools/,$(TOOL_NAMES))
SAN_FUSE_TOOLS := $(addprefix $(SANBUILD)/tools/,$(TOOL_NAMES))

fuse-tools: $(FUSE_TOOLS) $(SAN_FUSE_TOOLS) ## build the test tools

$(BUILD)/tools/%: $(BUILD)/obj/tests/tools/%.o $(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS) -lpthread

$(SANBUILD)/tools/%: $(SANBUILD)/obj/tests/tools/%.o $(SANBUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS) -lpthread

tests-build: $(FUSE_TOOLS)
san-build: $(SAN_FUSE_TOOLS)

-include $(wildcard $(BUILD)/obj/tests/tools/*.d $(SANBUILD)/obj/tests/tools/*.d)

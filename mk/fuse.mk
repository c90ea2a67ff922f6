# SPDX-License-Identifier: MIT
# FUSE layer extras: the vcmount test driver (mount from a known master
# key without gocryptfs.conf), used by tests/checks/55-mount.sh.
.PHONY: fuse-tools

FUSE_TOOLS := $(BUILD)/tools/vcmount
SAN_FUSE_TOOLS := $(SANBUILD)/tools/vcmount

fuse-tools: $(FUSE_TOOLS) $(SAN_FUSE_TOOLS) ## build the FUSE test driver(s)

$(BUILD)/tools/vcmount: $(BUILD)/obj/tests/tools/vcmount.o \
		$(BUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

$(SANBUILD)/tools/vcmount: $(SANBUILD)/obj/tests/tools/vcmount.o \
		$(SANBUILD)/libvcryptfs.a
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

tests-build: $(FUSE_TOOLS)
san-build: $(SAN_FUSE_TOOLS)

-include $(wildcard $(BUILD)/obj/tests/tools/*.d $(SANBUILD)/obj/tests/tools/*.d)

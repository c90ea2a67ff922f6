# SPDX-License-Identifier: MIT
# The POSIX-semantics suite: tests/fs/fsposix.c -> $(BUILD)/tests/fsposix
# and its ASan/UBSan twin $(SANBUILD)/tests/fsposix (standalone programs,
# no library). Run by tests/checks/56-posix.sh on a vcryptfs mount and on a
# plain directory.
.PHONY: fs-tests

FS_TESTS := $(BUILD)/tests/fsposix
SAN_FS_TESTS := $(SANBUILD)/tests/fsposix

fs-tests: $(FS_TESTS) $(SAN_FS_TESTS) ## build the POSIX suite (tests/fs)

$(BUILD)/tests/fsposix: $(BUILD)/obj/tests/fs/fsposix.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^

$(SANBUILD)/tests/fsposix: $(SANBUILD)/obj/tests/fs/fsposix.o
	@mkdir -p $(dir $@)
	$(SANCC) $(SAN_CFLAGS) -o $@ $^

tests-build: $(FS_TESTS)
san-build: $(SAN_FS_TESTS)

-include $(wildcard $(BUILD)/obj/tests/fs/*.d $(SANBUILD)/obj/tests/fs/*.d)

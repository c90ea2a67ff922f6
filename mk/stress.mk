# SPDX-License-Identifier: MIT
# make stress: the fsxv model-checking stress test (tests/tools/fsxv.c) at
# full size: STRESS_OPS operations (default a million) in two processes on
# a fresh AES-GCM vcryptfs mount (tests/checks/59-stress.sh with a bigger
# count, no sanitizer run). Prints "stress: N ops, 0 mismatches" and fails
# on any FAIL line. STRESS_SEED=... repeats a run; STRESS_CIPHERS="gcm
# xchacha" splits the count over both ciphers.
.PHONY: stress

STRESS_OPS ?= 1000000

stress: $(BUILD)/vcryptfs $(BUILD)/tools/fsxv ## fsxv stress test, a million ops on a mount
	@out=$$(mktemp); \
	BUILD=$(BUILD) SANBUILD=$(SANBUILD) STRESS_OPS=$(STRESS_OPS) \
		STRESS_SAN_OPS=0 STRESS_CIPHERS="$${STRESS_CIPHERS:-gcm}" \
		bash tests/checks/59-stress.sh 2>&1 | tee "$$out"; \
	if grep -q '^FAIL: ' "$$out" || ! grep -q '^stress: .* 0 mismatches' "$$out"; then \
		rm -f "$$out"; exit 1; fi; \
	rm -f "$$out"

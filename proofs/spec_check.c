/* SPDX-License-Identifier: MIT */
/*
 * Type-checks spec/poly1305_model.acsl (tests/checks/60-prove.sh): the
 * Poly1305 model over integers that no gate goal uses yet. The prototype
 * below states a contract over the model so that frama-c types it; it
 * has no body and nothing here is proved.
 */
#include <stdint.h>

#include "crypto/poly1305/ref.h"
#include "../spec/poly1305_model.acsl"

/*@ requires \valid_read(key + (0 .. 31)) && \valid_read(m + (0 .. len - 1));
    assigns \nothing;
    ensures \result == POLY1305(m, len, key) % 256;
 */
int spec_check_first_tag_byte(const uint8_t *key, const uint8_t *m,
			      unsigned len);

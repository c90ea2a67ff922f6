/* SPDX-License-Identifier: MIT */
/*
 * The daemon's state: struct fs, set by mount_run() before the session
 * starts and read-only after (see fs.h).
 * Spec: none. Depends on: fuse/fs.h. Not proved.
 */
#include "fuse/fs.h"

struct fs fs;

/* SPDX-License-Identifier: MIT */
/*
 * -ctlsock PATH: gocryptfs's control socket. A Unix stream socket; each
 * read() is one JSON request {"EncryptPath": P} or {"DecryptPath": P},
 * answered with one line {"Result","ErrNo","ErrText","WarnText"} as
 * gocryptfs 2.3 answers (ErrNo -1 for errors without an errno, a warning
 * when P was not canonical). Paths are relative to the mount's root and
 * resolved in the cipher directory (gocryptfs.diriv, long-name files).
 * Spec: ../shared/FORMAT.md 5, 12.3. Not proved.
 */
#ifndef VCRYPTFS_FUSE_CTLSOCK_H
#define VCRYPTFS_FUSE_CTLSOCK_H

#include <stddef.h>

/* Create the socket (an existing socket file at path is replaced, as
 * gocryptfs does) and start serving it for the volume in fs.vol, whose
 * cipher directory is cipherdir. 0, or -1 after one error line. */
int ctlsock_start(const char *path, const char *cipherdir);
/* Stop serving and remove the socket file (idempotent). */
void ctlsock_stop(void);

/* One request in, one reply line out (malloc'd, NUL-terminated);
 * separate from the socket for tests. NULL on ENOMEM. */
char *ctlsock_handle(int rootfd, const char *req, size_t len);

#endif

# SPDX-License-Identifier: MIT
# vcryptfs-xray (a second binary: src/xray/*.c + the library) and
# `make install` / `make uninstall` with PREFIX and DESTDIR (GNU
# conventions): the two binaries, their man pages, bash completion and
# the systemd example unit. `mount -t fuse.vcryptfs` and fstab lines need
# no file of ours: mount(8) runs fuse3's mount.fuse3, which runs
# `vcryptfs CIPHERDIR MOUNTPOINT -o OPTS` from PATH (so install where
# mount(8)'s PATH looks: PREFIX=/usr or /usr/local). Tested by
# tests/checks/66-install.sh; debian/rules calls `make install`.
.PHONY: install uninstall xray

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
UNITDIR ?= $(PREFIX)/lib/systemd/system
INSTALL ?= install
FUSERMOUNT ?= /usr/bin/fusermount3

XRAY_SRCS := $(sort $(wildcard src/xray/*.c))
XRAY_OBJS := $(XRAY_SRCS:%.c=$(BUILD)/obj/%.o)
SAN_XRAY_OBJS := $(XRAY_SRCS:%.c=$(SANBUILD)/obj/%.o)

xray: $(BUILD)/vcryptfs-xray ## build build/vcryptfs-xray
all: $(BUILD)/vcryptfs-xray
tests-build: $(BUILD)/vcryptfs-xray
san-build: $(SANBUILD)/vcryptfs-xray

$(BUILD)/vcryptfs-xray: $(XRAY_OBJS) $(BUILD)/libvcryptfs.a
	$(CC) $(CFLAGS) $(HARDEN_LD) -o $@ $^ $(LDLIBS)

$(SANBUILD)/vcryptfs-xray: $(SAN_XRAY_OBJS) $(SANBUILD)/libvcryptfs.a
	$(SANCC) $(SAN_CFLAGS) -o $@ $^ $(LDLIBS)

install: $(BUILD)/vcryptfs $(BUILD)/vcryptfs-xray ## install (PREFIX=/usr/local DESTDIR=)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(UNITDIR)
	$(INSTALL) -m 755 $(BUILD)/vcryptfs $(BUILD)/vcryptfs-xray \
		$(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 dist/man/vcryptfs.1 dist/man/vcryptfs-xray.1 \
		$(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 dist/bash-completion/vcryptfs \
		$(DESTDIR)$(BASHCOMPDIR)/vcryptfs
	ln -sf vcryptfs $(DESTDIR)$(BASHCOMPDIR)/vcryptfs-xray
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@FUSERMOUNT@|$(FUSERMOUNT)|g' \
		dist/systemd/vcryptfs@.service > \
		$(DESTDIR)$(UNITDIR)/vcryptfs@.service
	chmod 644 $(DESTDIR)$(UNITDIR)/vcryptfs@.service

uninstall: ## remove what `make install` installed (same PREFIX, DESTDIR)
	rm -f $(DESTDIR)$(BINDIR)/vcryptfs $(DESTDIR)$(BINDIR)/vcryptfs-xray \
		$(DESTDIR)$(MANDIR)/man1/vcryptfs.1 \
		$(DESTDIR)$(MANDIR)/man1/vcryptfs-xray.1 \
		$(DESTDIR)$(BASHCOMPDIR)/vcryptfs \
		$(DESTDIR)$(BASHCOMPDIR)/vcryptfs-xray \
		$(DESTDIR)$(UNITDIR)/vcryptfs@.service

-include $(wildcard $(BUILD)/obj/src/xray/*.d $(SANBUILD)/obj/src/xray/*.d)

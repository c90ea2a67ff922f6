/* SPDX-License-Identifier: MIT */
/*
 * The help texts (see help.h). One table, two views: -h prints the rows
 * marked common, -hh all of them. Keep it in step with options.c's option
 * table and the man page (man/vcryptfs.1); 67-options checks that every
 * option options.c accepts is listed here.
 */
#include "cli/help.h"

#include "cli/version.h"

struct help_row {
	int common; /* shown by -h */
	const char *flag;
	const char *text;
};

static const struct help_row rows[] = {
	{ 1, "-init", "Initialize encrypted directory" },
	{ 1, "-passwd", "Change password" },
	{ 1, "-info", "Display information about encrypted directory" },
	{ 1, "-fsck", "Check filesystem integrity (exit 26 on problems)" },
	{ 1, "-speed", "Run crypto speed test" },
	{ 1, "-version", "Print version information" },
	{ 1, "-h, -help", "This short help text" },
	{ 1, "-hh", "Long help text with all options" },
	{ 0, "-acl", "Enforce POSIX ACLs (stored as gocryptfs stores them)" },
	{ 1, "-aessiv", "AES-SIV content encryption (with -init)" },
	{ 1, "-allow_other",
	  "Allow other users to access the mount (needs user_allow_other in "
	  "/etc/fuse.conf)" },
	{ 0, "-badname GLOB", "Show undecryptable file names that match GLOB" },
	{ 1, "-config FILE", "Use FILE instead of CIPHERDIR/gocryptfs.conf" },
	{ 0, "-context CTX", "SELinux mount context (accepted, ignored)" },
	{ 0, "-cpuprofile FILE", "Go profiling (accepted, ignored)" },
	{ 1, "-ctlsock PATH",
	  "Create a gocryptfs control socket at PATH (EncryptPath, "
	  "DecryptPath)" },
	{ 0, "-d, -debug", "Enable debug output" },
	{ 0, "-deterministic-names",
	  "No gocryptfs.diriv files: equal names encrypt equally (with "
	  "-init)" },
	{ 0, "-dev, -nodev",
	  "Allow (root only) / deny device files (default: -nodev)" },
	{ 0, "-devrandom", "Obsolete, ignored for compatibility" },
	{ 0, "-e, -exclude PATH",
	  "Reverse mode: hide PATH (relative to the plaintext root)" },
	{ 0, "-ew, -exclude-wildcard PAT",
	  "Reverse mode: hide paths matching PAT (gitignore syntax)" },
	{ 0, "-exclude-from FILE",
	  "Reverse mode: hide the patterns listed in FILE" },
	{ 0, "-exec, -noexec", "Allow / deny executables (default: -exec)" },
	{ 1, "-extpass CMD", "Run CMD and read the password from its stdout" },
	{ 1, "-fg, -f", "Stay in the foreground" },
	{ 0, "-fido2 DEV",
	  "FIDO2-protected master key (refused with exit 31: not supported)" },
	{ 0, "-fido2-assert-option OPT", "Accepted, ignored (FIDO2)" },
	{ 0, "-force_owner UID:GID",
	  "Report UID:GID as owner of every file (implies -allow_other)" },
	{ 0, "-forcedecode", "Obsolete, ignored for compatibility" },
	{ 0, "-fsname NAME",
	  "Override the filesystem name (first column of df)" },
	{ 1, "-fusedebug", "Debug FUSE calls (libfuse's -d)" },
	{ 0, "-hkdf",
	  "Use HKDF as an additional key derivation step (default true)" },
	{ 1, "-i, -idle DURATION",
	  "Unmount after DURATION (\"500s\", \"2h45m\") without access and "
	  "open files; 0: never" },
	{ 0, "-kernel_cache", "Enable the FUSE kernel_cache option" },
	{ 0, "-ko OPTS",
	  "Pass additional options directly to the kernel, comma-separated" },
	{ 0, "-longnamemax N",
	  "Hash encrypted names longer than N bytes, 62..255 (with -init)" },
	{ 0, "-longnames", "Obsolete, ignored (long names are always on)" },
	{ 1, "-masterkey HEX|stdin",
	  "Mount with explicit master key instead of password" },
	{ 0, "-memprofile FILE", "Go profiling (accepted, ignored)" },
	{ 1, "-nonempty", "Allow mounting over a non-empty directory" },
	{ 0, "-nofail", "Ignored for /etc/fstab compatibility" },
	{ 0, "-noprealloc", "Disable preallocation before writing" },
	{ 1, "-nosyslog", "Do not redirect log messages to syslog" },
	{ 0, "-notifypid PID",
	  "Send SIGUSR1 to PID after a successful mount (daemonisation)" },
	{ 0, "-nouring", "Never use FUSE over io_uring" },
	{ 0, "-noxattr", "Disable extended attributes (ENOTSUP)" },
	{ 0, "-o a,b,c",
	  "Options as a comma-separated list, as mount(8) passes them" },
	{ 0, "-one-file-system",
	  "Reverse mode: show other mount points as empty directories" },
	{ 0, "-openssl true|false|auto",
	  "Accepted, no effect (backends fixed by the build: see -version)" },
	{ 1, "-passfile FILE", "Read password from plain text file(s)" },
	{ 1, "-plaintextnames", "Do not encrypt file names (with -init)" },
	{ 1, "-q, -quiet", "Silence informational messages" },
	{ 0, "-raw64",
	  "Unpadded base64 for file names (default true, with -masterkey)" },
	{ 1, "-reverse",
	  "Reverse mode: read-only encrypted view of a plaintext directory" },
	{ 1, "-ro, -rw", "Mount read-only / read-write" },
	{ 0, "-scryptn N",
	  "scrypt cost log2(N), 10..28, default 16; needs 128*8*2^N bytes of "
	  "memory" },
	{ 0, "-serialize_reads", "Try to serialize read operations" },
	{ 0, "-sharedstorage",
	  "Make concurrent access to a shared CIPHERDIR safer" },
	{ 0, "-suid, -nosuid",
	  "Allow (root only) / deny suid binaries (default: -nosuid)" },
	{ 0, "-trace FILE", "Go execution trace (accepted, ignored)" },
	{ 0, "-wpanic", "Accepted, ignored (gocryptfs test option)" },
	{ 0, "-xchacha", "XChaCha20-Poly1305 content encryption (with -init)" },
	{ 0, "-zerokey", "Use the all-zero master key (testing only)" },
	{ 1, "--", "Stop option parsing" },
};

void help_usage(FILE *f)
{
	fprintf(f, "Usage: vcryptfs -init|-passwd|-info|-fsck [OPTIONS] "
		   "CIPHERDIR\n"
		   "  or   vcryptfs [OPTIONS] CIPHERDIR MOUNTPOINT [-o "
		   "OPTIONS]\n"
		   "  or   vcryptfs -speed|-version|-h|-hh\n");
}

static void print_rows(FILE *f, int all)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (all || rows[i].common)
			fprintf(f, "  %-27s %s\n", rows[i].flag, rows[i].text);
}

void help_short(FILE *f)
{
	version_print(f);
	fprintf(f, "\n");
	help_usage(f);
	fprintf(f, "\nCommon Options (use -hh to show all):\n");
	print_rows(f, 0);
	fprintf(f, "\nUnmount with: fusermount3 -u MOUNTPOINT. "
		   "Manual: man vcryptfs.\n");
}

void help_long(FILE *f)
{
	version_print(f);
	fprintf(f, "\n");
	help_usage(f);
	fprintf(f,
		"\nNotes: All options can equivalently use \"-\" (single dash) "
		"or \"--\" (double dash).\n"
		"       A standalone \"--\" stops option parsing.\n"
		"       Values: -opt VALUE or -opt=VALUE; booleans also "
		"-opt=false.\n"
		"\nOptions:\n");
	print_rows(f, 1);
	fprintf(f,
		"\nExit codes: 0 ok, 1 usage, 6 cipherdir, 7 init, 8 load "
		"config,\n"
		"  9 read password, 10 mountpoint, 11 other, 12 wrong "
		"password,\n"
		"  13 scrypt params, 14 master key, 15 stopped by "
		"SIGINT/SIGTERM,\n"
		"  17 fork child, 19 FUSE mount failed, 20 control socket,\n"
		"  24 write config, 26 fsck found errors, 27 deprecated fs,\n"
		"  29 exclude error, 30 /dev/null, 31 FIDO2.\n");
}

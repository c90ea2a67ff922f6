#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# proofs/gatecheck.py BUILD_DIR ALLOWLIST WARNINGS CROSS COMPONENT...
#
# The checks of the WP gate that look at more than one goal count (run by
# proofs/run.sh after every component has run; prints one line per
# problem, exits 1 when there is any):
#  - every property that WP reports "Considered valid" in a component (a
#    callee's contract with no body there, or a clause taken without proof) must be
#    named, function AND clause, in ALLOWLIST with the component that proves
#    it; with CROSS = 1 (every component ran) that component's report must
#    give the same function and clause the status Valid. The component
#    "trusted" marks a contract that no component proves (the aead/kern.h
#    entry points, whose bodies call the dispatched kernels): accepted,
#    and listed on one line of the output. A clause is its
#    ACSL name ("range" of "ensures range: ...") or, unnamed, its kind
#    ("assigns"). A clause taken without proof has no component that proves
#    it and fails.
#  - every warning that Frama-C, WP or Why3 prints in a component's log must
#    match a line of WARNINGS (component, file, a glob of the warning's
#    text) with the
#    reason it is harmless; any other warning fails the gate.
#  - smoke tests (-wp-smoke-tests) must all pass: a "Failed" smoke test is a
#    vacuous precondition, loop invariant or dead code.
import csv
import fnmatch
import os
import re
import sys

build, allowlist, warnings, cross = sys.argv[1:5]
comps = sys.argv[5:]
problems = []

NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*): ")


def clause_of(kind, prop):
    m = NAME.match(prop)
    if m:
        return m.group(1)
    return kind.split(" ")[0]


def rows(comp):
    path = os.path.join(build, comp + ".csv")
    if not os.path.exists(path):
        problems.append(f"{comp}: no report {path}")
        return []
    with open(path, newline="", errors="replace") as f:
        r = csv.reader(f, delimiter="\t")
        next(r, None)
        return [x for x in r if len(x) >= 7]


def table(path, ncols):
    out = []
    for n, line in enumerate(open(path, errors="replace"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < ncols or not parts[-1].strip():
            problems.append(f"{path}:{n}: needs {ncols} tab-separated "
                            "fields, the last one the reason")
            continue
        out.append(parts)
    return out


allow = {}
for fn, cl, proved_in, _why in table(allowlist, 4):
    allow[(fn, cl)] = proved_in
known_warn = table(warnings, 4)

status = {}
for c in comps:
    for row in rows(c):
        fn, kind, st, prop = row[3], row[4], row[5], row[6]
        status.setdefault(c, {})[(fn, clause_of(kind, prop))] = st

used = set()
trusted = set()
for c in comps:
    for row in rows(c):
        fn, kind, st, prop = row[3], row[4], row[5], row[6]
        if st != "Considered valid":
            continue
        key = (fn, clause_of(kind, prop))
        if key not in allow:
            problems.append(f"{c}: {fn} clause '{key[1]}' considered valid "
                            "but not in proofs/allowlist.txt")
            continue
        used.add(key)
        where = allow[key]
        if where == "trusted":
            trusted.add(key)
            continue
        if where == c:
            problems.append(f"{c}: {fn} clause '{key[1]}' is allowlisted as "
                            f"proved in {c} itself, where it is only "
                            "considered valid")
        elif cross == "1":
            # "Partially proven": valid under clauses that component
            # leaves out, each proved by another component of the same
            # file (proofs/run.sh checks that, and that every goal of
            # every component is proved)
            got = status.get(where, {}).get(key)
            if got not in ("Valid", "Partially proven"):
                problems.append(f"{c}: {fn} clause '{key[1]}' rests on "
                                f"component {where}, which gives it "
                                f"{got or 'no status'}")

WARN = re.compile(r"^\[([\w:-]+)\] ([^:]+):\d+: Warning: ?(.*)$")
for c in comps:
    path = os.path.join(build, c + ".log")
    if not os.path.exists(path):
        continue
    lines = open(path, errors="replace").read().split("\n")
    for i, line in enumerate(lines):
        m = WARN.match(line)
        if m:
            plugin, fname, text = m.groups()
            if not text.strip() and i + 1 < len(lines):
                text = lines[i + 1].strip()
            fname = os.path.basename(fname)
        elif line.startswith("warning: "):
            plugin, fname, text = "why3", "-", line[len("warning: "):]
        elif re.match(r"^\[\w+\] Warning: ", line):
            plugin, fname = line[1:line.index("]")], "-"
            text = line.split("Warning: ", 1)[1]
        else:
            continue
        for wc, wf, wt, _why in known_warn:
            if wc in (c, "*") and wf in (fname, "*") and \
                    fnmatch.fnmatchcase(text, wt):
                break
        else:
            problems.append(f"{c}: warning not in proofs/warnings.txt: "
                            f"[{plugin}] {fname}: {text}")
        if "Smoke-test" in line and "[Failed]" in line:
            problems.append(f"{c}: {line.strip()}")
    for line in lines:
        if "Smoke-test" in line and "[Passed]" not in line and \
                re.search(r"\[(Failed|Unknown|Timeout|Valid)\]", line):
            problems.append(f"{c}: smoke test failed (a vacuous hypothesis "
                            f"or dead code): {line.strip()}")

if cross == "1":
    for key, where in sorted(allow.items()):
        if key not in used:
            problems.append(f"proofs/allowlist.txt: {key[0]} clause "
                            f"'{key[1]}' ({where}) is used by no component")

if trusted:
    print(f"prove: {len(trusted)} trusted properties (allowlisted, proved by "
          "no component; proofs/README.md, trusted base): " +
          ", ".join(f"{fn}:{cl}" for fn, cl in sorted(trusted)))
seen = set()
for p in problems:
    if p not in seen:
        seen.add(p)
        print("prove: " + p)
sys.exit(1 if problems else 0)

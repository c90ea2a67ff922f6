#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# proofs/table.py [--check|--write] README: the README's "Proved crypto"
# table, generated from proofs/results/<component>.json (what WP proved,
# per function) and proofs/datapath.tsv (which functions the mount runs,
# at which CPU level, and what each one trusts). Prints the table; with
# --write replaces the part of README between the markers
# <!-- proof-table begin --> and <!-- proof-table end -->; with --check
# exits 1 when that part differs from what this script makes. With
# --functions: every function of every component's results, one row each
# (proofs/README.md's "Per function" table).
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BEGIN = "<!-- proof-table begin -->"
END = "<!-- proof-table end -->"


def load_results():
    funcs = {}
    for path in sorted(glob.glob(os.path.join(HERE, "results", "*.json"))):
        d = json.load(open(path))
        for fn, st in d["functions"].items():
            provers = sorted(p.split(":")[0] for p in st["provers"])
            prev = funcs.get(fn)
            row = (d["component"], st["proved"], st["properties"], provers)
            # a helper analysed in several components: keep the largest
            if prev is None or prev[2] < row[2]:
                funcs[fn] = row
    return funcs


def table():
    funcs = load_results()
    out = ["| function | proved | component | provers | on the content "
           "path | trusted |", "|---|---:|---|---|---|---|"]
    for line in open(os.path.join(HERE, "datapath.tsv")):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        fn, levels, trusted = line.split("\t")
        if fn in funcs:
            comp, ok, total, provers = funcs[fn]
            proved = f"{ok} / {total}"
            provers = ", ".join(provers)
        else:
            comp, proved, provers = "-", "not proved", "-"
        out.append(f"| `{fn}` | {proved} | {comp} | {provers} | {levels} "
                   f"| {trusted} |")
    return "\n".join(out) + "\n"


def per_function():
    order = ["ct", "chacha", "chacha-xor", "chacha-word", "poly1305",
             "poly1305-modp", "poly1305-pad", "poly1305-mac", "aead",
             "header", "b64"]
    out = ["| component | function | properties | proved | closed by "
           "(properties) |", "|---|---|---:|---:|---|"]
    for comp in order:
        path = os.path.join(HERE, "results", comp + ".json")
        if not os.path.exists(path):
            continue
        d = json.load(open(path))
        for fn in sorted(d["functions"]):
            st = d["functions"][fn]
            by = ", ".join(f"{p.split(':')[0]} {n}"
                           for p, n in sorted(st["provers"].items()))
            out.append(f"| {comp} | {fn} | {st['properties']} | "
                       f"{st['proved']} | {by} |")
    return "\n".join(out) + "\n"


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "--functions":
        sys.stdout.write(per_function())
        return 0
    if mode not in ("--check", "--write"):
        sys.stdout.write(table())
        return 0
    readme = sys.argv[2]
    text = open(readme).read()
    if BEGIN not in text or END not in text:
        print(f"{readme}: no {BEGIN} ... {END} markers")
        return 1
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + table() + END + tail
    if mode == "--write":
        open(readme, "w").write(new)
        return 0
    if new != text:
        print(f"{readme}: the proof table is not the one proofs/table.py "
              "makes from proofs/results (run: python3 proofs/table.py "
              f"--write {readme})")
        return 1
    return 0


sys.exit(main())

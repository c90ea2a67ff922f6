#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# proofs/results.py COMPONENT WP_JSON SECONDS VERDICT [LOG]: one JSON object
# per component for proofs/results/<component>.json: proved/total goals per
# function, the provers that closed them, and the summed prover time per
# function taken from the WP log (cache hits count as 0 s).
import json
import re
import sys

comp, wpjson, secs, verdict = sys.argv[1:5]
log = sys.argv[5] if len(sys.argv) > 5 else None
data = json.load(open(wpjson))
funcs = {}
for fn, props in sorted(data.get("wp:functions", {}).items()):
    total = valid = 0
    provers = {}
    for _prop, stats in props.items():
        main = stats.get("wp:main", {})
        total += 1
        valid += 1 if main.get("valid", 0) == main.get("total", -1) else 0
        for p, st in stats.items():
            if p != "wp:main" and st.get("valid", 0):
                provers[p] = provers.get(p, 0) + 1
    funcs[fn] = {"properties": total, "proved": valid, "provers": provers,
                 "prover_seconds": 0.0}
if log:
    names = sorted(funcs, key=len, reverse=True)
    pat = re.compile(r"Goal typed_\w*?bitlemmas_(\w+) : Valid.*?\(([\d.]+)(ms|s)\)\s*(\(\d+\))?$")
    for line in open(log, errors="replace"):
        m = pat.search(line.strip())
        if not m or "[Qed]" in line:
            continue
        goal, t, unit = m.group(1), float(m.group(2)), m.group(3)
        t = t / 1000 if unit == "ms" else t
        for fn in names:
            if goal.startswith(fn + "_"):
                funcs[fn]["prover_seconds"] = round(
                    funcs[fn]["prover_seconds"] + t, 2)
                break
g = data.get("wp:global", {}).get("wp:main", {})
print(json.dumps({"component": comp, "verdict": verdict,
                  "goals": g.get("total", 0), "proved": g.get("valid", 0),
                  "wall_seconds": int(secs), "functions": funcs},
                 indent=1, sort_keys=True))

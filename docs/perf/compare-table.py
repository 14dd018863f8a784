#!/usr/bin/env python3
"""Markdown rows from `perflab compare --format json` (stdin): metric, means, change with its 95 % interval,
Welch's t, df and p, the p-value after Holm's adjustment across the metrics, and the verdict. Used to build the tables of docs/PERFORMANCE.md."""
import json
import sys

METRICS = sys.argv[1].split(",") if len(sys.argv) > 1 else None


def num(v):
    return f"{v:.4g}" if abs(v) < 1000 else f"{v:,.0f}"


def pformat(p):
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


print("| metric | without | with | Δ % | 95 % CI of Δ | t | df | p | p (Holm) | verdict |")
print("|---|---|---|---|---|---|---|---|---|---|")
for row in json.load(sys.stdin):
    if METRICS and row["metric"] not in METRICS:
        continue
    c = row.get("comparison")
    if not c:
        print(f"| {row['metric']} | | | | | | | | | not compared |")
        continue
    rc = c.get("relativeChange") or {}
    w = c["welch"]
    verdict = c["verdict"]["verdict"]
    ptext = pformat(w["pValue"])
    holm = pformat(c["verdict"]["pValue"])
    print(f"| {row['metric']} | {num(c['without']['mean'])} | {num(c['with']['mean'])} "
          f"| {rc.get('percent', float('nan')):+.2f} | [{rc.get('ciLowPercent', float('nan')):+.2f}, {rc.get('ciHighPercent', float('nan')):+.2f}] "
          f"| {w['t']:.2f} | {w['df']:.1f} | {ptext} | {holm} | {verdict} |")

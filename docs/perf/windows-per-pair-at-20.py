#!/usr/bin/env python3
"""The variance components of CPU per call in the default's stored 20-pair experiments (a window's log ratio within
its pair, and the pairs beyond that), and the MDE (80 % power, alpha = 0.05, paired t) that the same wall time as 20
pairs of 3 windows would give with M windows per pair: a pair's fixed cost (JVM start and warmup) is what 20 pairs
cost less their windows, a window pair about 6.5 s (two 3 s windows and their switch). No trial runs.
usage: windows-per-pair-at-20.py FILE.json..."""
import json, math, statistics as st, sys
from collections import defaultdict
from scipy import stats

within, between = [], []
for f in sys.argv[1:]:
    windows = defaultdict(dict)
    for t in json.load(open(f))['trials']:
        if t['status'] == 'OK' and t.get('pair'):
            windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']['cpu_us_per_req']
    pairs = defaultdict(list)
    for (i, _), v in windows.items():
        if len(v) == 2:
            pairs[i].append(math.log(v['with'] / v['without']))
    pairs = [v for v in pairs.values() if len(v) == 3]
    w = st.mean(st.variance(v) for v in pairs)
    means = st.variance([st.mean(v) for v in pairs])
    within.append(w)
    between.append(means - w / 3)
    print(f"{f:24s} window within its pair {100 * math.sqrt(w):.2f} %, pairs' means {100 * math.sqrt(means):.2f} %")
w, b = st.mean(within), max(st.mean(between), 0.0)
print(f"mean: a window within its pair {100 * math.sqrt(w):.2f} %, between pairs {100 * math.sqrt(b):.2f} %")
window_pair, per_pair = 6.5, 43.0
fixed, budget = per_pair - 3 * window_pair, 20 * per_pair
for m in [1, 2, 3, 4, 5, 6, 8, 10, 15]:
    n = int(budget // (fixed + m * window_pair))
    q = stats.t.ppf(0.975, n - 1) + stats.t.ppf(0.8, n - 1)
    print(f"{m:2d} windows per pair: {n:2d} pairs in {budget / 60:.1f} min, MDE {100 * q * math.sqrt((b + w / m) / n):.2f} %")

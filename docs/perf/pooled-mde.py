#!/usr/bin/env python3
"""The MDE of CPU per call (80 % power, two-sided alpha = 0.05) of a paired experiment of N pairs at the spread that
several A/A files (perflab calibrate --out) share: each file's standard deviation of its pairs' means of
log(with/without), pooled as the root of their mean square, then (t(0.975, N-1) + t(0.8, N-1)) * SD / sqrt(N) for
each N given, and the fewest pairs that reach 1.5 %.
usage: pooled-mde.py N[,N...] FILE.json..."""
import json, math, statistics as st, sys
from collections import defaultdict
from scipy.stats import t as student

sizes = [int(n) for n in sys.argv[1].split(',')]
sds = []
for name in sys.argv[2:]:
    windows = defaultdict(dict)
    for t in json.load(open(name))['trials']:
        if t['status'] == 'OK' and t.get('pair') and 'cpu_us_per_req' in t['metrics']:
            windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']['cpu_us_per_req']
    pairs = defaultdict(list)
    for (index, _), sides in windows.items():
        if 'with' in sides and 'without' in sides:
            pairs[index].append(math.log(sides['with'] / sides['without']))
    sds.append(st.stdev(st.mean(v) for v in pairs.values()))
    print(f"{name}: {len(pairs)} pairs, SD of the pairs' means {100 * sds[-1]:.2f} %")
sd = math.sqrt(sum(s * s for s in sds) / len(sds))
mde = lambda n: 100 * (student.ppf(0.975, n - 1) + student.ppf(0.8, n - 1)) * sd / math.sqrt(n)
print(f"pooled SD {100 * sd:.2f} %")
for n in sizes:
    print(f"  {n:3d} pairs: MDE {mde(n):.2f} %")
print(f"  1.5 % needs {next(n for n in range(3, 1000) if mde(n) <= 1.5)} pairs")

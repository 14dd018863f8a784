#!/usr/bin/env python3
"""Pooled paired estimates over experiment files (perflab ab/calibrate --out) of the same change: per metric, the
pairs' means of log(with/without) over their windows from every file together, and the t interval over all the
pairs, as a relative change. Used to read a known-effect campaign (its reference run and its experiments are the
same injection) and to see whether the host probe moved with the change.
usage: known-effect-pooled.py FILE.json..."""
import json, math, statistics as st, sys
from collections import defaultdict
from scipy import stats

METRICS = ['cpu_us_per_req', 'user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req_adj',
           'user_cpu_us_per_req_adj', 'host_probe_ns', 'reqs_per_sec', 'syscalls_per_req', 'ctx_switches_per_req']
means = defaultdict(list)
for name in sys.argv[1:]:
    windows = defaultdict(dict)
    for t in json.load(open(name))['trials']:
        if t['status'] == 'OK' and t.get('pair'):
            windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']
    for metric in METRICS:
        pairs = defaultdict(list)
        for (index, _), sides in windows.items():
            if len(sides) == 2 and metric in sides['with'] and metric in sides['without']:
                pairs[index].append(math.log(sides['with'][metric] / sides['without'][metric]))
        means[metric] += [st.mean(v) for v in pairs.values()]
print(' + '.join(sys.argv[1:]))
for metric in METRICS:
    v = means[metric]
    if len(v) < 2:
        continue
    n, mu, se = len(v), st.mean(v), st.stdev(v) / math.sqrt(len(v))
    t = stats.t.ppf(0.975, n - 1)
    pct = lambda x: 100 * (math.exp(x) - 1)
    print(f"  {metric:24s} pairs {n:3d}  {pct(mu):+6.2f} % [{pct(mu - t * se):+6.2f}, {pct(mu + t * se):+6.2f}]")

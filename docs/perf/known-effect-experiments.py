#!/usr/bin/env python3
"""Each experiment of a calibrate --out file of a paired design (experiment k = pairs k*P .. k*P+P-1, P pairs each):
the paired estimate of a metric with its 95 % interval, raw and scaled to the host's speed, and the host probe's own
change. usage: known-effect-experiments.py FILE.json PAIRS_PER_EXPERIMENT"""
import json, math, statistics as st, sys
from collections import defaultdict
from scipy import stats

name, per = sys.argv[1], int(sys.argv[2])
windows = defaultdict(dict)
for t in json.load(open(name))['trials']:
    if t['status'] == 'OK' and t.get('pair'):
        windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']
pct = lambda x: 100 * (math.exp(x) - 1)

def interval(metric, pairs):
    v = []
    for index in pairs:
        logs = [math.log(s['with'][metric] / s['without'][metric]) for (i, _), s in windows.items()
                if i == index and len(s) == 2 and metric in s['with']]
        if logs:
            v.append(st.mean(logs))
    n, mu, se = len(v), st.mean(v), st.stdev(v) / math.sqrt(len(v))
    t = stats.t.ppf(0.975, n - 1)
    return f"{pct(mu):+6.2f} [{pct(mu - t * se):+6.2f}, {pct(mu + t * se):+6.2f}]"

count = 1 + max(i for i, _ in windows) // per
print(f"{'experiment':10s} {'CPU per call':26s} {'scaled to the host':26s} {'host probe':26s}")
for k in range(count):
    pairs = range(k * per, (k + 1) * per)
    print(f"{k + 1:<10d} {interval('cpu_us_per_req', pairs):26s} {interval('cpu_us_per_req_adj', pairs):26s} "
          f"{interval('host_probe_ns', pairs):26s}")

#!/usr/bin/env python3
"""The SD over a paired run's pairs of each pair's mean log(with/without) over its windows, per metric, host probe
included: how much the pairs spread in one campaign against another.
usage: pairs-spread.py FILE.json..."""
import json, math, statistics as st, sys
from collections import defaultdict

METRICS = ['host_probe_ns', 'cpu_us_per_req', 'sys_cpu_us_per_req', 'user_cpu_us_per_req']
for name in sys.argv[1:]:
    windows = defaultdict(dict)
    for t in json.load(open(name))['trials']:
        if t['status'] == 'OK':
            windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t['metrics']
    spreads = []
    for m in METRICS:
        pairs = defaultdict(list)
        for (pair, _), sides in windows.items():
            if all(s in sides and m in sides[s] for s in ('with', 'without')):
                pairs[pair].append(math.log(sides['with'][m] / sides['without'][m]))
        spreads.append('%s %.2f %%' % (m, 100 * st.stdev(st.mean(v) for v in pairs.values())))
    print(name + ': pairs\' means SD ' + '; '.join(spreads))

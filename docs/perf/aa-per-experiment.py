#!/usr/bin/env python3
"""Per experiment of a joined A/A file (aa-clean-blocks.py's output): each headline metric's mean log-ratio over the
experiment's K pairs (each pair the mean of its windows' log(with / without)) and its paired t; '*' where |t| exceeds
t(0.975, K-1), a false positive of the same test `perflab calibrate` counts. Says which experiments the false
positives fell in, which the calibrate table does not.
usage: aa-per-experiment.py K FILE.json"""
import json, math, statistics as st, sys
from collections import defaultdict

T975 = {4: 2.7764, 5: 2.5706, 6: 2.4469, 7: 2.3646, 8: 2.3060, 9: 2.2622, 11: 2.2010, 12: 2.1788}
METRICS = ['user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req', 'ctx_switches_per_req']

k, name = int(sys.argv[1]), sys.argv[2]
windows = defaultdict(lambda: defaultdict(dict))
for t in json.load(open(name))['trials']:
    if t['status'] == 'OK':
        windows[(t['pair']['index'], t['pair']['window'])][t['variant']] = t
pairs = defaultdict(list)
for (index, _), sides in sorted(windows.items()):
    if len(sides) == 2:
        pairs[index].append(sides)
for e in range(len(pairs) // k):
    cells, start = [], pairs[e * k][0]['without']['start'][11:19]
    for metric in METRICS:
        ds = [st.mean(math.log(w['with']['metrics'][metric] / w['without']['metrics'][metric]) for w in pairs[i])
              for i in range(e * k, e * k + k)]
        t = st.mean(ds) / (st.stdev(ds) / math.sqrt(k))
        cells.append(f"{metric.split('_per_req')[0]:>12} {100 * st.mean(ds):+6.2f} % t {t:+5.2f}"
                     + (' *' if abs(t) > T975[k - 1] else '  '))
    print(f"experiment {e:2d} from {start} UTC |" + ' |'.join(cells))

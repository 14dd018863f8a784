#!/usr/bin/env python3
"""Which statistic of the host probe's samples in a window follows CPU per call best. Reads an A/A experiment file
made by a runner built with probe-statistics.patch (every window also records xprobe_k_* = the lseek probe,
xprobe_u_* = a 20,000-step integer/array loop, xprobe_w_* = the lseek probe on the wall clock; mean, 10 %-trimmed
mean, p10 ... p90), and prints per metric the spread of the window log-ratios with/without, raw and divided by
each statistic, with the correlation and fitted slope of the two log-ratios, best first. Files of the product
from 12-02 afternoon hold two figures in every window, host_probe_ns (the loop's 25th percentile) and
host_probe_syscall_ns (the lseek probe's tenth percentile); both are compared the same way.
usage: probe-statistics.py FILE.json"""
import json, math, statistics as st, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
tr = [t for t in d['trials'] if t['status'] == 'OK' and t.get('pair')]
keys = sorted(k for k in tr[0]['metrics'] if k.startswith('xprobe') and not k.endswith('_n'))
keys = ['host_probe_ns'] + sorted(k for k in tr[0]['metrics'] if k.startswith('host_probe_') and k != 'host_probe_ns') + keys
W = defaultdict(dict)
for t in tr:
    p = t['pair']; W[(p['index'], p['window'])][t['variant']] = t['metrics']
def comp(f):
    pairs = defaultdict(list)
    for (i, w), s in W.items():
        if 'with' in s and 'without' in s:
            v = f(s['with'], s['without'])
            if v is not None: pairs[i].append(v)
    means = [st.mean(v) for v in pairs.values()]
    dof = sum(len(v) - 1 for v in pairs.values())
    within = math.sqrt(sum((x - st.mean(v)) ** 2 for v in pairs.values() for x in v) / dof)
    allv = [x for v in pairs.values() for x in v]
    return st.stdev(means), within, st.stdev(allv), len(allv)
for metric in ['cpu_us_per_req', 'user_cpu_us_per_req', 'sys_cpu_us_per_req', 'reqs_per_sec']:
    lr = lambda a, b, m=metric: math.log(a[m] / b[m])
    print(metric, 'raw: pair-mean sd %.2f%%  window-within sd %.2f%%  window sd %.2f%% (n %d)' % tuple([100*x for x in comp(lr)[:3]] + [comp(lr)[3]]))
    sign = -1 if metric == 'reqs_per_sec' else 1
    rows = []
    for k in keys:
        def f(a, b, k=k, m=metric):
            if k not in a or k not in b: return None
            return math.log(a[m] / b[m]) - sign * math.log(a[k] / b[k])
        pm, wi, ws, n = comp(f)
        # correlation and fitted slope of log ratios
        xs, ys = [], []
        for s in W.values():
            if 'with' in s and 'without' in s and k in s['with'] and k in s['without']:
                xs.append(math.log(s['with'][k] / s['without'][k])); ys.append(math.log(s['with'][metric] / s['without'][metric]))
        r = st.correlation(xs, ys); b = st.linear_regression(xs, ys).slope
        rows.append((ws, k, pm, wi, r, b))
    for ws, k, pm, wi, r, b in sorted(rows):
        print('   %-20s adj: pair-mean sd %5.2f%%  within %5.2f%%  window sd %5.2f%%   r %.2f slope %.2f' % (k, 100*pm, 100*wi, 100*ws, r, b))
# the statistic's own change between the variants: pairs' means of log(with / without) and their t interval; in an
# A/A it should be 0, and with a real change it shows how much the change itself moves the probe
from scipy import stats
print('the probe statistic itself, with / without:')
for k in keys:
    pairs = defaultdict(list)
    for (i, w), s in W.items():
        if 'with' in s and 'without' in s and k in s['with'] and k in s['without']:
            pairs[i].append(math.log(s['with'][k] / s['without'][k]))
    means = [st.mean(v) for v in pairs.values()]
    n, mu, se = len(means), st.mean(means), st.stdev(means) / math.sqrt(len(means))
    t = stats.t.ppf(0.975, n - 1)
    print('   %-20s %+6.2f %% [%+6.2f, %+6.2f]  (%d pairs)' % (k, 100 * (math.exp(mu) - 1),
          100 * (math.exp(mu - t * se) - 1), 100 * (math.exp(mu + t * se) - 1), n))

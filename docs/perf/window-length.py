#!/usr/bin/env python3
"""Precision per minute of paired experiment files (perflab calibrate/ab --out), per metric: the standard deviation
of the pairs' means of log(with/without), the pooled within-pair SD of one window's log-ratio, the wall time of a
pair (its JVMs' start and warmup plus its windows' measuring shares, as the trials record them), and what those
imply for an experiment of a given budget: pairs = budget / pair time, SE = SD of pair means / sqrt(pairs),
MDE = (t(0.975) + t(0.8)) * SE with pairs - 1 degrees of freedom; in brackets the same from the windows alone
(one window's SD / sqrt(windows), which holds when there is no variance between pairs). Files given as LABEL=FILE are pooled per label.
usage: window-length.py [--budget 360] LABEL=FILE.json ..."""
import json, math, statistics as st, sys
from collections import defaultdict, OrderedDict

try:
    from scipy.stats import t as student
    tq = lambda p, df: student.ppf(p, df)
except ImportError:  # a table good enough for the degrees of freedom seen here
    T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
            12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042}
    T80 = {1: 1.376, 2: 1.061, 3: 0.978, 4: 0.941, 5: 0.920, 6: 0.906, 7: 0.896, 8: 0.889, 9: 0.883, 10: 0.879,
           12: 0.873, 15: 0.866, 20: 0.860, 30: 0.854}
    def tq(p, df):
        table = T975 if p > 0.9 else T80
        return table[min(table, key=lambda k: abs(k - df))]

args = sys.argv[1:]
budget = 360.0
if args[:1] == ['--budget']:
    budget = float(args[1])
    args = args[2:]
groups = OrderedDict()
for arg in args:
    label, name = arg.split('=', 1)
    groups.setdefault(label, []).append(name)

METRICS = ['cpu_us_per_req', 'user_cpu_us_per_req', 'sys_cpu_us_per_req', 'ctx_switches_per_req',
           'cpu_us_per_req_adj']
print('budget %.0f s; per label: pairs, windows per pair, window s, pair wall time s' % budget)
for label, names in groups.items():
    windows = defaultdict(lambda: defaultdict(dict))  # (file, pair) -> window -> variant -> metrics
    cost = defaultdict(float)
    for name in names:
        for t in json.load(open(name))['trials']:
            if t['status'] != 'OK' or not t.get('pair'):
                continue
            key = (name, t['pair']['index'])
            windows[key][t['pair']['window']][t['variant']] = t['metrics']
            env = t['environment']
            cost[key] += float(env.get('measuring_share_seconds', 0))
            if t['pair']['window'] == 0 and t['variant'] == 'with':
                cost[key] += float(env.get('pair_setup_seconds', 0))
    complete = [k for k, w in windows.items() if all(len(s) == 2 for s in w.values())]
    pair_time = st.mean(cost[k] for k in complete)
    per_pair = st.mean(len(windows[k]) for k in complete)
    window_s = st.mean(float(json.load(open(n))['experiment']['without']['workload']['runSeconds']) for n in names)
    print('%s: %d pairs, %.0f windows per pair, %.1f s windows, %.1f s per pair (%s)'
          % (label, len(complete), per_pair, window_s, pair_time, ', '.join(names)))
    pairs_in_budget = budget / pair_time
    df = max(1, round(pairs_in_budget) - 1)
    for metric in METRICS:
        means, within = [], []
        for k in complete:
            logs = [math.log(s['with'][metric] / s['without'][metric]) for s in windows[k].values()
                    if s['with'].get(metric, 0) > 0 and s['without'].get(metric, 0) > 0]
            if len(logs) < 2:
                continue
            means.append(st.mean(logs))
            within.append(st.variance(logs))
        if len(means) < 2:
            continue
        sd_means = st.stdev(means)
        sd_within = math.sqrt(st.mean(within))
        se = sd_means / math.sqrt(pairs_in_budget)
        # with no variance between pairs, a pair's mean would spread as one window's log-ratio over sqrt(windows)
        se_within = sd_within / math.sqrt(per_pair * pairs_in_budget)
        factor = tq(0.975, df) + tq(0.8, df)
        print('  %-22s sd of pair means %5.2f %% (from windows %5.2f %%), one window %5.2f %%; in %.0f s: %.1f pairs,'
              ' SE %4.2f %% (%4.2f %%), MDE %5.2f %% (%5.2f %%)'
              % (metric, 100 * sd_means, 100 * sd_within / math.sqrt(per_pair), 100 * sd_within, budget,
                 pairs_in_budget, 100 * se, 100 * se_within, 100 * factor * se, 100 * factor * se_within))

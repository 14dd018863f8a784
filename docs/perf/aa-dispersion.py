#!/usr/bin/env python3
"""Whether an A/A campaign's experiments vary more than their own intervals say. Per headline metric and experiment
of N consecutive pairs: the mean over pairs of the pair's mean log(with/without) in percent, its standard error, t;
then the dispersion index, the variance of the experiments' means over the mean of their squared standard errors
(about 1 when pairs are independent, as the paired t-test takes them; above 1 when something shared by an
experiment's pairs, or by neighbouring experiments, moves the variants apart); the lag-1 correlation of neighbouring
experiments' means; and, over all pairs, the mean log ratio by which variant went first (an order effect, which the
alternated order cancels within an experiment of an even number of pairs).

    docs/perf/aa-dispersion.py 8 aa-twenty-1205-[1-4].json -- aa-final-[1-4].json
"""
import json, math, statistics as st, sys, collections

from perfscripts import groups

METRICS = ['user_cpu_us_per_req', 'sys_cpu_us_per_req', 'cpu_us_per_req', 'ctx_switches_per_req']




def pairs_of(files):
    """Every OK pair in file order: (first variant, {variant: [trial by window]})."""
    pairs = []
    for f in files:
        by_index = collections.defaultdict(lambda: collections.defaultdict(list))
        first = {}
        for t in json.load(open(f))['trials']:
            if not t.get('pair') or t['status'] != 'OK':
                continue
            p = t['pair']['index']
            by_index[p][t['variant']].append(t)
            if t['pair']['window'] == 0 and t['pair'].get('startedFirst'):
                first[p] = t['variant']
        for p in sorted(by_index):
            v = by_index[p]
            if len(v['with']) == len(v['without']) > 0:
                pairs.append((first.get(p), {k: sorted(ts, key=lambda t: t['pair']['window']) for k, ts in v.items()}))
    return pairs


def ratio(pair, metric):
    return st.mean(100 * math.log(a['metrics'][metric] / b['metrics'][metric])
                   for a, b in zip(pair['with'], pair['without']))


def report(size, files):
    pairs = pairs_of(files)
    n = len(pairs) // size
    print('%s: %d experiments of %d pairs' % (' '.join(files), n, size))
    for m in METRICS:
        means, ses, ts = [], [], []
        for e in range(n):
            rs = [ratio(p, m) for _, p in pairs[e * size:(e + 1) * size]]
            means.append(st.mean(rs))
            ses.append(st.stdev(rs) / math.sqrt(size))
            ts.append(means[-1] / ses[-1])
        index = st.variance(means) / st.mean(s * s for s in ses)
        mu = st.mean(means)
        lag = sum((means[i] - mu) * (means[i + 1] - mu) for i in range(n - 1)) / sum((x - mu) ** 2 for x in means)
        by_first = collections.defaultdict(list)
        for first, p in pairs[:n * size]:
            by_first[first].append(ratio(p, m))
        print('  %-22s dispersion index %.2f, neighbours r = %+.2f; by first variant: %s' % (m, index, lag, ', '.join(
            '%s first %+.2f %% (n %d)' % (k, st.mean(v), len(v)) for k, v in sorted(by_first.items(), key=str))))
        print('  %-22s t per experiment: %s' % ('', ' '.join('%+.1f' % t for t in ts)))


def null_range(experiments, size, campaigns=4000):
    """The dispersion index's spread where pairs are independent and normal: simulated campaigns (seeded)."""
    import random
    r = random.Random(1)
    out = []
    for _ in range(campaigns):
        means, squares = [], []
        for _ in range(experiments):
            x = [r.gauss(0, 1) for _ in range(size)]
            means.append(st.mean(x))
            squares.append(st.variance(x) / size)
        out.append(st.variance(means) / st.mean(squares))
    out.sort()
    print('dispersion index of %d experiments of %d independent normal pairs (%d simulated campaigns): mean %.2f, '
          'sd %.2f, 95 %% range %.2f-%.2f' % (experiments, size, campaigns, st.mean(out), st.stdev(out),
                                              out[int(0.025 * campaigns)], out[int(0.975 * campaigns)]))


size = int(sys.argv[1])
for c in groups(sys.argv[2:]):
    report(size, c)
null_range(20, size)
